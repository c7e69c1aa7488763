"""Clients behind one interface: the wire client, confluent-kafka, the Java AdminClient.

``client_for`` asks the reference's kind (``kcompat.harness.clients.kinds``) to make
one; a kind imports its client library only then, so the harness runs where
confluent-kafka is not installed.
"""

from __future__ import annotations

from ..config import HarnessConfig
from ..progress import step
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
               run_id: str | None = None, broker: str | None = None) -> AdminClient:
    """A client for a reference (``wire``, ``confluent``, ``java:4.4.0``; parsed by ``ClientRef.parse``),
    made by its kind (``kcompat.harness.clients.kinds``) with its settings, ``broker`` values as the release
    ``broker`` names (``ClientRef.make_settings``)."""
    parsed = ClientRef.parse(ref) if isinstance(ref, str) else ref
    return kind(parsed.kind).make(endpoint, config, parsed.version, run_id, parsed.make_settings(broker))


def install_client(ref: ClientRef, config: HarnessConfig, *, quiet: bool = False) -> None:
    """Build or install ``ref``'s adapter now (once; then it is cached), shown as one progress step: a first
    build takes a minute, which belongs to no cell's time and no call's deadline.  Other kinds: nothing."""
    declared = kind(ref.kind)
    done = (ref.kind, ref.version, config.cache_dir)
    if declared.install is None or ref.version is None or done in _INSTALLED:
        return  # made already by this process: no second look at the registry and the build stamp per cell
    with step(f"the {declared.library} {ref.version} adapter", quiet=quiet):
        declared.install(ref.version, config)
    _INSTALLED.add(done)


_INSTALLED: set[tuple[str, str | None, object]] = set()


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
    "install_client",
    "error_name",
    "kind",
    "kind_names",
]
