"""AlterClientQuotas through the cell's client for a user nobody uses; the quota as the super user then reads it."""

from __future__ import annotations

from typing import Any

from . import ALTER_CLIENT_QUOTAS, AlterClientQuotasArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ..describe_client_quotas.probe import settled_quota


@probe(ProbeSpec("alter_client_quotas", COMMON | {"quota_after"},
                 {"quota": str, "value": (int, float), "validate_only": bool},
                 about="AlterClientQuotas setting `quota` (default producer_byte_rate) to `value` for a new user "
                       "entity; `quota_after`: the value the super user's DescribeClientQuotas then gives (awaited "
                       "after a success; null: none)"))
def alter_client_quotas(ctx: ProbeContext) -> dict[str, Any]:
    key = ctx.args.get("quota", "producer_byte_rate")
    value = float(ctx.args.get("value", 1024))
    validate_only = bool(ctx.args.get("validate_only", False))
    user = ctx.topic("kc-quota-user")
    result = ctx.call(ALTER_CLIENT_QUOTAS, AlterClientQuotasArgs({"user": user}, {key: value}, validate_only))
    observed, _ = common(result)
    if observed.get("error") == "NONE":
        observed["quota_after"] = settled_quota(ctx, user, key, None if validate_only else value)
    return observed
