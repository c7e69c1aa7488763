"""The admin-rest group's pure logic: the dynamic quorum in cluster needs, specs and properties; the requests
the wire operations build and how each kind shapes its answers; the probes' comparisons."""

from __future__ import annotations

import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

import pytest

from kcompat.harness import ClusterSpec, ConfigError
from kcompat.harness.clients.base import Endpoint
from kcompat.harness.operations.describe_topics.confluent import description, topic_id_text
from kcompat.harness.operations.client_instance_id import wire as wire_instance
from kcompat.harness.operations.list_config_resources import wire as wire_list
from kcompat.harness.operations.remove_raft_voter import wire as wire_remove
from kcompat.harness.operations.unregister_broker import wire as wire_unregister
from kcompat.harness.operations.describe_topics.wire import partition_info
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.admin_docs import AdminDocs
from kcompat.harness.clients.ref import ClientRef
from kcompat.harness.matrix.claims import ClaimError, load_claims_file
from kcompat.harness.matrix.plan import PlannedCell
from kcompat.harness.operations.describe_topics.probe import compared
from kcompat.harness.operations.list_config_resources.probe import wanted
from kcompat.harness.operations.client_instance_id import ClientInstanceIdArgs
from kcompat.harness.operations.list_config_resources import ListConfigResourcesArgs
from kcompat.harness.operations.remove_raft_voter import RemoveRaftVoterArgs
from kcompat.harness.operations.unregister_broker import UnregisterBrokerArgs
from kcompat.harness.protocol import ApiVersionRange
from kcompat.harness.records import Cell
from kcompat.harness.render import NodeLayout, broker_properties, initial_controllers
from kcompat.harness.versions import KafkaVersion

CLAIM = '''kip = "KIP-1"
source = "KIP-1.md"

[[claim]]
id = "one"
section = "S"
api = "CreateTopics"
versions = "0+"
probe = "create_topic"
cluster = CLUSTER

  [[claim.expect]]
  quote = "It works."
  observe = { error = "NONE" }

  [[claim.fallback]]
  quote = "It works."
  observe = { error = "NONE" }
'''


def _claims(tmp_path: Path, cluster: str) -> Path:
    (tmp_path / "KIP-1.md").write_text("It works.\n")
    path = tmp_path / "KIP-1.toml"
    path.write_text(CLAIM.replace("CLUSTER", cluster))
    return path


# -- the dynamic quorum (KIP-853) -------------------------------------------------------------------------------


def test_a_dynamic_quorum_is_part_of_the_cluster_key(tmp_path: Path) -> None:
    needs = load_claims_file(_claims(tmp_path, '{ nodes = 3, quorum = "dynamic" }')).claims[0].cluster
    assert needs.quorum == "dynamic" and needs.key == "3n-plaintext-dynamic"
    static = load_claims_file(_claims(tmp_path, '{ nodes = 3, quorum = "static" }')).claims[0].cluster
    assert static.quorum == "static" and static.key == "3n-plaintext"


@pytest.mark.parametrize(("version", "mode", "shared"), [("2.3", "zk", True), ("3.8", "kraft", True),
                                                        ("3.9", "kraft", False), ("4.4", "kraft", False)])
def test_a_broker_without_a_dynamic_quorum_serves_the_voter_cells_on_its_static_cluster(
        tmp_path: Path, version: str, mode: Literal["zk", "kraft"], shared: bool) -> None:
    """One cluster per distinct spec: where the broker can't run a dynamic quorum, the voter claims' cells
    join the static 3-node cluster's group instead of booting an identical one (two xdist groups did)."""
    claim = load_claims_file(_claims(tmp_path, '{ nodes = 3, quorum = "dynamic" }')).claims[0]
    static = load_claims_file(_claims(tmp_path, '{ nodes = 3 }')).claims[0]
    release, client = KafkaVersion.parse(version), ClientRef("wire", None)
    voter, plain = (PlannedCell(Cell(c.id, str(release), mode, "wire"), c, release, mode, client)
                    for c in (claim, static))
    assert (voter.cluster_key == plain.cluster_key) is shared
    assert voter.dynamic_quorum is not shared


@pytest.mark.parametrize("value", ['"raft"', "true", "1"])
def test_an_unknown_quorum_is_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ClaimError, match='cluster.quorum is "static" or "dynamic"'):
        load_claims_file(_claims(tmp_path, f"{{ quorum = {value} }}"))


