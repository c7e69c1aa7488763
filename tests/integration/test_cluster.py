"""Three-node clusters: every broker sees all three, and replication works."""

from __future__ import annotations

import pytest

from kcompat.harness import ClusterSpec


@pytest.mark.parametrize("mode", ["kraft", "zk"])
def test_three_nodes_see_each_other(kafka_cluster_factory, wire, mode: str) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9", mode, nodes=3))
    assert len({b.port for b in cluster.brokers}) == 3
    for index in range(3):
        conn, offered = wire(cluster, index)
        with conn:
            assert conn.metadata_brokers(offered) == [1, 2, 3]


def test_a_topic_replicated_three_times(kafka_cluster_factory, wire, create_topic, unique_topic) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9", "kraft", nodes=3))
    conn, offered = wire(cluster)
    with conn:
        result = create_topic(conn, offered, unique_topic("kc-replicated"), partitions=3, replication=3)
    assert int(result.error_code) == 0, result
