"""The wire client: admin requests at an exact version, through Kafka's own message definitions, nothing hidden.

Its public transport is ``WireClient.send``: an operation
(``kcompat.harness.operations``) gives it an API key, the version the cell
pins (or None: the highest both sides have) and a function building the
request at the version chosen, and gets back the version sent and the
decoded response; ``observed`` turns a refused version into the call's
record.  Requests are encoded and responses decoded by the catalog's codec
(``kcompat.harness.codec``): the definitions of kafka-clients 3.9.2 and the
catalog's newest release, merged, so every version a catalog release ships
stably can be sent, the ones Kafka 4.0 removed (CreateTopics v0-v1,
DescribeConfigs v0, Metadata v0-v3) as well as Kafka 4's newest.  Responses
are read by field name (``kcompat.harness.messages``): error codes are ints,
times ms, uuids ``uuid.UUID``.

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
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..errors import ConfigError, WireError
from ..messages import Unexpressible
from ..messages import Fields, names
from ..protocol import (
    ApiVersionRange,
    SaslRefused,
    WireConnection,
    api_name,
    definitions_release,
    metadata_request,
    pick_version,
    request_fields,
)
from .base import (
    CONFIG_SOURCES,
    CONFIG_TYPES,
    AdminResult,
    Endpoint,
)

METADATA, CREATE_ACLS = 3, 30
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
TIMEOUT = 30_000
"""Milliseconds a request's own timeout field gives the broker."""
# Options that only ask for more detail: left out (and reported) where a version lacks them.
DETAIL_OPTIONS = frozenset({"include_synonyms", "include_documentation"})
_OUTCOME_KEYS = {"name", "error_code", "error_message", "resource_name", "resource_type"}


def plain(value: Any) -> Any:
    """A decoded value as JSON-friendly data: structs to dicts, enums to ints, timedeltas to ms, uuids to text."""
    if isinstance(value, Fields):
        return {name: plain(getattr(value, name)) for name in names(value)}
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


def result_fields(entity: Fields) -> tuple[str, ...]:
    """A decoded response struct's fields at its version, less those every outcome carries anyway (name,
    error)."""
    return tuple(name for name in names(entity) if name not in _OUTCOME_KEYS)


class Refused(Exception):
    """The broker refused a request version it does not advertise; carries the record."""

    def __init__(self, result: AdminResult):
        super().__init__(result.exception_message)
        self.result = result


F = TypeVar("F", bound=Callable[..., AdminResult])


def observed(method: F) -> F:
    """A refused request version becomes the call's record instead of an exception."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> AdminResult:
        try:
            return method(*args, **kwargs)
        except Refused as refused:
            return dataclasses.replace(refused.result, operation=method.__name__)

    return cast(F, wrapper)


class WireClient:
    """Admin requests over one connection per broker, at the version asked for."""

    kind = "wire"

    def __init__(self, endpoint: Endpoint, *, timeout: float = 30.0):
        self.endpoint = endpoint
        self.timeout = timeout
        self.version = definitions_release()
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
                raise Refused(AdminResult("connect", self.kind, self.version, None,
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
        """The broker's offered versions, once it is known to offer ``api_key``; else the refusal (``Refused``,
        caught by ``observed``) before anything else is asked, as a client checks ApiVersions first."""
        offered = self.api_versions()
        if version is None and api_key not in offered:
            raise Refused(AdminResult(operation, self.kind, self.version, None, exception="UnsupportedVersion",
                                       exception_message=f"the broker does not offer {api_name(api_key)}; "
                                                         "nothing was sent"))
        return offered

    def send(self, operation: str, api_key: int, version: int | None, build: Callable[[int, dict[str, bool]], Any],
             options: dict[str, bool], *, to_controller: bool = False,
             broker: tuple[str, int] | None = None) -> tuple[int, Any, tuple[str, ...]]:
        """Send at ``version`` (default: highest common); return (version sent, response, options left out).

        ``build(version, options)`` makes the request; ``options`` are the
        request's boolean fields the caller asks for.

        An option the version can't carry is left out and reported when it
        only asks for detail (synonyms, documentation); when it changes what
        the call does (``validate_only``), nothing is sent and the record says
        why.  A refusal of a version the broker does not advertise is data.
        """
        offered = self.require(operation, api_key, version)
        chosen = pick_version(api_key, offered) if version is None else version
        lacking = tuple(k for k, wanted in options.items() if wanted and k not in request_fields(api_key, chosen))
        if any(k not in DETAIL_OPTIONS for k in lacking):
            raise Refused(AdminResult(operation, self.kind, self.version, None, exception="UnsupportedOption",
                                       exception_message=f"{api_name(api_key)} v{chosen} can't carry "
                                                         f"{', '.join(lacking)}; nothing was sent",
                                       unsupported_options=lacking))
        try:
            request = build(chosen, {k: v for k, v in options.items() if k not in lacking})
        except Unexpressible as exc:
            raise Refused(AdminResult(operation, self.kind, self.version, None, exception="UnsupportedOption",
                                       exception_message=f"{exc}; nothing was sent")) from exc
        address = broker or (self.controller() if to_controller else self.endpoint.first)
        conn, _ = self.connection(address)
        try:
            return chosen, conn.send(request), lacking
        except WireError as exc:
            self.drop(address)
            advertised = offered.get(api_key)
            if advertised is not None and advertised.min_version <= chosen <= advertised.max_version:
                raise  # the broker offered this version: a dropped connection is an infra error
            offered_text = (f"v{advertised.min_version}-v{advertised.max_version}" if advertised
                            else "not offered at all")
            raise Refused(AdminResult(
                operation, self.kind, self.version, chosen, exception="UnsupportedVersion",
                exception_message=f"broker advertises {api_name(api_key)} {offered_text}; "
                                  f"v{chosen} was answered with: {exc}")) from exc

    def drop(self, address: tuple[str, int]) -> None:
        """Close and forget the connection to ``address`` (the next call opens another): after a broken frame."""
        if (found := self._connections.pop(address, None)) is not None:
            found[0].close()


def config_resource_type(name: str) -> int:
    try:
        return CONFIG_RESOURCE_TYPES[name]
    except KeyError:
        raise ConfigError(f"configs are described for {' and '.join(CONFIG_RESOURCE_TYPES)} resources, "
                          f"not {name!r}") from None


__all__ = ["Refused", "WireClient", "WireError", "config_entry", "observed", "plain", "result_fields"]
