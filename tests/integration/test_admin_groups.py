"""The consumer-group admin operations through every client kind, and their probes, against a new KRaft
broker and an old ZooKeeper one (2.3: before OffsetDelete, LeaveGroup v3 and ListGroups v4).

Each probe runs as in a cell (``ProbeContext``), with a stand-in for the planned cell: what a probe reads
of it is the claim's arguments and the client's pin.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from kcompat.harness import ClusterSpec, KafkaVersion
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import implementation, specs
from kcompat.harness.operations import perform
from kcompat.harness.operations.list_consumer_groups import LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs

BROKERS = {"old": ("2.3", "zk"), "new": ("3.9", "kraft")}
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:2.3.1"]
SINCE_2_4 = KafkaVersion.parse("2.4")
SINCE_2_6 = KafkaVersion.parse("2.6")
REFUSALS = {"UnsupportedVersion", "UnsupportedOption", "UnsupportedVersionException", "NotImplementedError"}


@pytest.fixture(params=sorted(BROKERS), scope="module")
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture(params=CLIENTS)
def client(request: pytest.FixtureRequest, broker: Any, admin_client_factory: Any) -> Any:
    return admin_client_factory(broker, request.param)


def observe(probe: str, broker: Any, client: Any, kc_config: Any, unique_topic: Any, **args: Any) -> dict[str, Any]:
    """The probe's observation through ``client``, as a cell of a claim with ``args`` makes it."""
    cell = SimpleNamespace(claim=SimpleNamespace(args=args, keys=frozenset(), id=f"test/{probe}"),
                           client=SimpleNamespace(pin=None, kind=client.kind))
    admin = WireClient(endpoint_of(broker))
    try:
        observed = implementation(probe)(ProbeContext(cell, client, admin, broker, unique_topic,  # type: ignore[arg-type]
                                                      ArtifactStore(kc_config)))
    finally:
        admin.close()
    assert set(observed) <= specs()[probe].keys, set(observed) - specs()[probe].keys
    assert {"exception"} <= set(observed)
    return observed


def _version(broker: Any) -> KafkaVersion:
    return KafkaVersion.parse(str(broker.spec.version))


def test_list_consumer_groups(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("list_consumer_groups", broker, client, kc_config, unique_topic)
    assert seen["exception"] is None and seen["error"] == "NONE" and seen["listed"] is True, seen
    stable = observe("list_consumer_groups", broker, client, kc_config, unique_topic, states=["Stable"],
                     member="dynamic")
    if _version(broker) >= SINCE_2_6:
        assert stable["listed"] is True and stable.get("state") == "Stable", stable
    else:
        assert stable["exception"] in REFUSALS or stable.get("listed") is True, stable


def test_list_consumer_groups_result_is_neutral(broker: Any, client: Any) -> None:
    result = perform(client, LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs())
    assert result.operation == "list_consumer_groups" and result.client == client.kind
    assert result.exception is None, result
    assert result.request_version is not None or client.kind == "confluent"


def test_describe_consumer_groups(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("describe_consumer_groups", broker, client, kc_config, unique_topic, member="dynamic",
                   include_authorized_operations=True)
    assert seen["exception"] is None and seen["described"] is True, seen
    assert seen["state"] == "Stable" and seen["members"] == 1 and seen["coordinator_found"] is True, seen
    if "authorized_operations" in seen:
        assert "DESCRIBE" in (seen["authorized_operations"] or ["DESCRIBE"]), seen


def test_delete_consumer_groups(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("delete_consumer_groups", broker, client, kc_config, unique_topic)
    assert seen["exception"] is None and seen["error"] == "NONE" and seen["deleted"] is True, seen
    busy = observe("delete_consumer_groups", broker, client, kc_config, unique_topic, member="dynamic")
    assert busy["error"] == "NON_EMPTY_GROUP" and busy["deleted"] is False, busy


def test_list_consumer_group_offsets(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("list_consumer_group_offsets", broker, client, kc_config, unique_topic, committed=[5, 7])
    assert seen["exception"] is None and seen["error"] == "NONE" and seen["offsets"] == [5, 7], seen


def test_alter_consumer_group_offsets(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("alter_consumer_group_offsets", broker, client, kc_config, unique_topic, committed=[5, 7],
                   to=[2, 3])
    if seen["exception"] in REFUSALS:
        assert seen["altered"] is False, seen
        return
    assert seen["error"] == "NONE" and seen["offsets_after"] == [2, 3] and seen["altered"] is True, seen
    busy = observe("alter_consumer_group_offsets", broker, client, kc_config, unique_topic, member="dynamic")
    assert busy["altered"] is False and busy["error"] != "NONE", busy


def test_delete_consumer_group_offsets(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("delete_consumer_group_offsets", broker, client, kc_config, unique_topic, committed=[5, 7])
    if _version(broker) < SINCE_2_4 or seen["exception"] == "NotImplementedError":
        assert seen["exception"] in REFUSALS and seen["offsets_after"] == [5, 7], seen
        return
    assert seen["exception"] is None and seen["error"] == "NONE" and seen["deleted"] is True, seen
    busy = observe("delete_consumer_group_offsets", broker, client, kc_config, unique_topic, member="dynamic")
    assert busy["error"] == "GROUP_SUBSCRIBED_TO_TOPIC" and busy["offsets_after"] == [5, 7], busy


def test_remove_members_from_consumer_group(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("remove_members_from_consumer_group", broker, client, kc_config, unique_topic)
    if _version(broker) < SINCE_2_4 or seen["exception"] == "NotImplementedError":
        assert seen["exception"] in REFUSALS and seen["removed"] is False, seen
        return
    assert seen["exception"] is None and seen["error"] == "NONE", seen
    assert seen["removed"] is True and seen["members_after"] == 0, seen
    missing = observe("remove_members_from_consumer_group", broker, client, kc_config, unique_topic,
                      target="unknown")
    assert missing["error"] == "UNKNOWN_MEMBER_ID" and missing["removed"] is False, missing
