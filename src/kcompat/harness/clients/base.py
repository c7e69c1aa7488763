"""The client interface scenarios use, and the one neutral record every client returns.

Clients sit behind ``AdminClient``: the wire client (Kafka's own message
definitions, exact request versions), confluent-kafka (librdkafka) and the Java AdminClient (a sidecar
JVM).  Each returns an ``AdminResult`` whose keys and value shapes are the
same whatever the client, so scenarios compare clients field by field.

A client that fails below the Kafka protocol (a sidecar that dies, a timeout
of our own) raises ``HarnessError``: that is an infrastructure error.  A
Kafka error code or a client's exception for a request is *data*: it goes
into the record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from kio.schema.errors import ErrorCode

from ..errors import ConfigError

ResourceType = Literal["topic", "broker", "group", "cluster"]

# Kafka's ConfigEntry.ConfigSource and (KIP-569) ConfigType, by wire value.
CONFIG_SOURCES = {
    0: "UNKNOWN", 1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG", 3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG", 6: "DYNAMIC_BROKER_LOGGER_CONFIG", 7: "CLIENT_METRICS_CONFIG",
    8: "GROUP_CONFIG",
}
CONFIG_TYPES = {
    0: "UNKNOWN", 1: "BOOLEAN", 2: "STRING", 3: "INT", 4: "SHORT", 5: "LONG", 6: "DOUBLE", 7: "LIST",
    8: "CLASS", 9: "PASSWORD",
}


def error_name(code: int) -> str:
    """Kafka's name for an error code (``TOPIC_AUTHORIZATION_FAILED``), ``NONE`` for 0."""
    if code == 0:
        return "NONE"
    try:
        return ErrorCode(code).name.upper()
    except ValueError:
        return f"UNKNOWN_SERVER_ERROR_{code}" if code > 0 else f"CLIENT_ERROR_{code}"


@dataclass(frozen=True)
class NewTopic:
    name: str
    partitions: int | None = 1
    """None asks the broker's default (KIP-464, CreateTopics v4+)."""
    replication_factor: int | None = 1
    assignments: Mapping[int, Sequence[int]] | None = None
    """Partition index -> replica broker ids; excludes partitions/replication_factor."""
    configs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class NewPartitions:
    topic: str
    total_count: int
    assignments: Sequence[Sequence[int]] | None = None
    """Replica broker ids for each *new* partition, in order."""


@dataclass(frozen=True)
class ConfigTarget:
    resource_type: ResourceType
    name: str


@dataclass(frozen=True)
class AclSpec:
    resource_type: ResourceType
    resource_name: str
    principal: str
    operation: str
    """Kafka's AclOperation name: READ, WRITE, CREATE, DESCRIBE, ALTER, ALL..."""
    permission: Literal["ALLOW", "DENY"] = "ALLOW"
    host: str = "*"
    pattern: Literal["LITERAL", "PREFIXED"] = "LITERAL"

    @property
    def label(self) -> str:
        """How every client names this binding's result: ``topic:t:User:alice:READ:ALLOW``."""
        return f"{self.resource_type}:{self.resource_name}:{self.principal}:{self.operation}:{self.permission}"


@dataclass(frozen=True)
class ResourceOutcome:
    """One resource's answer: its error (code 0 = none) and the fields returned for it."""

    resource: str
    error_code: int = 0
    error_name: str = "NONE"
    error_message: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    exception: str | None = None
    """The exception class a client raised for this resource (Java, confluent)."""

    @classmethod
    def of(cls, resource: str, code: int, message: str | None = None, **fields: Any) -> ResourceOutcome:
        return cls(resource, int(code), error_name(int(code)), message, dict(fields))


@dataclass(frozen=True)
class AdminResult:
    """The neutral record of one admin call, whatever client made it."""

    operation: str
    client: str
    """``wire``, ``confluent`` or ``java``."""
    client_version: str
    request_version: int | None
    """The version of the request the client actually sent, where it could be observed."""
    resources: tuple[ResourceOutcome, ...] = ()
    result_fields: tuple[str, ...] = ()
    """The result fields this client (at this request version) exposes at all."""
    exception: str | None = None
    """Where the whole call threw: the exception class (e.g. UnsupportedVersionException)."""
    exception_message: str | None = None
    unsupported_options: tuple[str, ...] = ()
    """Options asked for that this client version can't express (left out of the call)."""
    librdkafka_version: str | None = None
    """confluent-kafka only: the librdkafka under it (``client_version`` is confluent-kafka's own release)."""
    unsupported_fields: Mapping[str, str] = field(default_factory=dict)
    """Result fields the library's API has no way to carry (``configs.type``), each with the API type that lacks
    it (``kadm.Config``): another surface of the same library may have it."""
    deadline_reached: float | None = None
    """The seconds of the call's deadline where the call returned only when that deadline expired; else None."""

    def resource(self, name: str) -> ResourceOutcome:
        for outcome in self.resources:
            if outcome.resource == name:
                return outcome
        raise KeyError(f"{self.operation} via {self.client} has no result for {name!r}: "
                       f"{[r.resource for r in self.resources]}")

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


