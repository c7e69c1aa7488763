"""RenewDelegationToken through the cell's client of a token the super user created."""

from __future__ import annotations

from typing import Any

from . import RENEW_DELEGATION_TOKEN, RenewDelegationTokenArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ..create_delegation_token.probe import set_up_token, settled_token

HOUR_MS = 3600 * 1000
"""Shorter than a new token's expiry (delegation.token.expiry.time.ms, a day by default): ZooKeeper brokers take
the period asked for, KRaft controllers the shorter of it and that default, so both move the expiry to it."""
TRUNCATION_MS = 1000
"""The wire client reads the returned expiry as kio decodes it: truncated to the second."""


@probe(ProbeSpec("renew_delegation_token", COMMON | {"expiry_moved", "returned_expiry_described"},
                 {"renew_period_ms": int},
                 about="RenewDelegationToken, by its HMAC, of a token the super user created, for `renew_period_ms` "
                       "(default an hour, shorter than its first expiry); `expiry_moved`: the super user's "
                       "DescribeDelegationToken then shows another expiry (awaited), `returned_expiry_described`: "
                       "the expiry the call returned is that one (within a second)"))
def renew_delegation_token(ctx: ProbeContext) -> dict[str, Any]:
    token_id, hmac, first_expiry = set_up_token(ctx)
    period = int(ctx.args.get("renew_period_ms", HOUR_MS))
    result = ctx.call(RENEW_DELEGATION_TOKEN, RenewDelegationTokenArgs(hmac, period))
    observed, outcome = common(result)
    expiry = outcome.fields.get("expiry_timestamp") if outcome is not None else None
    if expiry is not None and token_id is not None:
        token = settled_token(ctx, token_id, lambda t: t is not None and t["expiry_timestamp"] != first_expiry)
        after = None if token is None else token["expiry_timestamp"]
        observed["expiry_moved"] = after is not None and after != first_expiry
        observed["returned_expiry_described"] = after is not None and abs(after - expiry) < TRUNCATION_MS
    return observed
