"""CreateTopics of one new topic as the cell's client."""

from __future__ import annotations

from typing import Any

from ...clients import NewTopic, error_name
from . import CREATE_TOPICS, CreateTopicsArgs
from .. import perform
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common, config_entries, simple_name


def _field(fields: dict[str, Any], name: str) -> Any:
    """A result field as observed: its value, ``{"raised": ...}`` if reading it threw, or None if absent."""
    if f"{name}.exception" in fields:
        return {"raised": simple_name(fields[f"{name}.exception"])}
    return fields[name]


@probe(ProbeSpec("create_topic", COMMON | {"num_partitions", "replication_factor", "configs", "topic_config_error",
                                            "created", "entry_fields"},
                 {"partitions": int, "replication_factor": int, "configs": dict, "validate_only": bool,
                  "as_user": str, "topic_acl": str},
                 config_keys=True,
                 about="CreateTopics of one new topic; `created` asks Metadata (as the super user) afterwards; "
                       "`topic_acl`: the super user first grants `as_user` this operation on the topic's name"))
def create_topic(ctx: ProbeContext) -> dict[str, Any]:
    """CreateTopics of one new topic; ``created`` is settled by creating it again as the super user."""
    name = ctx.topic("kc")
    args = ctx.args
    ctx.grant_topic(name)
    topic = NewTopic(name, args.get("partitions", 1), args.get("replication_factor", 1),
                     configs=dict(args.get("configs", {})))
    result = ctx.call(CREATE_TOPICS, CreateTopicsArgs([topic], bool(args.get("validate_only", False))))
    observed, outcome = common(result)
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
            config_entries(observed, configs, ctx.keys)
        else:
            observed["configs"] = configs
    if "created" in ctx.keys:
        again = perform(ctx.admin, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
        code = again.resources[0].error_name if again.resources else again.exception
        if code not in ("NONE", "TOPIC_ALREADY_EXISTS"):
            raise ProbeFailed(f"checking whether {name} exists: creating it again as the super user gave {code}")
        observed["created"] = code == "TOPIC_ALREADY_EXISTS"
    return observed
