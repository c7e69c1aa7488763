"""Delete share groups through the wire client: the same DeleteGroups as deleteConsumerGroups sends (the
protocol has one request for every group type)."""

from __future__ import annotations

import dataclasses

from ..delete_consumer_groups import DeleteConsumerGroupsArgs
from . import DELETE_SHARE_GROUPS, DeleteShareGroupsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..delete_consumer_groups.wire import delete_consumer_groups


@DELETE_SHARE_GROUPS.implement(WireClient)
def delete_share_groups(client: WireClient, args: DeleteShareGroupsArgs, version: int | None) -> AdminResult:
    result = delete_consumer_groups(client, DeleteConsumerGroupsArgs(args.groups), version)
    return dataclasses.replace(result, operation="delete_share_groups")
