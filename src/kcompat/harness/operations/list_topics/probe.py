"""The client's listTopics, and the Metadata response it rests on."""

from __future__ import annotations

from typing import Any

from ...clients.wire import plain
from . import LIST_TOPICS, ListTopicsArgs
from ...protocol import build_request, pick_version, request_fields
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import SETTLE, metadata, simple_name, sized_metadata
from ...waiting import attempts

FIND_COORDINATOR = 10


def _make_consumer_offsets(ctx: ProbeContext) -> None:
    """Set-up: FindCoordinator makes the broker create __consumer_offsets (an internal topic); wait for it."""
    conn, offered = ctx.admin.connection()
    version = pick_version(FIND_COORDINATOR, offered)
    fields = request_fields(FIND_COORDINATOR, version)
    values: dict[str, Any] = ({"coordinator_keys": ("kcompat-internal",), "key_type": 0} if "coordinator_keys" in fields
                              else {"key": "kcompat-internal", "key_type": 0} if "key" in fields
                              else {"group_id": "kcompat-internal"})
    for _ in attempts(SETTLE, interval=0.2):
        conn.send(build_request(FIND_COORDINATOR, version, **values))
        response, _version = metadata(ctx)
        if any(str(t.name) == "__consumer_offsets" for t in response.topics):
            return
    raise ProbeFailed(f"set-up: __consumer_offsets did not appear within {SETTLE:.0f}s of FindCoordinator")


def _response_fields(response: Any) -> list[str]:
    """The Metadata response's fields that carry something beyond topic names (``topics.partitions`` too)."""
    raw = plain(response)
    present = [key for key, value in raw.items() if key != "topics" and value is not None]
    if any("partitions" in topic for topic in raw.get("topics", [])):
        present.append("topics.partitions")
    return sorted(present)


@probe(ProbeSpec("list_topics", frozenset({"exception", "unsupported_options", "request_version", "created_listed",
                                           "internal_listed", "hidden_listed", "response_fields", "response_bytes",
                                           "list_topics_api", "api_names"}),
                 {"list_internal": bool, "as_user": str, "internal_topic": bool, "hidden_topic": bool},
                 about="the client's listTopics after the super user created a topic (`internal_topic`: and made "
                       "__consumer_offsets; `hidden_topic`: one `as_user` may not Describe); `response_*` is the "
                       "Metadata response at the version the client sent, re-read by the wire client"))
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
    observed["exception"] = simple_name(result.exception)
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
    response, _, size = sized_metadata(ctx, result.request_version)
    observed["response_fields"] = _response_fields(response)
    observed["response_bytes"] = size
    return observed
