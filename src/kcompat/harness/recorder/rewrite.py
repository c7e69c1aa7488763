"""Broker addresses in responses, rewritten to the recorder's ports: pure functions on kio entities.

A client connects to the brokers a response names (Metadata's brokers, the
coordinator FindCoordinator names, DescribeCluster's brokers, and since
KIP-951 the new leaders' endpoints in Produce and Fetch answers, as in
ShareFetch and ShareAcknowledge).  Each of those names a broker by an entity
with ``host`` and ``port`` fields; swapping those for the proxy's own keeps
the client on the proxy.  Other responses with addresses name controllers
(``CONTROLLER_ADDRESSES``), which a client reaches, if at all, through
``bootstrap.controllers`` and never through a broker's proxy: they pass as
they are.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import struct
import typing
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from kio.index import UnknownAPIKey, UnknownEntity, load_response_schema
from kio.schema.errors import ErrorCode
from kio.serial import entity_reader, entity_writer
from kio.serial.readers import read_compact_array_length
from kio.serial.writers import compact_array_writer, legacy_array_writer
from kio.static.primitive import i16

from ..errors import WireError
from ..protocol import API_VERSIONS, METADATA, api_name
from .frames import item_type

Address = tuple[str, int]
DESCRIBE_CLUSTER = 60

BROKER_ADDRESSES = frozenset({"Metadata", "FindCoordinator", "DescribeCluster", "Produce", "Fetch", "ShareFetch",
                              "ShareAcknowledge"})
"""Responses naming brokers a client may connect to next."""
CONTROLLER_ADDRESSES = frozenset({"DescribeQuorum", "BeginQuorumEpoch", "EndQuorumEpoch", "Vote", "FetchSnapshot",
                                  "UpdateRaftVoter"})
"""Responses naming KRaft controllers (quorum voters), left as they are."""


def _successor(base: type[Any], version: int, added: list[tuple[str, Any, Any]], name: str | None = None
               ) -> type[Any]:
    """A kio entity of the next version: ``base`` with ``added`` fields (name, type, ``field(...)``) after its
    own, or replacing one of its own in place (a list of a new nested entity).  Made with ``make_dataclass``
    because kio reads each field's type as a class, not as the string a class statement here would leave under
    postponed annotations."""
    return dataclasses.make_dataclass(name or base.__name__, added, bases=(base,),
                                      namespace={"__version__": i16(version)}, frozen=True, slots=True, kw_only=True)


_BOOL = {"kafka_type": "bool"}
_TUPLE: Any = tuple  # subscripted at run time with a class made here (``tuple[cls, ...]`` as kio reads lists)
_DescribeClusterV1: Any = load_response_schema(DESCRIBE_CLUSTER, 1)
_FencedBroker = _successor(typing.get_args(typing.get_type_hints(_DescribeClusterV1)["brokers"])[0], 2,
                           [("is_fenced", bool, field(metadata=_BOOL, default=False))])

SUCCESSORS: dict[tuple[int, int], type[Any]] = {
    (METADATA, 13): _successor(load_response_schema(METADATA, 12), 13, [
        ("error_code", ErrorCode, field(metadata={"kafka_type": "error_code"}, default=ErrorCode.none))]),
    (API_VERSIONS, 5): _successor(load_response_schema(API_VERSIONS, 4), 5, []),
    (DESCRIBE_CLUSTER, 2): _successor(_DescribeClusterV1, 2, [("brokers", _TUPLE[_FencedBroker, ...], field())]),
}
"""Response versions of Kafka 4 that kio 0.5 lacks, each the newest kio has plus what Kafka's schema adds (its
``common/message/*Response.json``): Metadata v13 a top-level ErrorCode last (KIP-1102), ApiVersions v5 nothing
(only its request changed, KIP-1242), DescribeCluster v2 IsFenced last in each broker (KIP-1073).  Clients of
Kafka 4 (librdkafka 2.12+, kafka-clients 4) send these to a 4.x broker: without them such a client would leave
the recorder at its first Metadata, and its offer would go unread."""


def response_schema(api_key: int, version: int) -> type[Any] | None:
    """kio's response schema of this version, else a successor defined here, else None."""
    try:
        return typing.cast(type[Any], load_response_schema(api_key, version))
    except (UnknownAPIKey, UnknownEntity):
        return SUCCESSORS.get((api_key, version))


def _is_address(entity: type[Any]) -> bool:
    names = {f.name for f in dataclasses.fields(entity)}
    return {"host", "port"} <= names


def _nested(entity: type[Any]) -> list[type[Any]]:
    """The entity classes a field of ``entity`` holds (one, or a tuple of them)."""
    found: list[type[Any]] = []
    for hint in typing.get_type_hints(entity).values():
        for candidate in (hint, *typing.get_args(hint)):
            if isinstance(candidate, type) and dataclasses.is_dataclass(candidate):
                found.append(candidate)
    return found


def carries_addresses(entity: type[Any], depth: int = 0) -> bool:
    """Whether an entity, or one nested in it, has both a ``host`` and a ``port`` field."""
    if _is_address(entity):
        return True
    return depth < 8 and any(carries_addresses(inner, depth + 1) for inner in _nested(entity))


@functools.cache
def rewrites(api_key: int, version: int) -> bool:
    """Whether a response of this API and version names brokers to reach (kio's schema of it says so)."""
    schema = response_schema(api_key, version)
    return api_name(api_key) in BROKER_ADDRESSES and schema is not None and carries_addresses(schema)


def rewrite_metadata(frame: bytes, version: int, ports: Mapping[Address, Address]) -> tuple[bytes, list[Address]]:
    """A Metadata response frame (size prefix removed) with its brokers moved to ``ports``, and the addresses not
    found there.  Brokers come first in every version (after the header and, from v3, the throttle time), so only
    they are read and written again: the topics after them, which a big cluster makes large (10,000 topics take
    seconds to decode and encode in Python), are copied as they are."""
    schema = response_schema(METADATA, version)
    if schema is None:
        raise WireError(f"no schema for Metadata v{version}")
    broker = item_type(schema, "brokers")
    flexible = bool(schema.__flexible__)
    try:
        _, offset = entity_reader(schema.__header_schema__)(frame, 0)
        offset += 4 if version >= 3 else 0  # throttle_time_ms
        start = offset
        if flexible:
            count, size = read_compact_array_length(frame, offset)
        else:
            count, size = int(struct.unpack_from(">i", frame, offset)[0]), 4
        offset += size
        read = entity_reader(broker)
        brokers = []
        for _ in range(count or 0):
            found, size = read(frame, offset)
            brokers.append(found)
            offset += size
    except WireError:
        raise
    except Exception as exc:  # kio raises plain ValueErrors (struct.error, IndexError) on malformed data
        raise WireError(f"can't read the brokers of Metadata v{version}: {exc}") from exc
    found = tuple(brokers)
    moved, unknown = rewrite_addresses(found, ports)
    if moved is found:
        return frame, unknown
    out = io.BytesIO()
    (compact_array_writer if flexible else legacy_array_writer)(entity_writer(broker))(out, moved)
    return frame[:start] + out.getvalue() + frame[offset:], unknown


def rewrite_addresses(entity: Any, ports: Mapping[Address, Address]) -> tuple[Any, list[Address]]:
    """``entity`` with each (host, port) found in ``ports`` replaced by its value, and the addresses that
    were not found (a broker the recorder does not proxy: a client reaching it bypasses the recorder)."""
    unknown: list[Address] = []
    return _rewrite(entity, ports, unknown), unknown


def _rewrite(value: Any, ports: Mapping[Address, Address], unknown: list[Address]) -> Any:
    if isinstance(value, tuple):
        items = tuple(_rewrite(item, ports, unknown) for item in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    changes: dict[str, Any] = {}
    if _is_address(type(value)):
        node: Any = value  # an entity with host and port (checked above)
        address = (str(node.host), int(node.port))
        if address in ports:
            host, port = ports[address]
            changes.update(host=host, port=type(node.port)(port))
        elif address[0]:  # a blank host is "none" (FindCoordinator's error answer, a coordinator unknown)
            unknown.append(address)
    for member in dataclasses.fields(value):
        if member.name in changes:
            continue
        current = getattr(value, member.name)
        replaced = _rewrite(current, ports, unknown)
        if replaced is not current:
            changes[member.name] = replaced
    return dataclasses.replace(value, **changes) if changes else value


__all__ = ["BROKER_ADDRESSES", "CONTROLLER_ADDRESSES", "SUCCESSORS", "Address",
           "carries_addresses", "response_schema", "rewrite_addresses", "rewrite_metadata", "rewrites"]
