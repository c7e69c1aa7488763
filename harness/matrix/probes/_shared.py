"""What several probes share: the common keys of a one-resource call, config entries, Metadata as the super
user, and how long a probe waits for the cluster to settle."""

from __future__ import annotations

from typing import Any

from ...clients import AdminResult, ResourceOutcome
from ...protocol import METADATA, client_versions, metadata_request, pick_version
from ..probe import ProbeContext

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
    address = ctx.admin.controller() if controller else None
    conn, offered = ctx.admin.connection(address)
    newest = client_versions(METADATA)[-1]  # a client may send a Metadata version kio can't: the newest kio has
    chosen = min(version, newest) if version is not None else max(1, pick_version(METADATA, offered))
    return conn.send(metadata_request(chosen, None if chosen >= 1 else ())), chosen  # v0: empty means all
