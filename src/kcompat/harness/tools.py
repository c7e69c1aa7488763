"""A release's own admin tools (kafka-topics, kafka-configs, kafka-acls) as commands to paste.

Someone reproducing a bug wants the tools of the broker's own release, not
whatever is on their PATH.  They run from the release's jars: the core jar's
``kafka.admin.<Name>Command`` where the release ships it there, else the
``kafka-tools`` jar's ``org.apache.kafka.tools.<Name>Command`` (TopicCommand
moved in 3.x, ConfigCommand and AclCommand in 4.0).  Which one a release has
is read from its jars, not from a version table.

The classpath (a hundred jars) goes into a Java argument file in the run
directory, so each printed command is one readable line: ``java
@<run dir>/admin-tools.args <main class> --bootstrap-server ...``.

``add_acls_zookeeper`` also runs one: Kafka 0.10.2 has the ZooKeeper
authorizer but no CreateAcls (0.11), so the release's AclCommand writes ACLs
to the cluster's ZooKeeper, as an operator of that release would.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .artifacts import ArtifactStore, logging_backend
from .clients.base import AclSpec
from .errors import AdminToolError, AdminToolRefused, ArtifactError, ConfigError
from .java import jit_flags, select_java
from .progress import report
from .providers.base import Cluster

PACKAGES = ("kafka/admin/", "org/apache/kafka/tools/")
ARGS_FILE = "admin-tools.args"
ACL_COMMAND_LOG = "acl-command.log"
ACL_COMMAND_TIMEOUT = 60.0
TOOL_HEAP = ("-Xms32m", "-Xmx256m")

TOOLS_LOG4J1 = """\
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.appender.stderr.Target=System.err
"""

TOOLS_LOG4J2 = """\
status = warn
appender.console.type = Console
appender.console.name = STDERR
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.stderr.ref = STDERR
"""


@dataclass(frozen=True)
class AdminTool:
    """One of Kafka's admin scripts: its class name and an example call."""

    script: str
    command: str
    capability: str
    """The capability saying the tool takes ``--bootstrap-server`` (before it, only ZooKeeper)."""
    example: tuple[str, ...]
    zookeeper_flag: tuple[str, ...]
    """How the tool names ZooKeeper before it could talk to brokers (``{zk}`` is its address)."""


ADMIN_TOOLS = (
    AdminTool("kafka-topics", "TopicCommand", "topic_command_bootstrap_server", ("--list",),
              ("--zookeeper", "{zk}")),
    AdminTool("kafka-configs", "ConfigCommand", "config_command_bootstrap_server",
              ("--describe", "--entity-type", "brokers", "--entity-name", "1"), ("--zookeeper", "{zk}")),
    AdminTool("kafka-acls", "AclCommand", "acl_command_bootstrap_server", ("--list",),
              ("--authorizer-properties", "zookeeper.connect={zk}")),
)


def main_classes(jars: Sequence[Path], tools: Sequence[AdminTool] = ADMIN_TOOLS) -> dict[str, str]:
    """{command: main class} for each tool one of ``jars`` (Kafka's own) ships, first package first."""
    wanted = {f"{package}{tool.command}.class": tool.command for package in PACKAGES for tool in tools}
    found: dict[str, str] = {}
    for jar in jars:
        if not jar.name.startswith("kafka"):
            continue
        try:
            with zipfile.ZipFile(jar) as archive:
                names = set(archive.namelist())
        except (OSError, zipfile.BadZipFile) as exc:
            raise ArtifactError(f"can't read {jar}: {exc}", hint="kcompat brokers fetch --verify") from exc
        for entry, command in wanted.items():
            if entry in names and command not in found:
                found[command] = entry.removesuffix(".class").replace("/", ".")
    return found


def _args_file(cluster: Cluster, jars: Sequence[Path]) -> Path:
    """The classpath and logging flag as a Java ``@file`` (quoted, so paths may hold spaces)."""
    backend = logging_backend(cluster.spec.release).name
    if backend == "log4j2":
        logging = cluster.run_dir / "tools-log4j2.properties"
        logging.write_text(TOOLS_LOG4J2)
        flag = f"-Dlog4j2.configurationFile={logging}"
    else:
        logging = cluster.run_dir / "tools-log4j.properties"
        logging.write_text(TOOLS_LOG4J1)
        flag = f"-Dlog4j.configuration=file:{logging}"

    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    path = cluster.run_dir / ARGS_FILE
    path.write_text(f"-cp\n{quoted(':'.join(str(j) for j in jars))}\n{quoted(flag)}\n")
    return path


