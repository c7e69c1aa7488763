"""The wire client: Kafka's message definitions (kafka-clients 3.9.2 + 4.4.0, merged), any request version, no
release to choose."""

from __future__ import annotations

from collections.abc import Mapping

from ....config import HarnessConfig
from ....protocol import api_name, client_versions
from ...base import AdminClient, ClientLimits, Endpoint
from .. import ClientKind, Refusal


def _make(endpoint: Endpoint, config: HarnessConfig, release: str | None, run_id: str | None,
          settings: Mapping[str, object]) -> AdminClient:
    from ...wire import WireClient

    return WireClient(endpoint)


def _limits(client: AdminClient, config: HarnessConfig) -> ClientLimits:
    """Every stable version of every API the definitions hold: the probe sends what it is asked to."""
    from ....codec.catalog import codec_versions

    ranges = {name: versions for key in codec_versions()
              if (name := api_name(key)) is not None and (versions := client_versions(key))}
    return ClientLimits("wire", client.version, {n: r[-1] for n, r in ranges.items()},
                        {n: r[0] for n, r in ranges.items()}, None,
                        f"Kafka's message definitions (kafka-clients {client.version}, merged)")


KIND = ClientKind(
    name="wire", order=0, library="Kafka's message definitions", release="none",
    release_note="the wire client has no release to choose (it speaks Kafka's message definitions, kafka-clients "
                 "3.9.2 + 4.4.0 merged); pin a request version with wire@vN instead",
    make=_make, limits=_limits, modules=("kcompat.harness.clients.wire",),
    refusal=Refusal(exceptions=("UnsupportedVersion", "UnsupportedOption")),
    pinnable=True, pins=client_versions, chooses_broker=True, lists_by_describe=True, surfaces=("wire",),
)
"""``UnsupportedVersion``: the broker's refusal as the probe records it; ``UnsupportedOption``: the probe
declining to build a request its pinned version can't carry (nothing sent, so nothing to refuse)."""
