"""What several probes share: the common keys of a one-resource call, config entries, Metadata as the super
user, and how long a probe waits for the cluster to settle; for the replica probes, a one-partition topic placed
on chosen brokers, its partition in the controller's Metadata, and a broker's log dirs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...clients import AdminResult, NewTopic, ResourceOutcome
from ...operations import perform
from ...operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from ...operations.describe_log_dirs import DESCRIBE_LOG_DIRS, DescribeLogDirsArgs
from ...protocol import METADATA, client_versions, metadata_request, pick_version
from ...waiting import attempts
from ..probe import ProbeContext, ProbeFailed

DESCRIBE_LOG_DIRS_KEY = 35
SETTLE = 30.0
"""Seconds a probe waits (bounded) for the cluster to show what a call changed."""
COMMON = frozenset({"error", "error_message", "exception", "unsupported_options"})
"""The keys ``common`` fills: a one-resource call's error and exception."""


def simple_name(name: str | None) -> str | None:
    """An exception's class name without its package (Java's and Python's alike), as claims name it."""
    return None if name is None else name.rsplit(".", 1)[-1]


def common(result: AdminResult) -> tuple[dict[str, Any], ResourceOutcome | None]:
    """error, error_message, exception and unsupported_options of a one-resource call."""
    outcome = result.resources[0] if result.resources else None
    observed: dict[str, Any] = {"exception": simple_name(result.exception or (outcome.exception if outcome else None))}
    if outcome is not None:
        observed["error"] = outcome.error_name
        observed["error_message"] = outcome.error_message
    if result.unsupported_options:
        observed["unsupported_options"] = list(result.unsupported_options)
    return observed, outcome


def bare_call(ctx: ProbeContext, why: Exception) -> dict[str, Any]:
    """What a cell observes when its probe's set-up can't be made on this broker and the claim's API is one the
    broker lacks, so that the documented side is the client's refusal whatever was set up: the operation named
    like the probe, made with its first sample call's arguments, as the common keys; ``set_up`` says why the
    probe's own set-up was skipped.  A probe named after no operation keeps its set-up's error."""
    from ...operations import operations

    operation = operations().get(ctx.cell.claim.probe)
    if operation is None:
        raise why
    observed = many_common(ctx.call(operation, operation.samples(ctx.topic("kc-bare"))[0]))
    return {**observed, "set_up": f"skipped: {why}"}


def many_common(result: AdminResult) -> dict[str, Any]:
    """error, error_message, exception and unsupported_options of a call with many results (groups,
    partitions, members): the first result with an error, else NONE; no results and no exception (an empty
    listing) is NONE too."""
    failed = next((r for r in result.resources if r.error_code != 0 or r.exception), None)
    observed: dict[str, Any] = {"exception": simple_name(result.exception or (failed.exception if failed else None))}
    if result.exception is None:
        observed["error"] = failed.error_name if failed else "NONE"
        observed["error_message"] = failed.error_message if failed else None
    if result.unsupported_options:
        observed["unsupported_options"] = list(result.unsupported_options)
    return observed


def config_entries(observed: dict[str, Any], entries: list[dict[str, Any]] | None, keys: frozenset[str]) -> None:
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


def metadata(ctx: ProbeContext, version: int | None = None, *, controller: bool = False) -> tuple[Any, int]:
    """Metadata for every topic as the super user (from the controller where asked), and the version sent."""
    response, chosen, _ = sized_metadata(ctx, version, controller=controller)
    return response, chosen


def sized_metadata(ctx: ProbeContext, version: int | None = None, *,
                   controller: bool = False) -> tuple[Any, int, int]:
    """``metadata`` and the bytes its response body took on the wire (header and frame aside)."""
    address = ctx.admin.controller() if controller else None
    conn, offered = ctx.admin.connection(address)
    newest = client_versions(METADATA)[-1]  # a client may send a Metadata version newer than any definition has
    chosen = min(version, newest) if version is not None else max(1, pick_version(METADATA, offered))
    frame = conn.exchange(metadata_request(chosen, None if chosen >= 1 else ()))  # v0: empty means all
    return conn.decode(frame), chosen, conn.body_size(frame)


# -- the replica probes (log dirs, elections, reassignments) ----------------------------------------------------


