"""Clients behind one interface: the wire client, confluent-kafka, the Java AdminClient.

``client_for`` asks the reference's kind (``kcompat.harness.clients.kinds``) to make
one; a kind imports its client library only then, so the harness runs where
confluent-kafka is not installed.
"""

from __future__ import annotations

from ..config import HarnessConfig
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
from .kinds import kind, kind_names
from .ref import ClientRef, parse_clients


def client_for(ref: ClientRef | str, endpoint: Endpoint, config: HarnessConfig, *,
               run_id: str | None = None) -> AdminClient:
    """A client for a reference (``wire``, ``confluent``, ``java:4.4.0``; parsed by ``ClientRef.parse``),
    made by its kind (``kcompat.harness.clients.kinds``)."""
    parsed = ClientRef.parse(ref) if isinstance(ref, str) else ref
    return kind(parsed.kind).make(endpoint, config, parsed.version, run_id)


__all__ = [
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
    "kind",
    "kind_names",
]
