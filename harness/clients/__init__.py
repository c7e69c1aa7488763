"""Clients behind one interface: the wire probe, confluent-kafka, the Java AdminClient.

``client_for`` maps a kind to its module; confluent-kafka is imported only
when asked for, so the harness runs where it is not installed.
"""

from __future__ import annotations

from collections.abc import Callable

from ..config import HarnessConfig
from ..errors import ConfigError
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

def _wire(endpoint: Endpoint, config: HarnessConfig, version: str | None, run_id: str | None) -> AdminClient:
    from .wire import WireClient

    return WireClient(endpoint)


def _confluent(endpoint: Endpoint, config: HarnessConfig, version: str | None, run_id: str | None) -> AdminClient:
    from .confluent import ConfluentClient  # imported on demand: confluent-kafka may be absent

    return ConfluentClient(endpoint)


def _java(endpoint: Endpoint, config: HarnessConfig, version: str | None, run_id: str | None) -> AdminClient:
    if version is None:
        raise ConfigError("the java client needs a kafka-clients version (e.g. java:4.4.0)")
    from .java import JavaClient

    return JavaClient(endpoint, version, config, run_id=run_id)


CLIENTS: dict[str, Callable[[Endpoint, HarnessConfig, str | None, str | None], AdminClient]] = {
    "wire": _wire, "confluent": _confluent, "java": _java,
}
CLIENT_KINDS = tuple(CLIENTS)


def client_for(kind: str, endpoint: Endpoint, config: HarnessConfig, *, version: str | None = None,
               run_id: str | None = None) -> AdminClient:
    """A client of ``kind``; ``version`` is the kafka-clients release for ``java`` (others are installed)."""
    try:
        factory = CLIENTS[kind]
    except KeyError:
        raise ConfigError(f"unknown client {kind!r}; known: {', '.join(CLIENT_KINDS)}") from None
    return factory(endpoint, config, version, run_id)


__all__ = [
    "CLIENTS",
    "CLIENT_KINDS",
    "AclSpec",
    "AdminClient",
    "AdminResult",
    "ConfigTarget",
    "Endpoint",
    "NewPartitions",
    "NewTopic",
    "ResourceOutcome",
    "client_for",
    "error_name",
]
