"""The replicas group's pure logic: log dirs in cluster needs, specs and properties; the wire requests each
operation builds and how it shapes the answers; confluent's one-future election split per partition."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kcompat.harness import ClusterSpec, ConfigError
from kcompat.harness.clients.base import Endpoint
from kcompat.harness.operations.elect_leaders import confluent as confluent_elect
from kcompat.harness.clients.kinds.confluent.shared import library
from kcompat.harness.operations.alter_partition_reassignments import wire as wire_reassign
from kcompat.harness.operations.alter_replica_log_dirs import wire as wire_move
from kcompat.harness.operations.elect_leaders import wire as wire_elect
from kcompat.harness.operations.list_partition_reassignments import wire as wire_list
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.claims import ClaimError, load_claims_file
from kcompat.harness.operations.alter_partition_reassignments import AlterPartitionReassignmentsArgs, Reassignment
from kcompat.harness.operations.alter_replica_log_dirs import ReplicaMove
from kcompat.harness.operations.describe_replica_log_dirs import Replica
from kcompat.harness.operations.elect_leaders import ElectLeadersArgs, TopicPartition
from kcompat.harness.operations.list_partition_reassignments import ListPartitionReassignmentsArgs
from kcompat.harness.protocol import ApiVersionRange
from kcompat.harness.render import NodeLayout, broker_properties

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


def test_log_dirs_are_part_of_the_cluster_key(tmp_path: Path) -> None:
    needs = load_claims_file(_claims(tmp_path, "{ nodes = 3, log_dirs = 2 }")).claims[0].cluster
    assert needs.log_dirs == 2 and needs.key == "3n-plaintext-2dirs"
    assert load_claims_file(_claims(tmp_path, "{ nodes = 3 }")).claims[0].cluster.key == "3n-plaintext"


@pytest.mark.parametrize("value", ["0", "5", "true", '"2"'])
def test_log_dirs_out_of_range_are_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ClaimError, match="cluster.log_dirs is 1 to 4"):
        load_claims_file(_claims(tmp_path, f"{{ log_dirs = {value} }}"))


def test_two_log_dirs_are_folders_inside_the_data_dir() -> None:
    node = NodeLayout(1, 9001, None, Path("/runs/node-1"))
    spec = ClusterSpec.of("2.2", "zk", log_dirs=2)
    properties = broker_properties(spec, node, [node], zk_port=2181)
    assert properties["log.dirs"] == "/runs/node-1/data/dir-1,/runs/node-1/data/dir-2"
    assert broker_properties(ClusterSpec.of("2.2", "zk"), node, [node], zk_port=2181)["log.dirs"] == \
        "/runs/node-1/data"
    assert spec.label.endswith("-1n-2dirs") and spec != ClusterSpec.of("2.2", "zk")
    with pytest.raises(ConfigError, match="1 to 4 log dirs, not 5"):
        ClusterSpec.of("2.2", "zk", log_dirs=5)


class _Broker(WireClient):
    """A wire client whose one broker offers ``offered`` and answers every request with ``answer``."""

    def __init__(self, offered: dict[int, tuple[int, int]], answer: Any):
        super().__init__(Endpoint("127.0.0.1:1"))
        self.offered = {k: ApiVersionRange(k, low, high) for k, (low, high) in offered.items()}
        self.answer = answer
        self.sent: list[Any] = []

    def api_versions(self) -> dict[int, ApiVersionRange]:
        return self.offered

    def controller(self) -> tuple[str, int]:
        return ("127.0.0.1", 1)

    def connection(self, address: tuple[str, int] | None = None) -> Any:
        return SimpleNamespace(send=lambda request: self.sent.append(request) or self.answer), self.offered


def _entity(**fields: Any) -> SimpleNamespace:
    return SimpleNamespace(**fields)


def test_an_unclean_election_is_not_sent_at_v0() -> None:
    client = _Broker({43: (0, 0)}, None)
    result = wire_elect.elect_leaders(client, ElectLeadersArgs("unclean", [TopicPartition("t", 0)]), None)
    assert result.exception == "UnsupportedOption" and result.unsupported_options == ("election_type",)
    assert client.sent == [] and result.operation == "elect_leaders"


def test_an_election_sends_its_type_from_v1_and_names_each_partition() -> None:
    answer = _entity(error_code=0, replica_election_results=[_entity(topic="t", partition_result=[
        _entity(partition_id=0, error_code=84, error_message="not needed")])])
    client = _Broker({43: (0, 2)}, answer)
    result = wire_elect.elect_leaders(client, ElectLeadersArgs("unclean", [TopicPartition("t", 0)]), None)
    (request,) = client.sent
    assert request.election_type == 1 and [p.topic for p in request.topic_partitions] == ["t"]
    assert result.request_version == 2 and [(r.resource, r.error_name) for r in result.resources] == \
        [("t-0", "ELECTION_NOT_NEEDED")]
    preferred = _Broker({43: (0, 0)}, _entity(replica_election_results=[]))
    wire_elect.elect_leaders(preferred, ElectLeadersArgs("preferred", [TopicPartition("t", 0)]), None)
    assert not hasattr(preferred.sent[0], "election_type")  # v0: preferred, the only kind it has


def test_a_request_level_reassignment_error_is_every_partitions() -> None:
    answer = _entity(error_code=41, error_message="not the controller", responses=[])
    client = _Broker({45: (0, 0)}, answer)
    args = AlterPartitionReassignmentsArgs([Reassignment(TopicPartition("t", 0), [2]),
                                            Reassignment(TopicPartition("t", 1), None)])
    result = wire_reassign.alter_partition_reassignments(client, args, None)
    assert [(r.resource, r.error_name) for r in result.resources] == [("t-0", "NOT_CONTROLLER"),
                                                                       ("t-1", "NOT_CONTROLLER")]
    (request,) = client.sent
    assert [(p.partition_index, p.replicas) for p in request.topics[0].partitions] == [(0, (2,)), (1, None)]


def test_listing_reassignments_names_each_one_or_the_calls_error() -> None:
    ongoing = _entity(error_code=0, error_message=None, topics=[_entity(name="t", partitions=[
        _entity(partition_index=0, replicas=[1, 2], adding_replicas=[2], removing_replicas=[1])])])
    listed = wire_list.list_partition_reassignments(_Broker({46: (0, 0)}, ongoing),
                                                    ListPartitionReassignmentsArgs([TopicPartition("t", 0)]), None)
    assert [(r.resource, r.fields) for r in listed.resources] == [
        ("t-0", {"replicas": [1, 2], "adding_replicas": [2], "removing_replicas": [1]})]
    refused = _entity(error_code=31, error_message="denied", topics=[])
    whole = wire_list.list_partition_reassignments(_Broker({46: (0, 0)}, refused), ListPartitionReassignmentsArgs(),
                                                   None)
    assert [(r.resource, r.error_name) for r in whole.resources] == [("*", "CLUSTER_AUTHORIZATION_FAILED")]
    absent = wire_list.list_partition_reassignments(_Broker({}, None), ListPartitionReassignmentsArgs(), None)
    assert absent.exception == "UnsupportedVersion" and absent.operation == "list_partition_reassignments"


def test_replica_moves_are_grouped_by_log_dir_and_topic() -> None:
    moves = [ReplicaMove(Replica("b", 1, 1), "/d2"), ReplicaMove(Replica("a", 0, 1), "/d2"),
             ReplicaMove(Replica("a", 3, 1), "/d1")]
    request = wire_move._request(2, moves)
    assert [(d.path, [(t.name, t.partitions) for t in d.topics]) for d in request.dirs] == [
        ("/d1", [("a", (3,))]), ("/d2", [("a", (0,)), ("b", (1,))])]
    assert Replica("a", 0, 1).label == "a-0@1"


def _split(answer: Any, error: BaseException | None = None) -> dict[str, Future[Any]]:
    whole: Future[Any] = Future()
    if error is not None:
        whole.set_exception(error)
    else:
        whole.set_result(answer)
    futures: dict[str, Future[Any]] = {"t-0": Future(), "t-1": Future()}
    confluent_elect._split(whole, futures)
    return futures


def test_confluents_one_election_future_becomes_one_per_partition() -> None:
    ck = library()
    futures = _split({ck.TopicPartition("t", 0): None, ck.TopicPartition("t", 1): ck.KafkaError(84)})
    assert futures["t-0"].result() is None
    failed = futures["t-1"].exception()
    assert isinstance(failed, ck.KafkaException) and failed.args[0].code() == 84
    missing = _split({ck.TopicPartition("t", 0): None})["t-1"].exception()
    assert isinstance(missing, LookupError)  # a partition the answer leaves out is never read as success
    whole = _split(None, ck.KafkaException(ck.KafkaError(41)))
    assert all(isinstance(f.exception(), ck.KafkaException) for f in whole.values())
