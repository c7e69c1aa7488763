"""Probes: how each kind of claim is observed, the same way through every client.

A probe makes the cell's admin call through ``ctx.call`` with a declared
operation and its typed arguments (``harness.operations``; timed, at the wire
probe's pinned version) and returns the observation under the keys of
``harness.matrix.observables.PROBES``: a key the client or request version
does not have is left out, a value that raised when read is
``{"raised": "ExceptionClass"}``.  Set-up steps go through ``ctx.admin`` (the
super user's wire client) and raise ``ProbeFailed`` on an error.
"""

from __future__ import annotations

import json
import time
from typing import Any


from harness.matrix.probe import Probe, ProbeContext, ProbeFailed
from harness.clients import (AclSpec, AdminResult, ConfigTarget, NewPartitions, NewTopic, ResourceOutcome, error_name,
                             kind)
from harness.clients.java import JavaClient
from harness.clients.wire import plain
from harness.operations.create_acls import CREATE_ACLS, CreateAclsArgs
from harness.operations.create_partitions import CREATE_PARTITIONS, CreatePartitionsArgs
from harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from harness.operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from harness.operations.describe_topics import DESCRIBE_TOPICS, DescribeTopicsArgs
from harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs
from harness.protocol import METADATA, build_request, encoded_size, client_versions, metadata_request, pick_version, request_fields

POLICY_RECORDS = "kcompat-create-topic-policy.jsonl"
"""Where fixtures/plugins/create_topic_policy records each validate() call, beside each node's log dir."""
FIND_COORDINATOR = 10
SETTLE = 30.0


def _simple(name: str | None) -> str | None:
    return None if name is None else name.rsplit(".", 1)[-1]


def _common(result: AdminResult) -> tuple[dict[str, Any], ResourceOutcome | None]:
    """error, error_message, exception and unsupported_options of a one-resource call."""
    outcome = result.resources[0] if result.resources else None
    observed: dict[str, Any] = {"exception": _simple(result.exception or (outcome.exception if outcome else None))}
    if outcome is not None:
        observed["error"] = outcome.error_name
        observed["error_message"] = outcome.error_message
    if result.unsupported_options:
        observed["unsupported_options"] = list(result.unsupported_options)
    return observed, outcome


def _field(fields: dict[str, Any], name: str) -> Any:
    """A result field as observed: its value, ``{"raised": ...}`` if reading it threw, or None if absent."""
    if f"{name}.exception" in fields:
        return {"raised": _simple(fields[f"{name}.exception"])}
    return fields[name]


def _configs(observed: dict[str, Any], entries: list[dict[str, Any]] | None, keys: frozenset[str]) -> None:
    """The entries' shape and the attributes of each config a claim names (``config.<name>.<attribute>``)."""
    if entries is None:
        return
    by_name = {e["name"]: e for e in entries}
    observed["entry_fields"] = sorted({k for e in entries for k in e if k != "name"})
    for key in sorted(k for k in keys if k.startswith("config.")):
        name, _, attribute = key[len("config."):].rpartition(".")
        entry = by_name.get(name)
        if entry is not None and attribute in entry:
            observed[key] = entry[attribute]


def create_topic(ctx: ProbeContext) -> dict[str, Any]:
    """CreateTopics of one new topic; ``created`` is settled by creating it again as the super user."""
    name = ctx.topic("kc")
    args = ctx.args
    ctx.grant_topic(name)
    topic = NewTopic(name, args.get("partitions", 1), args.get("replication_factor", 1),
                     configs=dict(args.get("configs", {})))
    result = ctx.call(CREATE_TOPICS, CreateTopicsArgs([topic], bool(args.get("validate_only", False))))
    observed, outcome = _common(result)
    fields = dict(outcome.fields) if outcome is not None else {}
    for key in ("num_partitions", "replication_factor"):
        if key in fields:
            observed[key] = _field(fields, key)
    if "topic_config_error_code" in fields:
        observed["topic_config_error"] = error_name(int(fields["topic_config_error_code"]))
    if "configs" in fields:
        configs = _field(fields, "configs")
        if isinstance(configs, list):
            observed["configs"] = len(configs)
            _configs(observed, configs, ctx.keys)
        else:
            observed["configs"] = configs
    if "created" in ctx.keys:
        again = ctx.admin.create_topics([NewTopic(name, 1, 1)])
        code = again.resources[0].error_name if again.resources else again.exception
        if code not in ("NONE", "TOPIC_ALREADY_EXISTS"):
            raise ProbeFailed(f"checking whether {name} exists: creating it again as the super user gave {code}")
        observed["created"] = code == "TOPIC_ALREADY_EXISTS"
    return observed


