"""The topic, config and record operations (issue 17, the topics group) through every client kind, and their
probes' observations, against a new KRaft broker and an old ZooKeeper broker that shows the "below" side.

Old: 2.2 (no IncrementalAlterConfigs, no ListOffsets v7, no topic ids, Metadata before KIP-430's v8).
New: 3.9 (KRaft).  Clients: wire, confluent (the installed release), java:3.9.1, and java:2.3.1 (before
listOffsets and topic ids) where the method exists there.
"""

from __future__ import annotations

import time
import uuid
from types import SimpleNamespace
from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients import ConfigTarget, NewTopic
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import implementation, specs
from kcompat.harness.matrix.setups.records import produce
from kcompat.harness.operations import perform
from kcompat.harness.protocol import METADATA, metadata_request, pick_version
from kcompat.harness.operations.alter_configs import ALTER_CONFIGS, AlterConfigsArgs, NewConfigs
from kcompat.harness.operations.delete_records import DELETE_RECORDS, DeleteRecordsArgs, PartitionOffset
from kcompat.harness.operations.delete_topics import DELETE_TOPICS, DeleteTopicsArgs
from kcompat.harness.operations.describe_cluster import DESCRIBE_CLUSTER, DescribeClusterArgs
from kcompat.harness.operations.describe_topics_by_id import DESCRIBE_TOPICS_BY_ID, DescribeTopicsByIdArgs
from kcompat.harness.operations.incremental_alter_configs import (
    INCREMENTAL_ALTER_CONFIGS,
    AlteredConfigs,
    ConfigOp,
    IncrementalAlterConfigsArgs,
)
from kcompat.harness.operations.list_offsets import LIST_OFFSETS, ListOffsetsArgs, OffsetQuery
from tests.slices import new_in_ci

BROKERS = {"old": ("2.2", "zk"), "new": ("3.9", "kraft")}
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:2.3.1"]
REFUSALS = {"UnsupportedVersion", "UnsupportedOption", "UnsupportedVersionException", "NoSuchMethodException",
            "NotImplementedError"}


@pytest.fixture(scope="module", params=new_in_ci(BROKERS))
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture
def admin(broker: Any) -> Any:
    wire = WireClient(endpoint_of(broker))
    yield wire
    wire.close()


def _new(broker: Any, admin: WireClient, unique_topic: Any, records: int = 0) -> str:
    name = unique_topic("kc-topics")
    created = admin.create_topics([NewTopic(name, 1, 1)])
    assert created.resources[0].error_name == "NONE", created
    if records:
        now = int(time.time() * 1000)
        assert produce(admin, name, [now - 1000 * (records - i) for i in range(records)]) == 0
    return name


def _entry(admin: WireClient, name: str) -> Any:
    """The topic's Metadata entry at the newest version the broker and kio share (ids from v10)."""
    conn, offered = admin.connection()
    response = conn.send(metadata_request(pick_version(METADATA, offered), None))
    return next(t for t in response.topics if str(t.name) == name)


def _short(broker: Any, api_key: int, version: int = 0) -> bool:
    """Whether the broker lacks the API (or the version)."""
    offered = {r.api_key: r for r in broker.api_versions}
    return api_key not in offered or offered[api_key].max_version < version


def _refused(result: Any) -> bool:
    outcome = result.resources[0] if result.resources else None
    exception = (result.exception or (outcome.exception if outcome else None) or "").rsplit(".", 1)[-1]
    return exception in REFUSALS or (outcome is not None and outcome.error_name in ("UNSUPPORTED_VERSION",
                                                                         "_UNSUPPORTED_FEATURE"))