def test_a_dynamic_quorum_needs_kraft_3_9() -> None:
    spec = ClusterSpec.of("3.9", "kraft", quorum="dynamic")
    assert spec.label.endswith("-1n-dynamic") and spec != ClusterSpec.of("3.9", "kraft")
    for version, mode in (("3.8", "kraft"), ("3.9", "zk")):
        with pytest.raises(ConfigError, match="a dynamic quorum needs KRaft 3.9 or newer"):
            ClusterSpec.of(version, mode, quorum="dynamic")


def test_a_dynamic_quorum_is_found_through_bootstrap_servers_and_formatted_with_its_voters() -> None:
    nodes = [NodeLayout(n, 9000 + n, 9100 + n, Path(f"/runs/node-{n}")) for n in (1, 2, 3)]
    dynamic = broker_properties(ClusterSpec.of("4.4", "kraft", nodes=3, quorum="dynamic"), nodes[0], nodes)
    assert dynamic["controller.quorum.bootstrap.servers"] == "127.0.0.1:9101,127.0.0.1:9102,127.0.0.1:9103"
    assert "controller.quorum.voters" not in dynamic
    static = broker_properties(ClusterSpec.of("4.4", "kraft", nodes=3), nodes[0], nodes)
    assert static["controller.quorum.voters"] == "1@127.0.0.1:9101,2@127.0.0.1:9102,3@127.0.0.1:9103"
    assert "controller.quorum.bootstrap.servers" not in static
    voters = initial_controllers(nodes).split(",")
    assert [v.rsplit(":", 1)[0] for v in voters] == ["1@127.0.0.1:9101", "2@127.0.0.1:9102", "3@127.0.0.1:9103"]
    directories = {v.rsplit(":", 1)[1] for v in voters}
    assert len(directories) == 3 and all(len(d) == 22 and not d.startswith("-") for d in directories)


# -- the wire operations ------------------------------------------------------------------------------------


class _Broker(WireClient):
    """A wire client whose one broker offers ``offered`` and answers every request with ``answer``."""

    def __init__(self, offered: dict[int, tuple[int, int]], answer: Any):
        super().__init__(Endpoint("127.0.0.1:1"))
        self.offered = {k: ApiVersionRange(k, low, high) for k, (low, high) in offered.items()}
        self.answer = answer
        self.sent: list[Any] = []

    def api_versions(self) -> dict[int, ApiVersionRange]:
        return self.offered

    def connection(self, address: tuple[str, int] | None = None) -> Any:
        return SimpleNamespace(send=lambda request: self.sent.append(request) or self.answer), self.offered


def _entity(**fields: Any) -> SimpleNamespace:
    return SimpleNamespace(**fields)


def test_list_config_resources_at_v0_lists_client_metrics_only() -> None:
    answer = _entity(error_code=0, config_resources=[_entity(resource_name="subscription")])
    client = _Broker({74: (0, 0)}, answer)
    listed = wire_list.list_config_resources(client, ListConfigResourcesArgs(["CLIENT_METRICS"]), None)
    assert [r.resource for r in listed.resources] == ["CLIENT_METRICS:subscription"] and listed.request_version == 0
    for types in ([], ["TOPIC"], ["TOPIC", "CLIENT_METRICS"]):
        refused = wire_list.list_config_resources(client, ListConfigResourcesArgs(types), None)
        assert refused.exception == "UnsupportedOption" and refused.unsupported_options == ("resource_types",)
    assert len(client.sent) == 1  # the refused listings sent nothing
    client.answer = _entity(error_code=0, config_resources=[_entity(resource_name="s", resource_type=16)])
    pinned = wire_list.list_config_resources(client, ListConfigResourcesArgs(["CLIENT_METRICS"]), 1)
    assert pinned.request_version == 1 and len(client.sent) == 2  # v1, Kafka 4.1's, is sent as pinned


def test_list_config_resources_names_the_calls_error() -> None:
    client = _Broker({74: (0, 0)}, _entity(error_code=31, config_resources=[]))
    result = wire_list.list_config_resources(client, ListConfigResourcesArgs(["CLIENT_METRICS"]), None)
    assert [(r.resource, r.error_name) for r in result.resources] == [("cluster", "CLUSTER_AUTHORIZATION_FAILED")]


