"""The request recorder between real clients and real brokers: what each client sent, as the wire shows it,
equals what the client says it sent; and every connection of a client stays on the recorder's ports.

Brokers: 2.2 (ZooKeeper), 3.9 and 4.4 (KRaft) with one node, 3.9 with three, and SASL/PLAIN on 0.10.2 (handshake
v0: raw tokens) and 3.9 (SaslAuthenticate).  Clients: wire, confluent, java:3.9.1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import psutil
import pytest

from kcompat.harness.operations import perform
from kcompat.harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from kcompat.harness.operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from kcompat.harness.operations.describe_topics import DESCRIBE_TOPICS, DescribeTopicsArgs
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs
from kcompat.harness import ClusterSpec, SaslSpec
from kcompat.harness.clients import AdminClient, AdminResult, ConfigTarget, NewTopic
from kcompat.harness.clients.java import JavaClient
from kcompat.harness.matrix.env import AdminClientFactory
from kcompat.harness.providers import Cluster
from kcompat.harness.recorder import RequestRecorder
from kcompat.harness.recorder.traffic import START

CLIENTS = ["wire", "confluent", "java:3.9.1"]
USERS = (("alice", "alice-secret-pw"),)


def _recorder(cluster: Cluster) -> RequestRecorder:
    return RequestRecorder([(b.host, b.port) for b in cluster.brokers])


def _same_as_reported(recorder: RequestRecorder, mark: Any, result: AdminResult, api: str) -> None:
    """The recorder saw the call's API, and its last version is the one the client reports (when it reports)."""
    recorded = recorder.traffic.version_since(mark, api)
    assert recorded is not None, (api, result, recorder.traffic.problems)
    if result.request_version is not None:
        assert recorded == result.request_version, (api, result.client, recorder.traffic.versions_since(mark, api))


def _direct(cluster: Cluster, recorder: RequestRecorder, client: AdminClient) -> list[str]:
    """Connections the client's process (this one, or the sidecar's JVM) holds to a broker port, the recorder's
    own upstream connections aside."""
    brokers = {b.port for b in cluster.brokers}
    pids = [os.getpid()]
    if isinstance(client, JavaClient) and client.sidecar._proc is not None:
        pids.append(client.sidecar._proc.pid)
    own = recorder.own_connections()
    return [f"pid {pid}: {c.laddr.port} -> {c.raddr.port}" for pid in pids
            for c in psutil.Process(pid).net_connections(kind="tcp")
            if c.raddr and c.raddr.port in brokers and c.status == psutil.CONN_ESTABLISHED
            and c.laddr.port not in own]


@pytest.fixture
def through(admin_client_factory: AdminClientFactory) -> Iterator[Any]:
    """``through(cluster, client, user=None)``: (recorder, client) with the client connected through a recorder
    in front of the cluster; both closed at the end (the client first: it must not outlive its recorder)."""
    made: list[tuple[RequestRecorder, AdminClientFactory]] = []

    def make(cluster: Cluster, client: str, user: str | None = None) -> tuple[RequestRecorder, AdminClient]:
        recorder = _recorder(cluster).__enter__()
        factory = AdminClientFactory(admin_client_factory.config, admin_client_factory.run_id)
        made.append((recorder, factory))
        return recorder, factory(cluster, client, user=user, via=recorder)

    yield make
    for recorder, factory in made:
        try:
            factory.close()
        finally:
            recorder.close()
            assert recorder.threads() == []


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("broker", [("2.2", "zk"), ("3.9", "kraft"), ("4.4", "kraft")],
                         ids=["2.2-zk", "3.9-kraft", "4.4-kraft"])  # 4.4: librdkafka sends Metadata v13