class AdminClient(Protocol):
    """A client of one kind: what every kind has in common.  Operations reach it through
    ``kcompat.harness.operations.perform``, which finds the kind's implementation (or its by-name runner)."""

    kind: str
    version: str
    """The bare release of the client library: the definitions' releases for wire (``3.9.2+4.4.0``), confluent-kafka's,
    kafka-clients'."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class ClientLimits:
    """What one client release can send, by API name (``CreateTopics``), and where that was learnt."""

    kind: str
    release: str
    newest: Mapping[str, int]
    oldest: Mapping[str, int] = field(default_factory=dict)
    measured_at: str | None = None
    """UTC date of a measurement; None for limits the client states itself (the wire client, kafka-clients)."""
    how: str = ""
    operations: tuple[str, ...] = ()
    """The admin operations a measurement made (``kcompat.harness.operations``), for a reader of limits.jsonl;
    whether a measurement is current goes by ``apis`` (``limits.stale_apis``)."""
    program: str | None = None
    """An adapter kind's measurement: the digest of the adapter program it ran (``ClientKind.program``); one
    made by other sources is measured again."""
    apis: Mapping[str, str] = field(default_factory=dict)
    """Per API the calls measured it (``CreateTopics``): the digest of the operations that send it, as they were
    (``kcompat.harness.clients.limits.api_digests``); an API whose operations changed since, or that none sent
    then, is measured again, alone."""
    at_least: frozenset[str] = frozenset()
    """APIs whose ``newest`` is the stub's ceiling (the codec's newest) and that the client did not send when offered
    any version: it sends at least that, how much more is not known."""
    settings: Mapping[str, str] = field(default_factory=dict)
    """The reference's settings it was measured with, as written (``{"version": "broker"}``: the stub broker
    stands for the catalog's newest release); empty: the kind's default configuration."""

    @property
    def ref(self) -> str:
        return f"{self.kind}:{self.release}" + "".join(f"@{k}={v}" for k, v in sorted(self.settings.items()))

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "release": self.release, "newest": dict(sorted(self.newest.items())),
                "oldest": dict(sorted(self.oldest.items())), "measured_at": self.measured_at, "how": self.how,
                "operations": sorted(self.operations), **({"program": self.program} if self.program else {}),
                **({"apis": dict(sorted(self.apis.items()))} if self.apis else {}),
                **({"at_least": sorted(self.at_least)} if self.at_least else {}),
                **({"settings": dict(sorted(self.settings.items()))} if self.settings else {})}

    @classmethod
    def from_json(cls, data: Any, where: str) -> ClientLimits:
        """Strictly: a wrong type anywhere is one line naming ``where``, never a half-read table."""
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: a client-limits entry is a JSON object, not {type(data).__name__}")
        text = {k: data.get(k) for k in ("kind", "release", "how")}
        if not all(isinstance(v, str) for v in text.values()) or not isinstance(data.get("measured_at"),
                                                                                 (str, type(None))):
            raise ConfigError(f"{where}: kind, release and how are strings, measured_at a string or null")
        maps = {k: data.get(k, {}) for k in ("newest", "oldest")}
        for key, versions in maps.items():
            if not isinstance(versions, dict) or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 32768 for v in versions.values()):
                raise ConfigError(f"{where}: {key} maps API names to request versions (0 to 32767)")
        operations = data.get("operations", [])
        if not isinstance(operations, list) or not all(isinstance(o, str) for o in operations):
            raise ConfigError(f"{where}: operations is a list of operation names")
        program = data.get("program")
        if not isinstance(program, (str, type(None))):
            raise ConfigError(f"{where}: program is the adapter program's digest (a string)")
        apis = data.get("apis", {})
        if not isinstance(apis, dict) or not all(isinstance(v, str) for v in apis.values()):
            raise ConfigError(f"{where}: apis maps API names to the digest of the operations that send them")
        at_least = data.get("at_least", [])
        if not isinstance(at_least, list) or not all(isinstance(a, str) and a in maps["newest"] for a in at_least):
            raise ConfigError(f"{where}: at_least is a list of API names in newest")
        settings = data.get("settings", {})
        if not isinstance(settings, dict) or not all(isinstance(v, str) for v in settings.values()):
            raise ConfigError(f"{where}: settings maps a client reference's setting keys to their values (strings)")
        return cls(str(text["kind"]), str(text["release"]), maps["newest"], maps["oldest"],
                   data.get("measured_at"), str(text["how"]), tuple(operations), program, apis, frozenset(at_least),
                   settings)


@dataclass(frozen=True)
class Endpoint:
    """Where and as whom a client connects; the password never reaches a record or a log."""

    bootstrap_servers: str
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    controllers: str | None = None
    """The KRaft controller listener's ``host:port`` list, for a client bootstrapping from the controllers
    (KIP-919's ``bootstrap.controllers``); None where the cluster has none (ZooKeeper)."""

    @property
    def first(self) -> tuple[str, int]:
        host, port = self.bootstrap_servers.split(",")[0].rsplit(":", 1)
        return host, int(port)
