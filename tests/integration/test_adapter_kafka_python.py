"""kafka-python 3.0.12 installed from PyPI by its installer, its adapter driven over the adapter protocol through
every operation it declares, against an old ZooKeeper broker, a KRaft broker, and a SASL cluster with ACLs."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from kcompat.harness import ClusterSpec, KafkaVersion
from kcompat.harness.clients import Endpoint
from kcompat.harness.clients.kinds.kafka_python import install
from kcompat.harness.config import HarnessConfig
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.recorder import StubBroker
from kcompat.harness.waiting import attempts
from tests.slices import new_in_ci
from tests.pinned_limits import assert_capped, measured
from tests.adapters import AdapterProcess, by_name

RELEASE = "3.0.12"
BROKERS = {"zk-2.3": ("2.3", "zk"), "kraft-3.9": ("3.9", "kraft")}
KIP_OPS = {"create_topics", "create_partitions", "describe_configs", "list_topics", "create_acls", "describe_topics"}
SETTLE = 30.0


@pytest.fixture(scope="module")
def adapter(kc_config: HarnessConfig) -> Iterator[AdapterProcess]:
    argv, env = install.install(RELEASE, kc_config)
    started = AdapterProcess(argv, env, kc_config.run_root / "adapters" / f"kafka-python-{os.getpid()}.log")
    try:
        yield started
    finally:
        assert started.close() == 0


def test_the_adapter_says_its_release_protocol_and_operations(adapter: AdapterProcess) -> None:
    assert adapter.ready["ready"] == RELEASE
    assert KIP_OPS <= set(adapter.ready["operations"])
    unknown = adapter.request("no_such_op", None, {})
    assert unknown["failure"]["class"] == "LookupError"


def test_a_second_install_is_instant(kc_config: HarnessConfig, adapter: AdapterProcess) -> None:
    import time

    started = time.monotonic()
    argv, env = install.install(RELEASE, kc_config)
    assert time.monotonic() - started < 2.0 and argv[-1] == str(install.ADAPTER) and env == {}


@pytest.mark.parametrize("broker", new_in_ci(BROKERS, "kraft-3.9"))
def test_every_declared_operation_against_a_real_broker(broker: str, kafka_cluster_factory, adapter: AdapterProcess,
                                                        unique_topic) -> None:
    version, mode = BROKERS[broker]
    cluster = kafka_cluster_factory(ClusterSpec.of(version, mode))
    kip_525 = KafkaVersion.parse(version).supports("create_topics_configs")
    at = endpoint_of(cluster)
    node = cluster.brokers[0].node_id
    name, placed = unique_topic("kc-kp"), unique_topic("kc-kp-placed")

    checked = adapter.call("create_topics", at, {"validate_only": True, "topics": [
        {"name": name, "partitions": 2, "replication_factor": 1, "assignments": None,
         "configs": {"cleanup.policy": "compact"}}]})
    assert by_name(checked)[name]["error_name"] == "NONE", checked
    assert checked["request_version"] is not None
    assert ("num_partitions" in checked["result_fields"]) is kip_525  # CreateTopics v5 (KIP-525), as sent
    if kip_525:
        fields = by_name(checked)[name]["fields"]
        assert fields["num_partitions"] == 2
        assert {c["name"]: c["value"] for c in fields["configs"]}["cleanup.policy"] == "compact"
    created = adapter.call("create_topics", at, {"validate_only": False, "topics": [
        {"name": name, "partitions": 2, "replication_factor": 1, "assignments": None, "configs": {}}]})
    assert by_name(created)[name]["error_name"] == "NONE", created
    assigned = adapter.call("create_topics", at, {"validate_only": False, "topics": [
        {"name": placed, "partitions": None, "replication_factor": None, "assignments": {"0": [node]},
         "configs": {"retention.ms": "600000"}}]})
    if kip_525:
        assert by_name(assigned)[placed]["error_name"] == "NONE", assigned
    else:  # finding: kafka-python wants explicit counts before 2.4, though an assignment must go with -1 (v0-v4)
        assert assigned["exception"] == "IncompatibleBrokerVersion" and not assigned["resources"], assigned
        placed_too = adapter.call("create_topics", at, {"validate_only": False, "topics": [
            {"name": placed, "partitions": 1, "replication_factor": 1, "assignments": None,
             "configs": {"retention.ms": "600000"}}]})
        assert by_name(placed_too)[placed]["error_name"] == "NONE", placed_too
    again = adapter.call("create_topics", at, {"validate_only": False, "topics": [
        {"name": name, "partitions": 1, "replication_factor": 1, "assignments": None, "configs": {}}]})
    assert (by_name(again)[name]["error_code"], by_name(again)[name]["error_name"]) == (36, "TOPIC_ALREADY_EXISTS")
    assert by_name(again)[name]["exception"] == "TopicAlreadyExistsError"

    listed: dict[str, Any] = {}
    for _ in attempts(SETTLE, interval=0.2):  # a KRaft broker learns of a new topic in its own time
        listed = adapter.call("list_topics", at, {"list_internal": False})
        if {name, placed} <= set(by_name(listed)):
            break
    assert {name, placed} <= set(by_name(listed)) and listed["unsupported_options"] == ["list_internal"]

    grown = adapter.call("create_partitions", at, {"validate_only": False, "partitions": [
        {"topic": name, "total_count": 3, "assignments": None}]})
    assert by_name(grown)[name]["error_name"] == "NONE", grown
    described: dict[str, Any] = {}
    for _ in attempts(SETTLE, interval=0.2):  # each broker applies the new partition in its own time
        described = adapter.call("describe_topics", at, {"names": [name, "kc-kp-missing"]})
        if by_name(described)[name]["fields"].get("partitions") == 3:
            break
    assert by_name(described)[name]["fields"]["partitions"] == 3, described
    assert by_name(described)["kc-kp-missing"]["error_name"] == "UNKNOWN_TOPIC_OR_PARTITION"
    assert described["request_version"] is None  # Metadata, not DescribeTopicPartitions

    configs = adapter.call("describe_configs", at, {"include_synonyms": True, "include_documentation": True,
                                                    "targets": [{"resource_type": "topic", "name": placed},
                                                                  {"resource_type": "broker", "name": str(node)}]})
    assert configs["unsupported_options"] == ["include_documentation"]
    topic_configs = {c["name"]: c for c in by_name(configs)[f"topic:{placed}"]["fields"]["configs"]}
    assert topic_configs["retention.ms"]["value"] == "600000"
    assert topic_configs["retention.ms"]["source"] == "DYNAMIC_TOPIC_CONFIG"
    assert "synonyms" in topic_configs["retention.ms"] and "configs.source" in configs["result_fields"]
    assert by_name(configs)[f"broker:{node}"]["fields"]["configs"]

    incremental = adapter.call("incremental_alter_configs", at, {"validate_only": False, "resources": [
        {"target": {"resource_type": "topic", "name": name}, "ops": [{"name": "retention.ms", "value": "3600000",
                                                                     "op": "SET"}]}]})
    assert by_name(incremental)[f"topic:{name}"]["error_name"] == "NONE", incremental
    legacy = adapter.call("alter_configs", at, {"validate_only": True, "resources": [
        {"target": {"resource_type": "topic", "name": name}, "configs": {"retention.ms": "7200000"}}]})
    assert by_name(legacy)[f"topic:{name}"]["error_name"] == "NONE", legacy
    after = adapter.call("describe_configs", at, {"include_synonyms": False, "include_documentation": False,
                                                  "targets": [{"resource_type": "topic", "name": name}]})
    assert {c["name"]: c["value"] for c in by_name(after)[f"topic:{name}"]["fields"]["configs"]}[
        "retention.ms"] == "3600000"  # set for real; the legacy call only validated

    if kip_525:  # KIP-584's feature flags (ApiVersions v3) arrived in 2.4 too
        features = adapter.call("describe_features", at, {})
        flags = by_name(features)["cluster"]["fields"]["features"]
        assert flags["supported"] and (flags["finalized"] or mode == "zk"), features
        if mode == "kraft":  # KRaft finalizes metadata.version
            assert "metadata.version" in flags["finalized"] and flags["finalized_epoch"] is not None, features
    cluster_seen = adapter.call("describe_cluster", at, {"include_authorized_operations": False})
    assert by_name(cluster_seen)["cluster"]["fields"]["nodes"] == [b.node_id for b in cluster.brokers]

    acl = {"resource_type": "topic", "resource_name": name, "principal": "User:alice", "operation": "READ",
           "permission": "ALLOW", "host": "*", "pattern": "LITERAL"}
    no_authorizer = adapter.call("create_acls", at, {"acls": [acl]})
    assert by_name(no_authorizer)[f"topic:{name}:User:alice:READ:ALLOW"]["error_name"] == "SECURITY_DISABLED", no_authorizer

    group = unique_topic("kc-kp-group")
    committed: dict[str, Any] = {}
    for _ in attempts(SETTLE, interval=0.5):  # kafka-python does not retry while the coordinator is loading
        committed = adapter.call("alter_consumer_group_offsets", at, {"group": group, "offsets": [[name, 0, 0]]})
        if committed["exception"] not in ("CoordinatorNotAvailableError", "CoordinatorLoadInProgressError"):
            break
    assert by_name(committed).get(f"{name}:0", {}).get("error_name") == "NONE", committed
    groups = adapter.call("list_consumer_groups", at, {"states": []})
    assert group in by_name(groups)
    group_seen = adapter.call("describe_consumer_groups", at, {"groups": [group],
                                                               "include_authorized_operations": False})
    assert by_name(group_seen)[group]["fields"]["state"] == "Empty"
    offsets = adapter.call("list_consumer_group_offsets", at, {"group": group, "partitions": None})
    assert by_name(offsets)[f"{name}:0"]["fields"]["offset"] == 0
    forgotten = adapter.call("delete_consumer_group_offsets", at, {"group": group, "partitions": [[name, 0]]})
    if kip_525:  # OffsetDelete (KIP-496) arrived in 2.4 too
        assert by_name(forgotten)[f"{name}:0"]["error_name"] == "NONE", forgotten
        assert not adapter.call("list_consumer_group_offsets", at, {"group": group, "partitions": None})["resources"]
    else:
        assert by_name(forgotten)[group]["error_name"] == "UNSUPPORTED_VERSION", forgotten  # before sending
    deleted_groups = adapter.call("delete_consumer_groups", at, {"groups": [group]})
    # a group left without offsets and members is gone at once (2.4+): already deleted
    assert by_name(deleted_groups)[group]["error_name"] == "NONE" or (
        kip_525 and by_name(deleted_groups)[group]["error_name"] == "GROUP_ID_NOT_FOUND"), deleted_groups

    trimmed = adapter.call("delete_records", at, {"before": [{"topic": name, "partition": 0, "offset": 0}]})
    assert by_name(trimmed)[f"{name}:0"]["fields"]["low_watermark"] == 0, trimmed
    latest = adapter.call("list_offsets", at, {"queries": [{"topic": name, "partition": 0, "spec": "latest",
                                                            "timestamp": None}]})
    assert by_name(latest)[f"{name}:0"]["fields"]["offset"] == 0, latest

    dirs = adapter.call("describe_log_dirs", at, {"brokers": [node]})
    held = [r["topic"] for d in dirs["resources"] for r in d["fields"]["replicas"]]
    assert dirs["resources"] and name in held, dirs
    elected = adapter.call("elect_leaders", at, {"election_type": "preferred",
                                                 "partitions": [{"topic": name, "partition": 0}]})
    # one replica: already the preferred leader (ELECTION_NOT_NEEDED from 2.4, KIP-460)
    assert by_name(elected)[f"{name}-0"]["error_name"] in ("NONE", "ELECTION_NOT_NEEDED"), elected
    if kip_525:  # KIP-455's reassignment APIs arrived in 2.4 too
        moving = adapter.call("alter_partition_reassignments", at, {"reassignments": [
            {"partition": {"topic": name, "partition": 0}, "replicas": [node]}]})
        assert by_name(moving)[f"{name}-0"]["error_name"] == "NONE", moving
        assert adapter.call("list_partition_reassignments", at, {"partitions": None})["exception"] is None

    dropped = adapter.call("delete_topics", at, {"names": [name, placed], "topic_ids": []})
    assert {r["resource"]: r["error_name"] for r in dropped["resources"]} == {name: "NONE", placed: "NONE"}
    assert adapter.call("close", at, {})["resources"] == []


def test_every_kafka_python_error_maps_to_kafkas_name(kc_config: HarnessConfig) -> None:
    """Each error class kafka-python has for a Kafka code, through the adapter's mapping, as kcompat names it."""
    import json
    import subprocess

    from kcompat.harness.clients.base import error_name

    argv, _ = install.install(RELEASE, kc_config)
    script = ("import json, runpy, kafka.errors as E\n"
              f"adapter = runpy.run_path({str(install.ADAPTER)!r})\n"
              "print(json.dumps({c.errno: adapter['kafka_name'](c) for c in vars(E).values() if isinstance(c, type)"
              " and issubclass(c, Exception) and isinstance(getattr(c, 'errno', None), int) and c.errno > 0}))")
    done = subprocess.run([argv[0], "-I", "-c", script], capture_output=True, text=True, timeout=60, check=True)
    mapped = {int(code): name for code, (_, name) in json.loads(done.stdout).items()}
    known = {code: error_name(code) for code in mapped if not error_name(code).startswith("UNKNOWN_SERVER_ERROR_")}
    assert len(known) > 100 and {code: mapped[code] for code in known} == known


