"""AlterClientQuotas (KIP-546): quota values set (or removed, a None value) for one entity."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class AlterClientQuotasArgs:
    entity: Mapping[str, str | None]
    """Entity type -> name (None: the type's default entity): ``{"user": "alice"}``."""
    quotas: Mapping[str, float | None]
    """Quota key -> its new value, None to remove it: ``{"producer_byte_rate": 1024.0}``."""
    validate_only: bool = False


ALTER_CLIENT_QUOTAS = Operation(
    "alter_client_quotas", AlterClientQuotasArgs, "AlterClientQuotas",
    "one result for the entity (named by `entity_label`): its error",
    lambda topic: (AlterClientQuotasArgs({"user": topic}, {"producer_byte_rate": 1024.0}, True),),
    java_class="AlterClientQuotas")
