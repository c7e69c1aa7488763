"""The client's list of topics (Metadata underneath; KIP-142's ListTopics was never adopted)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListTopicsArgs:
    list_internal: bool = True
    """False hides internal topics where the client has the option (reported as unsupported where not)."""


LIST_TOPICS = Operation(
    "list_topics", ListTopicsArgs, "Metadata", "one result per topic, sorted by name, with its partition count",
    lambda topic: (ListTopicsArgs(),), java_class="ListTopics")
