"""The legacy AlterConfigs of a new topic's configs as the cell's client, read back by the super user."""

from __future__ import annotations

from typing import Any

from ...clients import ConfigTarget
from . import ALTER_CONFIGS, AlterConfigsArgs, NewConfigs
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ...matrix.setups.topics import configs_applied, configs_now, new_topic


@probe(ProbeSpec("alter_configs", COMMON | {"applied"},
                 {"configs": dict, "validate_only": bool, "as_user": str, "topic_acl": str},
                 about="AlterConfigs of a new topic's `configs`; `applied` is whether DescribeConfigs as the super "
                       "user then shows every one of them (bounded wait; at once where the call failed or only "
                       "validated)"))
def alter_configs(ctx: ProbeContext) -> dict[str, Any]:
    """AlterConfigs of one new topic; ``applied`` read back as the super user."""
    configs = {str(k): str(v) for k, v in dict(ctx.args.get("configs", {})).items()}
    if not configs:
        raise ProbeFailed("alter_configs needs `configs` to set")
    name = new_topic(ctx)
    validate_only = bool(ctx.args.get("validate_only", False))
    result = ctx.call(ALTER_CONFIGS, AlterConfigsArgs([NewConfigs(ConfigTarget("topic", name), configs)],
                                                      validate_only))
    observed, _ = common(result)
    if observed.get("error") == "NONE" and not validate_only:
        observed["applied"] = configs_applied(ctx, name, configs)
    else:
        observed["applied"] = configs_now(ctx, name, configs)
    return observed

