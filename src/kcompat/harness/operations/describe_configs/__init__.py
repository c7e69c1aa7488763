"""DescribeConfigs: the configs of topics or brokers (KIP-569: types and documentation from v3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...clients.base import ConfigTarget
from .. import Operation


@dataclass(frozen=True)
class DescribeConfigsArgs:
    targets: Sequence[ConfigTarget]
    include_synonyms: bool = False
    include_documentation: bool = False


DESCRIBE_CONFIGS = Operation(
    "describe_configs", DescribeConfigsArgs, "DescribeConfigs",
    "one result per resource (``topic:name``, ``broker:id``) with its config entries under neutral names",
    lambda topic: (DescribeConfigsArgs([ConfigTarget("topic", topic)], True, True),), java_class="DescribeConfigs")
