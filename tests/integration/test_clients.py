"""The three clients against an old and a new broker: what each sent, and what it returned.

Old: 2.3 (before KIP-525 and KIP-569).  New: the newest catalog line.
"""

from __future__ import annotations

import json
import re
import os
import signal
import time

import psutil
import pytest

from kcompat.harness.operations import perform
from kcompat.harness.operations.create_partitions import CREATE_PARTITIONS, CreatePartitionsArgs
from kcompat.harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from kcompat.harness.operations.describe_cluster import DESCRIBE_CLUSTER, DescribeClusterArgs
from kcompat.harness.operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs
from kcompat.harness import ClusterSpec, HarnessError, KafkaVersion, SaslSpec, load_catalog
from kcompat.harness.clients import ConfigTarget, Endpoint, NewPartitions, NewTopic
from kcompat.harness.clients.java import JavaClient, Sidecar

CATALOG = load_catalog()
NEWEST = str(CATALOG.newest().version)
BROKERS = {"old": ("2.3", "zk"), "new": (NEWEST, "kraft")}
KIP_525_LANDED = KafkaVersion.parse("2.4")
# Two of the catalog's Java clients: the last before KIP-525, and the newest.
JAVA = [str(max(c.version for c in CATALOG.java_clients if c.version < KIP_525_LANDED)),
        str(CATALOG.java_clients[-1].version)]
KIP_525 = {"num_partitions", "replication_factor", "configs", "topic_config_error_code"}


@pytest.fixture(params=sorted(BROKERS))
def broker(request, kafka_cluster_factory):
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


def _offered(cluster, api_key):
    return next(r for r in cluster.api_versions if r.api_key == api_key)


def test_wire_create_topics_fields_follow_the_request_version(broker, admin_client_factory, unique_topic):
    wire = admin_client_factory(broker, "wire")
    offered = _offered(broker, 19)
    for version in range(0, 8):
        topic = NewTopic(unique_topic(f"kc-wire-ct-{version}"), 3, 1)
        if version == 0:  # v0 can't carry validate_only: it creates the topic for real
            result = perform(wire, CREATE_TOPICS, CreateTopicsArgs([topic]), version=version)
        else:
            result = perform(wire, CREATE_TOPICS, CreateTopicsArgs([topic], validate_only=True), version=version)
        assert result.request_version == version
        if not offered.min_version <= version <= offered.max_version:
            assert result.exception == "UnsupportedVersion", result
            continue
        outcome = result.resource(topic.name)
        assert outcome.error_name == "NONE", outcome
        assert (KIP_525 <= set(result.result_fields)) is (version >= 5)
        if version >= 5:
            assert outcome.fields["num_partitions"] == 3
            assert outcome.fields["topic_config_error_code"] == 0  # a tagged field, decoded
            assert {c["name"] for c in outcome.fields["configs"]} >= {"cleanup.policy", "retention.ms"}


def test_wire_describe_configs_fields_follow_the_request_version(broker, admin_client_factory):
    wire = admin_client_factory(broker, "wire")
    offered = _offered(broker, 32)
    for version in range(0, 5):
        result = perform(wire, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("broker", "1")], include_synonyms=version >= 1, include_documentation=version >= 3), version=version)
        if not offered.min_version <= version <= offered.max_version:
            assert result.exception == "UnsupportedVersion", result
            continue
        fields = set(result.result_fields)
        assert ("configs.documentation" in fields) is (version >= 3)  # KIP-569
        assert ("configs.type" in fields) is (version >= 3)
        assert ("configs.source" in fields) is (version >= 1)
        entries = {c["name"]: c for c in result.resource("broker:1").fields["configs"]}
        if version >= 3:
            assert entries["log.retention.ms"]["type"] == "LONG"
            assert entries["num.io.threads"]["documentation"]


@pytest.mark.parametrize("client_version", JAVA)
def test_java_sidecar_records_versions_and_kip_525_fields(broker, admin_client_factory, client_version):
    java = admin_client_factory(broker, f"java:{client_version}")
    result = perform(java, CREATE_TOPICS, CreateTopicsArgs([NewTopic(f"kc-java-{client_version}", 2, 1)], validate_only=True))
    broker_max = _offered(broker, 19).max_version
    assert result.client_version == client_version
    assert result.request_version is not None and result.request_version <= broker_max
    outcome = result.resource(f"kc-java-{client_version}")
    assert outcome.error_name == "NONE", outcome
    has_api = "numPartitions" in (java.public_methods("org.apache.kafka.clients.admin.CreateTopicsResult") or ())
    assert ("num_partitions" in result.result_fields) is has_api  # the release's own methods, by reflection
    if has_api and broker_max >= 5:
        assert outcome.fields["num_partitions"] == 2
    elif has_api:  # a new client on an old broker: the futures fail, and the record says how
        assert outcome.fields["num_partitions"] is None
        assert outcome.fields["num_partitions.exception"]
    described = perform(java, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("broker", "1")], include_synonyms=True, include_documentation=True))
    options = java.public_methods("org.apache.kafka.clients.admin.DescribeConfigsOptions") or ()
    assert ("include_documentation" in described.unsupported_options) is ("includeDocumentation" not in options)
    assert described.request_version is not None and described.request_version <= _offered(broker, 32).max_version


