"""Probes: how each kind of claim is observed, the same way through every client.

A probe makes the cell's admin call through ``ctx.call`` (timed, at the wire
probe's pinned version) and returns the observation under the keys of
``harness.matrix.observables.PROBES``: a key the client or request version
does not have is left out, a value that raised when read is
``{"raised": "ExceptionClass"}``.  Set-up steps go through ``ctx.admin`` (the
super user's wire client) and raise ``ProbeFailed`` on an error.
"""

from __future__ import annotations

from typing import Any

from fixtures.matrix import Probe, ProbeContext, ProbeFailed
from harness.clients import AdminResult, ConfigTarget, NewTopic, ResourceOutcome, error_name
from harness.clients.java import JavaClient


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
    topic = NewTopic(name, args.get("partitions", 1), args.get("replication_factor", 1),
                     configs=dict(args.get("configs", {})))
    result = ctx.call("create_topics", [topic], validate_only=bool(args.get("validate_only", False)))
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
    else:
        target = ConfigTarget("broker", str(ctx.cluster.brokers[0].node_id))
    result = ctx.call("describe_configs", [target], include_synonyms=bool(args.get("include_synonyms", False)),
                      include_documentation=bool(args.get("include_documentation", False)))
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


PROBES: dict[str, Probe] = {"create_topic": create_topic, "describe_configs": describe_configs,
                            "client_methods": client_methods}
