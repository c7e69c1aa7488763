"""The wire client: admin requests at an exact version, decoded by kio, nothing hidden.

kio 0.5.0 is pinned because it still carries the request versions Kafka 4.0
removed (CreateTopics v0-v1, DescribeConfigs v0, Metadata v0-v3): old brokers
and KIP-108's v0/v1 claims need them; kio 0.6 dropped them.

``result_fields`` lists the response fields that exist at the version sent,
so a scenario can assert a field's absence exactly; tagged fields (such as
CreateTopics' ``TopicConfigErrorCode``) are decoded like any other.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import uuid
from collections.abc import Callable, Sequence
from importlib.metadata import version as dist_version
from typing import Any, TypeVar, cast

from kio.static.primitive import i32Timedelta

from ..errors import ConfigError, WireError
from ..protocol import (
    ApiVersionRange,
    SaslRefused,
    WireConnection,
    api_name,
    build_request,
    metadata_request,
    nested_type,
    pick_version,
    request_fields,
)
from .base import (
    CONFIG_SOURCES,
    CONFIG_TYPES,
    AclSpec,
    AdminResult,
    ConfigTarget,
    Endpoint,
    NewPartitions,
    NewTopic,
    ResourceOutcome,
)

METADATA, CREATE_TOPICS, DESCRIBE_CONFIGS, CREATE_ACLS, CREATE_PARTITIONS = 3, 19, 32, 30, 37
DESCRIBE_ACLS, DESCRIBE_TOPIC_PARTITIONS = 29, 75
CONFIG_RESOURCE_TYPES = {"topic": 2, "broker": 4}
ACL_RESOURCE_TYPES = {"topic": 2, "group": 3, "cluster": 4}
ACL_OPERATIONS = {"ANY": 1, "ALL": 2, "READ": 3, "WRITE": 4, "CREATE": 5, "DELETE": 6, "ALTER": 7,
                  "DESCRIBE": 8, "CLUSTER_ACTION": 9, "DESCRIBE_CONFIGS": 10, "ALTER_CONFIGS": 11,
                  "IDEMPOTENT_WRITE": 12}
ACL_PERMISSIONS = {"DENY": 2, "ALLOW": 3}
ACL_PATTERNS = {"LITERAL": 3, "PREFIXED": 4}
ACL_ANY = 1
"""The ANY value of every ACL filter enum (resource type, operation, permission, pattern type)."""
TIMEOUT = i32Timedelta.parse(datetime.timedelta(seconds=30))
# Options that only ask for more detail: left out (and reported) where a version lacks them.
DETAIL_OPTIONS = frozenset({"include_synonyms", "include_documentation"})
_OUTCOME_KEYS = {"name", "error_code", "error_message", "resource_name", "resource_type"}


def plain(value: Any) -> Any:
    """A kio value as JSON-friendly data: entities to dicts, enums to ints, timedeltas to ms."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime.timedelta):
        return int(value.total_seconds() * 1000)
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def config_entry(raw: dict[str, Any]) -> dict[str, Any]:
    """A DescribeConfigs/CreateTopics config entry under the neutral key names."""
    entry: dict[str, Any] = {"name": raw["name"], "value": raw["value"], "read_only": raw["read_only"]}
    if "config_source" in raw:
        entry["source"] = CONFIG_SOURCES.get(raw["config_source"], str(raw["config_source"]))
    if "is_default" in raw:
        entry["is_default"] = raw["is_default"]
    entry["sensitive"] = raw["is_sensitive"]
    if "synonyms" in raw:
        entry["synonyms"] = [{"name": s["name"], "value": s["value"],
                              "source": CONFIG_SOURCES.get(s["source"], str(s["source"]))} for s in raw["synonyms"]]
    if "config_type" in raw:
        entry["type"] = CONFIG_TYPES.get(raw["config_type"], str(raw["config_type"]))
    if "documentation" in raw:
        entry["documentation"] = raw["documentation"]
    return entry


def _nested(api_key: int, version: int, name: str) -> Callable[..., Any]:
    factory: Callable[..., Any] = nested_type(api_key, version, name, **_EMPTY[api_key])
    return factory


