"""CreateDelegationToken through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

import base64
from typing import Any

from . import CREATE_DELEGATION_TOKEN, CreateDelegationTokenArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 38


def epoch_ms(value: Any) -> int:
    """A response timestamp in epoch ms, as the definitions give it (an int64; -1 in an error's answer)."""
    return int(value)


def send_token_request(client: WireClient, operation: str, api_key: int, version: int | None,
                       build: Any) -> tuple[int, Any | None, int]:
    """(version sent, response, error code) of a token request.  An error's timestamps are -1 and a KRaft
    3.6 expired token's expiry lies past any calendar: numbers of ms, read as they come.  A version the
    broker does not offer is refused as every request is (``WireClient.send``)."""
    sent, response, _ = client.send(operation, api_key, version, build, {})
    return sent, response, int(response.error_code)


def principal(kind: str, name: str) -> tuple[str, str]:
    """``User:alice`` -> (``User``, ``alice``)."""
    found, _, rest = kind.partition(":")
    return found, rest if rest else name


@CREATE_DELEGATION_TOKEN.implement(WireClient)
@observed
def create_delegation_token(client: WireClient, args: CreateDelegationTokenArgs, version: int | None
                            ) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        fields: dict[str, Any] = {  # the owner fields (v3+, KIP-373) left null: the token is the caller's
            "owner_principal_type": None, "owner_principal_name": None, "renewers": (),
            "max_lifetime": args.max_lifetime_ms}
        renewer = nested_type(API_KEY, v, "CreatableRenewers", **fields)
        fields["renewers"] = tuple(renewer(principal_type=t, principal_name=n)
                                   for t, n in (principal(r, "") for r in args.renewers))
        return build_request(API_KEY, v, **fields)

    sent, response, code = send_token_request(client, "create_delegation_token", API_KEY, version, build)
    fields: dict[str, Any] = {}
    if response is not None and code == 0:
        fields = {"token_id": str(response.token_id),
                  "owner": f"{response.principal_type}:{response.principal_name}", "renewers": list(args.renewers),
                  "issue_timestamp": epoch_ms(response.issue_timestamp),
                  "expiry_timestamp": epoch_ms(response.expiry_timestamp),
                  "max_timestamp": epoch_ms(response.max_timestamp),
                  "hmac": base64.b64encode(bytes(response.hmac)).decode()}
    return AdminResult("create_delegation_token", client.kind, client.version, sent,
                       (ResourceOutcome.of("token", code, None, **fields),), tuple(fields))