def test_the_metadata_quorum_and_config_resources_of_a_kafka_4_broker(kafka_cluster_factory, adapter: AdapterProcess,
                                                                      unique_topic) -> None:
    """KafkaAdminClient.describe_metadata_quorum (KIP-836) and list_config_resources (KIP-1142, brokers 4.1+)."""
    cluster = kafka_cluster_factory(ClusterSpec.of("4.4", "kraft"))
    at, name = endpoint_of(cluster), unique_topic("kc-kp-cfg")
    quorum = adapter.call("describe_metadata_quorum", at, {})
    fields = by_name(quorum)["__cluster_metadata-0"]["fields"]
    assert fields["leader_id"] in fields["voters"] and fields["high_watermark"] > 0, quorum
    assert quorum["request_version"] is not None  # read off the frames kafka-python logged as sent
    created = adapter.call("create_topics", at, {"validate_only": False, "topics": [
        {"name": name, "partitions": 1, "replication_factor": 1, "assignments": None, "configs": {}}]})
    assert by_name(created)[name]["error_name"] == "NONE", created
    listed: dict[str, Any] = {}
    for _ in attempts(SETTLE, interval=0.2):  # a KRaft broker learns of a new topic in its own time
        listed = adapter.call("list_config_resources", at, {"resource_types": ["TOPIC"]})
        if f"TOPIC:{name}" in by_name(listed):
            break
    assert by_name(listed)[f"TOPIC:{name}"]["error_name"] == "NONE", listed
    assert all(r["resource"].startswith("TOPIC:") for r in listed["resources"]), listed
    assert adapter.call("close", at, {})["resources"] == []


