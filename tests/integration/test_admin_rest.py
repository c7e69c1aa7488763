"""The rest of Admin's methods (group admin-rest) through every client kind: each operation's neutral
result, and each probe's observation as a cell makes it.

Old: 2.2 (ZooKeeper: no DescribeTopicPartitions, UnregisterBroker, ListClientMetricsResources or raft voter
APIs).  New: 4.4 (KRaft, a static quorum).  Clients: wire, confluent (the installed release: it has none of the
newer methods), java:4.4.0 (every method) and java:3.9.1 (before listConfigResources and
forceTerminateTransaction).  The voter changes themselves need a dynamic quorum of three 4.4 nodes (nightly:
three JVMs for two tests).
"""

from __future__ import annotations

import uuid
from types import SimpleNamespace
from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import implementation, specs
from kcompat.harness.matrix.probes._shared import common
from kcompat.harness.operations import perform
from kcompat.harness.operations.add_raft_voter import ADD_RAFT_VOTER, AddRaftVoterArgs, RaftVoterEndpoint
from kcompat.harness.operations.describe_topics import DESCRIBE_TOPICS, DescribeTopicsArgs
from kcompat.harness.operations.force_terminate_transaction import (
    FORCE_TERMINATE_TRANSACTION,
    ForceTerminateTransactionArgs,
)
from kcompat.harness.operations.list_config_resources import LIST_CONFIG_RESOURCES, ListConfigResourcesArgs
from kcompat.harness.operations.remove_raft_voter import REMOVE_RAFT_VOTER, RemoveRaftVoterArgs
from kcompat.harness.operations.unregister_broker import UNREGISTER_BROKER, UnregisterBrokerArgs
from tests.slices import new_in_ci

BROKERS = {"old": ("2.2", "zk"), "new": ("4.4", "kraft")}
CLIENTS = ("wire", "confluent", "java:4.4.0", "java:3.9.1")
REFUSED = {"wire": "UnsupportedVersion", "java:4.4.0": "UnsupportedVersionException",
           "java:3.9.1": "UnsupportedVersionException"}
SINCE_4_1 = ("list_config_resources", "force_terminate_transaction")
"""Methods kafka-clients 3.9.1 lacks."""


@pytest.fixture(scope="module", params=new_in_ci(BROKERS))
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture(scope="module")
def dynamic(kafka_cluster_factory: Any) -> Any:
    return kafka_cluster_factory(ClusterSpec.of("4.4", "kraft", nodes=3, quorum="dynamic"))


def _observer(client: Any, broker: Any, unique_topic: Any, kc_config: Any, admin: WireClient) -> Any:
    def run(probe: str, **args: Any) -> dict[str, Any]:
        cell = SimpleNamespace(client=SimpleNamespace(kind=client.kind, pin=None),
                               claim=SimpleNamespace(args=args, keys=frozenset()))
        context = ProbeContext(cell, client, admin, broker, unique_topic, ArtifactStore(kc_config))  # type: ignore[arg-type]
        observed: dict[str, Any] = implementation(probe)(context)
        assert set(observed) <= specs()[probe].keys, (probe, observed)
        return observed

    return run


@pytest.fixture(params=CLIENTS)
def client(request: pytest.FixtureRequest, broker: Any, admin_client_factory: Any) -> Any:
    made = admin_client_factory(broker, request.param)
    made.ref = request.param
    made.new = broker.spec.mode == "kraft"
    return made


@pytest.fixture
def observe(client: Any, broker: Any, unique_topic: Any, kc_config: Any) -> Any:
    """``observe(probe, **args)``: the probe's observation through this client, as a cell makes it; its keys are
    checked against the probe's declared ones."""
    admin = WireClient(endpoint_of(broker))
    yield _observer(client, broker, unique_topic, kc_config, admin)
    admin.close()


def _absent(client: Any, observed: dict[str, Any], method: str) -> bool:
    """The client release has no such method: confluent-kafka (no release has these), kafka-clients 3.9.1 for
    the 4.1 methods."""
    if client.ref == "confluent" or (client.ref == "java:3.9.1" and method in SINCE_4_1):
        absent = "NotImplementedError" if client.ref == "confluent" else "NoSuchMethodException"
        assert observed["exception"] == absent, observed
        return True
    return False


def _refused(client: Any, observed: dict[str, Any]) -> bool:
    """The ZooKeeper broker lacks the API: the client's own refusal."""
    if not client.new:
        assert observed["exception"] == REFUSED[client.ref], observed
        return True
    return False


# -- the operations' neutral results --------------------------------------------------------------------------


def test_operations_name_their_results(client: Any, unique_topic: Any) -> None:
    """Each operation's result is named after it, by the client's kind, whatever the broker answers (a listing
    may be empty; any other call has a result or an exception)."""
    calls = [(DESCRIBE_TOPICS, DescribeTopicsArgs([unique_topic("kc-none")])),
             (LIST_CONFIG_RESOURCES, ListConfigResourcesArgs(["CLIENT_METRICS"])),
             (FORCE_TERMINATE_TRANSACTION, ForceTerminateTransactionArgs(unique_topic("kc-txn"))),
             (UNREGISTER_BROKER, UnregisterBrokerArgs(987654)),
             (ADD_RAFT_VOTER, AddRaftVoterArgs(987654, str(uuid.uuid4()), [RaftVoterEndpoint("CONTROLLER",
                                                                                              "127.0.0.1", 9)])),
             (REMOVE_RAFT_VOTER, RemoveRaftVoterArgs(987654, str(uuid.uuid4())))]
    for operation, args in calls:
        result = perform(client, operation, args)
        assert result.operation == operation.name and result.client == client.kind, result
        assert result.exception is not None or result.resources or operation is LIST_CONFIG_RESOURCES, result


