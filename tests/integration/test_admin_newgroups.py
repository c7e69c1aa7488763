"""The share-group (KIP-932) and streams-group (KIP-1071) operations' neutral results through every client kind,
against the newest broker (4.4, KRaft: share and streams groups on by default) and one without them (3.9,
nightly); and the share-group set-up of a broker whose share groups are a preview that is off.

What each client sees of each method on each broker is the claim book's (src/kcompat/scenarios/claims/DOCS-admin/
newgroups.toml), judged in the golden slice admin-groups-3.9-4.4 (tests/integration/test_golden.py).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Literal

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.probe import Disowned, ProbeContext
from kcompat.harness.matrix.probes import implementation, specs
from kcompat.harness.matrix.verdict import ABSENT_METHOD
from kcompat.harness.operations import operations, perform
from tests.slices import new_in_ci

BROKERS: dict[str, tuple[str, Literal["kraft"]]] = {"old": ("3.9", "kraft"), "new": ("4.4", "kraft")}
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:4.4.0"]
SHARE = ("describe_share_groups", "list_share_group_offsets", "alter_share_group_offsets",
         "delete_share_group_offsets", "delete_share_groups")
STREAMS = ("describe_streams_groups", "list_streams_group_offsets", "alter_streams_group_offsets",
           "delete_streams_group_offsets", "delete_streams_groups")


@pytest.fixture(params=new_in_ci(BROKERS), scope="module")
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture(params=CLIENTS)
def client(request: pytest.FixtureRequest, broker: Any, admin_client_factory: Any) -> Any:
    return admin_client_factory(broker, request.param)


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
    """Whatever the pairing: one result named for the operation and the kind; a call nothing refused carries the
    request version the recorder saw; a method the client's release lacks sent nothing and lists nothing."""
    operation = operations()[name]
    result = perform(client, operation, operation.samples(unique_topic("kc-newgroups"))[0])
    assert result.operation == name and result.client == client.kind, result
    raised = refusal(result)
    if raised is None:
        assert result.request_version is not None, result
    elif raised in ABSENT_METHOD:
        assert not result.resources and result.request_version is None, result


@pytest.mark.nightly
def test_share_groups_of_a_preview_broker_are_disowned(kafka_cluster_factory: Any, admin_client_factory: Any,
                                                       kc_config: Any, unique_topic: Any) -> None:
    """Kafka 4.1 advertises AlterShareGroupOffsets v0, but its share groups are a preview that is off
    (share.version 0): the set-up is ``Disowned``, after which a cell makes the claim's call bare."""
    broker = kafka_cluster_factory(ClusterSpec.of("4.1", "kraft"))
    client = admin_client_factory(broker, "java:4.4.0")
    with pytest.raises(Disowned, match="AlterShareGroupOffsets v0 .* gave UNSUPPORTED_VERSION"):
        observe("describe_share_groups", broker, client, kc_config, unique_topic)


@pytest.fixture
def enabled_preview(kafka_cluster_factory: Any) -> Any:
    """Kafka 4.1 with share groups on (the cluster profile ``4.1@share.version=1``)."""
    return kafka_cluster_factory(ClusterSpec.of("4.1", "kraft", features=(("share.version", 1),)))


@pytest.mark.parametrize("probe, args, seen", [
    ("delete_share_groups", {}, {"error": "NONE", "deleted": True}),
    ("delete_share_groups", {"member": True}, {"error": "NON_EMPTY_GROUP", "deleted": False}),
    ("list_share_group_offsets", {"accepted": 3}, {"error": "NONE", "offsets": [3]}),
])
def test_share_groups_are_made_where_alter_makes_none(probe: str, args: dict[str, Any], seen: dict[str, Any],
                                                      enabled_preview: Any, admin_client_factory: Any,
                                                      kc_config: Any, unique_topic: Any) -> None:
    """4.1's AlterShareGroupOffsets answers for no partition and makes no group: the set-up makes it as a share
    consumer does (a member joins and leaves), and a member reads the records written before it joined
    (share.auto.offset.reset earliest), so the claim's call is made on a share group the broker has."""
    client = admin_client_factory(enabled_preview, "wire")
    observed = observe(probe, enabled_preview, client, kc_config, unique_topic, **args)
    assert {key: observed.get(key) for key in seen} == seen, observed


def test_a_share_group_made_by_its_member_has_a_start_offset(enabled_preview: Any, admin_client_factory: Any,
                                                              kc_config: Any, unique_topic: Any) -> None:
    """Where AlterShareGroupOffsets gives none (4.1), the member that made the group fetched before leaving, so
    the group has a start offset on the topic: deleteShareGroupOffsets' cells delete one."""
    client = admin_client_factory(enabled_preview, "wire")
    observed = observe("list_share_group_offsets", enabled_preview, client, kc_config, unique_topic)
    assert observed["error"] == "NONE" and observed["offsets"] != [None], observed


@pytest.fixture
def newest(kafka_cluster_factory: Any) -> Any:
    """Kafka 4.4: share and streams groups on by default."""
    return kafka_cluster_factory(ClusterSpec.of("4.4", "kraft"))


def test_a_share_group_with_a_live_member_is_described_with_it(newest: Any, admin_client_factory: Any,
                                                                kc_config: Any, unique_topic: Any) -> None:
    """A member that joined by ShareGroupHeartbeat is what kafka-clients describes: one member, assigned the
    share topic's partition, the group Stable."""
    client = admin_client_factory(newest, "java:4.4.0")
    observed = observe("describe_share_groups", newest, client, kc_config, unique_topic, member=True)
    assert observed["exception"] is None, observed
    assert (observed["members"], observed["state"], observed["assigned_partitions"]) == (1, "Stable", [0]), observed


def test_share_group_offsets_after_acknowledgement(newest: Any, admin_client_factory: Any, kc_config: Any,
                                                   unique_topic: Any) -> None:
    """A live member accepted 3 of 5 records and released the rest: the start offset listed is 3."""
    client = admin_client_factory(newest, "java:4.4.0")
    observed = observe("list_share_group_offsets", newest, client, kc_config, unique_topic, accepted=3)
    assert (observed["error"], observed["offsets"]) == ("NONE", [3]), observed


def test_a_share_group_with_a_live_member_is_not_deleted(newest: Any, admin_client_factory: Any, kc_config: Any,
                                                         unique_topic: Any) -> None:
    client = admin_client_factory(newest, "java:4.4.0")
    observed = observe("delete_share_groups", newest, client, kc_config, unique_topic, member=True)
    assert (observed["error"], observed["deleted"]) == ("NON_EMPTY_GROUP", False), observed


def test_a_streams_group_made_by_its_member_is_described(newest: Any, admin_client_factory: Any, kc_config: Any,
                                                         unique_topic: Any) -> None:
    """A member's StreamsGroupHeartbeat with a one-subtopology topology makes the group kafka-clients describes:
    one member owning the source partition's task, the topology's source topic."""
    client = admin_client_factory(newest, "java:4.4.0")
    observed = observe("describe_streams_groups", newest, client, kc_config, unique_topic, group="live")
    assert observed["exception"] is None and observed["described"], observed
    assert (observed["members"], observed["state"]) == (1, "Stable"), observed
    assert (observed["assigned_partitions"], observed["source_topics"]) == ([0], [["source"]]), observed
