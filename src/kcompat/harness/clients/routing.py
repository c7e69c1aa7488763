"""Where a request must go, found through a WireClient: every broker, a partition's leader, a coordinator.

Transactions and producer state are answered by one broker only (the
transaction coordinator, the partition leader); a request sent elsewhere is
answered NOT_COORDINATOR or NOT_LEADER_OR_FOLLOWER, which says nothing about
the API.  The wire client's operations and the producer set-ups route with
these, so both send where the Java AdminClient would.
"""

from __future__ import annotations

from typing import Any

from ..errors import NotOffered
from ..protocol import METADATA, build_request, metadata_request, pick_version
from .wire import WireClient

FIND_COORDINATOR = 10
TRANSACTION = 1
"""FindCoordinator's key type of a transactional id (0 is a group)."""
_KIO_FIND_COORDINATOR_MAX = 6


def _metadata(client: WireClient) -> Any:
    """Metadata of every topic (None: all; a test cluster has few) from the client's first broker."""
    conn, offered = client.connection()
    return conn.send(metadata_request(max(1, pick_version(METADATA, offered)), None))


def brokers(client: WireClient) -> dict[int, tuple[str, int]]:
    """Every broker's address by node id, as Metadata lists them."""
    return {int(b.node_id): (str(b.host), int(b.port)) for b in _metadata(client).brokers}


def leader(client: WireClient, topic: str, partition: int) -> tuple[str, int] | None:
    """The partition's leader, or None while Metadata shows none (the topic is new, or has no such partition)."""
    response = _metadata(client)
    known = {int(b.node_id): (str(b.host), int(b.port)) for b in response.brokers}
    for entry in response.topics:
        if str(entry.name) == topic and int(entry.error_code) == 0:
            for p in entry.partitions:
                if int(p.partition_index) == partition and int(p.error_code) == 0:
                    return known.get(int(p.leader_id))
    return None


def coordinator(client: WireClient, key: str, key_type: int = TRANSACTION) -> tuple[int, tuple[str, int] | None]:
    """(error code, address) of the coordinator of a transactional id (or group): FindCoordinator v1-v3 name
    one key, v4+ a batch of them."""
    conn, offered = client.connection()
    advertised = offered.get(FIND_COORDINATOR)
    if key_type != 0 and (advertised is None or advertised.max_version < 1):
        raise NotOffered("the broker's FindCoordinator has no key type (v1+, Kafka 0.11 on): it has no "
                         "transaction coordinator to find")
    version = min(advertised.max_version if advertised else 1, _KIO_FIND_COORDINATOR_MAX)
    if version >= 4:
        response = conn.send(build_request(FIND_COORDINATOR, version, key_type=key_type, coordinator_keys=(key,)))
        found = response.coordinators[0]
    else:
        found = conn.send(build_request(FIND_COORDINATOR, max(1, version), key=key, key_type=key_type))
    if int(found.error_code) != 0:
        return int(found.error_code), None
    return 0, (str(found.host), int(found.port))


__all__ = ["FIND_COORDINATOR", "TRANSACTION", "brokers", "coordinator", "leader"]