def _sent_by(adapter: AdapterProcess, settings: dict[str, Any] | None) -> dict[str, tuple[int, ...]]:
    """The request versions one create_topics sends to a stub broker that offers every version, in a
    configuration (None: the library's default)."""
    with StubBroker() as stub:
        adapter.call("create_topics", Endpoint(stub.bootstrap_servers), {"validate_only": False, "topics": [
            {"name": "kc-pinned", "partitions": 1, "replication_factor": 1, "assignments": None, "configs": {}}]},
            settings=settings)
        return stub.recording.versions()


def test_api_version_pins_the_request_versions_to_the_release_named(adapter: AdapterProcess) -> None:
    default, pinned = _sent_by(adapter, None), _sent_by(adapter, {"api_version": "2.3.0"})
    newer = _sent_by(adapter, {"api_version": "3.9.0"})
    assert set(pinned) == set(default), (pinned, default)
    assert all(max(pinned[api]) <= max(newer[api]) <= max(default[api]) for api in default), (pinned, newer, default)
    assert max(pinned["CreateTopics"]) < max(default["CreateTopics"]), (pinned, default)


def test_an_api_version_that_is_not_a_release_is_a_failure_naming_it(adapter: AdapterProcess) -> None:
    answer = adapter.request("list_topics", Endpoint("127.0.0.1:9"), {}, settings={"api_version": "2.x"})
    assert answer["failure"] == {"class": "ValueError", "message": "api_version=2.x is not a release kafka-python "
                                 "can take as a tuple of ints"}, answer


