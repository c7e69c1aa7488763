"""Which of two topics a user sees through Metadata and through describe-topics."""

from __future__ import annotations

from typing import Any

from ...clients import AclSpec, kind
from . import DESCRIBE_TOPICS, DescribeTopicsArgs
from .. import perform
from ..list_topics import LIST_TOPICS, ListTopicsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import simple_name


@probe(ProbeSpec("describe_topics_listing", frozenset({"exception", "request_version", "metadata_listed", "described",
                                                       "hidden_error"}),
                 {"as_user": str},
                 about="two topics, `as_user` granted Describe on the first (`shown`) only: which of them the "
                       "client's listTopics (Metadata) lists (`metadata_listed`) and which its describe-topics "
                       "call describes without error (`described`: the wire client lists every topic through "
                       "DescribeTopicPartitions, the others describe both by name; `hidden_error` is the error "
                       "for the other); `request_version` is of DescribeTopicPartitions, null if not sent"))
def describe_topics_listing(ctx: ProbeContext) -> dict[str, Any]:
    """Which of two topics the user sees through Metadata and through describe-topics (DescribeTopicPartitions
    where the client and broker have it), the user being granted Describe on the first only."""
    shown, hidden = ctx.topic("shown"), ctx.topic("hidden")
    for name in (shown, hidden):
        ctx.create_topic(name)
    ctx.grant([AclSpec("topic", shown, ctx.principal, "DESCRIBE")])
    labels = {shown: "shown", hidden: "hidden"}
    listed = perform(ctx.client, LIST_TOPICS, ListTopicsArgs())  # not ctx.call: the cell's request_version is
    # DescribeTopicPartitions'
    observed: dict[str, Any] = {"exception": simple_name(listed.exception)}
    if listed.exception is None:
        observed["metadata_listed"] = sorted(labels[r.resource] for r in listed.resources if r.resource in labels
                                             and r.error_code == 0)
    # a client with the API's listing mode (the wire client) lists (no names); the others can only describe names
    listing = kind(ctx.cell.client.kind).lists_by_describe
    described = ctx.call(DESCRIBE_TOPICS, DescribeTopicsArgs(() if listing else [shown, hidden]))
    observed["exception"] = observed["exception"] or simple_name(described.exception)
    observed["request_version"] = described.request_version
    if described.exception is None:
        outcomes = {r.resource: r for r in described.resources}
        observed["described"] = sorted(labels[n] for n, r in outcomes.items() if n in labels and r.error_code == 0)
        if hidden in outcomes:
            observed["hidden_error"] = outcomes[hidden].error_name
    return observed
