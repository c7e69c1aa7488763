"""CreateTopics on a cluster running the kcompat create-topic policy, and what the policy received."""

from __future__ import annotations

import json
from typing import Any

from ...clients import NewTopic
from . import CREATE_TOPICS, CreateTopicsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common, metadata, simple_name
from ...waiting import attempts

POLICY_RECORDS = "kcompat-create-topic-policy.jsonl"
"""Where src/kcompat/fixtures/plugins/create_topic_policy records each validate() call, beside each node's log dir."""


def _policy_records(ctx: ProbeContext, topic: str) -> list[dict[str, Any]]:
    """What the cluster's create-topic policy recorded receiving for ``topic`` (every node's file)."""
    found = []
    for path in sorted(ctx.cluster.run_dir.rglob(POLICY_RECORDS)):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record.get("topic") == topic:
                found.append(record)
    return found


def _existing(ctx: ProbeContext, names: set[str], succeeded: set[str]) -> set[str]:
    """Which of ``names`` Metadata lists, once those whose create succeeded appear (bounded): KRaft brokers
    apply new topics after the controller has answered."""
    existing: set[str] = set()
    for _ in attempts(SETTLE, interval=0.1):
        response, _version = metadata(ctx, controller=True)
        existing = {str(t.name) for t in response.topics if int(t.error_code) == 0} & names
        if succeeded <= existing:
            break
    return existing


@probe(ProbeSpec("create_topic_policy", COMMON | {"created", "other_error", "other_error_message", "other_created",
                                                   "policy_calls", "policy.topic", "policy.num_partitions",
                                                   "policy.replication_factor", "policy.assignments", "policy.configs",
                                                   "policy.broker_configs"},
                 {"prefix": str, "partitions": int, "replication_factor": int, "configs": dict, "assignments": dict,
                  "validate_only": bool, "other": bool},
                 about="CreateTopics of a topic named `prefix`-... (and with `other`, an allowed topic in the same "
                       "request) on a cluster running the kcompat create-topic policy; `policy.*` is what the policy "
                       "recorded it received for the first topic"))
def create_topic_policy(ctx: ProbeContext) -> dict[str, Any]:
    """CreateTopics of a topic (and optionally an allowed one beside it) on a cluster running the policy."""
    args = ctx.args
    name = ctx.topic(args.get("prefix", "forbidden"))
    assignments = {int(p): list(ids) for p, ids in args.get("assignments", {}).items()} or None
    topics = [NewTopic(name, args.get("partitions", 1), args.get("replication_factor", 1), assignments=assignments,
                       configs=dict(args.get("configs", {})))]
    other = ctx.topic("allowed") if args.get("other") else None
    if other is not None:
        topics.append(NewTopic(other, 1, 1))
    result = ctx.call(CREATE_TOPICS, CreateTopicsArgs(topics, bool(args.get("validate_only", False))))
    observed, _ = common(result)
    outcomes = {r.resource: r for r in result.resources}
    if name in outcomes:  # the first topic's, whatever order the client lists its results in (a Java map's)
        observed["error"], observed["error_message"] = outcomes[name].error_name, outcomes[name].error_message
        observed["exception"] = simple_name(result.exception or outcomes[name].exception)
    asked = {name, *([other] if other else [])}
    succeeded = set() if args.get("validate_only") else {n for n in asked if n in outcomes
                                                         and outcomes[n].error_name == "NONE"}
    existing = _existing(ctx, asked, succeeded)
    observed["created"] = name in existing
    if other is not None:
        if other in outcomes:
            observed["other_error"] = outcomes[other].error_name
            observed["other_error_message"] = outcomes[other].error_message
        observed["other_created"] = other in existing
    received = _policy_records(ctx, name)
    observed["policy_calls"] = len(received)
    if received:
        first = received[0]
        observed["policy.topic"] = first["topic"] == name
        for key in ("num_partitions", "replication_factor", "broker_configs"):
            observed[f"policy.{key}"] = first[key]
        # as lists, which claims compare literally (a TOML table would read as a matcher)
        assigned = first["assignments"]
        observed["policy.assignments"] = (None if assigned is None else
                                          [[int(p), ids] for p, ids in sorted(assigned.items(), key=lambda i: int(i[0]))])
        observed["policy.configs"] = [f"{k}={v}" for k, v in sorted(first["configs"].items())]
    return observed
