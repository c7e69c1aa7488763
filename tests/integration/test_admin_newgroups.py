"""The share-group (KIP-932) and streams-group (KIP-1071) admin operations through every client kind, and their
probes, against the newest broker (4.4, KRaft: share and streams groups on by default) and one without them
(3.9, nightly).

Only kafka-clients 4.x has these methods: 3.9.1 says NoSuchMethodException, confluent-kafka
NotImplementedError.  The wire client sends what kio has: the consumer-group requests the streams methods
and deleteShareGroups share (OffsetFetch, OffsetCommit, OffsetDelete, DeleteGroups), ShareGroupDescribe v0
(which 4.1+ brokers no longer take), and nothing of the APIs kio has no schema of.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Literal

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.probe import Disowned, ProbeContext, ProbeFailed
from kcompat.harness.matrix.probes import implementation, specs
from kcompat.harness.operations import operations, perform
from tests.slices import new_in_ci

BROKERS: dict[str, tuple[str, Literal["kraft"]]] = {"old": ("3.9", "kraft"), "new": ("4.4", "kraft")}
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:4.4.0"]
SHARE = ("describe_share_groups", "list_share_group_offsets", "alter_share_group_offsets",
         "delete_share_group_offsets", "delete_share_groups")
STREAMS = ("describe_streams_groups", "list_streams_group_offsets", "alter_streams_group_offsets",
           "delete_streams_group_offsets", "delete_streams_groups")
NO_KIO_SCHEMA = ("list_share_group_offsets", "alter_share_group_offsets", "delete_share_group_offsets",
                 "describe_streams_groups")
CONSUMER_REQUESTS = ("list_streams_group_offsets", "alter_streams_group_offsets", "delete_streams_group_offsets",
                     "delete_streams_groups", "delete_share_groups")
"""The operations whose request is a consumer group's, which every broker of the test answers."""
ABSENT = {"confluent": "NotImplementedError", "java:3.9.1": "NoSuchMethodException"}


@pytest.fixture(params=new_in_ci(BROKERS), scope="module")
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture(params=CLIENTS)
def client(request: pytest.FixtureRequest, broker: Any, admin_client_factory: Any) -> Any:
    made = admin_client_factory(broker, request.param)
    made.ref = request.param
    return made


def new_broker(broker: Any) -> bool:
    return str(broker.spec.version).startswith("4.")


def refusal(result: Any) -> str | None:
    """The simple name of what the call (or its first result) raised, None where nothing did."""
    raised = result.exception or next((r.exception for r in result.resources if r.exception), None)
    return None if raised is None else str(raised).rsplit(".", 1)[-1]


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
    assert "exception" in observed
    return observed


@pytest.mark.parametrize("name", [*SHARE, *STREAMS])
def test_each_operation_is_one_neutral_result(name: str, broker: Any, client: Any, unique_topic: Any) -> None:
    operation = operations()[name]
    result = perform(client, operation, operation.samples(unique_topic("kc-newgroups"))[0])
    assert result.operation == name and result.client == client.kind, result
    if client.ref in ABSENT:
        assert refusal(result) == ABSENT[client.ref] and not result.resources, result
        assert result.request_version is None, result
    elif client.kind == "wire" and name in NO_KIO_SCHEMA:
        assert result.exception == "UnsupportedVersion" and "has no schema of" in str(result.exception_message)
    elif client.kind == "wire" and name == "describe_share_groups":  # kio has v0; 4.4 offers v1, 3.9 none
        assert result.exception == "UnsupportedVersion" and result.request_version is None, result
    elif new_broker(broker) or name in CONSUMER_REQUESTS:
        assert result.exception is None and result.request_version is not None, result
    else:  # kafka-clients 4.4.0 and a broker without the API
        assert refusal(result) == "UnsupportedVersionException", result


