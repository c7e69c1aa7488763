"""RenewDelegationToken through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

import base64
from typing import Any

from . import RENEW_DELEGATION_TOKEN, RenewDelegationTokenArgs
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ..create_delegation_token.wire import epoch_ms, send_token_request

API_KEY = 39


@RENEW_DELEGATION_TOKEN.implement(WireClient)
@observed
def renew_delegation_token(client: WireClient, args: RenewDelegationTokenArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(API_KEY, v, hmac=base64.b64decode(args.hmac),
                             renew_period=args.renew_period_ms)

    sent, response, code = send_token_request(client, "renew_delegation_token", API_KEY, version, build)
    fields = {"expiry_timestamp": epoch_ms(response.expiry_timestamp)} if response is not None and code == 0 else {}
    return AdminResult("renew_delegation_token", client.kind, client.version, sent,
                       (ResourceOutcome.of("token", code, None, **fields),), ("expiry_timestamp",))
