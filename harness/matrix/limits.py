"""The request versions of an API each side of a cell can use: the input to ``limited_by``.

Broker side: the range it advertised in ApiVersions at boot (Kafka 4.x
raised the minimum of many APIs, KIP-896, so its lower end matters too).  Client side, from
the client itself wherever it can say: the wire probe's kio schemas (or its
pinned version), kafka-clients' ``ApiKeys.latestVersion()`` asked in the
sidecar; for librdkafka, which can't be asked, the catalog's table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..catalog import load_catalog
from ..clients.base import AdminClient
from ..clients.java import JavaClient
from ..clients.ref import ClientRef
from ..protocol import ApiVersionRange, client_versions
from .claims import API_KEYS


def broker_max_version(advertised: Iterable[ApiVersionRange], api: str) -> int | None:
    key = API_KEYS[api]
    return next((r.max_version for r in advertised if r.api_key == key), None)


def broker_min_version(advertised: Iterable[ApiVersionRange], api: str) -> int | None:
    key = API_KEYS[api]
    return next((r.min_version for r in advertised if r.api_key == key), None)


def api_constant(api: str) -> str:
    """``CreateTopics`` -> ``CREATE_TOPICS`` (Java's ApiKeys name)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", api).upper()


_JAVA: dict[str, dict[str, int]] = {}
_JAVA_OLDEST: dict[str, dict[str, int]] = {}


def client_max_version(client: AdminClient, ref: ClientRef, api: str) -> int | None:
    if ref.pin is not None:
        return ref.pin
    if ref.kind == "wire":
        versions = client_versions(API_KEYS[api])
        return versions[-1] if versions else None
    if ref.kind == "java":
        assert ref.version is not None and isinstance(client, JavaClient)
        if ref.version not in _JAVA:
            _JAVA[ref.version] = client.client_api_versions()
        return _JAVA[ref.version].get(api_constant(api))
    return load_catalog().confluent_max_version(client.version, api)


def client_min_version(client: AdminClient, ref: ClientRef, api: str) -> int | None:
    """The oldest request version the client can send, None where it can't be asked (librdkafka).  The wire
    probe's is kio's oldest even when pinned: pinned, it sends its version whatever the broker offers."""
    if ref.kind == "wire":
        versions = client_versions(API_KEYS[api])
        return versions[0] if versions else None
    if ref.kind == "java":
        assert ref.version is not None and isinstance(client, JavaClient)
        if ref.version not in _JAVA_OLDEST:
            _JAVA_OLDEST[ref.version] = client.client_oldest_versions()
        return _JAVA_OLDEST[ref.version].get(api_constant(api))
    return None
