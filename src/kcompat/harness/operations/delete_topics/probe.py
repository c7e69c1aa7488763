"""DeleteTopics of a topic the super user made, by name or by its topic id, as the cell's client."""

from __future__ import annotations

import uuid
from typing import Any

from . import DELETE_TOPICS, DeleteTopicsArgs
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ...matrix.setups.topics import gone, new_topic, topic_entry


@probe(ProbeSpec("delete_topics", COMMON | {"deleted"}, {"by": str, "as_user": str, "topic_acl": str},
                 about="DeleteTopics of a new topic the super user made, `by` `name` (default) or `id` (its topic "
                       "id from Metadata v10+; a random id where the broker has none); `deleted` is whether "
                       "Metadata (as the super user) then stops listing it"))
def delete_topics(ctx: ProbeContext) -> dict[str, Any]:
    """DeleteTopics of one new topic; ``deleted`` waits (bounded) for Metadata to drop it."""
    by = ctx.args.get("by", "name")
    if by not in ("name", "id"):
        raise ProbeFailed(f"delete_topics deletes by name or id, not {by!r}")
    name = new_topic(ctx)
    if by == "id":
        entry = topic_entry(ctx, name)
        topic_id = getattr(entry, "topic_id", None)
        args = DeleteTopicsArgs(topic_ids=[str(topic_id or uuid.uuid4())])
    else:
        args = DeleteTopicsArgs([name])
    observed, _ = common(ctx.call(DELETE_TOPICS, args))
    observed["deleted"] = gone(ctx, name) if observed.get("error") == "NONE" else topic_entry(ctx, name) is None
    return observed
