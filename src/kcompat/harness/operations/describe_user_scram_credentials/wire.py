"""DescribeUserScramCredentials through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from typing import Any

from . import (
    DESCRIBE_USER_SCRAM_CREDENTIALS,
    SCRAM_MECHANISMS,
    DescribeUserScramCredentialsArgs,
)
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 50


@DESCRIBE_USER_SCRAM_CREDENTIALS.implement(WireClient)
@observed
def describe_user_scram_credentials(client: WireClient, args: DescribeUserScramCredentialsArgs,
                                    version: int | None) -> AdminResult:
    """One outcome per user; a whole-request error (an authorization failure) is one outcome named ``*``."""
    def build(v: int, options: dict[str, bool]) -> Any:
        name = nested_type(API_KEY, v, "UserName", users=None)
        return build_request(API_KEY, v, users=tuple(name(name=u) for u in args.users))

    sent, response, _ = client.send("describe_user_scram_credentials", API_KEY, version, build, {})
    if int(response.error_code) != 0:
        outcomes: tuple[ResourceOutcome, ...] = (
            ResourceOutcome.of("*", int(response.error_code), response.error_message),)
    else:
        outcomes = tuple(ResourceOutcome.of(str(r.user), int(r.error_code), r.error_message, credentials=[
            {"mechanism": SCRAM_MECHANISMS.get(int(c.mechanism), str(c.mechanism)), "iterations": int(c.iterations)}
            for c in r.credential_infos] if int(r.error_code) == 0 else None) for r in response.results)
    return AdminResult("describe_user_scram_credentials", client.kind, client.version, sent, outcomes,
                       ("credentials",))
