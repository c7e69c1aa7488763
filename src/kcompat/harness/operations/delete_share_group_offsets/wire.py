"""Delete share group offsets through the wire client: kio 0.5.0 has no schema of its request (API key
92), which the record says (nothing sent); the wire client's limits, kio's schemas, lack the API too."""

from __future__ import annotations

from . import DELETE_SHARE_GROUP_OFFSETS, DeleteShareGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ...clients.kinds.wire.unsendable import no_schema


@DELETE_SHARE_GROUP_OFFSETS.implement(WireClient)
def delete_share_group_offsets(client: WireClient, args: DeleteShareGroupOffsetsArgs, version: int | None) -> AdminResult:
    return no_schema(client, "delete_share_group_offsets", 92)
