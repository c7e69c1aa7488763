"""DescribeDelegationToken through the cell's client, after the super user created a token."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_DELEGATION_TOKEN, DescribeDelegationTokenArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ..create_delegation_token.probe import set_up_token


@probe(ProbeSpec("describe_delegation_token", COMMON | {"listed", "owner"}, {},
                 about="DescribeDelegationToken (every token the caller may see) after the super user created "
                       "one; `listed`: that token is in the result, `owner`: the owner it is listed with"))
def describe_delegation_token(ctx: ProbeContext) -> dict[str, Any]:
    token_id, _, _ = set_up_token(ctx)
    observed, outcome = common(ctx.call(DESCRIBE_DELEGATION_TOKEN, DescribeDelegationTokenArgs()))
    tokens = outcome.fields.get("tokens") if outcome is not None else None
    if tokens is not None and token_id is not None:
        mine = next((t for t in tokens if t["token_id"] == token_id), None)
        observed["listed"] = mine is not None
        if mine is not None:
            observed["owner"] = mine["owner"]
    return observed
