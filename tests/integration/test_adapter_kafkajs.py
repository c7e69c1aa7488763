"""kafkajs 2.2.4 installed from npm by its installer, its adapter driven over the adapter protocol through every
operation it declares, against an old ZooKeeper broker and a KRaft broker (what every adapter kind does
alike, a SASL cluster's ACLs among it: test_adapter_conformance.py)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.clients.kinds.kafkajs import install
from kcompat.harness.config import HarnessConfig
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.waiting import attempts
from tests.slices import new_in_ci
from tests.adapters import AdapterProcess, by_name

RELEASE = "2.2.4"
BROKERS = {"zk-2.3": ("2.3", "zk"), "kraft-3.9": ("3.9", "kraft")}
KIP_OPS = {"create_topics", "create_partitions", "describe_configs", "list_topics", "create_acls", "describe_topics"}
SETTLE = 30.0


@pytest.fixture(scope="module")
def adapter(kc_config: HarnessConfig) -> Iterator[AdapterProcess]:
    argv, env = install.install(RELEASE, kc_config)
    started = AdapterProcess(argv, env, kc_config.run_root / "adapters" / f"kafkajs-{os.getpid()}.log")
    try:
        yield started
    finally:
        assert started.close() == 0


def _until(adapter: AdapterProcess, op: str, at: Any, args: dict[str, Any], done: Any) -> dict[str, Any]:
    """The op's result once ``done(result)`` (bounded): a KRaft broker applies a change in its own time."""
    result: dict[str, Any] = {}
    for _ in attempts(SETTLE, interval=0.3):
        result = adapter.call(op, at, args)
        if done(result):
            break
    return result


def test_the_adapter_says_its_release_protocol_and_operations(adapter: AdapterProcess) -> None:
    assert adapter.ready["ready"] == RELEASE
    assert KIP_OPS <= set(adapter.ready["operations"])
    assert "incremental_alter_configs" not in adapter.ready["operations"]  # kafkajs has none
    assert adapter.request("no_such_op", None, {})["failure"]["class"] == "LookupError"


def test_a_second_install_is_instant(kc_config: HarnessConfig, adapter: AdapterProcess) -> None:
    started = time.monotonic()
    argv, env = install.install(RELEASE, kc_config)
    assert time.monotonic() - started < 2.0 and argv[-1] == str(install.ADAPTER)
    assert env["NODE_PATH"].endswith("kafkajs-2.2.4/node_modules")