_EMPTY: dict[int, dict[str, Any]] = {
    CREATE_TOPICS: {"topics": (), "timeout": TIMEOUT},
    CREATE_PARTITIONS: {"topics": (), "timeout": TIMEOUT, "validate_only": False},
    DESCRIBE_CONFIGS: {"resources": ()},
    CREATE_ACLS: {"creations": ()},
    DESCRIBE_TOPIC_PARTITIONS: {"topics": ()},
}


def _result_fields(entity_type: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(entity_type) if f.name not in _OUTCOME_KEYS)


class _Refused(Exception):
    """The broker refused a request version it does not advertise; carries the record."""

    def __init__(self, result: AdminResult):
        super().__init__(result.exception_message)
        self.result = result


F = TypeVar("F", bound=Callable[..., AdminResult])


def _observed(method: F) -> F:
    """A refused request version becomes the call's record instead of an exception."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> AdminResult:
        try:
            return method(*args, **kwargs)
        except _Refused as refused:
            return dataclasses.replace(refused.result, operation=method.__name__)

    return cast(F, wrapper)


class WireClient:
    """Admin requests over one connection per broker, at the version asked for."""

    kind = "wire"

    def __init__(self, endpoint: Endpoint, *, timeout: float = 30.0):
        self.endpoint = endpoint
        self.timeout = timeout
        self.version = dist_version("kio")
        self._connections: dict[tuple[str, int], tuple[WireConnection, dict[int, ApiVersionRange]]] = {}

    # -- connections ------------------------------------------------------------
    def connection(self, address: tuple[str, int] | None = None) -> tuple[WireConnection, dict[int, ApiVersionRange]]:
        address = address or self.endpoint.first
        if address not in self._connections:
            conn = WireConnection(*address, timeout=self.timeout, client_id="kcompat-wire")
            try:
                offered = {r.api_key: r for r in conn.api_versions()}
                if self.endpoint.username is not None:
                    conn.authenticate_plain(self.endpoint.username, self.endpoint.password or "", offered)
            except SaslRefused as refused:
                conn.close()
                raise _Refused(AdminResult("connect", self.kind, self.version, None,
                                           exception="SaslAuthenticationFailed",
                                           exception_message=str(refused))) from refused
            except BaseException:
                conn.close()
                raise
            self._connections[address] = (conn, offered)
        return self._connections[address]

    def api_versions(self) -> dict[int, ApiVersionRange]:
        return self.connection()[1]

    def controller(self) -> tuple[str, int]:
        """The controller's address (ZooKeeper brokers only accept creates there)."""
        conn, offered = self.connection()
        version = max(1, pick_version(METADATA, offered))
        response = conn.send(metadata_request(version, ()))
        brokers = {int(b.node_id): (b.host, int(b.port)) for b in response.brokers}
        return brokers.get(int(response.controller_id), self.endpoint.first)

    def close(self) -> None:
        for conn, _ in self._connections.values():
            conn.close()
        self._connections.clear()

    def require(self, operation: str, api_key: int, version: int | None) -> dict[int, ApiVersionRange]:
        """The broker's offered versions, once it is known to offer ``api_key``; else the refusal (``_Refused``,
        caught by ``_observed``) before anything else is asked, as a client checks ApiVersions first."""
        offered = self.api_versions()
        if version is None and api_key not in offered:
            raise _Refused(AdminResult(operation, self.kind, self.version, None, exception="UnsupportedVersion",
                                       exception_message=f"the broker does not offer {api_name(api_key)}; "
                                                         "nothing was sent"))
        return offered

    def _send(self, operation: str, api_key: int, version: int | None, build: Callable[[int, dict[str, bool]], Any],
              options: dict[str, bool], *, to_controller: bool = False,
              broker: tuple[str, int] | None = None) -> tuple[int, Any, tuple[str, ...]]:
        """Send at ``version`` (default: highest common); return (version sent, response, options left out).

        An option the version can't carry is left out and reported when it
        only asks for detail (synonyms, documentation); when it changes what
        the call does (``validate_only``), nothing is sent and the record says
        why.  A refusal of a version the broker does not advertise is data.
        """
        offered = self.require(operation, api_key, version)
        chosen = pick_version(api_key, offered) if version is None else version
        lacking = tuple(k for k, wanted in options.items() if wanted and k not in request_fields(api_key, chosen))
        if any(k not in DETAIL_OPTIONS for k in lacking):
            raise _Refused(AdminResult(operation, self.kind, self.version, None, exception="UnsupportedOption",
                                       exception_message=f"{api_name(api_key)} v{chosen} can't carry "
                                                         f"{', '.join(lacking)}; nothing was sent",
                                       unsupported_options=lacking))
        request = build(chosen, {k: v for k, v in options.items() if k not in lacking})
        address = broker or (self.controller() if to_controller else self.endpoint.first)
        conn, _ = self.connection(address)
        try:
            return chosen, conn.send(request), lacking
        except WireError as exc:
            self._drop(address)
            advertised = offered.get(api_key)
            if advertised is not None and advertised.min_version <= chosen <= advertised.max_version:
                raise  # the broker offered this version: a dropped connection is an infra error
            offered_text = (f"v{advertised.min_version}-v{advertised.max_version}" if advertised
                            else "not offered at all")
            raise _Refused(AdminResult(
                operation, self.kind, self.version, chosen, exception="UnsupportedVersion",
                exception_message=f"broker advertises {api_name(api_key)} {offered_text}; "
                                  f"v{chosen} was answered with: {exc}")) from exc

    def _drop(self, address: tuple[str, int]) -> None:
        if (found := self._connections.pop(address, None)) is not None:
            found[0].close()

    # -- operations ---------------------------------------------------------------
    @_observed
    def create_topics(self, topics: Sequence[NewTopic], *, validate_only: bool = False,
                      version: int | None = None) -> AdminResult:
        def build(v: int, options: dict[str, bool]) -> Any:
            topic, assignment, config = (_nested(CREATE_TOPICS, v, n) for n in
                                         ("CreatableTopic", "CreatableReplicaAssignment", "CreatableTopicConfig"))
            entities = tuple(topic(
                name=t.name,
                num_partitions=-1 if t.partitions is None or t.assignments else t.partitions,
                replication_factor=-1 if t.replication_factor is None or t.assignments else t.replication_factor,
                assignments=tuple(assignment(partition_index=p, broker_ids=tuple(ids))
                                  for p, ids in sorted((t.assignments or {}).items())),
                configs=tuple(config(name=k, value=val) for k, val in sorted(t.configs.items())),
            ) for t in topics)
            return build_request(CREATE_TOPICS, v, topics=entities, timeout=TIMEOUT, **options)

        sent, response, lacking = self._send("create_topics", CREATE_TOPICS, version, build,
                                             {"validate_only": validate_only}, to_controller=True)
        outcomes = []
        for item in response.topics:
            raw = plain(item)
            fields = {k: raw[k] for k in _result_fields(type(item))}
            if fields.get("configs") is not None:
                fields["configs"] = [config_entry(c) for c in fields["configs"]]
            outcomes.append(ResourceOutcome.of(str(item.name), int(item.error_code), raw.get("error_message"),
                                               **fields))
        result_type = type(response.topics[0]) if response.topics else None
        return AdminResult("create_topics", self.kind, self.version, sent, tuple(outcomes),
                           _result_fields(result_type) if result_type else (), unsupported_options=lacking)

    @_observed
    def create_partitions(self, partitions: Sequence[NewPartitions], *, validate_only: bool = False,
                          version: int | None = None, broker: tuple[str, int] | None = None) -> AdminResult:
        """To the controller (KIP-195), unless ``broker`` names another (to observe what it answers)."""
        def build(v: int, options: dict[str, bool]) -> Any:
            topic, assignment = (_nested(CREATE_PARTITIONS, v, n)
                                 for n in ("CreatePartitionsTopic", "CreatePartitionsAssignment"))
            entities = tuple(topic(
                name=p.topic, count=p.total_count,
                assignments=None if p.assignments is None else
                tuple(assignment(broker_ids=tuple(ids)) for ids in p.assignments),
            ) for p in partitions)
            return build_request(CREATE_PARTITIONS, v, topics=entities, timeout=TIMEOUT, **options)

        sent, response, lacking = self._send("create_partitions", CREATE_PARTITIONS, version, build,
                                             {"validate_only": validate_only}, to_controller=True, broker=broker)
        outcomes = tuple(ResourceOutcome.of(str(r.name), int(r.error_code), r.error_message)
                         for r in response.results)
        return AdminResult("create_partitions", self.kind, self.version, sent, outcomes, unsupported_options=lacking)

    @_observed
    def describe_configs(self, targets: Sequence[ConfigTarget], *, include_synonyms: bool = False,
                         include_documentation: bool = False, version: int | None = None) -> AdminResult:
        def build(v: int, options: dict[str, bool]) -> Any:
            resource = _nested(DESCRIBE_CONFIGS, v, "DescribeConfigsResource")
            entities = tuple(resource(resource_type=config_resource_type(t.resource_type),
                                      resource_name=t.name, configuration_keys=None) for t in targets)
            return build_request(DESCRIBE_CONFIGS, v, resources=entities, **options)

        sent, response, lacking = self._send(
            "describe_configs", DESCRIBE_CONFIGS, version, build,
            {"include_synonyms": include_synonyms, "include_documentation": include_documentation})
        outcomes = []
        entry_fields: tuple[str, ...] = ()
        for item in response.results:
            raw = plain(item)
            configs = [config_entry(c) for c in raw["configs"]]
            if item.configs:
                entry_fields = tuple(configs[0])
            outcomes.append(ResourceOutcome.of(f"{_type_name(raw['resource_type'])}:{item.resource_name}",
                                               int(item.error_code), raw["error_message"], configs=configs))
        return AdminResult("describe_configs", self.kind, self.version, sent, tuple(outcomes),
                           tuple(f"configs.{name}" for name in entry_fields), unsupported_options=lacking)

    @_observed
    def list_topics(self, *, list_internal: bool = True, version: int | None = None) -> AdminResult:
        """Metadata for every topic; the protocol has no option to hide internal topics (reported if asked)."""
        conn, offered = self.connection()
        version = max(1, pick_version(METADATA, offered)) if version is None else version
        response = conn.send(metadata_request(version, None if version >= 1 else ()))  # v0: empty means all
        flagged = version >= 1  # Metadata v0 has no is_internal
        outcomes = tuple(ResourceOutcome.of(str(t.name), int(t.error_code), None, partitions=len(t.partitions),
                                            **({"internal": bool(t.is_internal)} if flagged else {}))
                         for t in sorted(response.topics, key=lambda t: str(t.name)))
        return AdminResult("list_topics", self.kind, self.version, version, outcomes,
                           ("internal", "partitions") if flagged else ("partitions",),
                           unsupported_options=() if list_internal else ("list_internal",))

    @_observed
    def create_acls(self, acls: Sequence[AclSpec], *, version: int | None = None) -> AdminResult:
        def build(v: int, options: dict[str, bool]) -> Any:
            creation = _nested(CREATE_ACLS, v, "AclCreation")
            entities = tuple(creation(
                resource_type=ACL_RESOURCE_TYPES[a.resource_type], resource_name=a.resource_name,
                resource_pattern_type=ACL_PATTERNS[a.pattern], principal=a.principal, host=a.host,
                operation=ACL_OPERATIONS[a.operation], permission_type=ACL_PERMISSIONS[a.permission],
            ) if v >= 1 else creation(
                resource_type=ACL_RESOURCE_TYPES[a.resource_type], resource_name=a.resource_name,
                principal=a.principal, host=a.host, operation=ACL_OPERATIONS[a.operation],
                permission_type=ACL_PERMISSIONS[a.permission],
            ) for a in acls)
            return build_request(CREATE_ACLS, v, creations=entities)

        sent, response, _ = self._send("create_acls", CREATE_ACLS, version, build, {})
        outcomes = tuple(ResourceOutcome.of(a.label, int(r.error_code), r.error_message)
                         for a, r in zip(acls, response.results, strict=False))  # fewer results: recorded as seen
        return AdminResult("create_acls", self.kind, self.version, sent, outcomes)


    @_observed
    def describe_acls(self, resource_type: str, resource_name: str | None = None, *,
                      version: int | None = None) -> AdminResult:
        """Every binding on resources of a type (and name, literal), any principal, operation and permission:
        one outcome per binding, named as ``AclSpec.label`` names it."""
        def build(v: int, options: dict[str, bool]) -> Any:
            pattern = {"pattern_type_filter": ACL_ANY} if v >= 1 else {}
            return build_request(DESCRIBE_ACLS, v, resource_type_filter=ACL_RESOURCE_TYPES[resource_type],
                                 resource_name_filter=resource_name, principal_filter=None, host_filter=None,
                                 operation=ACL_ANY, permission_type=ACL_ANY, **pattern)

        sent, response, _ = self._send("describe_acls", DESCRIBE_ACLS, version, build, {})
        if int(response.error_code) != 0:
            return AdminResult("describe_acls", self.kind, self.version, sent,
                               (ResourceOutcome.of(f"{resource_type}:{resource_name or '*'}", int(response.error_code),
                                                   response.error_message),))
        types = {v: k for k, v in ACL_RESOURCE_TYPES.items()}
        operations = {v: k for k, v in ACL_OPERATIONS.items()}
        permissions = {v: k for k, v in ACL_PERMISSIONS.items()}
        outcomes = tuple(ResourceOutcome.of(
            f"{types.get(int(r.resource_type), r.resource_type)}:{r.resource_name}:{a.principal}:"
            f"{operations.get(int(a.operation), a.operation)}:{permissions.get(int(a.permission_type), a.permission_type)}",
            0, None, host=a.host) for r in response.resources for a in r.acls)
        return AdminResult("describe_acls", self.kind, self.version, sent, outcomes, ("host",))

    @_observed
    def describe_topics(self, names: Sequence[str] = (), *, version: int | None = None) -> AdminResult:
        """DescribeTopicPartitions (KIP-966) of the named topics; with no names, of every topic the principal
        may Describe (the API's listing mode), following its cursor to the end."""
        outcomes: list[ResourceOutcome] = []
        cursor: Any = None
        while True:
            def build(v: int, options: dict[str, bool], after: Any = cursor) -> Any:
                topic = _nested(DESCRIBE_TOPIC_PARTITIONS, v, "TopicRequest")
                start = None if after is None else _nested(DESCRIBE_TOPIC_PARTITIONS, v, "Cursor")(
                    topic_name=after.topic_name, partition_index=after.partition_index)
                return build_request(DESCRIBE_TOPIC_PARTITIONS, v, topics=tuple(topic(name=n) for n in names),
                                     response_partition_limit=2000, cursor=start)

            sent, response, _ = self._send("describe_topics", DESCRIBE_TOPIC_PARTITIONS, version, build, {})
            outcomes += [ResourceOutcome.of(str(t.name), int(t.error_code), None, partitions=len(t.partitions),
                                            internal=bool(t.is_internal)) for t in response.topics]
            if response.next_cursor is None:
                break
            cursor = response.next_cursor
        return AdminResult("describe_topics", self.kind, self.version, sent, tuple(outcomes),
                           ("partitions", "internal"))


def config_resource_type(name: str) -> int:
    try:
        return CONFIG_RESOURCE_TYPES[name]
    except KeyError:
        raise ConfigError(f"configs are described for {' and '.join(CONFIG_RESOURCE_TYPES)} resources, "
                          f"not {name!r}") from None


def _type_name(code: int) -> str:
    return {v: k for k, v in CONFIG_RESOURCE_TYPES.items()}.get(code, str(code))


__all__ = ["WireClient", "WireError", "plain", "config_entry"]
