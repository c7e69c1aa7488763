"""IncrementalAlterConfigs (KIP-339, brokers 2.3+): set, delete, append to or subtract from single configs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ...clients.base import ConfigTarget
from .. import Operation

OpType = Literal["SET", "DELETE", "APPEND", "SUBTRACT"]
OP_TYPES: dict[str, int] = {"SET": 0, "DELETE": 1, "APPEND": 2, "SUBTRACT": 3}
"""Kafka's AlterConfigOp.OpType by wire value."""


@dataclass(frozen=True)
class ConfigOp:
    name: str
    value: str | None
    op: OpType = "SET"


@dataclass(frozen=True)
class AlteredConfigs:
    target: ConfigTarget
    ops: Sequence[ConfigOp]


@dataclass(frozen=True)
class IncrementalAlterConfigsArgs:
    resources: Sequence[AlteredConfigs]
    validate_only: bool = False


INCREMENTAL_ALTER_CONFIGS = Operation(
    "incremental_alter_configs", IncrementalAlterConfigsArgs, "IncrementalAlterConfigs",
    "one result per resource (``topic:name``, ``broker:id``): its error",
    lambda topic: (IncrementalAlterConfigsArgs([AlteredConfigs(ConfigTarget("topic", topic),
                                                               [ConfigOp("retention.ms", "3600000")])], True),),
    java_class="IncrementalAlterConfigs")
