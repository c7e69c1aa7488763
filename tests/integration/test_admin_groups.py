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
from tests.slices import new_in_ci

BROKERS = {"old": ("2.3", "zk"), "new": ("3.9", "kraft")}
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:2.3.1"]
SINCE_2_4 = KafkaVersion.parse("2.4")
SINCE_2_6 = KafkaVersion.parse("2.6")
SINCE_3_8 = KafkaVersion.parse("3.8")
SINCE_4_0 = KafkaVersion.parse("4.0")
REFUSALS = {"UnsupportedVersion", "UnsupportedOption", "UnsupportedVersionException", "_UNSUPPORTED_FEATURE"}
JAVA_SINCE = {"alter_consumer_group_offsets": SINCE_2_4, "delete_consumer_group_offsets": SINCE_2_4,
              "remove_members_from_consumer_group": SINCE_2_4, "states": SINCE_2_6}
CONFLUENT_LACKS = {"delete_consumer_group_offsets", "remove_members_from_consumer_group"}


def lacks(client: Any, what: str) -> bool:
    """Whether the client's release has no such method (or option): kafka-clients before it arrived,
    confluent-kafka for the two it never had."""
    if client.kind == "java":
        return KafkaVersion.parse(client.version) < JAVA_SINCE.get(what, KafkaVersion.parse("2.0"))
    return client.kind == "confluent" and what in CONFLUENT_LACKS


def refused(seen: dict[str, Any]) -> bool:
    """The client's (or the broker's) refusal of a request version, in the words of the kind's refusal."""
    return seen["exception"] in REFUSALS or seen.get("error") in REFUSALS


def missing(seen: dict[str, Any], client: Any, what: str) -> bool:
    """A client without the method says so as data (NoSuchMethodException, NotImplementedError), and only then."""
    absent = seen["exception"] in ("NoSuchMethodException", "NotImplementedError")
    assert absent is lacks(client, what), seen
    return absent


@pytest.fixture(params=new_in_ci(BROKERS), scope="module")
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
    if missing(stable, client, "states"):
        assert stable["unsupported_options"] == ["states"], stable
    elif _version(broker) >= SINCE_2_6:
        assert stable["listed"] is True and stable.get("state") == "Stable", stable
    else:
        if client.kind == "confluent":  # librdkafka drops the filter it can't send: a finding, kept as seen
            assert not refused(stable) and stable["listed"] is True and stable["state"] == "Unknown", repr(stable)
        else:
            assert refused(stable), repr(stable)


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
    if missing(seen, client, "alter_consumer_group_offsets"):
        assert seen["altered"] is False and seen["offsets_after"] == [5, 7], seen
        return
    assert seen["error"] == "NONE" and seen["offsets_after"] == [2, 3] and seen["altered"] is True, seen
    busy = observe("alter_consumer_group_offsets", broker, client, kc_config, unique_topic, member="dynamic")
    assert busy["altered"] is False and busy["error"] != "NONE", busy


def test_delete_consumer_group_offsets(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("delete_consumer_group_offsets", broker, client, kc_config, unique_topic, committed=[5, 7])
    if missing(seen, client, "delete_consumer_group_offsets") or _version(broker) < SINCE_2_4:
        assert refused(seen) or lacks(client, "delete_consumer_group_offsets"), seen
        assert seen["offsets_after"] == [5, 7] and seen["deleted"] is False, seen
        return
    assert seen["exception"] is None and seen["error"] == "NONE" and seen["deleted"] is True, seen
    busy = observe("delete_consumer_group_offsets", broker, client, kc_config, unique_topic, member="dynamic")
    assert busy["error"] == "GROUP_SUBSCRIBED_TO_TOPIC" and busy["offsets_after"] == [5, 7], busy


def test_remove_members_from_consumer_group(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("remove_members_from_consumer_group", broker, client, kc_config, unique_topic)
    if missing(seen, client, "remove_members_from_consumer_group") or _version(broker) < SINCE_2_4:
        if client.kind == "java" and not lacks(client, "remove_members_from_consumer_group"):
            # kafka-clients sends LeaveGroup v2 with the member id it has (none): a finding, kept as seen
            assert seen["error"] == "UNKNOWN_MEMBER_ID" and seen["exception"] == "UnknownMemberIdException", seen
        else:
            assert refused(seen) or lacks(client, "remove_members_from_consumer_group"), seen
        assert seen["removed"] is False and seen["members_after"] == 1, seen
        return
    assert seen["exception"] is None and seen["error"] == "NONE", seen
    assert seen["removed"] is True and seen["members_after"] == 0, seen
    nobody = observe("remove_members_from_consumer_group", broker, client, kc_config, unique_topic,
                      target="unknown")
    assert nobody["error"] == "UNKNOWN_MEMBER_ID" and nobody["removed"] is False, nobody


@pytest.mark.parametrize("ref", [*CLIENTS, "java:4.4.0"])
def test_list_groups(broker: Any, admin_client_factory: Any, ref: str, kc_config: Any, unique_topic: Any) -> None:
    """KIP-1043's listGroups: kafka-clients 4.0+ and the wire client; types (ListGroups v5) from 3.8 brokers."""
    client = admin_client_factory(broker, ref)
    seen = observe("list_groups", broker, client, kc_config, unique_topic)
    has_it = client.kind == "wire" or (client.kind == "java" and KafkaVersion.parse(client.version) >= SINCE_4_0)
    if not has_it:
        assert seen["exception"] in ("NoSuchMethodException", "NotImplementedError") and not seen["listed"], seen
        return
    assert seen["exception"] is None and seen["error"] == "NONE" and seen["listed"] is True, seen
    typed = observe("list_groups", broker, client, kc_config, unique_topic, types=["classic"])
    if _version(broker) >= SINCE_3_8:
        assert typed["listed"] is True and typed["type"] == "classic", typed
        other = observe("list_groups", broker, client, kc_config, unique_topic, types=["consumer"])
        assert other["error"] == "NONE" and other["listed"] is False, other
    elif client.kind == "java":  # kafka-clients 4.x lists without the filter it can't send: a finding, as seen
        assert not refused(typed) and typed["listed"] is True and "type" not in typed, typed
    else:
        assert refused(typed), typed
    in_state = observe("list_groups", broker, client, kc_config, unique_topic, states=["Empty"])
    if _version(broker) >= SINCE_2_6:  # ListGroups v4's states filter (inGroupStates: "2.6.0 or later")
        assert in_state["listed"] is True and in_state["state"] == "Empty", in_state
        other = observe("list_groups", broker, client, kc_config, unique_topic, states=["Stable"])
        assert other["error"] == "NONE" and other["listed"] is False, other
    else:
        assert refused(in_state), in_state


@pytest.mark.parametrize("ref", [*CLIENTS, "java:4.4.0"])
def test_describe_classic_groups(broker: Any, admin_client_factory: Any, ref: str, kc_config: Any,
                                 unique_topic: Any) -> None:
    """KIP-1043's describeClassicGroups: kafka-clients 4.0+ and the wire client (DescribeGroups)."""
    client = admin_client_factory(broker, ref)
    seen = observe("describe_classic_groups", broker, client, kc_config, unique_topic, member="dynamic")
    has_it = client.kind == "wire" or (client.kind == "java" and KafkaVersion.parse(client.version) >= SINCE_4_0)
    if not has_it:
        assert seen["exception"] in ("NoSuchMethodException", "NotImplementedError") and not seen["described"], seen
        return
    assert seen["exception"] is None and seen["described"] is True, seen
    assert seen["state"] == "Stable" and seen["members"] == 1 and seen["coordinator_found"] is True, seen
