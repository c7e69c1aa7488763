"""What this kind's newer operations share: the record of a call a release lacks, and the library's types."""

from __future__ import annotations

import sys
from typing import Any

from ...base import AdminResult
from ...confluent import ConfluentClient


def library() -> Any:
    """The confluent_kafka package as ``src/kcompat/harness/clients/confluent.py`` imported it: that module is the one
    that imports the library (a second import would be a second boundary); the operations reach its types
    (TopicPartition, admin.ConfigResource, admin.OffsetSpec) through it."""
    return sys.modules["confluent_kafka"]


def lacks(client: ConfluentClient, operation: str, method: str) -> AdminResult | None:
    """None when ``AdminClient.<method>`` exists in this release; else the record saying it does not (data,
    never an exception: older confluent-kafka lines lack the newer admin calls)."""
    if hasattr(client.library, method):
        return None
    return AdminResult(operation, client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.{method}",
                       librdkafka_version=client.librdkafka_version)
