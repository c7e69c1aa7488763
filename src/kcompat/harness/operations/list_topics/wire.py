"""List topics through the wire client (Metadata for every topic), at the cell's pinned request version
where it has one; the protocol has no option to hide internal topics (reported if asked)."""

from __future__ import annotations

from . import LIST_TOPICS, ListTopicsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ...protocol import METADATA, metadata_request, pick_version


@LIST_TOPICS.implement(WireClient)
@observed
def list_topics(client: WireClient, args: ListTopicsArgs, version: int | None) -> AdminResult:
    conn, offered = client.connection()
    version = max(1, pick_version(METADATA, offered)) if version is None else version
    response = conn.send(metadata_request(version, None if version >= 1 else ()))  # v0: empty means all
    flagged = version >= 1  # Metadata v0 has no is_internal
    outcomes = tuple(ResourceOutcome.of(str(t.name), int(t.error_code), None, partitions=len(t.partitions),
                                        **({"internal": bool(t.is_internal)} if flagged else {}))
                     for t in sorted(response.topics, key=lambda t: str(t.name)))
    return AdminResult("list_topics", client.kind, client.version, version, outcomes,
                       ("internal", "partitions") if flagged else ("partitions",),
                       unsupported_options=() if args.list_internal else ("list_internal",))
