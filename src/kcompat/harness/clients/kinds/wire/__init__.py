"""The wire client: kio's request schemas, any request version, no release to choose."""

from __future__ import annotations

from ....config import HarnessConfig
from ....protocol import api_name, client_versions
from ...base import AdminClient, ClientLimits, Endpoint
from .. import ClientKind, Refusal


def _make(endpoint: Endpoint, config: HarnessConfig, release: str | None, run_id: str | None) -> AdminClient:
    from ...wire import WireClient

    return WireClient(endpoint)


def _limits(client: AdminClient, config: HarnessConfig) -> ClientLimits:
    """Every version of every API kio has a schema for: the probe sends what it is asked to."""
    from kio.schema.index import api_key_map

    ranges = {name: versions for key in api_key_map
              if (name := api_name(key)) is not None and (versions := client_versions(key))}
    return ClientLimits("wire", client.version, {n: r[-1] for n, r in ranges.items()},
                        {n: r[0] for n, r in ranges.items()}, None, "kio's request schemas")


KIND = ClientKind(
    name="wire", order=0, library="kio", release="none",
    release_note="the wire client has no release to choose (its schemas are kio's); pin a request version with "
                 "wire@vN instead",
    make=_make, limits=_limits, modules=("kcompat.harness.clients.wire",),
    refusal=Refusal(exceptions=("UnsupportedVersion", "UnsupportedOption")),
    pinnable=True, pins=client_versions, chooses_broker=True, lists_by_describe=True,
)
"""``UnsupportedVersion``: the broker's refusal as the probe records it; ``UnsupportedOption``: the probe
declining to build a request its pinned version can't carry (nothing sent, so nothing to refuse)."""
