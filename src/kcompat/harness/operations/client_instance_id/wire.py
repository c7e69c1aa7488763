"""clientInstanceId through the wire client: GetTelemetrySubscriptions with the all-zero instance id, which asks
the broker to assign one (KIP-714), to the first broker."""

from __future__ import annotations

import uuid
from typing import Any

from . import CLIENT_INSTANCE_ID, ClientInstanceIdArgs
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

GET_TELEMETRY_SUBSCRIPTIONS = 71
_NONE = uuid.UUID(int=0)


@CLIENT_INSTANCE_ID.implement(WireClient)
@observed
def client_instance_id(client: WireClient, args: ClientInstanceIdArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(GET_TELEMETRY_SUBSCRIPTIONS, v, client_instance_id=_NONE)

    sent, response, _ = client.send("client_instance_id", GET_TELEMETRY_SUBSCRIPTIONS, version, build, {})
    given = response.client_instance_id
    return AdminResult("client_instance_id", client.kind, client.version, sent, (ResourceOutcome.of(
        "client", int(response.error_code), None, instance_id=None if given in (None, _NONE) else str(given)),),
        ("instance_id",))
