"""DescribeDelegationToken through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_DELEGATION_TOKEN, DescribeDelegationTokenArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ..create_delegation_token.wire import epoch_ms, principal

API_KEY = 41


@DESCRIBE_DELEGATION_TOKEN.implement(WireClient)
@observed
def describe_delegation_token(client: WireClient, args: DescribeDelegationTokenArgs, version: int | None
                              ) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        if args.owners is None:
            return build_request(API_KEY, v, owners=None)
        owner = nested_type(API_KEY, v, "DescribeDelegationTokenOwner", owners=None)
        return build_request(API_KEY, v, owners=tuple(owner(principal_type=t, principal_name=n)
                                                      for t, n in (principal(o, "") for o in args.owners)))

    sent, response, _ = client.send("describe_delegation_token", API_KEY, version, build, {})
    code = int(response.error_code)
    tokens = None if code != 0 else [{
        "token_id": str(t.token_id), "owner": f"{t.principal_type}:{t.principal_name}",
        "renewers": [f"{r.principal_type}:{r.principal_name}" for r in t.renewers],
        "issue_timestamp": epoch_ms(t.issue_timestamp), "expiry_timestamp": epoch_ms(t.expiry_timestamp),
        "max_timestamp": epoch_ms(t.max_timestamp)} for t in response.tokens]
    return AdminResult("describe_delegation_token", client.kind, client.version, sent,
                       (ResourceOutcome.of("tokens", code, None, tokens=tokens),), ("tokens",))
