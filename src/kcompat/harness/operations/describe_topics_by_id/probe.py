"""describeTopics by topic id as the cell's client, of a topic the super user made."""

from __future__ import annotations

import uuid
from typing import Any

from . import DESCRIBE_TOPICS_BY_ID, DescribeTopicsByIdArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.topics import new_topic, topic_entry
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common


@probe(ProbeSpec("describe_topics_by_id", COMMON | {"name_matches", "partitions"}, {"as_user": str,
                                                                                    "topic_acl": str},
                 about="describeTopics of a new topic by its topic id (Metadata v10+ as the super user; a random id "
                       "where the broker has none); `name_matches` is whether the description names the topic, "
                       "`partitions` its partition count"))
def describe_topics_by_id(ctx: ProbeContext) -> dict[str, Any]:
    """describeTopics by id of one new topic."""
    name = new_topic(ctx)
    topic_id = getattr(topic_entry(ctx, name), "topic_id", None)
    observed, outcome = common(ctx.call(DESCRIBE_TOPICS_BY_ID, DescribeTopicsByIdArgs([str(topic_id or uuid.uuid4())])))
    if outcome is not None and outcome.error_code == 0 and "name" in outcome.fields:
        observed["name_matches"] = outcome.fields["name"] == name
        observed["partitions"] = outcome.fields["partitions"]
    return observed
