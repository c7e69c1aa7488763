"""Alter share group offsets through the wire client: kio 0.5.0 has no schema of its request (API key
91), which the record says (nothing sent); the wire client's limits, kio's schemas, lack the API too."""

from __future__ import annotations

from . import ALTER_SHARE_GROUP_OFFSETS, AlterShareGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ...clients.kinds.wire.unsendable import no_schema


@ALTER_SHARE_GROUP_OFFSETS.implement(WireClient)
def alter_share_group_offsets(client: WireClient, args: AlterShareGroupOffsetsArgs, version: int | None) -> AdminResult:
    return no_schema(client, "alter_share_group_offsets", 91)