def describe_configs(ctx: ProbeContext) -> dict[str, Any]:
    """DescribeConfigs of a new topic (created by the super user) or of the first broker."""
    args = ctx.args
    if args.get("resource", "topic") == "topic":
        target = ConfigTarget("topic", ctx.topic("kc"))
        ctx.create_topic(target.name, args.get("topic_configs"))
        ctx.grant_topic(target.name)
    else:
        target = ConfigTarget("broker", str(ctx.cluster.brokers[0].node_id))
    result = ctx.call(DESCRIBE_CONFIGS, DescribeConfigsArgs([target], bool(args.get("include_synonyms", False)),
                                                            bool(args.get("include_documentation", False))))
    observed, outcome = _common(result)
    entries = outcome.fields.get("configs") if outcome is not None else None
    if isinstance(entries, list):
        observed["configs"] = len(entries)
        _configs(observed, entries, ctx.keys)
        if any("type" in e for e in entries):
            observed["types"] = sorted({str(e.get("type")) for e in entries})
        if any("documentation" in e for e in entries):
            observed["documented_entries"] = sum(1 for e in entries if e.get("documentation"))
    return observed


def client_methods(ctx: ProbeContext) -> dict[str, Any]:
    """The public methods of a class of the client library, as the library itself reports them."""
    if not isinstance(ctx.client, JavaClient):
        raise ProbeFailed(f"{ctx.cell.client} has no class library to inspect (client_methods is for java clients)")
    methods = ctx.client.public_methods(str(ctx.args["class"]))
    return {"exception": "ClassNotFoundException"} if methods is None else {"methods": list(methods), "exception": None}


def _metadata(ctx: ProbeContext, version: int | None = None, *, controller: bool = False) -> tuple[Any, int]:
    """Metadata for every topic as the super user (from the controller where asked), and the version sent."""
    address = ctx.admin.controller() if controller else None
    conn, offered = ctx.admin.connection(address)
    newest = client_versions(METADATA)[-1]  # a client may send a Metadata version kio can't: the newest kio has
    chosen = min(version, newest) if version is not None else max(1, pick_version(METADATA, offered))
    return conn.send(metadata_request(chosen, None if chosen >= 1 else ())), chosen  # v0: empty means all


def _topic_partitions(ctx: ProbeContext, name: str) -> list[Any] | None:
    """The topic's partitions (by index) as the controller's Metadata shows them; None if it has no such topic."""
    response, _ = _metadata(ctx, controller=True)
    for topic in response.topics:
        if str(topic.name) == name and int(topic.error_code) == 0:
            return sorted(topic.partitions, key=lambda p: int(p.partition_index))
    return None


def _await_partitions(ctx: ProbeContext, name: str, count: int) -> None:
    """Set-up: wait (bounded) until the controller's Metadata shows the new topic with ``count`` partitions."""
    deadline = time.monotonic() + SETTLE
    while (partitions := _topic_partitions(ctx, name)) is None or len(partitions) != count:
        if time.monotonic() > deadline:
            raise ProbeFailed(f"set-up: {name} did not show {count} partition(s) in Metadata within {SETTLE:.0f}s")
        time.sleep(0.1)


def _settled(ctx: ProbeContext, name: str, initial: int, partitions: list[Any] | None) -> list[Any] | None:
    """After a successful call, the partitions once Metadata shows the change (bounded): KRaft brokers apply
    metadata after the controller answers, so ``partitions_after`` (read at once) may still show the old count;
    what changed is judged on the settled view, how soon on the immediate one."""
    deadline = time.monotonic() + SETTLE
    while (partitions is None or len(partitions) == initial) and time.monotonic() < deadline:
        time.sleep(0.1)
        partitions = _topic_partitions(ctx, name)
    return partitions


