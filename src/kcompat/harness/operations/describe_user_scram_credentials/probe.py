"""DescribeUserScramCredentials through the cell's client of a user the super user gave a credential and of one
nobody did."""

from __future__ import annotations

from typing import Any

import secrets

from .. import perform
from ..alter_user_scram_credentials import (
    ALTER_USER_SCRAM_CREDENTIALS,
    AlterUserScramCredentialsArgs,
    ScramUpsertion,
)
from . import (
    DESCRIBE_USER_SCRAM_CREDENTIALS,
    DescribeUserScramCredentialsArgs,
)
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common, simple_name
from ..describe_client_quotas.probe import broker_has, set_up_error


@probe(ProbeSpec("describe_user_scram_credentials", COMMON | {"credentials", "unknown_error"},
                 {"mechanism": str, "iterations": int},
                 about="DescribeUserScramCredentials of two new users in one call: the first given a `mechanism` "
                       "(default SCRAM_SHA_256) credential of `iterations` (default 8192) by the super user (where "
                       "the broker has AlterUserScramCredentials), the second none; `credentials`: the first's "
                       "[{mechanism, iterations}], `unknown_error`: the second's error"))
def describe_user_scram_credentials(ctx: ProbeContext) -> dict[str, Any]:
    mechanism = ctx.args.get("mechanism", "SCRAM_SHA_256")
    iterations = int(ctx.args.get("iterations", 8192))
    user, unknown = ctx.topic("kc-scram-user"), ctx.topic("kc-scram-nobody")
    if broker_has(ctx, "AlterUserScramCredentials"):
        upsert_credential(ctx, user, mechanism, iterations)
    result = ctx.call(DESCRIBE_USER_SCRAM_CREDENTIALS, DescribeUserScramCredentialsArgs([user, unknown]))
    observed, outcome = common(result)
    by_user = {r.resource: r for r in result.resources}
    if outcome is not None and user in by_user:  # the first user's outcome, whatever order the client lists them in
        mine = by_user[user]
        observed["error"], observed["error_message"] = mine.error_name, mine.error_message
        observed["exception"] = simple_name(result.exception or mine.exception)
        if mine.fields.get("credentials") is not None:
            observed["credentials"] = mine.fields["credentials"]
    if unknown in by_user:
        observed["unknown_error"] = by_user[unknown].error_name
    return observed


def credentials_of(ctx: ProbeContext, user: str) -> tuple[str, list[dict[str, Any]] | None]:
    """(error, credentials) of ``user`` as the super user describes them."""
    result = perform(ctx.admin, DESCRIBE_USER_SCRAM_CREDENTIALS, DescribeUserScramCredentialsArgs([user]))
    outcome = result.resources[0] if result.resources else None
    if result.exception or outcome is None or outcome.resource != user:
        raise ProbeFailed(f"set-up: describing the SCRAM credentials of {user} as the super user gave "
                          f"{result.exception or (outcome.error_name if outcome else 'no result')}")
    return outcome.error_name, outcome.fields.get("credentials")


def settled_credentials(ctx: ProbeContext, user: str, done: Any) -> tuple[str, list[dict[str, Any]] | None]:
    """The user's (error, credentials) once ``done(error, credentials)`` holds or SETTLE has passed."""
    seen: tuple[str, list[dict[str, Any]] | None] = ("NONE", None)
    for _ in attempts(SETTLE, interval=0.1):
        seen = credentials_of(ctx, user)
        if done(*seen):
            break
    return seen


def upsert_credential(ctx: ProbeContext, user: str, mechanism: str, iterations: int) -> None:
    """Set-up: the super user gives ``user`` a SCRAM credential and waits until it is described."""
    upsertion = ScramUpsertion(user, secrets.token_urlsafe(12), mechanism, iterations)
    outcome = set_up_error(perform(ctx.admin, ALTER_USER_SCRAM_CREDENTIALS, AlterUserScramCredentialsArgs([upsertion])))
    if outcome is not None:
        raise ProbeFailed(f"set-up: upserting a {mechanism} credential of {user} as the super user gave {outcome}")
    error, _ = settled_credentials(ctx, user, lambda error, found: error == "NONE" and bool(found))
    if error != "NONE":
        raise ProbeFailed(f"set-up: {user}'s credential was upserted but not described within {SETTLE:.0f}s "
                          f"({error})")
