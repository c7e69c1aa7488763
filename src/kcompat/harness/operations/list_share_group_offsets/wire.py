"""List share group offsets through the wire client: kio 0.5.0 has no schema of its request (API key
90), which the record says (nothing sent); the wire client's limits, kio's schemas, lack the API too."""

from __future__ import annotations

from . import LIST_SHARE_GROUP_OFFSETS, ListShareGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ...clients.kinds.wire.unsendable import no_schema


@LIST_SHARE_GROUP_OFFSETS.implement(WireClient)
def list_share_group_offsets(client: WireClient, args: ListShareGroupOffsetsArgs, version: int | None) -> AdminResult:
    return no_schema(client, "list_share_group_offsets", 90)