def test_java_sidecar_runs_create_partitions_and_list_topics(broker, admin_client_factory, create_topic, wire,
                                                             unique_topic):
    name = unique_topic("kc-java-grow")
    conn, offered = wire(broker)
    with conn:
        assert int(create_topic(conn, offered, name).error_code) == 0
    java = admin_client_factory(broker, f"java:{JAVA[-1]}")
    grown = perform(java, CREATE_PARTITIONS, CreatePartitionsArgs([NewPartitions(name, 3)], validate_only=True))
    assert grown.resource(name).error_name == "NONE", grown
    listed = perform(java, LIST_TOPICS, ListTopicsArgs())
    assert name in {r.resource for r in listed.resources}
    assert listed.request_version is not None


def test_confluent_records_what_librdkafka_sent(broker, admin_client_factory):
    confluent = admin_client_factory(broker, "confluent")
    created = perform(confluent, CREATE_TOPICS, CreateTopicsArgs([NewTopic("kc-ck-topic", 2, 1)], validate_only=True))
    assert re.fullmatch(r"\d+\.\d+\.\d+", created.client_version)
    assert created.librdkafka_version and created.librdkafka_version[0].isdigit()
    assert created.request_version is not None
    assert created.request_version <= _offered(broker, 19).max_version
    assert created.resource("kc-ck-topic").error_name == "NONE", created
    assert created.result_fields == ()  # confluent-kafka exposes no KIP-525 result fields
    described = perform(confluent, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("broker", "1")]))
    assert described.request_version is not None
    # A field appears only when the version librdkafka chose carries it.
    assert ("configs.documentation" in described.result_fields) <= (described.request_version >= 3)


SASL_USERS = (("alice", "alice-secret-pw"),)


@pytest.mark.parametrize("client", ["wire", "confluent", *(f"java:{v}" for v in JAVA)])
def test_every_client_records_the_same_authorization_error(kafka_cluster_factory, admin_client_factory, client,
                                                            kc_config):
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9", "kraft", sasl=SaslSpec(users=SASL_USERS)))
    admin = admin_client_factory(cluster, client, user="alice")
    result = perform(admin, CREATE_TOPICS, CreateTopicsArgs([NewTopic("kc-denied", 1, 1)]))
    assert result.resource("kc-denied").error_name == "TOPIC_AUTHORIZATION_FAILED", result
    assert result.resource("kc-denied").error_code == 29
    assert "alice-secret-pw" not in json.dumps(result.as_json())
    if isinstance(admin, JavaClient):
        assert "alice-secret-pw" not in admin.sidecar.log_path.read_text(errors="replace")


def test_a_sidecar_killed_during_a_call_is_an_infra_error_then_restarts(kc_config, monkeypatch):
    sidecar = Sidecar(JAVA[-1], kc_config)
    try:
        assert sidecar.call("version", None, {})["version"] == JAVA[-1]
        assert sidecar._proc is not None
        pid = sidecar._proc.pid
        # Stopped first, so it can't answer before the kill lands; killed once the request is written.
        os.kill(pid, signal.SIGSTOP)
        _wait_until_stopped(pid)
        read_line = sidecar._read_line
        def kill_then_read(timeout: float, what: str):
            os.kill(pid, signal.SIGKILL)
            return read_line(timeout, what)
        monkeypatch.setattr(sidecar, "_read_line", kill_then_read)
        with pytest.raises(HarnessError, match="exited with code -9 during version .*next call starts a new one.*log: "):
            sidecar.call("version", None, {})
        monkeypatch.undo()
        assert sidecar.call("version", None, {})["version"] == JAVA[-1]
        assert sidecar.starts == 2
        assert sidecar.exits_between_calls == []
    finally:
        sidecar.close()


def test_a_sidecar_dead_between_calls_is_restarted_and_recorded(kc_config):
    sidecar = Sidecar(JAVA[-1], kc_config)
    try:
        sidecar.call("version", None, {})
        assert sidecar._proc is not None
        os.kill(sidecar._proc.pid, signal.SIGKILL)
        sidecar._proc.wait(timeout=10)
        assert sidecar.call("version", None, {})["version"] == JAVA[-1]
        assert sidecar.starts == 2
        assert sidecar.exits_between_calls == [-9]
        assert "exited with code -9 between calls" in sidecar.log_path.read_text()
    finally:
        sidecar.close()


def _wait_until_stopped(pid: int) -> None:
    """SIGSTOP lands asynchronously; a request written before it lands would still be answered."""
    deadline = time.monotonic() + 10
    while psutil.Process(pid).status() != psutil.STATUS_STOPPED and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_hung_sidecar_is_detected_in_bounded_time(kc_config):
    sidecar = Sidecar(JAVA[-1], kc_config)
    try:
        sidecar.call("version", None, {})  # a cold JVM's first answer under the normal deadline
        sidecar.answer_timeout = 2.0  # kcompat's wait for an answer (set when the process is made)
        assert sidecar._proc is not None
        os.kill(sidecar._proc.pid, signal.SIGSTOP)
        _wait_until_stopped(sidecar._proc.pid)
        with pytest.raises(HarnessError, match="did not answer version within 2s"):
            sidecar.call("version", None, {})
        assert not sidecar.alive
    finally:
        sidecar.close()


