"""IncrementalAlterConfigs (SET) of a new topic's configs as the cell's client, read back by the super user."""

from __future__ import annotations

from typing import Any

from ...clients import ConfigTarget
from . import (
    INCREMENTAL_ALTER_CONFIGS,
    AlteredConfigs,
    ConfigOp,
    IncrementalAlterConfigsArgs,
)
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ...matrix.setups.topics import configs_applied, configs_now, new_topic


@probe(ProbeSpec("incremental_alter_configs", COMMON | {"applied"},
                 {"configs": dict, "validate_only": bool, "as_user": str, "topic_acl": str},
                 about="IncrementalAlterConfigs SET of each of `configs` on a new topic; `applied` is whether "
                       "DescribeConfigs as the super user then shows every one (bounded wait; at once where the "
                       "call failed or only validated)"))
def incremental_alter_configs(ctx: ProbeContext) -> dict[str, Any]:
    """IncrementalAlterConfigs of one new topic; ``applied`` read back as the super user."""
    configs = {str(k): str(v) for k, v in dict(ctx.args.get("configs", {})).items()}
    if not configs:
        raise ProbeFailed("incremental_alter_configs needs `configs` to set")
    name = new_topic(ctx)
    validate_only = bool(ctx.args.get("validate_only", False))
    ops = [ConfigOp(k, v, "SET") for k, v in configs.items()]
    result = ctx.call(INCREMENTAL_ALTER_CONFIGS, IncrementalAlterConfigsArgs(
        [AlteredConfigs(ConfigTarget("topic", name), ops)], validate_only))
    observed, _ = common(result)
    if observed.get("error") == "NONE" and not validate_only:
        observed["applied"] = configs_applied(ctx, name, dict(configs))
    else:
        observed["applied"] = configs_now(ctx, name, configs)
    return observed
