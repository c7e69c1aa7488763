"""listConfigResources of some (or every) resource type, after the super user made a topic and a client metrics
subscription: which of the two it lists."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from . import (
    CONFIG_RESOURCE_TYPES,
    LIST_CONFIG_RESOURCES,
    ListConfigResourcesArgs,
)
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.client_metrics import client_metrics_resource
from ...matrix.setups.topics import new_topic
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, many_common

LIST_CONFIG_RESOURCES_KEY = 74


def wanted(types: list[str]) -> set[str]:
    """The made resources the listing is asked for: its types among TOPIC and CLIENT_METRICS (none: both)."""
    return set(types or ("TOPIC", "CLIENT_METRICS")) & {"TOPIC", "CLIENT_METRICS"}


@probe(ProbeSpec("list_config_resources", COMMON | {"topic_listed", "client_metrics_listed"}, {"types": list},
                 about="listConfigResources of `types` (ConfigResource.Type names, e.g. [\"TOPIC\"]; none: every "
                       "type) after the super user made a topic and, where the broker has ListClientMetricsResources "
                       "(key 74), a client metrics subscription; `topic_listed` and `client_metrics_listed`: each is "
                       "listed under its type, waited for (bounded) while one asked for is missing"))
def list_config_resources(ctx: ProbeContext) -> dict[str, Any]:
    types = [str(t) for t in ctx.args.get("types", [])]
    if unknown := [t for t in types if t not in CONFIG_RESOURCE_TYPES]:
        raise ProbeFailed(f"list_config_resources lists {', '.join(CONFIG_RESOURCE_TYPES)}, not {unknown}")
    topic, metrics = new_topic(ctx, "kc-cfg"), ctx.topic("kc-metrics")
    offered = LIST_CONFIG_RESOURCES_KEY in {r.api_key for r in ctx.cluster.api_versions}
    with ExitStack() as stack:
        if offered:
            stack.enter_context(client_metrics_resource(ctx.admin, metrics))
        observed: dict[str, Any] = {}
        for _ in attempts(SETTLE if offered else 0, interval=0.2):
            result = ctx.call(LIST_CONFIG_RESOURCES, ListConfigResourcesArgs(types))
            observed = many_common(result)
            if result.exception is not None or observed.get("error") != "NONE":
                break
            listed = {r.resource for r in result.resources}
            found = {"TOPIC": f"TOPIC:{topic}" in listed, "CLIENT_METRICS": f"CLIENT_METRICS:{metrics}" in listed}
            observed["topic_listed"], observed["client_metrics_listed"] = found["TOPIC"], found["CLIENT_METRICS"]
            if all(found[t] for t in wanted(types)):
                break
    return observed
