"""CreateTopics: new topics (KIP-525: the broker returns their configs from v5), or only validated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...clients.base import NewTopic
from .. import Operation


@dataclass(frozen=True)
class CreateTopicsArgs:
    topics: Sequence[NewTopic]
    validate_only: bool = False


CREATE_TOPICS = Operation(
    "create_topics", CreateTopicsArgs, "CreateTopics",
    "one result per topic: its error and, where the request version has them, partitions, replication factor "
    "and configs",
    lambda topic: (CreateTopicsArgs([NewTopic(topic, 1, 1, configs={"cleanup.policy": "compact"})], True),
                   CreateTopicsArgs([NewTopic(topic, 1, 1)])), java_class="CreateTopics")
