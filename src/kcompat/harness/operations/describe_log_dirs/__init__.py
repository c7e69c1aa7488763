"""DescribeLogDirs (KIP-113): every log directory of the named brokers, with the replicas each holds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeLogDirsArgs:
    brokers: Sequence[int]
    """Node ids; each broker answers for its own directories, so a client asks each one."""


DESCRIBE_LOG_DIRS = Operation(
    "describe_log_dirs", DescribeLogDirsArgs, "DescribeLogDirs",
    "one result per (broker, log dir), named ``<broker>:<path>``: its error and ``replicas``, each "
    "{topic, partition, size, offset_lag, is_future}; ``total_bytes``/``usable_bytes`` where the version has them",
    lambda topic: (DescribeLogDirsArgs([1]),),
    java_class="DescribeLogDirs")  # node 1: the first of every kcompat cluster and the stub