def test_each_client_sends_what_it_reports(kafka_cluster_factory, through, unique_topic, client, broker) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of(*broker))
    recorder, admin = through(cluster, client)
    mark = recorder.traffic.mark()
    topic = unique_topic("kc-rec")
    created = perform(admin, CREATE_TOPICS, CreateTopicsArgs([NewTopic(topic, 1, 1)]))
    assert created.resource(topic).error_name == "NONE", created
    _same_as_reported(recorder, mark, created, "CreateTopics")
    mark = recorder.traffic.mark()
    described = perform(admin, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", topic)]))
    _same_as_reported(recorder, mark, described, "DescribeConfigs")
    mark = recorder.traffic.mark()
    listed = perform(admin, LIST_TOPICS, ListTopicsArgs())
    assert recorder.traffic.sent_since(mark, "Metadata"), listed
    offered = recorder.traffic.offered()
    assert {r.api_key: (r.min_version, r.max_version) for r in offered.values()} == {
        r.api_key: (r.min_version, r.max_version) for r in cluster.api_versions}
    assert recorder.traffic.problems == []
    assert _direct(cluster, recorder, admin) == []


@pytest.mark.parametrize("client", CLIENTS)
def test_every_broker_of_three_is_reached_through_the_recorder(kafka_cluster_factory, through, unique_topic,
                                                                 client) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9", "kraft", nodes=3))
    recorder, admin = through(cluster, client)
    topic = unique_topic("kc-rec3")
    created = perform(admin, CREATE_TOPICS, CreateTopicsArgs([NewTopic(topic, 3, 3)]))
    assert created.resource(topic).error_name == "NONE", created
    for broker in cluster.brokers:  # a broker's own configs are answered by that broker: one connection each
        perform(admin, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("broker", str(broker.node_id))]))
    connections = recorder.traffic.connections()
    brokers = {f"{b.host}:{b.port}" for b in cluster.brokers}
    if client == "wire":  # it sends to its bootstrap broker, and creates at the controller Metadata names
        assert set(connections) <= brokers and connections, connections
    else:  # each broker's configs from that broker, at the address Metadata gave: the recorder's
        assert set(connections) == brokers, connections
    assert recorder.traffic.problems == []
    assert _direct(cluster, recorder, admin) == []
    _same_as_reported(recorder, START, created, "CreateTopics")


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("broker", [("0.10.2", "zk"), ("3.9", "kraft")], ids=["0.10.2-zk", "3.9-kraft"])
def test_sasl_clients_are_recorded_after_authenticating(kafka_cluster_factory, through, unique_topic, client,
                                                        broker) -> None:
    """0.10.2 has SaslHandshake v0 only: the PLAIN token passes raw; 3.9 authenticates with SaslAuthenticate."""
    cluster = kafka_cluster_factory(ClusterSpec.of(*broker, sasl=SaslSpec(users=USERS)))
    recorder, admin = through(cluster, client, "alice")
    mark = recorder.traffic.mark()
    topic = unique_topic("kc-recsasl")
    created = perform(admin, CREATE_TOPICS, CreateTopicsArgs([NewTopic(topic, 1, 1)]))
    # alice has no ACL: before 2.0, creating needs Create on the cluster
    denied = "CLUSTER_AUTHORIZATION_FAILED" if broker[0] == "0.10.2" else "TOPIC_AUTHORIZATION_FAILED"
    assert created.resource(topic).error_name == denied, created
    _same_as_reported(recorder, mark, created, "CreateTopics")
    handshakes = recorder.traffic.versions_since(START, "SaslHandshake")
    assert handshakes and set(handshakes) == ({0} if broker[0] == "0.10.2" else {1}), handshakes
    if broker[0] != "0.10.2":
        assert recorder.traffic.versions_since(START, "SaslAuthenticate")
    assert recorder.traffic.problems == []
    assert _direct(cluster, recorder, admin) == []


