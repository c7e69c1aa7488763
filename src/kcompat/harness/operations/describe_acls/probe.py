"""DescribeAcls through the cell's client with a filter, over two bindings the super user granted."""

from __future__ import annotations

from typing import Any

from ...clients import AclSpec
from . import DESCRIBE_ACLS, AclFilter, DescribeAclsArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common


@probe(ProbeSpec("describe_acls", COMMON | {"matched", "filtered_out", "binding_count"}, {"by": str},
                 about="DescribeAcls of a topic the super user granted READ (to one principal) and WRITE (to "
                       "another) on; `by` = `principal` (default): the filter names the topic and the reader, "
                       "`resource`: the topic alone; `matched`: the reader's binding is listed, `filtered_out`: "
                       "the writer's is not, `binding_count`: how many were listed"))
def describe_acls(ctx: ProbeContext) -> dict[str, Any]:
    """The filter is the documented part: it must list what it matches and nothing else."""
    reader, writer = two_bindings(ctx)
    by = ctx.args.get("by", "principal")
    if by not in ("principal", "resource"):
        raise ProbeFailed(f"describe_acls filters by principal or resource, not {by!r}")
    acl_filter = AclFilter("topic", reader.resource_name, reader.principal if by == "principal" else None)
    result = ctx.call(DESCRIBE_ACLS, DescribeAclsArgs(acl_filter))
    observed, outcome = common(result)
    bindings = outcome.fields.get("bindings") if outcome is not None else None
    if bindings is not None:
        observed["matched"] = reader.label in bindings
        observed["filtered_out"] = writer.label not in bindings
        observed["binding_count"] = len(bindings)
    return observed


def two_bindings(ctx: ProbeContext) -> tuple[AclSpec, AclSpec]:
    """Set-up: READ and WRITE on a new topic name for two principals nobody uses, granted by the super user
    (awaited until DescribeAcls lists them)."""
    topic = ctx.topic("kc-acl")
    kept = (AclSpec("topic", topic, "User:kcompat-reader", "READ"), AclSpec("topic", topic, "User:kcompat-writer",
                                                                            "WRITE"))
    ctx.grant(kept)
    return kept


def settled_acls(ctx: ProbeContext, topic: str, done: Any) -> set[str]:
    """The topic's bindings as the super user lists them, once ``done(listed)`` holds or SETTLE has passed."""
    listed: set[str] = set()
    for _ in attempts(SETTLE, interval=0.1):
        listed = ctx.listed_acls("topic", topic)
        if done(listed):
            break
    return listed
