"""The sarama adapter (ClusterAdmin) against real brokers: every operation it declares, on an old ZooKeeper broker and a KRaft
one, each answer's shape and values as this library gives them (what every adapter kind does alike:
test_adapter_conformance.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kcompat.harness import ClusterSpec, KafkaVersion
from kcompat.harness.clients import Endpoint, kind
from kcompat.harness.clients.kinds.sarama import install
from kcompat.harness.clients.base import ConfigTarget, NewTopic
from kcompat.harness.operations import perform
from kcompat.harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from kcompat.harness.operations.delete_topics import DELETE_TOPICS, DeleteTopicsArgs
from kcompat.harness.operations.describe_cluster import DESCRIBE_CLUSTER, DescribeClusterArgs
from kcompat.harness.operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from kcompat.harness.operations.list_groups import LIST_GROUPS, ListGroupsArgs
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.probes._shared import simple_name
from kcompat.harness.recorder import StubBroker
from kcompat.harness.waiting import attempts
from tests.slices import new_in_ci
from tests.pinned_limits import assert_capped, measured
from tests.adapter_driver import AdapterProcess

RELEASE = "1.61.1"
BROKERS = {"zk-2.3": ("2.3", "zk"), "kraft-4.4": ("4.4", "kraft")}


@pytest.fixture
def adapter(kc_config, tmp_path: Path) -> Iterator[AdapterProcess]:
    argv, env = install.install(RELEASE, kc_config)
    process = AdapterProcess(argv, env, tmp_path / "sarama-adapter.log")
    try:
        yield process
    finally:
        process.kill()


@pytest.fixture(params=new_in_ci(BROKERS, "kraft-4.4"))
def broker(request, kafka_cluster_factory):
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


def one(result: dict[str, Any], name: str) -> dict[str, Any]:
    found = [r for r in result["resources"] if r["resource"] == name]
    assert len(found) == 1, result
    entry: dict[str, Any] = found[0]
    return entry


def new_topic(name: str, partitions: int | None = 1, **extra: Any) -> dict[str, Any]:
    return {"name": name, "partitions": partitions, "replication_factor": 1, "assignments": None, "configs": {},
            **extra}


def test_the_ready_line_states_the_kafka_version_and_a_bad_line_is_a_failure(adapter):
    # Config.Version: one choice per release, visible (sarama.MaxVersion of 1.61.1; requests follow ApiVersions)
    assert adapter.ready["kafka_version"] == "4.3.1"
    assert adapter.ready["kafka_version_rule"].startswith("sarama.MaxVersion")
    assert "unknown op" in adapter.call("no_such_op", None, {})["failure"]["message"]
    assert adapter.send(b"{not json")["failure"]["class"] == "json"
    assert adapter.close() == 0
    assert all(json.loads(line) for line in adapter.lines)


def test_every_declared_operation_against_a_broker(adapter, broker, unique_topic):
    at = endpoint_of(broker)
    node = broker.brokers[0].node_id
    topic, group = unique_topic("kc-sa"), unique_topic("kc-sa-group")
    newer = broker.spec.version >= KafkaVersion.parse("2.4")
    checked = _topics(adapter, at, topic, node) | _configs(adapter, at, topic, node, newer)
    checked |= _groups(adapter, at, topic, group, newer) | _offsets(adapter, at, topic)
    checked |= _replicas(adapter, at, topic, node, newer) | _cluster(adapter, at, broker)
    checked |= _acls_without_authorizer(adapter, at, topic)
    checked |= _scram(adapter, at, unique_topic("kc-scram"), broker.spec.version >= KafkaVersion.parse("2.7"))
    offered = next(r.max_version for r in broker.api_versions if r.api_key == 19)  # CreateTopics
    dry = adapter.result("create_topics", at, {"validate_only": True, "topics": [new_topic(topic + "-v")]})
    assert dry["request_version"] == min(7, offered)  # read from the frames the library wrote (it sends up to v7)
    described = adapter.result("describe_topics", at, {"names": [topic]})
    assert described["request_version"] is None  # Metadata, not DescribeTopicPartitions (KIP-966)
    deleted = adapter.result("delete_topics", at, {"names": [topic], "topic_ids": []})
    assert one(deleted, topic)["error_name"] == "NONE", deleted
    by_id = adapter.result("delete_topics", at, {"names": [], "topic_ids": ["5c5b3bd3-3d19-4d0a-8c53-9d1a0a0a0a0a"]})
    assert by_id["unsupported_options"] == ["topic_ids"]
    checked.add("delete_topics")
    assert adapter.result("close", at, {})["resources"] == []
    assert checked == set(adapter.ready["operations"])
    assert adapter.close() == 0
    assert all(json.loads(line) for line in adapter.lines)  # nothing but protocol lines on stdout


def _topics(adapter: AdapterProcess, at: Endpoint, topic: str, node: int) -> set[str]:
    dry = adapter.result("create_topics", at, {"validate_only": True, "topics": [new_topic(topic + "-dry")]})
    assert one(dry, topic + "-dry")["error_name"] == "NONE", dry
    created = adapter.result("create_topics", at, {"validate_only": False, "topics": [
        new_topic(topic, 2, configs={"cleanup.policy": "compact"})]})
    entry = one(created, topic)
    assert entry["error_name"] == "NONE", created
    assert created["result_fields"] == [] and entry["fields"] == {}  # CreateTopic answers an error only (no KIP-525)
    again = adapter.result("create_topics", at, {"validate_only": False, "topics": [new_topic(topic)]})
    assert one(again, topic)["error_name"] == "TOPIC_ALREADY_EXISTS"
    assert one(again, topic)["error_code"] == 36
    placed = adapter.result("create_topics", at, {"validate_only": True, "topics": [
        new_topic(topic + "-placed", None, replication_factor=None, assignments={"0": [node]})]})
    assert one(placed, topic + "-placed")["error_name"] == "NONE", placed
    described = adapter.result("describe_topics", at, {"names": [topic, topic + "-dry"]})
    assert one(described, topic)["fields"]["partitions"] == 2
    assert one(described, topic + "-dry")["error_name"] == "UNKNOWN_TOPIC_OR_PARTITION"  # validated only
    grown = adapter.result("create_partitions", at, {"validate_only": False, "partitions": [
        {"topic": topic, "total_count": 3, "assignments": None}]})
    assert one(grown, topic)["error_name"] == "NONE", grown
    checked = adapter.result("create_partitions", at, {"validate_only": True, "partitions": [
        {"topic": topic, "total_count": 2, "assignments": None}]})
    assert one(checked, topic)["error_name"] == "INVALID_PARTITIONS", checked
    for _ in attempts(30, interval=0.5):  # the partitions show once the brokers' metadata caught up
        listed = adapter.result("list_topics", at, {"list_internal": True})
        if any(r["resource"] == topic and r["fields"]["partitions"] == 3 for r in listed["resources"]):
            break
    else:
        raise AssertionError(f"{topic} with 3 partitions was not listed within 30 s: {listed}")
    hidden = adapter.result("list_topics", at, {"list_internal": False})
    assert hidden["unsupported_options"] == ["list_internal"]  # ListTopics has no such option
    assert [r["resource"] for r in listed["resources"]] == sorted(r["resource"] for r in listed["resources"])
    return {"create_topics", "describe_topics", "create_partitions", "list_topics"}


def _configs(adapter: AdapterProcess, at: Endpoint, topic: str, node: int, newer: bool) -> set[str]:
    described = adapter.result("describe_configs", at, {"include_synonyms": True, "include_documentation": True,
                                                        "targets": [{"resource_type": "topic", "name": topic},
                                                                      {"resource_type": "broker", "name": str(node)}]})
    assert described["unsupported_options"] == []
    configs = {c["name"]: c for c in one(described, f"topic:{topic}")["fields"]["configs"]}
    # KIP-569 (DescribeConfigs v3, brokers 2.6+): types and documentation; 2.3 answers v2 without them
    assert ("configs.documentation" in described["result_fields"]) is newer
    if newer:
        assert configs["retention.ms"]["type"] == "LONG" and configs["retention.ms"]["documentation"]
    assert configs["cleanup.policy"]["value"] == "compact"
    assert configs["cleanup.policy"]["source"] == "DYNAMIC_TOPIC_CONFIG"
    assert configs["retention.ms"]["source"] == "DEFAULT_CONFIG"
    broker_configs = {c["name"]: c for c in one(described, f"broker:{node}")["fields"]["configs"]}
    assert "num.io.threads" in broker_configs
    incremental = adapter.result("incremental_alter_configs", at, {"validate_only": False, "resources": [
        {"target": {"resource_type": "topic", "name": topic}, "ops": [
            {"name": "retention.ms", "value": "3600000", "op": "SET"}]}]})
    assert one(incremental, f"topic:{topic}")["error_name"] == "NONE", incremental
    _config_becomes(adapter, at, topic, "retention.ms", "3600000")
    legacy = adapter.result("alter_configs", at, {"validate_only": False, "resources": [
        {"target": {"resource_type": "topic", "name": topic}, "configs": {"retention.ms": "7200000"}}]})
    assert one(legacy, f"topic:{topic}")["error_name"] == "NONE", legacy
    _config_becomes(adapter, at, topic, "retention.ms", "7200000")
    wrong = adapter.result("incremental_alter_configs", at, {"validate_only": True, "resources": [
        {"target": {"resource_type": "topic", "name": topic}, "ops": [
            {"name": "no.such.config", "value": "1", "op": "SET"}]}]})
    assert one(wrong, f"topic:{topic}")["error_name"] == "INVALID_CONFIG", wrong
    return {"describe_configs", "incremental_alter_configs", "alter_configs"}


def _config_becomes(adapter: AdapterProcess, at: Endpoint, topic: str, name: str, value: str) -> None:
    for _ in attempts(30, interval=0.5):  # a KRaft broker applies the change when its metadata catches up
        described = adapter.result("describe_configs", at, {"include_synonyms": False, "include_documentation": False,
                                                            "targets": [{"resource_type": "topic", "name": topic}]})
        configs = {c["name"]: c for c in one(described, f"topic:{topic}")["fields"]["configs"]}
        if configs[name]["value"] == value:
            return
    raise AssertionError(f"{name} of {topic} did not become {value}: {configs[name]}")


def _groups(adapter: AdapterProcess, at: Endpoint, topic: str, group: str, newer: bool) -> set[str]:
    committed = adapter.result("alter_consumer_group_offsets", at, {"group": group, "offsets": [[topic, 0, 0]]})
    assert one(committed, f"{topic}:0")["error_name"] == "NONE", committed
    offsets = adapter.result("list_consumer_group_offsets", at, {"group": group, "partitions": None})
    assert one(offsets, f"{topic}:0")["fields"]["offset"] == 0
    asked = adapter.result("list_consumer_group_offsets", at, {"group": group, "partitions": [[topic, 0]]})
    assert [r["resource"] for r in asked["resources"]] == [f"{topic}:0"]
    listed = adapter.result("list_consumer_groups", at, {"states": []})
    assert one(listed, group)["fields"] == {} and listed["result_fields"] == []  # ListConsumerGroups: no state
    filtered = adapter.result("list_consumer_groups", at, {"states": ["Empty"]})
    assert filtered["unsupported_options"] == ["states"]
    described = adapter.result("describe_consumer_groups", at, {"groups": [group],
                                                                "include_authorized_operations": False})
    fields = one(described, group)["fields"]
    assert fields["state"] == "Empty" and fields["members"] == []
    forgotten = adapter.result("delete_consumer_group_offsets", at, {"group": group, "partitions": [[topic, 0]]})
    if newer:  # OffsetDelete (KIP-496, 2.4)
        assert one(forgotten, f"{topic}:0")["error_name"] == "NONE", forgotten
    else:
        assert refused(forgotten), forgotten
    deleted = adapter.result("delete_consumer_groups", at, {"groups": [group]})
    assert one(deleted, group)["error_name"] == "NONE", deleted
    gone = adapter.result("delete_consumer_groups", at, {"groups": [group]})
    assert one(gone, group)["error_name"] == "GROUP_ID_NOT_FOUND", gone
    return {"alter_consumer_group_offsets", "list_consumer_group_offsets", "list_consumer_groups",
            "describe_consumer_groups", "delete_consumer_groups", "delete_consumer_group_offsets"}


def refused(result: dict[str, Any]) -> bool:
    """The call was refused as the kind says it refuses a request the broker lacks (or as Kafka does)."""
    declared = kind("sarama")
    if result["exception"] is not None:
        return declared.refuses(simple_name(result["exception"]), None)
    return bool(result["resources"]) and all(declared.refuses(simple_name(r["exception"]), r["error_name"])
                                             for r in result["resources"])


def _scram(adapter: AdapterProcess, at: Endpoint, user: str, kip_554: bool) -> set[str]:
    upsert = {"upsertions": [{"user": user, "password": "kc-scram-pw", "mechanism": "SCRAM_SHA_256",
                              "iterations": 8192}], "deletions": []}
    upserted = adapter.result("alter_user_scram_credentials", at, upsert)
    described = adapter.result("describe_user_scram_credentials", at, {"users": [user]})
    if not kip_554:  # DescribeUserScramCredentials and AlterUserScramCredentials arrived in 2.7
        assert refused(upserted) and refused(described), (upserted, described)
        return {"alter_user_scram_credentials", "describe_user_scram_credentials"}
    assert one(upserted, user)["error_name"] == "NONE", upserted
    for _ in attempts(30, interval=0.5):  # KRaft: the credential shows once the broker applied it
        described = adapter.result("describe_user_scram_credentials", at, {"users": [user]})
        if one(described, user)["error_name"] == "NONE":
            break
    assert one(described, user)["fields"]["credentials"] == [{"mechanism": "SCRAM_SHA_256", "iterations": 8192}]
    assert "kc-scram-pw" not in json.dumps(described)
    removed = adapter.result("alter_user_scram_credentials", at, {"upsertions": [], "deletions": [
        {"user": user, "mechanism": "SCRAM_SHA_256"}]})
    assert one(removed, user)["error_name"] == "NONE", removed
    return {"alter_user_scram_credentials", "describe_user_scram_credentials"}


def _offsets(adapter: AdapterProcess, at: Endpoint, topic: str) -> set[str]:
    queries = [{"topic": topic, "partition": 0, "spec": spec, "timestamp": 0 if spec == "timestamp" else None}
               for spec in ("earliest", "latest", "timestamp")]
    listed = adapter.result("list_offsets", at, {"queries": queries})
    assert [r["resource"] for r in listed["resources"]] == [f"{topic}:0"] * 3
    assert [r["fields"]["offset"] for r in listed["resources"]] == [0, 0, -1], listed
    deleted = adapter.result("delete_records", at, {"before": [{"topic": topic, "partition": 0, "offset": 0}]})
    entry = one(deleted, f"{topic}:0")
    assert entry["error_name"] == "NONE" and entry["fields"] == {}, deleted  # DeleteRecords answers no watermark
    return {"list_offsets", "delete_records"}


def _replicas(adapter: AdapterProcess, at: Endpoint, topic: str, node: int, newer: bool) -> set[str]:
    elected = adapter.result("elect_leaders", at, {"election_type": "preferred",
                                                   "partitions": [{"topic": topic, "partition": 0}]})
    error = one(elected, f"{topic}-0")["error_name"] if elected["resources"] else elected["exception"]
    assert error == ("ELECTION_NOT_NEEDED" if newer else "NONE"), elected  # the only replica leads already
    moved = adapter.result("alter_partition_reassignments", at, {"reassignments": [
        {"partition": {"topic": topic, "partition": 0}, "replicas": [node]}]})
    listed = adapter.result("list_partition_reassignments", at, {"partitions": [{"topic": topic, "partition": 0}]})
    everything = adapter.result("list_partition_reassignments", at, {"partitions": None})
    assert everything["unsupported_options"] == ["partitions"]  # ClusterAdmin lists named partitions only
    if newer:  # KIP-455 (2.4)
        assert one(moved, f"{topic}-0")["error_name"] == "NONE", moved
        assert listed["exception"] is None and set(listed["result_fields"]) >= {"replicas", "adding_replicas"}
    else:  # a 2.3 broker lacks both APIs: sarama's refusal, as Kafka names it
        assert one(moved, f"{topic}-0")["error_name"] == "UNSUPPORTED_VERSION", moved
        assert one(listed, "*")["error_name"] == "UNSUPPORTED_VERSION", listed
    dirs = adapter.result("describe_log_dirs", at, {"brokers": [node]})
    assert dirs["resources"] and all(r["resource"].startswith(f"{node}:") for r in dirs["resources"])
    held = [p for r in dirs["resources"] for p in r["fields"]["replicas"] if p["topic"] == topic]
    assert sorted(p["partition"] for p in held) == [0, 1, 2]
    assert set(held[0]) == {"topic", "partition", "size", "offset_lag", "is_future"}
    return {"elect_leaders", "alter_partition_reassignments", "list_partition_reassignments", "describe_log_dirs"}


def _cluster(adapter: AdapterProcess, at: Endpoint, broker: Any) -> set[str]:
    described = adapter.result("describe_cluster", at, {"include_authorized_operations": False})
    fields = one(described, "cluster")["fields"]
    # the shared cluster may hold a registration another test made (unregisterBroker's fenced one): every broker
    # of the cluster is listed
    assert {b.node_id for b in broker.brokers} <= set(fields["nodes"]), fields["nodes"]
    assert set(fields) == {"nodes", "controller"}  # DescribeCluster gives no cluster id
    asked = adapter.result("describe_cluster", at, {"include_authorized_operations": True})
    assert asked["unsupported_options"] == ["include_authorized_operations"]
    return {"describe_cluster"}


def _acls_without_authorizer(adapter: AdapterProcess, at: Endpoint, topic: str) -> set[str]:
    acl = {"resource_type": "topic", "resource_name": topic, "principal": "User:bob", "operation": "READ",
           "permission": "ALLOW", "host": "*", "pattern": "LITERAL"}
    created = adapter.result("create_acls", at, {"acls": [acl]})
    assert one(created, f"topic:{topic}:User:bob:READ:ALLOW")["error_name"] == "SECURITY_DISABLED", created
    described = adapter.result("describe_acls", at, {"filter": acl})
    assert one(described, f"topic:{topic}:User:bob:READ:ALLOW")["error_name"] == "SECURITY_DISABLED", described
    deleted = adapter.result("delete_acls", at, {"filters": [acl]})
    assert one(deleted, f"topic:{topic}:User:bob:READ:ALLOW")["error_name"] == "SECURITY_DISABLED", deleted
    return {"create_acls", "describe_acls", "delete_acls"}


def _sent_by(adapter: AdapterProcess, settings: dict[str, Any] | None) -> dict[str, tuple[int, ...]]:
    """The request versions one create_topics sends to a stub broker that offers every version, in a
    configuration (None: the release's own Config.Version)."""
    with StubBroker() as stub:
        adapter.result("create_topics", Endpoint(stub.bootstrap_servers), {"validate_only": False,
                                                                            "topics": [new_topic("kc-pinned")]},
                       settings=settings)
        return stub.recording.versions()


def test_the_version_setting_is_config_version(adapter):
    default, pinned = _sent_by(adapter, None), _sent_by(adapter, {"version": "2.3.0"})
    oldest = _sent_by(adapter, {"version": "0.10.2"})  # sarama's format for 0.x has four parts: 0.10.2.0
    assert set(pinned) == set(default) == set(oldest), (pinned, default)
    assert all(max(oldest[api]) <= max(pinned[api]) <= max(default[api]) for api in default), (oldest, pinned, default)
    assert max(oldest["CreateTopics"]) < max(pinned["CreateTopics"]) < max(default["CreateTopics"])
    assert _sent_by(adapter, {"version": "2.3"}) == pinned  # 2.3.0 in sarama's terms


def test_a_version_sarama_refuses_is_a_failure_naming_it(adapter):
    answer = adapter.call("list_topics", Endpoint("127.0.0.1:9"), {}, settings={"version": "2.3.0.1"})
    assert answer["failure"]["message"].startswith("sarama can't take version=2.3.0.1 as Config.Version: "), answer


SHOPIFY = "1.38.1"
"""The last release under github.com/Shopify/sarama: built with a go.mod replace and the sarama_pre160 tag."""
LACKING_BEFORE_160 = {"list_offsets", "elect_leaders", "alter_consumer_group_offsets"}


def test_a_shopify_path_release_is_measured_through_the_console_script() -> None:
    from tests.console import kcompat, ok

    (line,) = ok(kcompat("clients", "limits", "--json", f"sarama:{SHOPIFY}", timeout=1500)).splitlines()
    measured = json.loads(line)
    assert (measured["kind"], measured["release"]) == ("sarama", SHOPIFY)
    assert {"CreateTopics", "DescribeConfigs", "Metadata"} <= set(measured["newest"])


def test_a_shopify_path_release_drives_its_clusteradmin_against_a_broker(kc_config, tmp_path: Path,
                                                                          kafka_cluster_factory, unique_topic) -> None:
    argv, env = install.install(SHOPIFY, kc_config)
    adapter = AdapterProcess(argv, env, tmp_path / "sarama-shopify.log")
    try:
        assert adapter.ready["ready"] == SHOPIFY  # the replacement's release, read from the binary's build info
        assert adapter.ready["kafka_version_rule"].startswith("sarama.DefaultVersion")
        assert not LACKING_BEFORE_160 & set(adapter.ready["operations"])  # the client lacking them: unsupported
        at = endpoint_of(kafka_cluster_factory(ClusterSpec.of("2.3", "zk")))
        topic = unique_topic("kc-sa-old")
        created = adapter.result("create_topics", at, {"validate_only": False, "topics": [new_topic(topic)]})
        assert one(created, topic)["error_name"] == "NONE", created
        described = adapter.result("describe_configs", at, {"include_synonyms": True, "include_documentation": False,
                                                            "targets": [{"resource_type": "TOPIC", "name": topic}]})
        assert described["unsupported_options"] == ["include_synonyms"]  # DescribeConfig has no such option
        configs = {c["name"]: c for c in one(described, f"topic:{topic}")["fields"]["configs"]}
        assert configs["cleanup.policy"]["value"] == "delete"
        assert adapter.close() == 0
    finally:
        adapter.kill()


def test_kcompat_measures_the_pinned_configuration_below_the_default():
    default, pinned = measured(f"sarama:{RELEASE}", "version=2.3.0")
    assert_capped(default, pinned)


BROKER_SURFACE = f"sarama:{RELEASE}@surface=broker"


def test_broker_surface_sends_the_request_structs_versions(
        kafka_cluster_factory: Callable[..., Any], admin_client_factory: Callable[..., Any],
        unique_topic: Callable[[str], str]) -> None:
    """*sarama.Broker's request methods, each request a struct literal (its Version zero), Metadata at
    Config.Version to find the controller; what the surface sends no request for is the client lacking it."""
    cluster = kafka_cluster_factory(ClusterSpec.of("2.8"))
    client = admin_client_factory(cluster, BROKER_SURFACE)
    name = unique_topic("kc-sab")

    created = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)], validate_only=True))
    assert created.request_version == 0 and created.unsupported_options == ("validate_only",), created
    assert created.resource(name).error_name == "NONE"
    again = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert again.resource(name).error_name == "TOPIC_ALREADY_EXISTS"  # validate_only never reached the broker

    listed = perform(client, LIST_TOPICS, ListTopicsArgs())
    assert listed.resource(name).fields == {"partitions": 1, "internal": False}
    assert isinstance(listed.request_version, int) and listed.request_version > 0  # sarama.NewMetadataRequest
    described = perform(client, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", name)], True, False))
    assert described.request_version == 0 and described.unsupported_options == ("include_synonyms",)
    assert "retention.ms" in {e["name"] for e in described.resource(f"topic:{name}").fields["configs"]}
    cluster_info = perform(client, DESCRIBE_CLUSTER, DescribeClusterArgs())
    assert cluster_info.resource("cluster").fields["nodes"] == [b.node_id for b in cluster.brokers]

    lacking = perform(client, LIST_GROUPS, ListGroupsArgs())
    assert lacking.exception == "NotImplementedError"

    deleted = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert (deleted.resource(name).error_name, deleted.request_version) == ("NONE", 0)


def test_broker_surface_against_kafka_4(
        kafka_cluster_factory: Callable[..., Any], admin_client_factory: Callable[..., Any],
        unique_topic: Callable[[str], str]) -> None:
    """Kafka 4 dropped CreateTopics v0-1 (KIP-896), and sarama lowers a request's version to the broker's but never
    raises it: the broker closes the connection, while ClusterAdmin (the default surface) creates the topic."""
    cluster = kafka_cluster_factory(ClusterSpec.of("4.4"))
    name = unique_topic("kc-sab4")

    raw = perform(admin_client_factory(cluster, BROKER_SURFACE), CREATE_TOPICS,
                  CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert raw.exception is not None and raw.request_version == 0, raw
    admin = perform(admin_client_factory(cluster, f"sarama:{RELEASE}"), CREATE_TOPICS,
                    CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert admin.exception is None and admin.resource(name).error_name == "NONE"