@pytest.mark.parametrize("client_version", JAVA)
def test_the_sidecar_answers_its_small_ops_as_the_python_side_reads_them(kc_config, client_version):
    """The contract, live: version, api_versions and methods per release; an unknown op fails, never crashes."""
    client = JavaClient(Endpoint("127.0.0.1:9"), client_version, kc_config)  # these ops never connect
    sidecar = client.sidecar
    assert sidecar.call("version", None, {})["version"] == client_version
    latest = client.client_api_versions()
    assert all(isinstance(v, int) for v in latest.values()) and "METADATA" in latest
    methods = client.public_methods("org.apache.kafka.clients.admin.CreateTopicsResult")
    assert methods is not None and "values" in methods and "hashCode" not in methods  # Object's are left out
    # two answers of the release agree: the result's KIP-525 methods exist where it sends CreateTopics v5+
    kip_525 = {"config", "numPartitions", "replicationFactor"} & set(methods)
    assert kip_525 in (set(), {"config", "numPartitions", "replicationFactor"}), kip_525
    assert bool(kip_525) is (latest["CREATE_TOPICS"] >= 5), (latest["CREATE_TOPICS"], kip_525)
    assert client.public_methods("org.apache.kafka.clients.admin.NoSuchThing") is None
    starts = sidecar.starts
    with pytest.raises(HarnessError, match="could not run banana: .*unknown op banana"):
        sidecar.call("banana", None, {})
    assert sidecar.alive and sidecar.starts == starts
    assert sidecar.call("version", None, {})["version"] == client_version  # still answering, in turn


def test_an_unresolvable_client_version_names_it(kc_config):
    sidecar = Sidecar("0.0.1", kc_config)
    with pytest.raises(HarnessError, match="kafka-clients 0.0.1"):
        sidecar.call("version", None, {})


def test_wire_options_a_version_cant_carry(broker, admin_client_factory, unique_topic):
    wire = admin_client_factory(broker, "wire")
    detail = perform(wire, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("broker", "1")], include_synonyms=True, include_documentation=True), version=2)
    assert detail.request_version == 2
    assert detail.unsupported_options == ("include_documentation",)  # left out, and said so
    assert detail.resource("broker:1").error_name == "NONE"
    name = unique_topic("kc-dry-run-v0")
    refused = perform(wire, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)], validate_only=True), version=0)
    assert refused.exception == "UnsupportedOption" and refused.unsupported_options == ("validate_only",)
    assert name not in {r.resource for r in perform(wire, LIST_TOPICS, ListTopicsArgs()).resources}  # a dry run never became real


def test_java_controllers_surface_bootstraps_from_the_controller_listener(kafka_cluster_factory,
                                                                          admin_client_factory, unique_topic):
    """``java:4.4.0@surface=controllers`` (KIP-919): its Admin reaches a KRaft cluster through the controller
    listener alone, where the controllers answer the APIs KIP-919 gives them and refuse the others; a release
    before 3.7, or a ZooKeeper cluster, has no such surface (the client lacks it)."""
    kraft = kafka_cluster_factory(ClusterSpec.of("4.4"))
    controllers = admin_client_factory(kraft, "java:4.4.0@surface=controllers")
    described = perform(controllers, DESCRIBE_CLUSTER, DescribeClusterArgs())
    assert described.exception is None and described.resource("cluster").error_name == "NONE", described
    name = unique_topic("controllers")
    created = perform(controllers, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert created.resource(name).error_name == "UNSUPPORTED_ENDPOINT_TYPE", created
    old = perform(admin_client_factory(kraft, "java:3.6.2@surface=controllers"), LIST_TOPICS, ListTopicsArgs())
    assert old.exception == "java.lang.NoSuchMethodException" and "3.7" in (old.exception_message or "")
    zk = kafka_cluster_factory(ClusterSpec.of("3.9", mode="zk"))
    none = perform(admin_client_factory(zk, "java:4.4.0@surface=controllers"), LIST_TOPICS, ListTopicsArgs())
    assert none.exception == "java.lang.NoSuchMethodException" and "ZooKeeper" in (none.exception_message or "")


def test_a_confluent_release_without_a_wheel_for_this_python_is_one_line_naming_the_installable(tmp_path) -> None:
    from tests.console import kcompat

    done = kcompat("run", "--brokers", "4.4", "--clients", "confluent:1.9.2", "--kip", "KIP-525",
                   "--out", str(tmp_path / "r"), timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("kcompat: error:")]
    assert "confluent-kafka 1.9.2 can't be installed here: PyPI has no wheel of it for Python" in line
    assert "nearest installable releases: 2." in line and not (tmp_path / "r").exists()  # nothing booted
