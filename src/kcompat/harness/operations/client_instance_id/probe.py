"""clientInstanceId: the cell's client's own telemetry instance id, which a broker hands out only where it
advertises GetTelemetrySubscriptions (a broker runs a client telemetry receiver plug-in: none of ours does)."""

from __future__ import annotations

from typing import Any

from . import CLIENT_INSTANCE_ID, ClientInstanceIdArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common

GET_TELEMETRY_SUBSCRIPTIONS = 71


@probe(ProbeSpec("client_instance_id", COMMON | {"instance_id_known", "telemetry_offered"}, {"timeout_ms": int},
                 about="clientInstanceId with a timeout of `timeout_ms` (default 5000); `instance_id_known`: it "
                       "gives an id (not null); `telemetry_offered`: the broker advertises GetTelemetrySubscriptions "
                       "(3.7+ with a client telemetry receiver plug-in only)"))
def client_instance_id(ctx: ProbeContext) -> dict[str, Any]:
    observed, outcome = common(ctx.call(CLIENT_INSTANCE_ID, ClientInstanceIdArgs(int(ctx.args.get("timeout_ms",
                                                                                                 5000)))))
    observed["telemetry_offered"] = GET_TELEMETRY_SUBSCRIPTIONS in {r.api_key for r in ctx.cluster.api_versions}
    if outcome is not None and outcome.error_code == 0 and "instance_id" in outcome.fields:
        observed["instance_id_known"] = outcome.fields["instance_id"] is not None
    return observed
