"""Clients behind one interface: the wire probe, confluent-kafka, the Java AdminClient.

``client_for`` maps a kind to its module; confluent-kafka is imported only
when asked for, so the harness runs where it is not installed.
"""

from __future__ import annotations

from collections.abc import Callable

from ..config import HarnessConfig
from ..errors import ConfigError
from .ref import ClientRef, installed_confluent, parse_clients
from .base import (
    AclSpec,
    AdminClient,
    AdminResult,
    ConfigTarget,
    Endpoint,
    NewPartitions,
    NewTopic,
    ResourceOutcome,
    error_name,
)

def _wire(endpoint: Endpoint, config: HarnessConfig, ref: ClientRef, run_id: str | None) -> AdminClient:
    from .wire import WireClient

    return WireClient(endpoint)


def _confluent(endpoint: Endpoint, config: HarnessConfig, ref: ClientRef, run_id: str | None) -> AdminClient:
    from .confluent import ConfluentClient  # imported on demand: confluent-kafka may be absent

    installed = installed_confluent()
    if ref.version is not None and ref.version != installed:
        raise ConfigError(f"{ref} asked for, but this Python has confluent-kafka {installed}; "
                          f"`kcompat run --clients {ref}` runs those cells in a venv of that release")
    return ConfluentClient(endpoint)


def _java(endpoint: Endpoint, config: HarnessConfig, ref: ClientRef, run_id: str | None) -> AdminClient:
    from .java import JavaClient

    assert ref.version is not None  # ClientRef.parse guarantees it
    return JavaClient(endpoint, ref.version, config, run_id=run_id)


CLIENTS: dict[str, Callable[[Endpoint, HarnessConfig, ClientRef, str | None], AdminClient]] = {
    "wire": _wire, "confluent": _confluent, "java": _java,
}
CLIENT_KINDS = tuple(CLIENTS)


def client_for(ref: ClientRef | str, endpoint: Endpoint, config: HarnessConfig, *,
               run_id: str | None = None) -> AdminClient:
    """A client for a reference (``wire``, ``confluent``, ``java:4.4.0``; parsed by ``ClientRef.parse``)."""
    parsed = ClientRef.parse(ref) if isinstance(ref, str) else ref
    return CLIENTS[parsed.kind](endpoint, config, parsed, run_id)


__all__ = [
    "CLIENTS",
    "CLIENT_KINDS",
    "AclSpec",
    "AdminClient",
    "AdminResult",
    "ClientRef",
    "ConfigTarget",
    "Endpoint",
    "NewPartitions",
    "NewTopic",
    "ResourceOutcome",
    "client_for",
    "parse_clients",
    "error_name",
]
