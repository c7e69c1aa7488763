"""CreateDelegationToken (KIP-48): a token owned by the caller; its HMAC is what renew and expire take."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation

TOKEN_FIELDS = ("token_id", "owner", "renewers", "issue_timestamp", "expiry_timestamp", "max_timestamp", "hmac")
"""A token's fields in every client's result: principals as ``User:name``, timestamps in epoch ms, the HMAC in
base64 (for the calls that take it; a probe never observes it)."""


@dataclass(frozen=True)
class CreateDelegationTokenArgs:
    renewers: Sequence[str] = ()
    """Principals (``User:alice``) who may renew the token besides its owner."""
    max_lifetime_ms: int = -1
    """-1: the broker's delegation.token.max.lifetime.ms."""


CREATE_DELEGATION_TOKEN = Operation(
    "create_delegation_token", CreateDelegationTokenArgs, "CreateDelegationToken",
    "one result, `token`: its error and the token's fields (TOKEN_FIELDS)",
    lambda topic: (CreateDelegationTokenArgs(),), java_class="CreateDelegationToken")
