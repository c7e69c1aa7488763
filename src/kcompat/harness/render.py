"""Configuration files for brokers and ZooKeeper, rendered from a spec.

Shared by every provider: a process and a container broker of the same spec get
the same ``server.properties``; only paths and ports differ.  Properties are
rendered in layers, later ones winning: base, metadata mode, security, then
the spec's own ``server_properties``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .spec import ClusterSpec, SaslSpec

HOST = "127.0.0.1"
CLIENT_LISTENER = {False: "PLAINTEXT", True: "SASL_PLAINTEXT"}
CONTROLLER_LISTENER = "CONTROLLER"


@dataclass(frozen=True)
class NodeLayout:
    """Where one broker lives: its id, ports and directories."""

    node_id: int
    port: int
    controller_port: int | None
    directory: Path

    @property
    def data_dir(self) -> Path:
        return self.directory / "data"

    def log_dirs(self, count: int) -> list[Path]:
        """The broker's log directories: ``data`` alone, or ``count`` folders inside it (JBOD), so removing
        ``data`` removes them all."""
        return [self.data_dir] if count == 1 else [self.data_dir / f"dir-{n}" for n in range(1, count + 1)]

    @property
    def properties_path(self) -> Path:
        return self.directory / "server.properties"

    @property
    def log_path(self) -> Path:
        return self.directory / "broker.log"


def initial_controllers(nodes: Sequence[NodeLayout]) -> str:
    """``kafka-storage format --initial-controllers`` of a dynamic quorum (KIP-853): every node a voter,
    ``id@host:port:directory-id``, each directory id new (a Kafka Uuid's text, like a cluster id)."""
    return ",".join(f"{n.node_id}@{HOST}:{n.controller_port}:{new_cluster_id()}" for n in nodes)


def new_cluster_id() -> str:
    """A KRaft cluster id: 16 random bytes, URL-safe base64 without padding.

    Like Kafka's own ``Uuid.randomUuid``, never one starting with ``-``: the
    storage tool's argument parser would read it as an option (1 in 64 ids).
    """
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):
            return text


_CONTROL = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f", "\\": "\\\\"}
_KEY_SPECIAL = frozenset(" =:#!")


def escape_property(text: str, *, key: bool) -> str:
    """``text`` as ``java.util.Properties.load`` reads it back, character for character.

    Backslashes and line breaks are escaped everywhere (a newline in a value
    would otherwise start a second property); in a key also the separators
    (space, ``=``, ``:``) and comment marks; in a value its leading blanks
    (``load`` strips them).  Anything outside printable ASCII is ``\\uXXXX``:
    Kafka and ZooKeeper load the file as ISO-8859-1.
    """
    out = []
    for index, char in enumerate(text):
        if char in _CONTROL:
            out.append(_CONTROL[char])
        elif (key and char in _KEY_SPECIAL) or (not key and index == 0 and char == " "):
            out.append("\\" + char)
        elif not " " <= char <= "~":
            encoded = char.encode("utf-16-be")
            out += [f"\\u{int.from_bytes(encoded[i:i + 2], 'big'):04X}" for i in range(0, len(encoded), 2)]
        else:
            out.append(char)
    return "".join(out)


def render_properties(properties: Mapping[str, str]) -> str:
    """A ``.properties`` file; every key and value is escaped, so each entry reads back as given."""
    return "".join(f"{escape_property(key, key=True)}={escape_property(str(value), key=False)}\n"
                   for key, value in sorted(properties.items()))


def _base(spec: ClusterSpec, node: NodeLayout) -> dict[str, str]:
    replicas = str(min(3, spec.nodes))
    return {**_share_state(spec, replicas),
        "log.dirs": ",".join(str(path) for path in node.log_dirs(spec.log_dirs)),
        "num.partitions": "1",
        "default.replication.factor": "1",
        "offsets.topic.replication.factor": replicas,
        "offsets.topic.num.partitions": "3",
        "transaction.state.log.replication.factor": replicas,
        "transaction.state.log.min.isr": "1",
        "group.initial.rebalance.delay.ms": "0",
        # Metadata requests for unknown topics must not create them.
        "auto.create.topics.enable": "false",
        "delete.topic.enable": "true",
        "log.flush.interval.messages": "100000",
    }


def _share_state(spec: ClusterSpec, replicas: str) -> dict[str, str]:
    """The share coordinator's state topic sized like __consumer_offsets (KIP-932, 4.0+; its defaults, 3
    replicas and a min ISR of 2, leave a smaller cluster without a share coordinator: every share-group offset
    call then fails COORDINATOR_NOT_AVAILABLE).  An older release is not given properties it does not know."""
    if not spec.version.supports("share_coordinator"):
        return {}
    return {"share.coordinator.state.topic.replication.factor": replicas,
            "share.coordinator.state.topic.min.isr": "1"}


def _zookeeper_mode(spec: ClusterSpec, node: NodeLayout, zk_port: int) -> dict[str, str]:
    listener = CLIENT_LISTENER[spec.sasl is not None]
    properties = {
        "broker.id": str(node.node_id),
        "zookeeper.connect": f"{HOST}:{zk_port}",
        "zookeeper.connection.timeout.ms": "30000",
        "listeners": f"{listener}://{HOST}:{node.port}",
        "advertised.listeners": f"{listener}://{HOST}:{node.port}",
    }
    if spec.nodes > 1:
        # The whole cluster stops at once: the last broker up can move its replicated partitions' leadership
        # nowhere, so each controlled-shutdown attempt fails and it retries three times after this backoff
        # (default 5 s: 15 s of every multi-node stop) before its unclean shutdown.  Only stopping changes.
        properties["controlled.shutdown.retry.backoff.ms"] = "200"
    return properties


