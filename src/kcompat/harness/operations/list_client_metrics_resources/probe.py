"""listClientMetricsResources after the super user made a client metrics subscription."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from . import (
    LIST_CLIENT_METRICS_RESOURCES,
    ListClientMetricsResourcesArgs,
)
from ...waiting import attempts
from ...matrix.probe import ProbeContext
from ...matrix.setups.client_metrics import client_metrics_resource
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, simple_name

LIST_CLIENT_METRICS_RESOURCES_KEY = 74


@probe(ProbeSpec("list_client_metrics_resources", COMMON | {"listed"}, {},
                 about="listClientMetricsResources after the super user made a client metrics subscription (only "
                       "where the broker lists them: an older one has no such resource to make); `listed`: it is "
                       "listed, waited for (bounded) as the metadata reaches the broker"))
def list_client_metrics_resources(ctx: ProbeContext) -> dict[str, Any]:
    name = ctx.topic("kc-metrics")
    offered = {r.api_key for r in ctx.cluster.api_versions}
    with ExitStack() as stack:
        if LIST_CLIENT_METRICS_RESOURCES_KEY in offered:
            stack.enter_context(client_metrics_resource(ctx.admin, name))
        observed: dict[str, Any] = {}
        for _ in attempts(SETTLE if LIST_CLIENT_METRICS_RESOURCES_KEY in offered else 0, interval=0.2):
            result = ctx.call(LIST_CLIENT_METRICS_RESOURCES, ListClientMetricsResourcesArgs())
            observed = {"exception": simple_name(result.exception)}
            if result.unsupported_options:
                observed["unsupported_options"] = list(result.unsupported_options)
            if result.exception is not None:
                break
            failed = next((r for r in result.resources if r.resource == "cluster" and r.error_code != 0), None)
            observed["error"] = failed.error_name if failed else "NONE"
            observed["error_message"] = failed.error_message if failed else None
            observed["listed"] = any(r.resource == name for r in result.resources)
            if observed["listed"] or failed:
                break
    return observed
