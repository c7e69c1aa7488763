"""CreateDelegationToken through the cell's client; whether the super user then finds the token."""

from __future__ import annotations

import base64
import secrets
from typing import Any

from .. import perform
from . import CREATE_DELEGATION_TOKEN, CreateDelegationTokenArgs
from ..describe_delegation_token import DESCRIBE_DELEGATION_TOKEN, DescribeDelegationTokenArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common
from ..describe_client_quotas.probe import broker_has, set_up_error


@probe(ProbeSpec("create_delegation_token", COMMON | {"created", "owner_is_caller", "listed"}, {},
                 about="CreateDelegationToken as the cell's client (the super user, on a SASL cluster: every SASL "
                       "cluster has tokens enabled); `created`: the result carries a token id, `owner_is_caller`: "
                       "its owner is the caller's principal, `listed`: the super user's DescribeDelegationToken "
                       "then lists it (awaited)"))
def create_delegation_token(ctx: ProbeContext) -> dict[str, Any]:
    result = ctx.call(CREATE_DELEGATION_TOKEN, CreateDelegationTokenArgs())
    observed, outcome = common(result)
    token_id = outcome.fields.get("token_id") if outcome is not None else None
    observed["created"] = token_id is not None
    if token_id is not None:
        observed["owner_is_caller"] = outcome is not None and outcome.fields.get("owner") == caller(ctx)
        observed["listed"] = settled_token(ctx, token_id, lambda token: token is not None) is not None
    return observed


def caller(ctx: ProbeContext) -> str:
    """The principal the cell's client acts as: its ``as_user``, else the super user."""
    user = ctx.args.get("as_user")
    return f"User:{user if isinstance(user, str) else ctx.admin.endpoint.username}"


def token_of(ctx: ProbeContext, token_id: str) -> dict[str, Any] | None:
    """The token as the super user describes it, None if not listed."""
    result = perform(ctx.admin, DESCRIBE_DELEGATION_TOKEN, DescribeDelegationTokenArgs())
    problem = set_up_error(result)
    if problem is not None:
        raise ProbeFailed(f"set-up: describing delegation tokens as the super user gave {problem}")
    tokens = result.resources[0].fields.get("tokens") or []
    return next((t for t in tokens if t["token_id"] == token_id), None)


def settled_token(ctx: ProbeContext, token_id: str, done: Any) -> dict[str, Any] | None:
    """The token (or None) once ``done(token)`` holds or SETTLE has passed: KRaft brokers list a token once
    they have applied the controller's record."""
    token = None
    for _ in attempts(SETTLE, interval=0.1):
        token = token_of(ctx, token_id)
        if done(token):
            break
    return token


def set_up_token(ctx: ProbeContext) -> tuple[str | None, str, int | None]:
    """Set-up: (token id, HMAC, expiry as listed, in ms) of a token the super user creates and sees listed.
    Where the broker has no CreateDelegationToken, nothing is created: a random HMAC, so the observed call is
    still made (and refused)."""
    if not broker_has(ctx, "CreateDelegationToken"):
        return None, base64.b64encode(secrets.token_bytes(32)).decode(), None
    result = perform(ctx.admin, CREATE_DELEGATION_TOKEN, CreateDelegationTokenArgs())
    problem = set_up_error(result)
    if problem is not None:
        raise ProbeFailed(f"set-up: creating a delegation token as the super user gave {problem}")
    fields = result.resources[0].fields
    listed = settled_token(ctx, fields["token_id"], lambda token: token is not None)
    if listed is None:
        raise ProbeFailed(f"set-up: delegation token {fields['token_id']} was created but not listed within "
                          f"{SETTLE:.0f}s")
    return fields["token_id"], fields["hmac"], listed["expiry_timestamp"]
