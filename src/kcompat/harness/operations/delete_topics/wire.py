"""Delete topics through the wire client (to the controller), by name or, from DeleteTopics v6, by topic id."""

from __future__ import annotations

import uuid
from typing import Any

from . import DELETE_TOPICS, DeleteTopicsArgs
from ...protocol import build_request, nested_type, pick_version
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import TIMEOUT, WireClient, observed
from ...clients.kinds.wire.shared import nothing_sent

DELETE_TOPICS_KEY = 20
BY_ID_SINCE = 6
"""The first DeleteTopics version that names topics by id (KIP-516)."""


@DELETE_TOPICS.implement(WireClient)
@observed
def delete_topics(client: WireClient, args: DeleteTopicsArgs, version: int | None) -> AdminResult:
    offered = client.api_versions()
    if args.topic_ids and DELETE_TOPICS_KEY in offered:
        chosen = version if version is not None else pick_version(DELETE_TOPICS_KEY, offered)
        if chosen < BY_ID_SINCE:
            return nothing_sent(client, "delete_topics", f"DeleteTopics v{chosen} can't name topics by id",
                                ("topic_ids",))

    def build(v: int, options: dict[str, bool]) -> Any:
        if v < BY_ID_SINCE:
            return build_request(DELETE_TOPICS_KEY, v, topic_names=tuple(args.names), timeout=TIMEOUT)
        state = nested_type(DELETE_TOPICS_KEY, v, "DeleteTopicState", topics=(), timeout=TIMEOUT)
        topics = (tuple(state(name=n, topic_id=None) for n in args.names)
                  + tuple(state(name=None, topic_id=uuid.UUID(i)) for i in args.topic_ids))
        return build_request(DELETE_TOPICS_KEY, v, topics=topics, timeout=TIMEOUT)

    sent, response, _ = client.send("delete_topics", DELETE_TOPICS_KEY, version, build, {}, to_controller=True)
    outcomes = []
    for item in response.responses:
        topic_id = getattr(item, "topic_id", None)
        label = str(item.name) if item.name is not None and not args.topic_ids else str(topic_id)
        outcomes.append(ResourceOutcome.of(label, int(item.error_code), getattr(item, "error_message", None)))
    return AdminResult("delete_topics", client.kind, client.version, sent, tuple(outcomes))
