"""DescribeConfigs of a new topic or of a broker as the cell's client."""

from __future__ import annotations

from typing import Any

from ...clients import ConfigTarget
from . import DESCRIBE_CONFIGS, DescribeConfigsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common, config_entries


@probe(ProbeSpec("describe_configs", COMMON | {"configs", "entry_fields", "types", "documented_entries"},
                 {"resource": str, "include_documentation": bool, "include_synonyms": bool, "topic_configs": dict,
                  "as_user": str, "topic_acl": str},
                 config_keys=True,
                 about="DescribeConfigs of a new topic or of the first broker (`topic_acl`: `as_user` is granted "
                       "this operation on the topic first)"))
def describe_configs(ctx: ProbeContext) -> dict[str, Any]:
    """DescribeConfigs of a new topic (created by the super user) or of the first broker."""
    args = ctx.args
    if args.get("resource", "topic") == "topic":
        target = ConfigTarget("topic", ctx.topic("kc"))
        ctx.create_topic(target.name, args.get("topic_configs"))
        ctx.grant_topic(target.name)
    else:
        target = ConfigTarget("broker", str(ctx.cluster.brokers[0].node_id))
    result = ctx.call(DESCRIBE_CONFIGS, DescribeConfigsArgs([target], bool(args.get("include_synonyms", False)),
                                                            bool(args.get("include_documentation", False))))
    observed, outcome = common(result)
    entries = outcome.fields.get("configs") if outcome is not None else None
    if isinstance(entries, list):
        observed["configs"] = len(entries)
        config_entries(observed, entries, ctx.keys)
        if any("type" in e for e in entries):
            observed["types"] = sorted({str(e.get("type")) for e in entries})
        if any("documentation" in e for e in entries):
            observed["documented_entries"] = sum(1 for e in entries if e.get("documentation"))
    return observed
