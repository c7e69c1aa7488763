"""DescribeLogDirs through the wire client: each broker asked for its own directories, at the pinned version."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import DESCRIBE_LOG_DIRS, DescribeLogDirsArgs
from ...protocol import METADATA, build_request, metadata_request, nested_type, pick_version
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 35
VOLUME_FIELDS = ("total_bytes", "usable_bytes")
"""Per-directory fields of v4+ (KIP-827); older versions leave them out of the result."""
BROKER_NOT_AVAILABLE = 8


def broker_addresses(client: WireClient) -> dict[int, tuple[str, int]]:
    """Node id -> address, as Metadata lists the brokers: a log dir request goes to the broker it describes."""
    conn, offered = client.connection()
    response = conn.send(metadata_request(max(1, pick_version(METADATA, offered)), ()))
    return {int(b.node_id): (str(b.host), int(b.port)) for b in response.brokers}


def log_dirs(client: WireClient, operation: str, broker: tuple[str, int], topics: dict[str, list[int]] | None,
             version: int | None) -> tuple[int, Any]:
    """(version sent, response) of one DescribeLogDirs to ``broker``, for ``topics`` (None: every topic)."""
    def build(v: int, options: dict[str, bool]) -> Any:
        entity = nested_type(API_KEY, v, "DescribableLogDirTopic", topics=None)
        return build_request(API_KEY, v, topics=None if topics is None else tuple(
            entity(topic=name, partitions=tuple(partitions)) for name, partitions in sorted(topics.items())))

    sent, response, _ = client.send(operation, API_KEY, version, build, {}, broker=broker)
    return sent, response


def replicas_of(directory: Any) -> list[dict[str, Any]]:
    """A log dir's replicas in the neutral shape every client gives."""
    return [{"topic": str(t.name), "partition": int(p.partition_index), "size": int(p.partition_size),
             "offset_lag": int(p.offset_lag), "is_future": bool(p.is_future_key)}
            for t in directory.topics for p in t.partitions]


@DESCRIBE_LOG_DIRS.implement(WireClient)
@observed
def describe_log_dirs(client: WireClient, args: DescribeLogDirsArgs, version: int | None) -> AdminResult:
    client.require("describe_log_dirs", API_KEY, version)  # a broker without the API: refused before any look-up
    addresses = broker_addresses(client)
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    for broker in args.brokers:
        if broker not in addresses:
            outcomes.append(ResourceOutcome.of(f"{broker}:*", BROKER_NOT_AVAILABLE, f"no broker {broker} in Metadata"))
            continue
        sent, response = log_dirs(client, "describe_log_dirs", addresses[broker], None, version)
        outcomes += _outcomes(broker, response)
    fields: Sequence[str] = ("replicas", *(VOLUME_FIELDS if sent is not None and sent >= 4 else ()))
    return AdminResult("describe_log_dirs", client.kind, client.version, sent, tuple(outcomes), tuple(fields))


def _outcomes(broker: int, response: Any) -> list[ResourceOutcome]:
    whole = int(getattr(response, "error_code", 0))  # v3+: an error for the whole request
    if whole:
        return [ResourceOutcome.of(f"{broker}:*", whole)]
    out = []
    for directory in response.results:
        volume = {k: int(getattr(directory, k)) for k in VOLUME_FIELDS if hasattr(directory, k)}
        out.append(ResourceOutcome.of(f"{broker}:{directory.log_dir}", int(directory.error_code), None,
                                      replicas=replicas_of(directory), **volume))
    return out