OLD = "2.0.2"
"""kafka-python before the 3.0 rewrite: objects in, raw responses out, told apart by each method's parameters."""


def test_a_release_before_3_0_is_measured_through_the_console_script() -> None:
    from tests.console import kcompat, ok

    (line,) = ok(kcompat("clients", "limits", "--json", f"kafka-python:{OLD}", timeout=900)).splitlines()
    measured = json.loads(line)
    assert (measured["kind"], measured["release"]) == ("kafka-python", OLD)
    assert {"CreateTopics", "DescribeConfigs", "Metadata"} <= set(measured["newest"])


def test_a_release_before_3_0_drives_its_admin_client_against_a_broker(kc_config: HarnessConfig,
                                                                         kafka_cluster_factory, unique_topic) -> None:
    argv, env = install.install(OLD, kc_config)
    old = AdapterProcess(argv, env, kc_config.run_root / "adapters" / f"kafka-python-{OLD}-{os.getpid()}.log")
    try:
        assert old.ready["ready"] == OLD
        assert "list_consumer_group_offsets" not in old.ready["operations"]  # 3.0's method names only
        at = endpoint_of(kafka_cluster_factory(ClusterSpec.of("2.3", "zk")))
        topic = unique_topic("kc-kp-old")
        created = by_name(old.call("create_topics", at, {"validate_only": False, "topics": [
            {"name": topic, "partitions": 1, "replication_factor": 1, "assignments": None, "configs": {}}]}))
        assert created[topic]["error_name"] == "NONE", created
        grown = by_name(old.call("create_partitions", at, {"validate_only": False, "partitions": [
            {"topic": topic, "total_count": 2, "assignments": None}]}))
        assert grown[topic]["error_name"] == "NONE", grown
        described = by_name(old.call("describe_configs", at, {"include_synonyms": True, "targets": [
            {"resource_type": "TOPIC", "name": topic}]}))
        configs = {c["name"]: c for c in described[f"topic:{topic}"]["fields"]["configs"]}
        assert configs["cleanup.policy"]["value"] == "delete" and configs["cleanup.policy"]["source"] == "DEFAULT_CONFIG"
        incremental = old.call("incremental_alter_configs", at, {"validate_only": False, "resources": [
            {"target": {"resource_type": "topic", "name": topic}, "ops": []}]})
        assert incremental["exception"] == "NotImplementedError", incremental
        deleted = by_name(old.call("delete_topics", at, {"names": [topic], "topic_ids": []}))
        assert deleted[topic]["error_name"] == "NONE", deleted
    finally:
        assert old.close() == 0


def test_kcompat_measures_the_pinned_configuration_below_the_default():
    default, pinned = measured(f"kafka-python:{RELEASE}", "api_version=2.3.0")
    assert_capped(default, pinned)
