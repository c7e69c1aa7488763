"""electPreferredLeaders through the wire client: ElectLeaders of the preferred replicas, as electLeaders sends it."""

from __future__ import annotations

import dataclasses

from ..elect_leaders import ElectLeadersArgs
from . import ELECT_PREFERRED_LEADERS, ElectPreferredLeadersArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..elect_leaders.wire import elect_leaders


@ELECT_PREFERRED_LEADERS.implement(WireClient)
def elect_preferred_leaders(client: WireClient, args: ElectPreferredLeadersArgs, version: int | None
                            ) -> AdminResult:
    result = elect_leaders(client, ElectLeadersArgs("preferred", args.partitions), version)
    return dataclasses.replace(result, operation="elect_preferred_leaders")