def test_describe_share_groups(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("describe_share_groups", broker, client, kc_config, unique_topic,
                   include_authorized_operations=True)
    if client.ref != "java:4.4.0" or not new_broker(broker):
        assert seen["exception"] in ("UnsupportedVersion", "UnsupportedVersionException", *ABSENT.values()), seen
        assert seen["described"] is False, seen
        return
    assert seen["error"] == "NONE" and seen["described"] is True and seen["state"] == "Empty", seen
    assert seen["members"] == 0 and seen["coordinator_found"] is True, seen
    assert "DESCRIBE" in seen["authorized_operations"], seen


@pytest.mark.parametrize("probe", ["alter_share_group_offsets", "list_share_group_offsets",
                                   "delete_share_group_offsets"])
def test_share_group_offsets(probe: str, broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe(probe, broker, client, kc_config, unique_topic)
    if client.ref != "java:4.4.0" or not new_broker(broker):
        assert seen["exception"] in ("UnsupportedVersion", "UnsupportedVersionException", *ABSENT.values()), seen
        assert "offsets" not in seen and seen.get("altered") is not True and seen.get("deleted") is not True, seen
        return
    assert seen["exception"] is None and seen["error"] == "NONE", seen
    expected = {"alter_share_group_offsets": ("offsets_after", [2]), "list_share_group_offsets": ("offsets", [2]),
                "delete_share_group_offsets": ("offsets_after", [None])}[probe]
    assert seen[expected[0]] == expected[1], seen


def test_delete_share_groups(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    if client.ref in ABSENT:
        seen = observe("delete_share_groups", broker, client, kc_config, unique_topic)
        assert seen["exception"] == ABSENT[client.ref], seen
    elif not new_broker(broker):  # DeleteGroups is answered, but a 3.9 broker can have no share group to delete
        with pytest.raises(ProbeFailed, match="no share group could be made to delete"):
            observe("delete_share_groups", broker, client, kc_config, unique_topic)
    else:
        seen = observe("delete_share_groups", broker, client, kc_config, unique_topic)
        assert seen["exception"] is None and seen["error"] == "NONE" and seen["deleted"] is True, seen


@pytest.mark.nightly
def test_share_groups_of_a_preview_broker_are_disowned(kafka_cluster_factory: Any, admin_client_factory: Any,
                                                       kc_config: Any, unique_topic: Any) -> None:
    """Kafka 4.1 advertises AlterShareGroupOffsets v0, but its share groups are a preview that is off
    (share.version 0): the set-up is ``Disowned``, after which a cell makes the claim's call bare."""
    broker = kafka_cluster_factory(ClusterSpec.of("4.1", "kraft"))
    client = admin_client_factory(broker, "java:4.4.0")
    client.ref = "java:4.4.0"
    with pytest.raises(Disowned, match="AlterShareGroupOffsets v0 .* gave UNSUPPORTED_VERSION"):
        observe("describe_share_groups", broker, client, kc_config, unique_topic)


def test_describe_streams_groups(broker: Any, client: Any, kc_config: Any, unique_topic: Any) -> None:
    seen = observe("describe_streams_groups", broker, client, kc_config, unique_topic)
    if client.ref == "java:4.4.0" and new_broker(broker):
        assert seen["error"] == "GROUP_ID_NOT_FOUND" and seen["described"] is False, seen
    else:
        assert seen["exception"] in ("UnsupportedVersion", "UnsupportedVersionException", *ABSENT.values()), seen


@pytest.mark.parametrize(("probe", "args", "key", "value"), [
    ("list_streams_group_offsets", {"committed": [5, 7]}, "offsets", [5, 7]),
    ("alter_streams_group_offsets", {"committed": [5, 7], "to": [2, 3]}, "offsets_after", [2, 3]),
    ("delete_streams_group_offsets", {"committed": [5, 7]}, "deleted", True),
    ("delete_streams_groups", {}, "deleted", True),
])
def test_streams_group_offsets_and_deletion(probe: str, args: dict[str, Any], key: str, value: Any, broker: Any,
                                            client: Any, kc_config: Any, unique_topic: Any) -> None:
    """The consumer-group requests every broker answers: kafka-clients 4.4 and the wire client alike."""
    seen = observe(probe, broker, client, kc_config, unique_topic, **args)
    if client.ref in ABSENT:
        assert seen["exception"] == ABSENT[client.ref], seen
        return
    assert seen["exception"] is None and seen["error"] == "NONE" and seen[key] == value, seen
