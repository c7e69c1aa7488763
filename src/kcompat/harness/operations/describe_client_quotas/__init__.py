"""DescribeClientQuotas (KIP-546): the quotas of the entities one filter matches."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .. import Operation


def entity_label(entity: Mapping[str, str | None]) -> str:
    """A quota entity as every client names it: ``user=alice`` (``<default>`` for a default entity),
    its components sorted by type and joined by ``,``."""
    return ",".join(f"{t}={'<default>' if n is None else n}" for t, n in sorted(entity.items()))


@dataclass(frozen=True)
class DescribeClientQuotasArgs:
    entity_type: str
    """``user``, ``client-id`` or ``ip``: the filter's one component."""
    entity_name: str | None = None
    """The exact name matched; None matches the type's default entity."""
    strict: bool = False


DESCRIBE_CLIENT_QUOTAS = Operation(
    "describe_client_quotas", DescribeClientQuotasArgs, "DescribeClientQuotas",
    "one result for the filter: its error and `entries`, entity label -> {quota key: value}",
    lambda topic: (DescribeClientQuotasArgs("user", topic),), java_class="DescribeClientQuotas")
