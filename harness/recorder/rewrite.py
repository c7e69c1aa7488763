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
import typing
from collections.abc import Mapping
from typing import Any

from kio.index import UnknownAPIKey, UnknownEntity, load_response_schema

from ..protocol import api_name

Address = tuple[str, int]

BROKER_ADDRESSES = frozenset({"Metadata", "FindCoordinator", "DescribeCluster", "Produce", "Fetch", "ShareFetch",
                              "ShareAcknowledge"})
"""Responses naming brokers a client may connect to next."""
CONTROLLER_ADDRESSES = frozenset({"DescribeQuorum", "BeginQuorumEpoch", "EndQuorumEpoch", "Vote", "FetchSnapshot",
                                  "UpdateRaftVoter"})
"""Responses naming KRaft controllers (quorum voters), left as they are."""


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
    if api_name(api_key) not in BROKER_ADDRESSES:
        return False
    try:
        return carries_addresses(load_response_schema(api_key, version))
    except (UnknownAPIKey, UnknownEntity):
        return False


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
    for field in dataclasses.fields(value):
        if field.name in changes:
            continue
        current = getattr(value, field.name)
        replaced = _rewrite(current, ports, unknown)
        if replaced is not current:
            changes[field.name] = replaced
    return dataclasses.replace(value, **changes) if changes else value


__all__ = ["BROKER_ADDRESSES", "CONTROLLER_ADDRESSES", "Address", "carries_addresses", "rewrite_addresses",
           "rewrites"]
