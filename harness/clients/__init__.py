"""Clients behind one interface: the wire probe, confluent-kafka, the Java AdminClient.

``client_for`` maps a kind to its module; confluent-kafka is imported only
when asked for, so the harness runs where it is not installed.
"""

from __future__ import annotations

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

CLIENT_KINDS = ("wire", "confluent", "java")


def client_for(kind: str, endpoint: Endpoint, config: HarnessConfig, *, version: str | None = None,
               run_id: str | None = None) -> AdminClient:
    """A client of ``kind``; ``version`` is the kafka-clients release for ``java`` (others are installed)."""
    if kind == "wire":
        from .wire import WireClient

        return WireClient(endpoint)
    if kind == "confluent":
        from .confluent import ConfluentClient

        return ConfluentClient(endpoint)
    if kind == "java":
        if version is None:
            raise ConfigError("the java client needs a kafka-clients version (e.g. java:4.4.0)")
        from .java import JavaClient

        return JavaClient(endpoint, version, config, run_id=run_id)
    raise ConfigError(f"unknown client {kind!r}; known: {', '.join(CLIENT_KINDS)}")


__all__ = [
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
