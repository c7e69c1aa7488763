"""Describe streams groups through the wire client: kio 0.5.0 has no schema of its request (API key
89), which the record says (nothing sent); the wire client's limits, kio's schemas, lack the API too."""

from __future__ import annotations

from . import DESCRIBE_STREAMS_GROUPS, DescribeStreamsGroupsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ...clients.kinds.wire.unsendable import no_schema


@DESCRIBE_STREAMS_GROUPS.implement(WireClient)
def describe_streams_groups(client: WireClient, args: DescribeStreamsGroupsArgs, version: int | None) -> AdminResult:
    return no_schema(client, "describe_streams_groups", 89)
