"""ExpireDelegationToken through the cell's client of a token the super user created."""

from __future__ import annotations

from typing import Any

from . import EXPIRE_DELEGATION_TOKEN, ExpireDelegationTokenArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ..create_delegation_token.probe import set_up_token, settled_token


@probe(ProbeSpec("expire_delegation_token", COMMON | {"gone"}, {},
                 about="ExpireDelegationToken, by its HMAC and a negative period (at once), of a token the super "
                       "user created; `gone`: the super user's DescribeDelegationToken then no longer lists it "
                       "(awaited)"))
def expire_delegation_token(ctx: ProbeContext) -> dict[str, Any]:
    token_id, hmac, _ = set_up_token(ctx)
    observed, _ = common(ctx.call(EXPIRE_DELEGATION_TOKEN, ExpireDelegationTokenArgs(hmac, -1)))
    if token_id is not None:
        wait = observed.get("error") == "NONE"
        observed["gone"] = settled_token(ctx, token_id, lambda token: token is None or not wait) is None
    return observed
