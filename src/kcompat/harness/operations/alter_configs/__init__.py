"""AlterConfigs (the legacy call, deprecated in 2.3 by KIP-339): each resource's whole set of dynamic configs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...clients.base import ConfigTarget
from .. import Operation


@dataclass(frozen=True)
class NewConfigs:
    target: ConfigTarget
    configs: Mapping[str, str]
    """Every dynamic config the resource keeps: the ones left out return to their defaults."""


@dataclass(frozen=True)
class AlterConfigsArgs:
    resources: Sequence[NewConfigs]
    validate_only: bool = False


ALTER_CONFIGS = Operation(
    "alter_configs", AlterConfigsArgs, "AlterConfigs",
    "one result per resource (``topic:name``, ``broker:id``): its error",
    lambda topic: (AlterConfigsArgs([NewConfigs(ConfigTarget("topic", topic), {"retention.ms": "3600000"})],
                                    True),), java_class="AlterConfigs")
