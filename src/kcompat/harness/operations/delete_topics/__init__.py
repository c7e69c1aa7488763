"""DeleteTopics: topics by name, or (KIP-516, DeleteTopics v6+) by topic id."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DeleteTopicsArgs:
    names: Sequence[str] = ()
    topic_ids: Sequence[str] = ()
    """Topic ids (a UUID's text) to delete by id: the Java client's ``TopicCollection.ofTopicIds``; each result
    is named by its id."""


DELETE_TOPICS = Operation(
    "delete_topics", DeleteTopicsArgs, "DeleteTopics", "one result per topic (named by name, or by id): its error",
    lambda topic: (DeleteTopicsArgs([topic]),), java_class="DeleteTopics")
