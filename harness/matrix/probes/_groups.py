"""What the consumer-group probes share: the common keys of a call whose results are many (groups,
partitions, members), and the live member a claim asks for."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ...clients import AdminResult
from ..probe import ProbeContext, ProbeFailed
from ..setups.groups import LiveMember, live_member
from ._shared import simple_name

MEMBERS = ("none", "dynamic", "static")
"""A claim's ``member``: no member (the group only has committed offsets), or a live one, static with a
``group.instance.id`` (KIP-345)."""


def group_common(result: AdminResult) -> dict[str, Any]:
    """error, error_message, exception and unsupported_options of a call with many results: the first
    result with an error (the group's own, or a partition's, a member's), else NONE; no results and no
    exception (an empty listing) is NONE too."""
    failed = next((r for r in result.resources if r.error_code != 0 or r.exception), None)
    observed: dict[str, Any] = {"exception": simple_name(result.exception or (failed.exception if failed else None))}
    if result.exception is None:
        observed["error"] = failed.error_name if failed else "NONE"
        observed["error_message"] = failed.error_message if failed else None
    if result.unsupported_options:
        observed["unsupported_options"] = list(result.unsupported_options)
    return observed


@contextlib.contextmanager
def member_as_asked(ctx: ProbeContext, group: str, topic: str, partitions: int) -> Iterator[LiveMember | None]:
    """The live member the claim's ``member`` asks for, for the duration of the block (or None)."""
    kind = ctx.args.get("member", "none")
    if kind not in MEMBERS:
        raise ProbeFailed(f"member is one of {', '.join(MEMBERS)}, not {kind!r}")
    if kind == "none":
        yield None
        return
    instance = f"{group}-instance" if kind == "static" else None
    with live_member(ctx, group, topic, partitions, instance) as member:
        yield member


def partition_results(result: AdminResult, topic: str) -> dict[int, Any]:
    """The results named ``topic:partition``, by partition."""
    found = {}
    for outcome in result.resources:
        name, _, partition = outcome.resource.rpartition(":")
        if name == topic and partition.isdigit():
            found[int(partition)] = outcome
    return found
