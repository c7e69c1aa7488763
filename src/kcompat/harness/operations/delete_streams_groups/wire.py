"""Delete streams groups through the wire client: the same DeleteGroups as deleteConsumerGroups sends."""

from __future__ import annotations

import dataclasses

from ..delete_consumer_groups import DeleteConsumerGroupsArgs
from . import DELETE_STREAMS_GROUPS, DeleteStreamsGroupsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..delete_consumer_groups.wire import delete_consumer_groups


@DELETE_STREAMS_GROUPS.implement(WireClient)
def delete_streams_groups(client: WireClient, args: DeleteStreamsGroupsArgs, version: int | None) -> AdminResult:
    result = delete_consumer_groups(client, DeleteConsumerGroupsArgs(args.groups), version)
    return dataclasses.replace(result, operation="delete_streams_groups")
