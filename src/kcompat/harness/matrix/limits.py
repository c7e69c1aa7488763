"""The request versions of an API each side of a cell can use: the input to ``limited_by``.

Broker side: the range it advertised in ApiVersions at boot (Kafka 4.x
raised the minimum of many APIs, KIP-896, so its lower end matters too).  Client side:
``kcompat.harness.clients.limits``, one source for every kind (kio's schemas, kafka-clients asked in the
sidecar, librdkafka measured against a stub broker); a pinned wire client sends its pin.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..clients.base import AdminClient
from ..clients.kinds import kind
from ..clients.limits import limits_of
from ..clients.ref import ClientRef
from ..config import HarnessConfig
from ..protocol import ApiVersionRange
from .claims import API_KEYS


def broker_max_version(advertised: Iterable[ApiVersionRange], api: str) -> int | None:
    key = API_KEYS[api]
    return next((r.max_version for r in advertised if r.api_key == key), None)


def broker_min_version(advertised: Iterable[ApiVersionRange], api: str) -> int | None:
    key = API_KEYS[api]
    return next((r.min_version for r in advertised if r.api_key == key), None)


def client_max_version(client: AdminClient, ref: ClientRef, api: str, config: HarnessConfig) -> int | None:
    if ref.pin is not None:
        return ref.pin
    return limits_of(client, ref, config).newest.get(api)


def client_at_least(client: AdminClient, ref: ClientRef, api: str, config: HarnessConfig) -> bool:
    """Whether the client's newest is only known to be at least ``client_max_version`` (the stub's ceiling)."""
    return ref.pin is None and api in limits_of(client, ref, config).at_least


def client_min_version(client: AdminClient, ref: ClientRef, api: str, config: HarnessConfig) -> int | None:
    """The oldest request version the client can send, None where nobody knows (an API the measurement never saw
    sent, a measurement older than the oldest passes).  The wire
    probe's is kio's oldest even when pinned: pinned, it sends its version whatever the broker offers."""
    return limits_of(client, ref, config).oldest.get(api)


def stale_measurement(ref: ClientRef, release: str, api: str, sent: int | None, client_max: int | None,
                      at_least: bool = False) -> str | None:
    """Why a measured client's limits are stale (it sent a version newer than its measurement, not one
    measured ``at_least``), or None: a cell judged by a stale measurement could be judged wrongly, so it is
    ``fail`` with this reason."""
    declared = kind(ref.kind)
    if not declared.measured or sent is None or client_max is None or sent <= client_max or at_least:
        return None
    return (f"{declared.library} {release} sent {api} v{sent}, newer than the v{client_max} measured for it: "
            f"the measurement is stale; measure again with "
            f"`kcompat clients limits {ClientRef(ref.kind, release, settings=ref.settings)}`")
