"""DescribeDelegationToken (KIP-48): the tokens the caller owns, may renew or may describe."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeDelegationTokenArgs:
    owners: Sequence[str] | None = None
    """Only tokens of these principals (``User:alice``); None: every token the caller may see."""


DESCRIBE_DELEGATION_TOKEN = Operation(
    "describe_delegation_token", DescribeDelegationTokenArgs, "DescribeDelegationToken",
    "one result, `tokens`: its error and `tokens`, each with the fields of TOKEN_FIELDS but the HMAC",
    lambda topic: (DescribeDelegationTokenArgs(),), java_class="DescribeDelegationToken")