def _kraft_mode(spec: ClusterSpec, node: NodeLayout, voters: Sequence[NodeLayout]) -> dict[str, str]:
    listener = CLIENT_LISTENER[spec.sasl is not None]
    if spec.quorum == "dynamic":  # the voters are in the formatted log (initial_controllers), found through these
        quorum = {"controller.quorum.bootstrap.servers": ",".join(f"{HOST}:{v.controller_port}" for v in voters)}
    else:
        quorum = {"controller.quorum.voters": ",".join(f"{v.node_id}@{HOST}:{v.controller_port}" for v in voters)}
    return {
        "process.roles": "broker,controller",
        "node.id": str(node.node_id),
        **quorum,
        "controller.listener.names": CONTROLLER_LISTENER,
        "listeners": f"{listener}://{HOST}:{node.port},{CONTROLLER_LISTENER}://{HOST}:{node.controller_port}",
        "advertised.listeners": f"{listener}://{HOST}:{node.port}",
        "inter.broker.listener.name": listener,
        "listener.security.protocol.map": f"{listener}:{listener},{CONTROLLER_LISTENER}:{listener}",
    }


def authorizer_class(spec: ClusterSpec) -> str:
    version = spec.version
    if spec.mode == "kraft":
        return "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
    if version.supports("acl_authorizer"):
        return "kafka.security.authorizer.AclAuthorizer"
    return "kafka.security.auth.SimpleAclAuthorizer"


def _security(spec: ClusterSpec, sasl: SaslSpec) -> dict[str, str]:
    properties = {
        "sasl.enabled.mechanisms": "PLAIN",
        "sasl.mechanism.inter.broker.protocol": "PLAIN",
    }
    if spec.mode == "kraft":
        properties["sasl.mechanism.controller.protocol"] = "PLAIN"
    else:
        properties["security.inter.broker.protocol"] = "SASL_PLAINTEXT"
    if sasl.authorizer:
        properties["authorizer.class.name"] = authorizer_class(spec)
        properties["super.users"] = f"User:{sasl.super_user}"
        properties["allow.everyone.if.no.acl.found"] = "false"
    properties.update(_delegation_tokens(spec, sasl))
    return properties


def _delegation_tokens(spec: ClusterSpec, sasl: SaslSpec) -> dict[str, str]:
    """Delegation tokens on, where the release has them: they need a SASL listener, so every SASL cluster
    serves the token calls without a cluster of its own.  The key is derived from the super user's password:
    the same on every node of the cluster, never written anywhere else."""
    if not spec.version.supports("delegation_tokens") or (
            spec.mode == "kraft" and not spec.version.supports("kraft_delegation_tokens")):
        return {}  # a KRaft broker before 3.6 refuses to boot with a token key
    name = ("delegation.token.secret.key" if spec.version.supports("delegation_token_secret_key")
            else "delegation.token.master.key")
    return {name: hashlib.sha256(f"kcompat-delegation-token:{sasl.super_password}".encode()).hexdigest()}


def broker_properties(
    spec: ClusterSpec,
    node: NodeLayout,
    cluster: Sequence[NodeLayout],
    *,
    zk_port: int | None = None,
) -> dict[str, str]:
    properties = _base(spec, node)
    if spec.mode == "zk":
        assert zk_port is not None, "ZooKeeper mode needs a ZooKeeper port"
        properties.update(_zookeeper_mode(spec, node, zk_port))
    else:
        properties.update(_kraft_mode(spec, node, cluster))
    if spec.sasl is not None:
        properties.update(_security(spec, spec.sasl))
    properties.update(dict(spec.server_properties))
    return properties


def zookeeper_properties(port: int, data_dir: Path) -> dict[str, str]:
    return {
        "dataDir": str(data_dir),
        "clientPort": str(port),
        "clientPortAddress": HOST,
        "maxClientCnxns": "0",
        "admin.enableServer": "false",
        "tickTime": "500",
        "initLimit": "10",
        "syncLimit": "5",
    }


def write_private(path: Path, text: str) -> Path:
    """Write a file holding credentials: mode 0600 from the first byte, never world-readable."""
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    return path


def jaas_config(sasl: SaslSpec) -> str:
    """The broker's JAAS file: its own identity plus every user's password.

    A file (rather than the listener-prefixed ``sasl.jaas.config`` property)
    works on every broker back to 0.10.
    """
    users = "".join(f'\n  user_{name}="{password}"' for name, password in sasl.credentials.items())
    return (
        "KafkaServer {\n"
        "  org.apache.kafka.common.security.plain.PlainLoginModule required\n"
        f'  username="{sasl.super_user}"\n'
        f'  password="{sasl.super_password}"{users};\n'
        "};\n"
    )


LOG4J1_CONFIG = """\
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.org.apache.zookeeper=WARN
"""

LOG4J2_CONFIG = """\
status = warn
appender.console.type = Console
appender.console.name = STDOUT
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.stdout.ref = STDOUT
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.state.name = state.change.logger
logger.state.level = WARN
"""


def logging_files(backend: str, directory: Path) -> list[str]:
    """Write the logging config for ``backend``; return the JVM flags that load it."""
    if backend == "log4j2":
        path = directory / "log4j2.properties"
        path.write_text(LOG4J2_CONFIG)
        return [f"-Dlog4j2.configurationFile={path}"]
    path = directory / "log4j.properties"
    path.write_text(LOG4J1_CONFIG)
    return [f"-Dlog4j.configuration=file:{path}"]
