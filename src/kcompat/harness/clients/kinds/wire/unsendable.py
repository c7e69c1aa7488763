"""Requests the wire client can't send, said as its records (nothing sent, never an exception): an API kio
0.5.0 has no schema of (KIP-932's share-group offsets, KIP-1071's StreamsGroupDescribe), and an API whose
versions the broker offers are all beyond kio's (ShareGroupDescribe: kio has v0, the early access of 4.0;
brokers 4.1+ offer v1 only)."""

from __future__ import annotations

from ....protocol import api_name, client_versions
from ...base import AdminResult
from ...wire import WireClient


def no_schema(client: WireClient, operation: str, api_key: int) -> AdminResult:
    """The record of a call whose request kio has no schema of, at any version."""
    return AdminResult(operation, client.kind, client.version, None, exception="UnsupportedVersion",
                       exception_message=f"kio {client.version} has no schema of {api_name(api_key)} "
                                         f"(API key {api_key}); nothing was sent")


def beyond_kio(client: WireClient, operation: str, api_key: int, version: int | None) -> AdminResult | None:
    """None when the call can go ahead (a pinned version is sent as asked, the broker's refusal recorded); else
    the record of a broker whose versions of the API are all newer than kio's, nothing sent."""
    offered = client.api_versions().get(api_key)
    ours = client_versions(api_key)
    if version is not None or offered is None or not ours or offered.min_version <= ours[-1]:
        return None
    return AdminResult(operation, client.kind, client.version, None, exception="UnsupportedVersion",
                       exception_message=f"the broker offers {api_name(api_key)} v{offered.min_version}-"
                                         f"v{offered.max_version}, kio {ours[0]}-{ours[-1]}; nothing was sent")