@pytest.mark.parametrize("ref", CLIENTS)
def test_operations_return_the_neutral_result(broker, admin, admin_client_factory, unique_topic, ref):
    client = admin_client_factory(broker, ref)
    old_java = ref == "java:2.3.1"

    fields = perform(client, DESCRIBE_CLUSTER, DescribeClusterArgs()).resource("cluster").fields
    assert fields["nodes"] == [b.node_id for b in broker.brokers] and fields["controller"] in fields["nodes"]
    assert isinstance(fields["cluster_id"], str)
    authorized = perform(client, DESCRIBE_CLUSTER, DescribeClusterArgs(True))
    if not _short(broker, 3, 8):  # KIP-430: Metadata v8+
        operations = authorized.resource("cluster").fields["authorized_operations"]
        assert isinstance(operations, list) and "DESCRIBE" in operations, authorized
    elif ref in ("wire", "java:3.9.1"):
        assert _refused(authorized), authorized
    else:  # librdkafka and kafka-clients 2.3 ask nothing of a broker without it: no operations, no refusal
        assert authorized.resource("cluster").fields.get("authorized_operations") is None, authorized

    name = _new(broker, admin, unique_topic)
    target = ConfigTarget("topic", name)
    legacy = perform(client, ALTER_CONFIGS, AlterConfigsArgs([NewConfigs(target, {"retention.ms": "7200000"})]))
    assert legacy.resource(f"topic:{name}").error_name == "NONE", legacy
    incremental = perform(client, INCREMENTAL_ALTER_CONFIGS, IncrementalAlterConfigsArgs(
        [AlteredConfigs(target, [ConfigOp("retention.ms", "3600000")])]))
    if _short(broker, 44):
        assert _refused(incremental), incremental
    else:
        assert incremental.resource(f"topic:{name}").error_name == "NONE", incremental

    full = _new(broker, admin, unique_topic, records=5)
    deleted = perform(client, DELETE_RECORDS, DeleteRecordsArgs([PartitionOffset(full, 0, 2)]))
    assert deleted.resource(f"{full}:0").fields["low_watermark"] == 2, deleted
    for spec, offset in (("earliest", 2), ("latest", 5), ("max_timestamp", 4)):
        listed = perform(client, LIST_OFFSETS, ListOffsetsArgs([OffsetQuery(full, 0, spec)]))  # type: ignore[arg-type]
        if spec == "max_timestamp" and _short(broker, 2, 7) and ref == "confluent":
            # a finding: librdkafka sends MAX_TIMESTAMP (-3) at ListOffsets v5 instead of refusing, and the broker
            # reads it as a timestamp: the first record (offset 0 once deleted up to 2: the earliest, 2)
            assert listed.resource(f"{full}:0").fields["offset"] == 2, listed
        elif old_java or (spec == "max_timestamp" and _short(broker, 2, 7)):
            assert _refused(listed), listed
        else:
            assert listed.resource(f"{full}:0").fields["offset"] == offset, (spec, listed)

    topic_id = getattr(_entry(admin, name), "topic_id", None)
    described = perform(client, DESCRIBE_TOPICS_BY_ID, DescribeTopicsByIdArgs([str(topic_id or uuid.uuid4())]))
    if ref == "confluent" or old_java or _short(broker, 3, 12):
        assert _refused(described), described
    else:
        assert described.resource(str(topic_id)).fields == {"name": name, "partitions": 1}, described

    by_name = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert by_name.resource(name).error_name == "NONE", by_name
    unknown = str(uuid.uuid4())
    by_id = perform(client, DELETE_TOPICS, DeleteTopicsArgs(topic_ids=[unknown]))
    if ref == "confluent" or old_java or _short(broker, 20, 6):
        assert _refused(by_id), by_id
    else:
        assert by_id.resource(unknown).error_name == "UNKNOWN_TOPIC_ID", by_id


PROBES = {
    "delete_topics": ({"by": "name"}, {"error", "deleted"}),
    "describe_topics_by_id": ({}, {"exception"}),
    "describe_cluster": ({}, {"error", "nodes_match", "controller_known"}),
    "alter_configs": ({"configs": {"retention.ms": "3600000"}}, {"error", "applied"}),
    "incremental_alter_configs": ({"configs": {"retention.ms": "3600000"}}, {"exception"}),
    "delete_records": ({"records": 5, "before": 2}, {"error", "low_watermark", "earliest_after"}),
    "list_offsets": ({"spec": "timestamp"}, {"error", "offset", "timestamp_matches"}),
}


def _context(broker: Any, client: Any, admin: WireClient, unique_topic: Any, kc_config: Any, probe: str,
              args: dict[str, Any]) -> ProbeContext:
    """A probe's context outside a matrix cell: the claim is only its arguments and every key the probe has."""
    claim = SimpleNamespace(id=f"test/{probe}", args=args, keys=specs()[probe].keys)
    cell = SimpleNamespace(claim=claim, client=SimpleNamespace(kind=client.kind, pin=None))
    return ProbeContext(cell, client, admin, broker, unique_topic, ArtifactStore(kc_config))  # type: ignore[arg-type]


@pytest.mark.parametrize("ref", ["wire", "confluent", "java:3.9.1"])
@pytest.mark.parametrize("probe", sorted(PROBES))
def test_probes_observe_their_keys(broker, admin, admin_client_factory, unique_topic, kc_config, ref, probe):
    args, keys = PROBES[probe]
    client = admin_client_factory(broker, ref)
    observed = implementation(probe)(_context(broker, client, admin, unique_topic, kc_config, probe, args))
    assert set(observed) <= specs()[probe].keys
    assert keys <= set(observed), observed
    if probe == "describe_cluster":
        assert observed["nodes_match"] and observed["controller_known"], observed
    elif probe == "delete_topics":
        assert observed["error"] == "NONE" and observed["deleted"] is True, observed
    elif probe == "alter_configs":
        assert observed["error"] == "NONE" and observed["applied"] is True, observed
    elif probe == "incremental_alter_configs":
        new = not _short(broker, 44)
        assert (observed.get("error") == "NONE" and observed["applied"] is True) if new else not observed["applied"]
    elif probe == "describe_topics_by_id":
        if ref == "confluent" or _short(broker, 3, 12):
            assert observed["exception"] in REFUSALS, observed
        else:
            assert observed["error"] == "NONE" and observed["name_matches"] and observed["partitions"] == 1
    elif probe == "delete_records":
        assert observed["low_watermark"] == 2 and observed["earliest_after"] == 2, observed
    elif probe == "list_offsets":
        assert observed["offset"] == 1 and observed["timestamp_matches"] is True, observed