def create_partitions(ctx: ProbeContext) -> dict[str, Any]:
    """CreatePartitions of a topic made by the super user; Metadata read back as soon as the call returns."""
    args = ctx.args
    target = args.get("target", "existing")
    name = ctx.topic("kc")
    initial = args.get("initial", 1)
    if target != "unknown":
        ctx.create_topic(name, partitions=initial, replication_factor=args.get("replication_factor", 1))
        _await_partitions(ctx, name, initial)
        ctx.grant_topic(name)
    assignments = args.get("assignments")
    request = [NewPartitions(name, args["count"], assignments)] * (2 if target == "duplicate" else 1)
    broker: tuple[str, int] | None = None
    if args.get("send_to") == "non_controller":
        if not kind(ctx.cell.client.kind).chooses_broker:
            raise ProbeFailed("send_to = non_controller is for a client that chooses its broker (the wire probe; "
                              "other clients pick the broker)")
        controller = ctx.admin.controller()
        others = [(b.host, b.port) for b in ctx.cluster.brokers if (b.host, b.port) != controller]
        if not others:
            raise ProbeFailed("send_to = non_controller needs a cluster of two or more nodes")
        broker = others[0]
    validate_only = bool(args.get("validate_only", False))
    result = ctx.call(CREATE_PARTITIONS, CreatePartitionsArgs(request, validate_only, broker))
    observed, _ = _common(result)
    partitions = _topic_partitions(ctx, name)
    observed["partitions_after"] = None if partitions is None else len(partitions)
    if observed.get("error") == "NONE" and not validate_only:
        partitions = _settled(ctx, name, initial, partitions)
    observed["changed"] = partitions is not None and len(partitions) != initial
    if partitions is not None:
        added = [p for p in partitions if int(p.partition_index) >= initial]
        observed["replicas_after"] = [[int(r) for r in p.replica_nodes] for p in added]
        observed["leaders_after"] = [int(p.leader_id) for p in added]
    return observed


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
    deadline = time.monotonic() + SETTLE
    while True:
        response, _ = _metadata(ctx, controller=True)
        existing = {str(t.name) for t in response.topics if int(t.error_code) == 0} & names
        if succeeded <= existing or time.monotonic() >= deadline:
            return existing
        time.sleep(0.1)


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
    observed, _ = _common(result)
    outcomes = {r.resource: r for r in result.resources}
    if name in outcomes:
        observed["error"], observed["error_message"] = outcomes[name].error_name, outcomes[name].error_message
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


def _make_consumer_offsets(ctx: ProbeContext) -> None:
    """Set-up: FindCoordinator makes the broker create __consumer_offsets (an internal topic); wait for it."""
    conn, offered = ctx.admin.connection()
    version = pick_version(FIND_COORDINATOR, offered)
    fields = request_fields(FIND_COORDINATOR, version)
    values: dict[str, Any] = ({"coordinator_keys": ("kcompat-internal",), "key_type": 0} if "coordinator_keys" in fields
                              else {"key": "kcompat-internal", "key_type": 0} if "key" in fields
                              else {"group_id": "kcompat-internal"})
    deadline = time.monotonic() + SETTLE
    while True:
        conn.send(build_request(FIND_COORDINATOR, version, **values))
        response, _ = _metadata(ctx)
        if any(str(t.name) == "__consumer_offsets" for t in response.topics):
            return
        if time.monotonic() > deadline:
            raise ProbeFailed(f"set-up: __consumer_offsets did not appear within {SETTLE:.0f}s of FindCoordinator")
        time.sleep(0.2)


def _response_fields(response: Any) -> list[str]:
    """The Metadata response's fields that carry something beyond topic names (``topics.partitions`` too)."""
    raw = plain(response)
    present = [key for key, value in raw.items() if key != "topics" and value is not None]
    if any("partitions" in topic for topic in raw.get("topics", [])):
        present.append("topics.partitions")
    return sorted(present)


