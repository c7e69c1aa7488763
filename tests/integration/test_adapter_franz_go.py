"""The franz-go adapter (kadm) against real brokers: every operation it declares, on an old ZooKeeper broker and a KRaft
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
from kcompat.harness.clients.kinds.franz_go import install
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

RELEASE = "1.22.2"
BROKERS = {"zk-2.3": ("2.3", "zk"), "kraft-4.4": ("4.4", "kraft")}


@pytest.fixture
def adapter(kc_config, tmp_path: Path) -> Iterator[AdapterProcess]:
    argv, env = install.install(RELEASE, kc_config)
    process = AdapterProcess(argv, env, tmp_path / "franz-go-adapter.log")
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


def test_the_ready_line_names_the_modules_and_a_bad_line_is_a_failure(adapter):
    assert adapter.ready["modules"]["kadm"].startswith("v")
    assert "unknown op" in adapter.call("no_such_op", None, {})["failure"]["message"]
    assert adapter.send(b"{not json")["failure"]["class"] == "json"
    assert adapter.close() == 0
    assert all(json.loads(line) for line in adapter.lines)


def test_every_declared_operation_against_a_broker(adapter, broker, unique_topic):
    at = endpoint_of(broker)
    node = broker.brokers[0].node_id
    topic, group = unique_topic("kc-fg"), unique_topic("kc-fg-group")
    newer = broker.spec.version >= KafkaVersion.parse("2.4")
    checked = _topics(adapter, at, topic, newer) | _configs(adapter, at, topic, node)
    checked |= _groups(adapter, at, topic, group, newer) | _offsets(adapter, at, topic)
    checked |= _replicas(adapter, at, topic, node, newer) | _cluster(adapter, at, broker)
    checked |= _acls_without_authorizer(adapter, at, topic)
    checked |= _scram(adapter, at, unique_topic("kc-scram"), broker.spec.version >= KafkaVersion.parse("2.7"))
    kip_932 = broker.spec.version >= KafkaVersion.parse("4.2")  # share groups on by default (share.version)
    checked |= _config_resources(adapter, at, topic, broker.spec.version >= KafkaVersion.parse("4.1"))
    checked |= _share_groups(adapter, at, topic, unique_topic("kc-fg-share"), kip_932)
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


def _topics(adapter: AdapterProcess, at: Endpoint, topic: str, newer: bool) -> set[str]:
    dry = adapter.result("create_topics", at, {"validate_only": True, "topics": [new_topic(topic + "-dry")]})
    assert one(dry, topic + "-dry")["error_name"] == "NONE", dry
    created = adapter.result("create_topics", at, {"validate_only": False, "topics": [
        new_topic(topic, 2, configs={"cleanup.policy": "compact"})]})
    entry = one(created, topic)
    assert entry["error_name"] == "NONE", created
    assert {"num_partitions", "replication_factor", "configs"} <= set(created["result_fields"])
    if newer:  # KIP-525: CreateTopics v5 answers the topic's partitions and configs
        assert entry["fields"]["num_partitions"] == 2
        configs = {c["name"]: c for c in entry["fields"]["configs"]}
        assert configs["cleanup.policy"]["value"] == "compact"
        assert configs["cleanup.policy"]["source"] == "DYNAMIC_TOPIC_CONFIG"
    else:
        assert entry["fields"]["num_partitions"] == -1 and entry["fields"]["configs"] == []
    again = adapter.result("create_topics", at, {"validate_only": False, "topics": [new_topic(topic)]})
    assert one(again, topic)["error_name"] == "TOPIC_ALREADY_EXISTS"
    assert one(again, topic)["error_code"] == 36
    placed = adapter.result("create_topics", at, {"validate_only": True, "topics": [
        new_topic(topic + "-placed", assignments={"0": [1]})]})
    assert placed["unsupported_options"] == ["assignments"]  # kadm has no replica assignments
    described = adapter.result("describe_topics", at, {"names": [topic, topic + "-dry"]})
    assert one(described, topic)["fields"]["partitions"] == 2
    assert one(described, topic + "-dry")["error_name"] == "UNKNOWN_TOPIC_OR_PARTITION"  # validated only
    grown = adapter.result("create_partitions", at, {"validate_only": False, "partitions": [
        {"topic": topic, "total_count": 3, "assignments": None}]})
    assert one(grown, topic)["error_name"] == "NONE", grown
    checked = adapter.result("create_partitions", at, {"validate_only": True, "partitions": [
        {"topic": topic, "total_count": 2, "assignments": None}]})
    assert one(checked, topic)["error_name"] == "INVALID_PARTITIONS", checked
    for _ in attempts(30, interval=0.5):  # kgo's metadata cache answers for up to 5 s
        listed = adapter.result("list_topics", at, {"list_internal": True})
        if any(r["resource"] == topic and r["fields"]["partitions"] == 3 for r in listed["resources"]):
            break
    else:
        raise AssertionError(f"{topic} with 3 partitions was not listed within 30 s: {listed}")
    assert [r["resource"] for r in listed["resources"]] == sorted(r["resource"] for r in listed["resources"])
    return {"create_topics", "describe_topics", "create_partitions", "list_topics"}


def _configs(adapter: AdapterProcess, at: Endpoint, topic: str, node: int) -> set[str]:
    described = adapter.result("describe_configs", at, {"include_synonyms": True, "include_documentation": True,
                                                        "targets": [{"resource_type": "topic", "name": topic},
                                                                      {"resource_type": "broker", "name": str(node)}]})
    assert described["unsupported_options"] == ["include_documentation"]  # kadm never asks for it (KIP-569)
    configs = {c["name"]: c for c in one(described, f"topic:{topic}")["fields"]["configs"]}
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
    state = one(listed, group)["fields"]["state"]
    assert state == ("Empty" if newer else None)  # ListGroups carries states from v4 (2.6)... 2.3 has none
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
    declared = kind("franz-go")
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
    # no record at or after the timestamp: Kafka answers -1, kadm makes that the end offset (Java keeps -1)
    assert [r["fields"]["offset"] for r in listed["resources"]] == [0, 0, 0], listed
    deleted = adapter.result("delete_records", at, {"before": [{"topic": topic, "partition": 0, "offset": 0}]})
    entry = one(deleted, f"{topic}:0")
    assert entry["error_name"] == "NONE" and entry["fields"]["low_watermark"] == 0, deleted
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
    assert everything["unsupported_options"] == ["partitions"]  # kadm lists named partitions only
    if newer:  # KIP-455 (2.4)
        assert one(moved, f"{topic}-0")["error_name"] == "NONE", moved
        assert listed["exception"] is None and set(listed["result_fields"]) >= {"replicas", "adding_replicas"}
    else:  # a 2.3 broker lacks both APIs: kgo refuses to send them (its errBrokerTooOld: the kind's refusal)
        assert moved["exception"] == listed["exception"] == "kgo.errBrokerTooOld", (moved, listed)
    dirs = adapter.result("describe_log_dirs", at, {"brokers": [node]})
    assert dirs["resources"] and all(r["resource"].startswith(f"{node}:") for r in dirs["resources"])
    held = [p for r in dirs["resources"] for p in r["fields"]["replicas"] if p["topic"] == topic]
    assert sorted(p["partition"] for p in held) == [0, 1, 2]
    assert set(held[0]) == {"topic", "partition", "size", "offset_lag", "is_future"}
    return {"elect_leaders", "alter_partition_reassignments", "list_partition_reassignments", "describe_log_dirs"}


def _cluster(adapter: AdapterProcess, at: Endpoint, broker: Any) -> set[str]:
    described = adapter.result("describe_cluster", at, {"include_authorized_operations": False})
    fields = one(described, "cluster")["fields"]
    assert fields["nodes"] == sorted(b.node_id for b in broker.brokers)
    assert fields["cluster_id"] and fields["authorized_operations"] is None
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


def _config_resources(adapter: AdapterProcess, at: Endpoint, topic: str, kip_1142: bool) -> set[str]:
    if not kip_1142:  # no ListConfigResources v1 (nor v0 before 3.7): kgo refuses the request itself
        assert refused(adapter.result("list_config_resources", at, {"resource_types": ["TOPIC"]}))
        return {"list_config_resources"}
    listed: dict[str, Any] = {}
    for _ in attempts(30, interval=0.5):  # a KRaft broker learns of a new topic in its own time
        listed = adapter.result("list_config_resources", at, {"resource_types": ["TOPIC"]})
        if f"TOPIC:{topic}" in {r["resource"] for r in listed["resources"]}:
            break
    assert one(listed, f"TOPIC:{topic}")["error_name"] == "NONE", listed
    assert all(r["resource"].startswith("TOPIC:") for r in listed["resources"]), listed
    return {"list_config_resources"}


def _share_groups(adapter: AdapterProcess, at: Endpoint, topic: str, group: str, kip_932: bool) -> set[str]:
    ops = {"alter_share_group_offsets", "list_share_group_offsets", "describe_share_groups",
           "delete_share_group_offsets"}
    if not kip_932:
        assert refused(adapter.result("alter_share_group_offsets", at, {"group": group, "offsets": [[topic, 0, 0]]}))
        assert refused(adapter.result("list_share_group_offsets", at, {"group": group, "partitions": None}))
        assert refused(adapter.result("describe_share_groups", at, {"groups": [group],
                                                                    "include_authorized_operations": False}))
        assert refused(adapter.result("delete_share_group_offsets", at, {"group": group, "topics": [topic]}))
        return ops
    altered: dict[str, Any] = {}
    for _ in attempts(30, interval=0.5):  # the share coordinator's state topic is made on first use
        altered = adapter.result("alter_share_group_offsets", at, {"group": group, "offsets": [[topic, 0, 0]]})
        if not {r["error_name"] for r in altered["resources"]} & {"COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR",
                                                                   "COORDINATOR_LOAD_IN_PROGRESS"}:
            break
    assert one(altered, f"{topic}:0")["error_name"] == "NONE", altered  # the call made the group, empty
    listed = adapter.result("list_share_group_offsets", at, {"group": group, "partitions": [[topic, 0]]})
    assert one(listed, f"{topic}:0")["fields"]["offset"] == 0, listed
    described = adapter.result("describe_share_groups", at, {"groups": [group, group + "-none"],
                                                             "include_authorized_operations": True})
    fields = one(described, group)["fields"]
    assert (fields["state"], fields["members"]) == ("Empty", []), described
    assert "DESCRIBE" in fields["authorized_operations"], described
    assert one(described, group + "-none")["error_name"] == "GROUP_ID_NOT_FOUND", described
    deleted = adapter.result("delete_share_group_offsets", at, {"group": group, "topics": [topic]})
    assert one(deleted, topic)["error_name"] == "NONE", deleted
    after = adapter.result("list_share_group_offsets", at, {"group": group, "partitions": None})
    assert all(r["fields"].get("offset") is None for r in after["resources"]), after
    return ops


def _sent_by(adapter: AdapterProcess, settings: dict[str, Any] | None) -> dict[str, tuple[int, ...]]:
    """The request versions one create_topics sends to a stub broker that offers every version, in a
    configuration (None: the library's default)."""
    with StubBroker() as stub:
        adapter.result("create_topics", Endpoint(stub.bootstrap_servers), {"validate_only": False,
                                                                            "topics": [new_topic("kc-pinned")]},
                       settings=settings)
        return stub.recording.versions()


def test_max_versions_caps_every_request_at_the_release_named(adapter):
    default, pinned = _sent_by(adapter, None), _sent_by(adapter, {"max_versions": "2.3.0"})
    newer = _sent_by(adapter, {"max_versions": "3.9.1"})  # a patch release: kversion's set for 3.9
    assert set(pinned) == set(default), (pinned, default)
    assert all(max(pinned[api]) <= max(newer[api]) <= max(default[api]) for api in default), (pinned, newer, default)
    assert max(pinned["CreateTopics"]) < max(default["CreateTopics"]), (pinned, default)


def test_a_release_kversion_lacks_is_a_failure_naming_the_nearest(adapter):
    answer = adapter.call("list_topics", Endpoint("127.0.0.1:9"), {}, settings={"max_versions": "0.7.1"})
    assert answer["failure"]["message"].startswith("franz-go's kversion has no version set for max_versions=0.7.1: "
                                                   "nearest v0.8.0"), answer


def test_kcompat_measures_the_pinned_configuration_below_the_default():
    default, pinned = measured(f"franz-go:{RELEASE}", "max_versions=2.3.0")
    assert_capped(default, pinned)


KMSG = f"franz-go:{RELEASE}@surface=kmsg"


def test_kmsg_surface_sends_what_kgo_negotiates(
        kafka_cluster_factory: Callable[..., Any], admin_client_factory: Callable[..., Any],
        unique_topic: Callable[[str], str]) -> None:
    """Raw kmsg requests through kgo.Client.Request: the version is kgo's choice (the newest both sides have) and
    the answer the response as decoded (read-only flags and types kadm.Config leaves out); what the surface sends
    no request for is the client lacking it."""
    cluster = kafka_cluster_factory(ClusterSpec.of("4.4"))
    client = admin_client_factory(cluster, KMSG)
    name = unique_topic("kc-fgk")
    offered = {r.api_key: r.max_version for r in cluster.api_versions}

    created = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert created.exception is None and created.resource(name).error_name == "NONE", created
    assert created.request_version == min(offered[19], 7)  # kmsg 1.15 knows CreateTopics up to v7
    assert created.resource(name).fields["num_partitions"] == 1

    described = perform(client, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", name)], True, True))
    entries = {e["name"]: e for e in described.resource(f"topic:{name}").fields["configs"]}
    assert entries["retention.ms"]["type"] == "LONG" and entries["retention.ms"]["read_only"] is False
    assert not described.unsupported_fields and "configs.documentation" in described.result_fields
    kadm_said = perform(admin_client_factory(cluster, f"franz-go:{RELEASE}"), DESCRIBE_CONFIGS,
                        DescribeConfigsArgs([ConfigTarget("topic", name)], True, True))
    assert "configs.read_only" in kadm_said.unsupported_fields  # the default surface's kadm.Config has none

    cluster_info = perform(client, DESCRIBE_CLUSTER, DescribeClusterArgs())
    assert cluster_info.resource("cluster").fields["nodes"] == [b.node_id for b in cluster.brokers]
    assert cluster_info.resource("cluster").fields["cluster_id"]
    assert perform(client, LIST_TOPICS, ListTopicsArgs()).resource(name).fields["partitions"] == 1
    assert perform(client, LIST_GROUPS, ListGroupsArgs()).exception == "NotImplementedError"

    deleted = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert deleted.resource(name).error_name == "NONE"
    gone = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert gone.resource(name).error_name == "UNKNOWN_TOPIC_OR_PARTITION"