def partition(ctx: ProbeContext, name: str) -> Any | None:
    """Partition 0 of topic ``name`` in the first broker's Metadata, or None while it has none: always the same
    broker, so a partition seen once is not lost again (KRaft's Metadata names a random broker as controller,
    and each broker applies metadata in its own time)."""
    response, _ = metadata(ctx)
    for topic in response.topics:
        if str(topic.name) == name and int(topic.error_code) == 0:
            return next((p for p in topic.partitions if int(p.partition_index) == 0), None)
    return None


def replicas_of(found: Any) -> list[int]:
    return [int(r) for r in found.replica_nodes]


def create(ctx: ProbeContext, name: str, replicas: Sequence[int] | None = None) -> Any:
    """Set-up: topic ``name`` with one partition on ``replicas`` (default: where the broker puts one replica),
    awaited (bounded) until Metadata shows it led; its partition entry."""
    nodes = {b.node_id for b in ctx.cluster.brokers}
    if replicas is not None and not set(replicas) <= nodes:
        raise ProbeFailed(f"set-up: replicas {list(replicas)} need brokers the cluster lacks (it has "
                          f"{sorted(nodes)}); name more nodes in the claim's cluster")
    topic = NewTopic(name, 1, 1) if replicas is None else NewTopic(name, assignments={0: list(replicas)})
    result = perform(ctx.admin, CREATE_TOPICS, CreateTopicsArgs([topic]))
    outcome = result.resources[0] if result.resources else None
    if result.exception or outcome is None or outcome.error_code != 0:
        raise ProbeFailed(f"set-up: creating topic {name} as the super user gave "
                          f"{result.exception or (outcome.error_name if outcome else 'no result')}")
    for _ in attempts(SETTLE, interval=0.1):
        found = partition(ctx, name)
        if found is not None and int(found.leader_id) >= 0 and (replicas is None or replicas_of(found) == list(replicas)):
            return found
    raise ProbeFailed(f"set-up: {name} did not show a led partition 0 in Metadata within {SETTLE:.0f}s")


def await_log(ctx: ProbeContext, broker: int, name: str) -> str | None:
    """Set-up: the log dir of ``broker`` holding partition 0 of ``name`` (its current log), awaited (bounded): a
    KRaft broker creates the log after Metadata shows the partition.  None where the broker has no
    DescribeLogDirs to ask."""
    if DESCRIBE_LOG_DIRS_KEY not in {r.api_key for r in ctx.cluster.api_versions}:
        return None
    for _ in attempts(SETTLE, interval=0.1):
        if (found := dir_holding(ctx, broker, name)) is not None:
            return found
    raise ProbeFailed(f"set-up: no log dir of broker {broker} held {name}-0 within {SETTLE:.0f}s")


def dir_holding(ctx: ProbeContext, broker: int, name: str) -> str | None:
    """The log dir of ``broker`` that holds partition 0 of ``name`` as its current (not future) log, if one does."""
    for outcome in log_dirs_of(ctx, broker):
        if any(r["topic"] == name and r["partition"] == 0 and not r["is_future"]
               for r in outcome.fields.get("replicas") or ()):
            return outcome.resource.split(":", 1)[1]
    return None


def log_dirs_of(ctx: ProbeContext, broker: int) -> list[ResourceOutcome]:
    """The log dirs broker ``broker`` reports to the super user (DescribeLogDirs); ProbeFailed if it can't."""
    result = perform(ctx.admin, DESCRIBE_LOG_DIRS, DescribeLogDirsArgs([broker]))
    if result.exception or any(r.error_code != 0 for r in result.resources):
        raise ProbeFailed(f"set-up: DescribeLogDirs of broker {broker} as the super user gave "
                          f"{result.exception or [r.error_name for r in result.resources]}")
    return list(result.resources)


def call_keys(result: AdminResult, outcome: ResourceOutcome | None) -> dict[str, Any]:
    """The common keys of a call whose result has many resources: those of ``outcome``, the one observed
    (None: the call's own exception, else its first resource's)."""
    outcome = outcome or (result.resources[0] if result.resources else None)
    observed: dict[str, Any] = {"exception": simple_name(result.exception or (outcome.exception if outcome else None))}
    if outcome is not None:
        observed["error"] = outcome.error_name
        observed["error_message"] = outcome.error_message
    if result.unsupported_options:
        observed["unsupported_options"] = list(result.unsupported_options)
    return observed