def test_unregister_and_remove_voter_name_their_one_result() -> None:
    client = _Broker({64: (0, 0)}, _entity(error_code=102, error_message="not registered"))
    result = wire_unregister.unregister_broker(client, UnregisterBrokerArgs(7), None)
    assert [(r.resource, r.error_name) for r in result.resources] == [("broker:7", "BROKER_ID_NOT_REGISTERED")]
    assert client.sent[0].broker_id == 7
    directory = str(uuid.uuid4())
    voters = _Broker({81: (0, 0)}, _entity(error_code=104, error_message="other cluster"))
    removed = wire_remove.remove_raft_voter(voters, RemoveRaftVoterArgs(3, directory, "mismatch"), None)
    assert [(r.resource, r.error_name) for r in removed.resources] == [("voter:3", "INCONSISTENT_CLUSTER_ID")]
    (request,) = voters.sent
    assert request.cluster_id == "mismatch" and str(request.voter_directory_id) == directory


def test_a_broker_without_the_api_refuses_and_sends_nothing() -> None:
    client = _Broker({18: (0, 3)}, None)
    assert wire_unregister.unregister_broker(client, UnregisterBrokerArgs(7), None).exception == "UnsupportedVersion"
    assert wire_instance.client_instance_id(client, ClientInstanceIdArgs(), None).exception == "UnsupportedVersion"
    assert client.sent == []


def test_client_instance_id_is_the_id_the_broker_assigns() -> None:
    given = uuid.uuid4()
    client = _Broker({71: (0, 0)}, _entity(error_code=0, client_instance_id=given))
    result = wire_instance.client_instance_id(client, ClientInstanceIdArgs(), None)
    assert result.resource("client").fields == {"instance_id": str(given)}
    assert client.sent[0].client_instance_id == uuid.UUID(int=0)  # zero: "assign me one" (KIP-714)


# -- result shaping and the probes' comparisons -----------------------------------------------------------


def test_each_kind_describes_partitions_alike() -> None:
    wire = partition_info([_entity(partition_index=1, leader_id=2, replica_nodes=[2, 1], isr_nodes=[2]),
                           _entity(partition_index=0, leader_id=1, replica_nodes=[1, 2], isr_nodes=[1, 2])])
    node = lambda n: _entity(id=n)  # noqa: E731
    topic = _entity(topic_id=None, partitions=[
        _entity(id=1, leader=node(2), replicas=[node(2), node(1)], isr=[node(2)]),
        _entity(id=0, leader=node(1), replicas=[node(1), node(2)], isr=[node(1), node(2)])])
    confluent = description(topic)
    assert confluent["partition_info"] == wire and confluent["partitions"] == 2 and confluent["topic_id"] is None
    assert [p["partition"] for p in wire] == [0, 1]


def test_a_confluent_topic_id_reads_as_a_uuid() -> None:
    value = uuid.uuid4()
    bits = value.int
    signed = lambda b: b - (1 << 64) if b >= 1 << 63 else b  # noqa: E731
    confluent = _entity(get_most_significant_bits=lambda: signed(bits >> 64),
                        get_least_significant_bits=lambda: signed(bits & ((1 << 64) - 1)))
    assert topic_id_text(confluent) == str(value)
    zero = _entity(get_most_significant_bits=lambda: 0, get_least_significant_bits=lambda: 0)
    assert topic_id_text(zero) is None and topic_id_text(None) is None


def test_a_description_matches_metadata_partition_by_partition() -> None:
    known = {0: {"leader": 1, "replicas": [1], "isr": [1]}}
    same = [{"partition": 0, "leader": 1, "replicas": [1], "isr": [1]}]
    assert compared(same, known) == {"leaders_match": True, "replicas_match": True, "isr_match": True}
    moved = [{"partition": 0, "leader": 2, "replicas": [1], "isr": []}]
    assert compared(moved, known) == {"leaders_match": False, "replicas_match": True, "isr_match": False}
    extra = [*same, {"partition": 1, "leader": 1, "replicas": [1], "isr": [1]}]
    assert set(compared(extra, known).values()) == {False}


def test_a_listing_of_no_types_awaits_both_resources() -> None:
    assert wanted([]) == {"TOPIC", "CLIENT_METRICS"}
    assert wanted(["TOPIC", "GROUP"]) == {"TOPIC"} and wanted(["BROKER"]) == set()


def test_a_renamed_apis_schema_documents_the_claims_naming_it_as_kio_does() -> None:
    renamed = AdminDocs("4.3.1", "Admin.java", {}, {"ListConfigResources": '"validVersions": "0-1"'})
    assert renamed.schema("ListClientMetricsResources") == ("ListConfigResources", '"validVersions": "0-1"')
    older = AdminDocs("3.9.1", "Admin.java", {}, {"ListClientMetricsResources": '"validVersions": "0"'})
    assert older.schema("ListClientMetricsResources") == ("ListClientMetricsResources", '"validVersions": "0"')
    assert older.schema("UnregisterBroker") is None
