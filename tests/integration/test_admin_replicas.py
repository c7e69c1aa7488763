"""A cluster of three nodes with two log dirs each (``ClusterSpec``'s ``log_dirs``, which the replicas group's
claims ask for) lists both dirs of every node, on 3.9 in KRaft and 2.2 with ZooKeeper (nightly).

What each client sees of each replica method on each broker is the claim book's (src/kcompat/scenarios/claims/DOCS-admin/
replicas.toml), judged in the golden slice admin-groups-3.9-4.4 (tests/integration/test_golden.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.operations import perform
from kcompat.harness.operations.describe_log_dirs import DESCRIBE_LOG_DIRS, DescribeLogDirsArgs
from tests.slices import new_in_ci

BROKERS = {"old": ("2.2", "zk"), "new": ("3.9", "kraft")}


@pytest.fixture(params=new_in_ci(BROKERS))
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode, nodes=3, log_dirs=2))


def test_the_cluster_has_two_log_dirs_per_broker(broker: Any) -> None:
    admin = WireClient(endpoint_of(broker))
    try:
        for node in broker.brokers:
            result = perform(admin, DESCRIBE_LOG_DIRS, DescribeLogDirsArgs([node.node_id]))
            assert [r.error_name for r in result.resources] == ["NONE", "NONE"], result
            assert all(r.resource.startswith(f"{node.node_id}:") for r in result.resources)
    finally:
        admin.close()
