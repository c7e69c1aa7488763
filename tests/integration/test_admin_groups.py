"""The consumer-group operations' neutral result through every client kind, on a new KRaft broker and an old
ZooKeeper one (2.3, nightly).

What each client sees of each group method on each broker is the claim book's (src/kcompat/scenarios/claims/DOCS-admin/
groups.toml), judged in the golden slice admin-groups-3.9-4.4 (tests/integration/test_golden.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.operations import perform
from kcompat.harness.operations.list_consumer_groups import LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs
from tests.slices import new_in_ci

BROKERS = {"old": ("2.3", "zk"), "new": ("3.9", "kraft")}
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:2.3.1"]


@pytest.fixture(params=new_in_ci(BROKERS), scope="module")
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture(params=CLIENTS)
def client(request: pytest.FixtureRequest, broker: Any, admin_client_factory: Any) -> Any:
    return admin_client_factory(broker, request.param)


def test_list_consumer_groups_result_is_neutral(broker: Any, client: Any) -> None:
    result = perform(client, LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs())
    assert result.operation == "list_consumer_groups" and result.client == client.kind
    assert result.exception is None, result
    assert result.request_version is not None or client.kind == "confluent"
