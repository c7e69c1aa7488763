"""unregisterBroker through the wire client: UnregisterBroker to the first broker, which forwards it to the
controller (as kafka-clients sends it to any broker)."""

from __future__ import annotations

from typing import Any

from . import UNREGISTER_BROKER, UnregisterBrokerArgs
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

UNREGISTER_BROKER_KEY = 64


@UNREGISTER_BROKER.implement(WireClient)
@observed
def unregister_broker(client: WireClient, args: UnregisterBrokerArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(UNREGISTER_BROKER_KEY, v, broker_id=args.broker_id)

    sent, response, _ = client.send("unregister_broker", UNREGISTER_BROKER_KEY, version, build, {})
    return AdminResult("unregister_broker", client.kind, client.version, sent, (
        ResourceOutcome.of(f"broker:{args.broker_id}", int(response.error_code), response.error_message),))