def test_cells_take_their_request_version_from_one_recorder_per_cluster(kafka_cluster_factory, kc_config,
                                                                         unique_topic, tmp_path) -> None:
    """KIP-525's first claim for the three clients (and the wire client pinned around the claim's bound) on one 3.9
    node: one recorder serves every cell (a mark each), each record's request_version is the recorded one, and no
    observer disagrees."""
    from kcompat.harness.catalog import load_catalog
    from kcompat.harness.matrix.cell import run_cell
    from kcompat.harness.matrix.claims import claims_dir, load_claim_book
    from kcompat.harness.matrix.env import CellEnv, plugin_compiler
    from kcompat.harness.matrix.plan import ClusterSpecs, Selection, plan

    cells = [c for c in plan(Selection.of("3.9", "kraft", CLIENTS, "KIP-525"), load_claim_book(claims_dir()),
                             load_catalog()) if c.claim.id == "KIP-525/create-returns-configs"]
    assert {c.client.kind for c in cells} == {"wire", "confluent", "java"} and len(cells) == 5  # wire@v4, wire@v5
    env = CellEnv(kc_config, "rec", tmp_path, kafka_cluster_factory, ClusterSpecs(plugin_compiler(kc_config)),
                  unique_topic)
    try:
        records = [run_cell(cell, env) for cell in cells]
        cluster = kafka_cluster_factory(env.specs.spec(cells[0]))
        traffic = env.recorders(cluster).traffic
        sent = traffic.sent_since(START, "CreateTopics")
    finally:
        env.recorders.close()
    for cell, record in zip(cells, records, strict=True):
        assert record.outcome in ("pass", "unsupported"), (record.cell_id, record.reason)
        assert record.request_version is not None, record.cell_id
        assert record.request_version == (cell.client.pin or record.request_version), record.cell_id
        assert not {"request_version_reported", "request_version_recorded", "recorder_problems"} & set(
            record.observed), record.observed
    assert len({r.client_id for r in sent}) == len(CLIENTS), sent  # every client's requests, one recorder
    assert traffic.problems == []


@pytest.mark.parametrize("client", ["confluent", "java:4.4.0"])
def test_kafka_4_versions_kio_lacks_are_followed(kafka_cluster_factory, through, unique_topic, client) -> None:
    """Metadata v13, ApiVersions v5 and DescribeCluster v2 (Kafka 4; kio 0.5 stops one version short) are read
    and rewritten like the others: no problem, and no connection around the recorder."""
    cluster = kafka_cluster_factory(ClusterSpec.of("4.4", "kraft"))
    recorder, admin = through(cluster, client)
    mark = recorder.traffic.mark()
    listed = perform(admin, LIST_TOPICS, ListTopicsArgs())
    _same_as_reported(recorder, mark, listed, "Metadata")
    perform(admin, DESCRIBE_TOPICS, DescribeTopicsArgs([unique_topic("kc-absent")]))  # java: DescribeTopicPartitions, after DescribeCluster
    assert recorder.traffic.problems == []
    assert _direct(cluster, recorder, admin) == []



@pytest.mark.parametrize("client", ["java:2.3.1", "confluent"])
def test_what_a_client_sends_when_made_precedes_a_call_it_refuses_itself(kc_config: Any, client: str) -> None:
    """Neither kafka-clients 2.3.1 nor confluent-kafka has describeFeatures: the call returns at once, without
    a request of its own, while the new client's thread bootstraps (ApiVersions, Metadata).  A client is handed
    out once it has its first metadata, so that ApiVersions is in the traffic when the call returns, every time:
    read then, a cell's request version no longer depends on which thread wins.  No broker: the stub."""
    from kcompat.harness.clients import Endpoint, client_for
    from kcompat.harness.operations import perform
    from kcompat.harness.operations.describe_features import DESCRIBE_FEATURES, DescribeFeaturesArgs
    from kcompat.harness.recorder import StubBroker

    with StubBroker() as stub, RequestRecorder([(stub.host, stub.port)]) as recorder:
        seen = []
        for _ in range(8):
            mark = recorder.traffic.mark()
            made = client_for(client, Endpoint(recorder.bootstrap_servers), kc_config)
            result = perform(made, DESCRIBE_FEATURES, DescribeFeaturesArgs())
            seen.append(recorder.traffic.version_since(mark, "ApiVersions"))  # read as the cell reads it
            made.close()
            assert result.exception is not None and not result.resources, result  # refused by the client itself
        assert None not in seen and len(set(seen)) == 1, seen
        assert recorder.traffic.problems == []
