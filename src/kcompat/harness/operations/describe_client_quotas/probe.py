"""DescribeClientQuotas through the cell's client of a user the super user gave a quota."""

from __future__ import annotations

from typing import Any

from ...clients import AdminResult
from .. import perform
from ..alter_client_quotas import ALTER_CLIENT_QUOTAS, AlterClientQuotasArgs
from . import DESCRIBE_CLIENT_QUOTAS, DescribeClientQuotasArgs, entity_label
from ...waiting import attempts
from ...matrix.claims import API_KEYS
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common


@probe(ProbeSpec("describe_client_quotas", COMMON | {"quota", "entity_count"},
                 {"quota": str, "value": (int, float)},
                 about="DescribeClientQuotas filtered on a user entity the super user set `quota` (default "
                       "producer_byte_rate) to `value` for (where the broker has AlterClientQuotas); `quota`: the "
                       "value described for it (null: the entity is not listed), `entity_count`: entities listed"))
def describe_client_quotas(ctx: ProbeContext) -> dict[str, Any]:
    key = ctx.args.get("quota", "producer_byte_rate")
    user = ctx.topic("kc-quota-user")
    if broker_has(ctx, "AlterClientQuotas"):
        set_quota(ctx, user, key, float(ctx.args.get("value", 1024)))
    result = ctx.call(DESCRIBE_CLIENT_QUOTAS, DescribeClientQuotasArgs("user", user))
    observed, outcome = common(result)
    entries = outcome.fields.get("entries") if outcome is not None else None
    if entries is not None:
        observed["quota"] = entries.get(entity_label({"user": user}), {}).get(key)
        observed["entity_count"] = len(entries)
    return observed


def broker_has(ctx: ProbeContext, api: str) -> bool:
    """Whether the cell's broker advertises ``api``: where it doesn't, a set-up through it is skipped and the
    observed call alone shows the refusal."""
    return API_KEYS[api] in {r.api_key for r in ctx.cluster.api_versions}


def set_up_error(result: AdminResult) -> str | None:
    """What went wrong with a one-resource set-up call, or None."""
    outcome = result.resources[0] if result.resources else None
    if result.exception:
        return f"{result.exception}: {result.exception_message}"
    if outcome is None:
        return "no result"
    return None if outcome.error_code == 0 else f"{outcome.error_name} {outcome.error_message or ''}".strip()


def quota_of(ctx: ProbeContext, user: str, key: str) -> float | None:
    """A user's quota value as the super user describes it (None: not set, or not described)."""
    result = perform(ctx.admin, DESCRIBE_CLIENT_QUOTAS, DescribeClientQuotasArgs("user", user))
    outcome = result.resources[0] if result.resources else None
    if result.exception or outcome is None or outcome.error_code != 0:
        raise ProbeFailed(f"set-up: describing the quotas of user {user} as the super user gave "
                          f"{result.exception or (outcome.error_name if outcome else 'no result')}")
    value = (outcome.fields.get("entries") or {}).get(entity_label({"user": user}), {}).get(key)
    return None if value is None else float(value)


def settled_quota(ctx: ProbeContext, user: str, key: str, wanted: float | None) -> float | None:
    """The quota once the super user describes ``wanted`` (KRaft brokers apply the controller's record a little
    later), or what it describes when SETTLE has passed."""
    value = None
    for _ in attempts(SETTLE, interval=0.1):
        value = quota_of(ctx, user, key)
        if value == wanted:
            break
    return value


def set_quota(ctx: ProbeContext, user: str, key: str, value: float) -> None:
    """Set-up: the super user sets one quota of ``user`` and waits until it is described."""
    outcome = set_up_error(perform(ctx.admin, ALTER_CLIENT_QUOTAS, AlterClientQuotasArgs({"user": user}, {key: value})))
    if outcome is not None:
        raise ProbeFailed(f"set-up: setting {key} of user {user} as the super user gave {outcome}")
    if settled_quota(ctx, user, key, value) != value:
        raise ProbeFailed(f"set-up: {key} of user {user} was set but not described within {SETTLE:.0f}s")