def _release_tools(store: ArtifactStore, cluster: Cluster) -> tuple[str, Path, dict[str, str]]:
    """Java, the ``@file`` and ``{command: main class}``: the broker's classpath when its core jar has every
    tool, else with ``kafka-tools`` of the release beside it (resolved once; then cached)."""
    release = cluster.spec.release
    jars: Sequence[Path] = store.resolve(release).classpath
    found = main_classes(jars)
    if len(found) < len(ADMIN_TOOLS):
        report(f"resolving kafka-tools {release.version}")
        jars = store.resolve_tools(release, progress=lambda files, size: report(
            f"resolving kafka-tools {release.version}: {files} files, {size / 1e6:.1f} MB downloaded"))
        found = main_classes(jars)
    java = cluster.java.java
    if not Path(java).is_file():  # a container's Java: run the tools on the host's
        java = select_java(release.line.java, store.config.cache_dir, offline=store.config.offline).java
    return str(java), _args_file(cluster, jars), found


def admin_tool_commands(store: ArtifactStore, cluster: Cluster, *, client_config: Path | None = None
                        ) -> list[tuple[str, str]]:
    """``[(script, command line)]`` for the release's kafka-topics, kafka-configs and kafka-acls."""
    java, args_file, found = _release_tools(store, cluster)
    zookeeper = getattr(cluster, "zookeeper_connect", None)
    commands = []
    for tool in ADMIN_TOOLS:
        if tool.command not in found:
            continue
        command = [java, f"@{args_file}", found[tool.command]]
        if cluster.spec.version.supports(tool.capability):
            command += ["--bootstrap-server", cluster.bootstrap_servers]
            if client_config is not None:
                command += ["--command-config", str(client_config)]
        elif zookeeper is not None:
            command += [part.format(zk=zookeeper) for part in tool.zookeeper_flag]
        else:
            continue
        commands.append((tool.script, shlex.join([*command, *tool.example])))
    return commands


def acl_command_args(acls: Sequence[AclSpec]) -> list[list[str]]:
    """AclCommand's ``--add`` arguments for ``acls``: one call per resource, principal, permission and host,
    each naming its operations as the tool spells them (``DESCRIBE_CONFIGS`` -> ``DescribeConfigs``)."""
    calls: dict[tuple[str, str, str, str, str], list[str]] = {}
    for acl in acls:
        if acl.pattern != "LITERAL":
            raise ConfigError(f"ACL {acl.label}: only literal ACLs are written to ZooKeeper here (prefixed ones "
                              "came with 2.0, KIP-290, whose brokers take CreateAcls)")
        if acl.resource_type not in ("cluster", "topic", "group"):
            raise ConfigError(f"ACL {acl.label}: AclCommand takes cluster, topic and group resources")
        operation = "".join(part.capitalize() for part in acl.operation.split("_"))
        operations = calls.setdefault((acl.resource_type, acl.resource_name, acl.principal, acl.permission,
                                       acl.host), [])
        if operation not in operations:
            operations.append(operation)
    commands = []
    for (resource_type, name, principal, permission, host), operations in calls.items():
        side = "allow" if permission == "ALLOW" else "deny"
        command = ["--add", f"--{side}-principal", principal, f"--{side}-host", host]
        for operation in operations:
            command += ["--operation", operation]
        command += ["--cluster"] if resource_type == "cluster" else [f"--{resource_type}", name]
        commands.append(command)
    return commands


def add_acls_zookeeper(store: ArtifactStore, cluster: Cluster, acls: Sequence[AclSpec], *,
                       timeout: float = ACL_COMMAND_TIMEOUT) -> None:
    """Add ``acls`` with the release's own AclCommand, straight into the cluster's ZooKeeper.

    For brokers without CreateAcls (before 0.11).  Output goes to
    ``<cluster run dir>/acl-command.log``; no credential is involved (ZooKeeper
    takes none here, and principals are names).  Returns once every call
    exited 0: the brokers apply the ACLs when ZooKeeper notifies them, so the
    caller waits for that.
    """
    for args in acl_command_args(acls):
        _acl_command(store, cluster, args, timeout)


