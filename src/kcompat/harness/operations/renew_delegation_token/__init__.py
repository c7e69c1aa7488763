"""RenewDelegationToken (KIP-48): a token's expiry moved on, by its HMAC."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class RenewDelegationTokenArgs:
    hmac: str
    """The token's HMAC, base64."""
    renew_period_ms: int = -1
    """-1: the broker's delegation.token.expiry.time.ms."""


RENEW_DELEGATION_TOKEN = Operation(
    "renew_delegation_token", RenewDelegationTokenArgs, "RenewDelegationToken",
    "one result, `token`: its error and `expiry_timestamp` (epoch ms)",
    lambda topic: (RenewDelegationTokenArgs("a2NvbXBhdA=="),), java_class="RenewDelegationToken")
