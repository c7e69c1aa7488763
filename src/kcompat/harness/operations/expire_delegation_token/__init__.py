"""ExpireDelegationToken (KIP-48): a token's expiry brought forward (a negative period: at once), by its HMAC."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ExpireDelegationTokenArgs:
    hmac: str
    """The token's HMAC, base64."""
    expiry_period_ms: int = -1
    """Negative: the token expires at once."""


EXPIRE_DELEGATION_TOKEN = Operation(
    "expire_delegation_token", ExpireDelegationTokenArgs, "ExpireDelegationToken",
    "one result, `token`: its error and `expiry_timestamp` (epoch ms)",
    lambda topic: (ExpireDelegationTokenArgs("a2NvbXBhdA=="),), java_class="ExpireDelegationToken")
