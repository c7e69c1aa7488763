"""Integration tests: real brokers booted through the plugin's fixtures."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from kio.static.primitive import i32Timedelta

from kcompat.harness.protocol import ApiVersionRange, WireConnection, build_request, nested_type, pick_version
from kcompat.harness.providers import Cluster

CREATE_TOPICS = 19


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/integration" in str(item.path):
            item.add_marker(pytest.mark.integration)
        if "kafka_cluster_factory" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.provider)  # runs again under --kc-provider container in CI


def connect(cluster: Cluster, node: int = 0, *, user: str | None = None, password: str | None = None
            ) -> tuple[WireConnection, dict[int, ApiVersionRange]]:
    """A wire connection to one broker, authenticated when the cluster has SASL."""
    endpoint = cluster.brokers[node]
    conn = WireConnection(endpoint.host, endpoint.port, timeout=40)  # longer than create_topic's 30 s broker wait
    offered = {r.api_key: r for r in conn.api_versions()}
    sasl = cluster.spec.sasl
    if sasl is not None:
        conn.authenticate_plain(user or sasl.super_user, password or sasl.credentials[user or sasl.super_user],
                                offered)
    return conn, offered


def create_topic(conn: WireConnection, offered: dict[int, ApiVersionRange], name: str, *,
                 partitions: int = 1, replication: int = 1) -> Any:
    """CreateTopics at the highest common version; returns the topic's result entry."""
    version = pick_version(CREATE_TOPICS, offered)
    timeout = i32Timedelta.parse(datetime.timedelta(seconds=30))
    creatable = nested_type(CREATE_TOPICS, version, "CreatableTopic", topics=(), timeout=timeout)
    topic = creatable(name=name, num_partitions=partitions, replication_factor=replication, assignments=(), configs=())
    request = build_request(CREATE_TOPICS, version, topics=(topic,), timeout=timeout, validate_only=False)
    (result,) = conn.send(request).topics
    return result


@pytest.fixture
def wire() -> Callable[..., tuple[WireConnection, dict[int, ApiVersionRange]]]:
    """``wire(cluster, node=0, user=None, password=None)``: a connected, authenticated WireConnection."""
    return connect


@pytest.fixture(name="create_topic")
def create_topic_fixture() -> Callable[..., Any]:
    """``create_topic(conn, offered, name, partitions=1, replication=1)``: the topic's CreateTopics result."""
    return create_topic
