"""AlterUserScramCredentials through the cell's client: upsert a credential for a new user, or delete the one
the super user gave it; what the super user then describes."""

from __future__ import annotations

import secrets
from typing import Any

from . import (
    ALTER_USER_SCRAM_CREDENTIALS,
    AlterUserScramCredentialsArgs,
    ScramDeletion,
    ScramUpsertion,
)
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ..describe_client_quotas.probe import broker_has
from ..describe_user_scram_credentials.probe import settled_credentials, upsert_credential


@probe(ProbeSpec("alter_user_scram_credentials", COMMON | {"credentials_after", "described_error"},
                 {"action": str, "mechanism": str, "iterations": int},
                 about="AlterUserScramCredentials of a new user: `action` `upsert` (default) gives it a `mechanism` "
                       "(default SCRAM_SHA_256) credential of `iterations` (default 8192), `delete` deletes the one "
                       "the super user gave it; `credentials_after` ([{mechanism, iterations}]) and "
                       "`described_error` are the super user's DescribeUserScramCredentials of it afterwards "
                       "(awaited after a success)"))
def alter_user_scram_credentials(ctx: ProbeContext) -> dict[str, Any]:
    action = ctx.args.get("action", "upsert")
    mechanism = ctx.args.get("mechanism", "SCRAM_SHA_256")
    iterations = int(ctx.args.get("iterations", 8192))
    user = ctx.topic("kc-scram-user")
    if action == "upsert":
        args = AlterUserScramCredentialsArgs([ScramUpsertion(user, secrets.token_urlsafe(12), mechanism, iterations)])
    elif action == "delete":
        if broker_has(ctx, "AlterUserScramCredentials"):
            upsert_credential(ctx, user, mechanism, iterations)
        args = AlterUserScramCredentialsArgs(deletions=[ScramDeletion(user, mechanism)])
    else:
        raise ProbeFailed(f"alter_user_scram_credentials upserts or deletes, not {action!r}")
    observed, _ = common(ctx.call(ALTER_USER_SCRAM_CREDENTIALS, args))
    if observed.get("error") == "NONE":
        error, found = settled_credentials(
            ctx, user, (lambda e, c: e == "NONE" and bool(c)) if action == "upsert" else (lambda e, c: e != "NONE"))
        observed["described_error"] = error
        observed["credentials_after"] = found
    return observed