def test_describe_topics_unknown_topic(client: Any, unique_topic: Any) -> None:
    name = unique_topic("kc-none")
    result = perform(client, DESCRIBE_TOPICS, DescribeTopicsArgs([name]))
    if result.exception is not None:
        assert client.ref == "wire" and not client.new, result  # no DescribeTopicPartitions before 3.8
        return
    assert result.resource(name).error_name == "UNKNOWN_TOPIC_OR_PARTITION", result


def test_unregister_unknown_broker(client: Any) -> None:
    """A broker id that was never registered: the controller says so (KRaft), through every client that asks."""
    result = perform(client, UNREGISTER_BROKER, UnregisterBrokerArgs(987654))
    observed, _ = common(result)
    if _absent(client, observed, "unregister_broker") or _refused(client, observed):
        return
    assert result.resource("broker:987654").error_name == "BROKER_ID_NOT_REGISTERED", result


# -- the probes ----------------------------------------------------------------------------------------------


def test_describe_topics(observe: Any, client: Any) -> None:
    observed = observe("describe_topics")
    if client.ref == "wire" and _refused(client, observed):
        return
    assert observed["error"] == "NONE" and observed["exception"] is None, observed
    assert observed["partitions"] == 1, observed
    assert observed["leaders_match"] and observed["replicas_match"] and observed["isr_match"], observed
    assert ("topic_id_matches" in observed) is client.new, observed  # topic ids from 2.8
    if client.new:
        assert observed["topic_id_matches"] is True, observed


def test_delete_topics_by_name(observe: Any) -> None:
    observed = observe("delete_topics", by="name")
    assert observed["error"] == "NONE" and observed["deleted"] is True, observed


def test_list_config_resources(observe: Any, client: Any) -> None:
    metrics = observe("list_config_resources", types=["CLIENT_METRICS"])
    if _absent(client, metrics, "list_config_resources") or _refused(client, metrics):
        return
    assert metrics["error"] == "NONE", metrics
    assert metrics["client_metrics_listed"] is True and metrics["topic_listed"] is False, metrics
    every = observe("list_config_resources")
    topics = observe("list_config_resources", types=["TOPIC"])
    assert every["error"] == "NONE" and every["topic_listed"] and every["client_metrics_listed"], every
    assert topics["error"] == "NONE" and topics["topic_listed"], topics
    assert topics["client_metrics_listed"] is False, topics


def test_force_terminate_transaction(observe: Any, client: Any) -> None:
    observed = observe("force_terminate_transaction")
    if _absent(client, observed, "force_terminate_transaction"):
        assert observed["aborted"] is False and observed["fenced"] is False, observed  # nothing was sent
        return
    assert observed["error"] == "NONE" and observed["exception"] is None, observed
    assert observed["aborted"] is True and observed["fenced"] is True, observed
    assert observed.get("state_after") == ("Empty" if client.new else None), observed  # ListTransactions: 3.0+


def test_unregister_broker(observe: Any, client: Any) -> None:
    observed = observe("unregister_broker")
    if _absent(client, observed, "unregister_broker") or _refused(client, observed):
        return
    assert observed["error"] == "NONE" and observed["unregistered"] is True, observed


@pytest.mark.parametrize("probe", ["add_raft_voter", "remove_raft_voter"])
def test_raft_voters(observe: Any, client: Any, probe: str) -> None:
    """A static quorum (kraft.version 0) refuses to change its voters; the cluster id is checked before that."""
    mismatch = observe(probe, cluster_id="mismatch")
    if _absent(client, mismatch, probe) or _refused(client, mismatch):
        return
    assert mismatch["error"] == "INCONSISTENT_CLUSTER_ID", mismatch
    assert mismatch["voters_before"] == [1], mismatch
    static = observe(probe, cluster_id="actual")
    assert static["error"] == "UNSUPPORTED_VERSION", static
    assert "kraft.version feature is 0" in static["error_message"], static
    assert static.get("voter_listed", False) is False and static.get("voters_kept", True) is True, static


@pytest.mark.nightly
@pytest.mark.parametrize("ref", ["wire", "java:4.4.0"])
def test_raft_voters_of_a_dynamic_quorum(dynamic: Any, ref: str, admin_client_factory: Any, unique_topic: Any,
                                         kc_config: Any) -> None:
    """A follower voter removed by the client (and put back), then removed by the super user and added back by
    the client: the quorum has its three voters again after each."""
    client = admin_client_factory(dynamic, ref)
    admin = WireClient(endpoint_of(dynamic))
    try:
        observe = _observer(client, dynamic, unique_topic, kc_config, admin)
        removed = observe("remove_raft_voter", target="voter")
        assert removed["error"] == "NONE" and removed["voter_removed"] is True, removed
        assert removed["voters_before"] == [1, 2, 3], removed
        added = observe("add_raft_voter", target="removed", cluster_id="actual")
        assert added["error"] == "NONE" and added["voter_listed"] is True, added
        assert len(added["voters_before"]) == 2, added
        assert observe("remove_raft_voter")["error"] == "VOTER_NOT_FOUND"  # an id that is no voter
    finally:
        admin.close()


def test_client_instance_id(observe: Any, client: Any) -> None:
    """No catalog broker runs a telemetry receiver, so none offers GetTelemetrySubscriptions."""
    observed = observe("client_instance_id", timeout_ms=2000)
    assert observed["telemetry_offered"] is False, observed
    if _absent(client, observed, "client_instance_id"):
        return
    expected = {"wire": "UnsupportedVersion",
                "java:3.9.1": "KafkaException",  # it wraps the UnsupportedVersionException
                "java:4.4.0": "IllegalStateException"}  # enable.metrics.push is false by default in 4.x admins
    assert observed["exception"] == expected[client.ref], observed