@pytest.mark.parametrize("broker", new_in_ci(BROKERS, "kraft-3.9"))
def test_every_declared_operation_against_a_real_broker(broker: str, kafka_cluster_factory, adapter: AdapterProcess,
                                                        unique_topic) -> None:
    version, mode = BROKERS[broker]
    cluster = kafka_cluster_factory(ClusterSpec.of(version, mode))
    at = endpoint_of(cluster)
    node = cluster.brokers[0].node_id
    name, placed = unique_topic("kc-kjs"), unique_topic("kc-kjs-placed")

    checked = adapter.call("create_topics", at, {"validate_only": True, "topics": [
        {"name": name, "partitions": 2, "replication_factor": 1, "assignments": None,
         "configs": {"cleanup.policy": "compact"}}]})
    assert by_name(checked)[name]["error_name"] == "NONE", checked
    assert checked["request_version"] is not None and checked["result_fields"] == []  # kafkajs stops at v3
    created = adapter.call("create_topics", at, {"validate_only": False, "topics": [
        {"name": name, "partitions": 2, "replication_factor": 1, "assignments": None, "configs": {}},
        {"name": placed, "partitions": None, "replication_factor": None, "assignments": {"0": [node]},
         "configs": {"retention.ms": "600000"}}]})
    assert {r["resource"]: r["error_name"] for r in created["resources"]} == {name: "NONE", placed: "NONE"}, created
    again = adapter.call("create_topics", at, {"validate_only": False, "topics": [
        {"name": name, "partitions": 1, "replication_factor": 1, "assignments": None, "configs": {}}]})
    assert (by_name(again)[name]["error_code"], by_name(again)[name]["error_name"]) == (36, "TOPIC_ALREADY_EXISTS")

    listed = _until(adapter, "list_topics", at, {"list_internal": False},
                    lambda r: {name, placed} <= set(by_name(r)))
    assert {name, placed} <= set(by_name(listed)) and listed["unsupported_options"] == ["list_internal"]

    grown = adapter.call("create_partitions", at, {"validate_only": False, "partitions": [
        {"topic": name, "total_count": 3, "assignments": None}]})
    assert by_name(grown)[name]["error_name"] == "NONE", grown
    described = _until(adapter, "describe_topics", at, {"names": [name]},
                       lambda r: by_name(r)[name]["fields"].get("partitions") == 3)
    assert by_name(described)[name]["fields"]["partitions"] == 3, described
    assert described["request_version"] is None  # Metadata, not DescribeTopicPartitions
    missing = adapter.call("describe_topics", at, {"names": ["kc-kjs-missing"]})
    assert by_name(missing)["kc-kjs-missing"]["error_name"] == "UNKNOWN_TOPIC_OR_PARTITION", missing

    configs = adapter.call("describe_configs", at, {"include_synonyms": True, "include_documentation": True,
                                                    "targets": [{"resource_type": "topic", "name": placed},
                                                                  {"resource_type": "broker", "name": str(node)}]})
    assert configs["unsupported_options"] == ["include_documentation"]
    topic_configs = {c["name"]: c for c in by_name(configs)[f"topic:{placed}"]["fields"]["configs"]}
    assert topic_configs["retention.ms"]["value"] == "600000"
    assert topic_configs["retention.ms"]["source"] == "DYNAMIC_TOPIC_CONFIG"
    assert "configs.source" in configs["result_fields"]
    assert by_name(configs)[f"broker:{node}"]["fields"]["configs"]

    legacy = adapter.call("alter_configs", at, {"validate_only": False, "resources": [
        {"target": {"resource_type": "topic", "name": name}, "configs": {"retention.ms": "7200000"}}]})
    assert by_name(legacy)[f"topic:{name}"]["error_name"] == "NONE", legacy
    after = adapter.call("describe_configs", at, {"include_synonyms": False, "include_documentation": False,
                                                  "targets": [{"resource_type": "topic", "name": name}]})
    assert {c["name"]: c["value"] for c in by_name(after)[f"topic:{name}"]["fields"]["configs"]}[
        "retention.ms"] == "7200000"

    cluster_seen = adapter.call("describe_cluster", at, {"include_authorized_operations": False})
    assert by_name(cluster_seen)["cluster"]["fields"]["nodes"] == [b.node_id for b in cluster.brokers]

    acl = {"resource_type": "topic", "resource_name": name, "principal": "User:alice", "operation": "READ",
           "permission": "ALLOW", "host": "*", "pattern": "LITERAL"}
    no_authorizer = adapter.call("create_acls", at, {"acls": [acl]})
    assert by_name(no_authorizer)[f"topic:{name}:User:alice:READ:ALLOW"]["error_name"] == "SECURITY_DISABLED", no_authorizer

    group = unique_topic("kc-kjs-group")
    committed = _until(adapter, "alter_consumer_group_offsets", at, {"group": group, "offsets": [[name, 0, 0]]},
                       lambda r: not r["exception"] and r["resources"][0]["error_code"] == 0)
    assert by_name(committed)[f"{name}:0"]["error_name"] == "NONE", committed
    assert group in by_name(adapter.call("list_consumer_groups", at, {"states": []}))
    group_seen = adapter.call("describe_consumer_groups", at, {"groups": [group],
                                                               "include_authorized_operations": False})
    assert by_name(group_seen)[group]["fields"]["state"] == "Empty", group_seen
    offsets = adapter.call("list_consumer_group_offsets", at, {"group": group, "partitions": None})
    assert by_name(offsets)[f"{name}:0"]["fields"]["offset"] == 0, offsets
    deleted_groups = adapter.call("delete_consumer_groups", at, {"groups": [group]})
    assert by_name(deleted_groups)[group]["error_name"] == "NONE", deleted_groups

    trimmed = adapter.call("delete_records", at, {"before": [{"topic": name, "partition": 0, "offset": 0}]})
    assert by_name(trimmed)[f"{name}:0"]["error_name"] == "NONE", trimmed
    latest = adapter.call("list_offsets", at, {"queries": [
        {"topic": name, "partition": 0, "spec": "latest", "timestamp": None},
        {"topic": name, "partition": 1, "spec": "max_timestamp", "timestamp": None}]})
    assert by_name(latest)[f"{name}:0"]["fields"]["offset"] == 0, latest
    assert latest["unsupported_options"] == ["max_timestamp"]
    assert by_name(latest)[f"{name}:1"]["exception"] == "NotImplementedError", latest

    if version != "2.3":  # KIP-455's reassignment APIs arrived in 2.4
        moving = adapter.call("alter_partition_reassignments", at, {"reassignments": [
            {"partition": {"topic": name, "partition": 0}, "replicas": [node]}]})
        assert by_name(moving)[f"{name}-0"]["error_name"] == "NONE", moving
        assert adapter.call("list_partition_reassignments", at, {"partitions": None})["exception"] is None
        cancel = adapter.call("alter_partition_reassignments", at, {"reassignments": [
            {"partition": {"topic": name, "partition": 0}, "replicas": None}]})
        assert cancel["unsupported_options"] == ["cancel"], cancel  # kafkajs takes target replicas only
        assert by_name(cancel)[f"{name}-0"]["exception"] == "NotImplementedError", cancel

    dropped = adapter.call("delete_topics", at, {"names": [name, placed], "topic_ids": []})
    assert {r["resource"]: r["error_name"] for r in dropped["resources"]} == {name: "NONE", placed: "NONE"}
    assert adapter.call("close", at, {})["resources"] == []


def test_every_kafkajs_error_maps_to_kafkas_name(kc_config: HarnessConfig) -> None:
    """Each Kafka code kafkajs knows, through the adapter's mapping, as kcompat names it."""
    import json
    import subprocess

    from kcompat.harness.clients.base import error_name

    argv, env = install.install(RELEASE, kc_config)
    script = (f"const adapter = require({json.dumps(str(install.ADAPTER))});\n"
              "const { errorCodes } = require('kafkajs/src/protocol/error.js');\n"
              "console.log(JSON.stringify(errorCodes.filter(e => e.code > 0)"
              ".map(e => [e.code, adapter.kafkaError(Object.assign(new Error(e.message), e))[1]])))")
    done = subprocess.run([argv[0], "-e", script], capture_output=True, text=True, timeout=60, check=True,
                          env={**os.environ, **env})
    mapped = {int(code): name for code, name in json.loads(done.stdout)}
    known = {code: error_name(code) for code in mapped if not error_name(code).startswith("UNKNOWN_SERVER_ERROR_")}
    assert len(known) > 80 and {code: mapped[code] for code in known} == known