def list_topics(ctx: ProbeContext) -> dict[str, Any]:
    """The client's listTopics; the Metadata response it rests on, re-read at the version the client sent."""
    args = ctx.args
    advertised = ctx.cluster.api_versions
    observed: dict[str, Any] = {
        "list_topics_api": any(r.name == "ListTopics" for r in advertised),
        "api_names": sorted(r.name or f"api-{r.api_key}" for r in advertised),
    }
    name = ctx.topic("kc")
    ctx.create_topic(name)
    if args.get("internal_topic"):
        _make_consumer_offsets(ctx)
    hidden = ctx.topic("hidden") if args.get("hidden_topic") else None
    if hidden is not None:
        ctx.create_topic(hidden)
    result = ctx.call(LIST_TOPICS, ListTopicsArgs(bool(args.get("list_internal", True))))
    observed["exception"] = _simple(result.exception)
    observed["request_version"] = result.request_version
    if result.unsupported_options:
        observed["unsupported_options"] = list(result.unsupported_options)
    if result.exception is None:
        listed = {r.resource for r in result.resources}
        observed["created_listed"] = name in listed
        if args.get("internal_topic"):
            observed["internal_listed"] = "__consumer_offsets" in listed
        if hidden is not None:
            observed["hidden_listed"] = hidden in listed
    response, _ = _metadata(ctx, result.request_version)
    observed["response_fields"] = _response_fields(response)
    observed["response_bytes"] = encoded_size(response)
    return observed


def create_acls(ctx: ProbeContext) -> dict[str, Any]:
    """CreateAcls of one binding as the cell's user; ``created`` is settled by listing the topic's ACLs as the
    super user (DescribeAcls, or ZooKeeper where the broker has no DescribeAcls; bounded: a KRaft broker lists
    a new ACL once it has applied the controller's record)."""
    binding = AclSpec("topic", ctx.topic("acl"), "User:kcompat-nobody", "READ")
    result = ctx.call(CREATE_ACLS, CreateAclsArgs([binding]))
    observed, _ = _common(result)
    deadline = time.monotonic() + (SETTLE if observed.get("error") == "NONE" else 0.0)
    while True:
        observed["created"] = binding.label in ctx.listed_acls("topic", binding.resource_name)
        if observed["created"] or time.monotonic() >= deadline:
            return observed
        time.sleep(0.1)


def describe_topics_listing(ctx: ProbeContext) -> dict[str, Any]:
    """Which of two topics the user sees through Metadata and through describe-topics (DescribeTopicPartitions
    where the client and broker have it), the user being granted Describe on the first only."""
    shown, hidden = ctx.topic("shown"), ctx.topic("hidden")
    for name in (shown, hidden):
        ctx.create_topic(name)
    ctx.grant([AclSpec("topic", shown, ctx.principal, "DESCRIBE")])
    labels = {shown: "shown", hidden: "hidden"}
    listed = ctx.client.list_topics()  # not ctx.call: the cell's request_version is DescribeTopicPartitions'
    observed: dict[str, Any] = {"exception": _simple(listed.exception)}
    if listed.exception is None:
        observed["metadata_listed"] = sorted(labels[r.resource] for r in listed.resources if r.resource in labels
                                             and r.error_code == 0)
    # a client with the API's listing mode (the wire probe) lists (no names); the others can only describe names
    listing = kind(ctx.cell.client.kind).lists_by_describe
    described = ctx.call(DESCRIBE_TOPICS, DescribeTopicsArgs(() if listing else [shown, hidden]))
    observed["exception"] = observed["exception"] or _simple(described.exception)
    observed["request_version"] = described.request_version
    if described.exception is None:
        outcomes = {r.resource: r for r in described.resources}
        observed["described"] = sorted(labels[n] for n, r in outcomes.items() if n in labels and r.error_code == 0)
        if hidden in outcomes:
            observed["hidden_error"] = outcomes[hidden].error_name
    return observed


PROBES: dict[str, Probe] = {"create_topic": create_topic, "describe_configs": describe_configs,
                            "client_methods": client_methods, "create_partitions": create_partitions,
                            "create_topic_policy": create_topic_policy, "list_topics": list_topics,
                            "create_acls": create_acls, "describe_topics_listing": describe_topics_listing}
