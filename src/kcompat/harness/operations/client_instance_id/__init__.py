"""clientInstanceId (KIP-714, kafka-clients 3.7+): the client's own telemetry instance id, which a broker with a
client telemetry receiver hands out in GetTelemetrySubscriptions."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ClientInstanceIdArgs:
    timeout_ms: int = 5000
    """How long the call waits for the id (the Java method's timeout)."""


CLIENT_INSTANCE_ID = Operation(
    "client_instance_id", ClientInstanceIdArgs, "GetTelemetrySubscriptions",
    "one result, `client`: its error and `instance_id` (a UUID's text; null: none was given)",
    lambda topic: (ClientInstanceIdArgs(),), java_class="ClientInstanceId")