ACL_LINE = re.compile(r"^\s*(?P<principal>\S+) has (?P<permission>\w+) permission for operations: "
                      r"(?P<operations>.+?) from hosts: (?P<hosts>.+?)\s*$")


def list_acls_zookeeper(store: ArtifactStore, cluster: Cluster, resource_type: Literal["topic", "group", "cluster"],
                        name: str, *, timeout: float = ACL_COMMAND_TIMEOUT) -> set[str]:
    """The bindings on one resource as ZooKeeper holds them (AclCommand ``--list``), named as ``AclSpec.label``
    names them: where the broker has no DescribeAcls (before 0.11), the way to see what exists."""
    resource = ["--cluster"] if resource_type == "cluster" else [f"--{resource_type}", name]
    return parse_acl_listing(_acl_command(store, cluster, ["--list", *resource], timeout), resource_type, name)


def parse_acl_listing(output: str, resource_type: str, name: str) -> set[str]:
    """AclCommand's ``User:alice has Allow permission for operations: Read from hosts: *`` lines as labels."""
    labels = set()
    for line in output.splitlines():
        match = ACL_LINE.match(line)
        if match is None:
            continue
        for operation in match["operations"].split(","):
            snake = re.sub(r"(?<!^)(?=[A-Z])", "_", operation.strip()).upper()
            labels.add(f"{resource_type}:{name}:{match['principal']}:{snake}:{match['permission'].upper()}")
    return labels


def _acl_command(store: ArtifactStore, cluster: Cluster, args: Sequence[str], timeout: float) -> str:
    """Run the release's AclCommand against the cluster's ZooKeeper; its stdout."""
    zookeeper = getattr(cluster, "zookeeper_connect", None)
    if zookeeper is None:
        raise ConfigError(f"Kafka {cluster.spec.version} ({cluster.spec.mode}) has no ZooKeeper to keep ACLs in")
    java, args_file, found = _release_tools(store, cluster)
    if "AclCommand" not in found:
        raise AdminToolError(f"Kafka {cluster.spec.version}'s jars have no AclCommand",
                             hint="kcompat brokers fetch --verify")
    command = [java, *TOOL_HEAP, *jit_flags(store.config.jit), f"@{args_file}", found["AclCommand"], "--authorizer-properties",
               f"zookeeper.connect={zookeeper}", *args]
    return _run_tool("AclCommand", command, cluster.run_dir / ACL_COMMAND_LOG, timeout)


def _run_tool(name: str, command: list[str], log: Path, timeout: float) -> str:
    """Run one tool (no stdin, bounded), its command line and output appended to ``log``; its stdout, or
    AdminToolError if it exits non-zero or overruns, naming its last line on stderr."""
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
                              check=False)
        out, err, status = done.stdout, done.stderr, f"exit {done.returncode}"
        failed = done.returncode != 0
    except subprocess.TimeoutExpired as exc:
        def text(value: str | bytes | None) -> str:
            return value.decode(errors="replace") if isinstance(value, bytes) else value or ""

        out, err, status, failed = text(exc.stdout), text(exc.stderr), f"killed after {timeout:.0f}s", True
    except OSError as exc:
        raise AdminToolError(f"can't run {command[0]}: {exc}") from exc
    with log.open("a") as handle:
        handle.write(f"$ {shlex.join(command)}\n{out}{err}[{status}]\n")
    if failed:
        error = AdminToolError if status.startswith("killed") else AdminToolRefused
        raise error(f"{name} {status}: {_last_words(err, out)}", log=log)
    return out


def _last_words(err: str, out: str) -> str:
    """The tool's last line on stderr, or the line above its usage table when it printed one (a refused
    option); releases that print their error to stdout (AclCommand before 2.x: ``Error while executing ACL
    command: ...`` then a stack trace) give that line instead."""
    lines = err.splitlines()
    usage = next((n for n, line in enumerate(lines) if re.match(r"^Option\s+Description\s*$", line)), None)
    for line in reversed(lines if usage is None else lines[:usage]):
        if line.strip():
            return line.strip()
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    return next((line for line in lines if line.startswith("Error")), lines[-1] if lines else "no output")
