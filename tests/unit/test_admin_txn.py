"""Pure logic of the txn group: argument mapping per request version, result shaping, the set-ups' encodings."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from kio.records.readers import read_batch

from kcompat.harness.clients.confluent import ConfluentClient
from kcompat.harness.operations.describe_producers.confluent import describe_producers as confluent_producers
from kcompat.harness.operations.describe_metadata_quorum import wire as quorum_module
from kcompat.harness.operations.fence_producers import wire as fence_module
from kcompat.harness.operations.list_transactions import wire as list_module
from kcompat.harness.operations.describe_producers.wire import producer_fields
from kcompat.harness.operations.describe_transactions.wire import transaction_fields
from kcompat.harness.operations.update_features.wire import update_features
from kcompat.harness.matrix.setups.producers import _records, java_hash
from kcompat.harness.operations.describe_metadata_quorum import DescribeMetadataQuorumArgs
from kcompat.harness.operations.describe_producers import DescribeProducersArgs
from kcompat.harness.operations.fence_producers import FenceProducersArgs
from kcompat.harness.operations.list_transactions import ListTransactionsArgs
from kcompat.harness.operations.update_features import UpdateFeaturesArgs


class FakeWire:
    """Stands in for WireClient: builds each request at ``version`` and answers with the next canned response."""

    kind, version = "wire", "0.5.0"

    def __init__(self, version: int, responses: list[Any]):
        self.sent_version = version
        self.responses = responses
        self.requests: list[tuple[Any, dict[str, bool], Any]] = []

    def require(self, operation: str, api_key: int, version: int | None) -> dict[int, Any]:
        return {}  # every API offered: the canned responses say what the broker answers

    def send(self, operation: str, api_key: int, version: int | None, build: Callable[[int, dict[str, bool]], Any],
             options: dict[str, bool], **where: Any) -> tuple[int, Any, tuple[str, ...]]:
        self.requests.append((build(self.sent_version, options), options, where.get("broker")))
        return self.sent_version, self.responses.pop(0), ()


def test_java_hash_is_javas_string_hash_code() -> None:
    """The coordinator's partition of a transactional id is abs(hashCode) mod the partitions."""
    assert java_hash("hello") == 99162322
    assert java_hash("") == 0
    assert java_hash("polygenelubricants") == -2**31  # the one whose abs() stays negative in Java


def test_a_transactional_batch_reads_back_as_kafka_reads_it() -> None:
    batch, _ = read_batch(_records(7, 3, 0, 2, True), 0)
    assert (int(batch.producer_id), int(batch.producer_epoch), int(batch.base_sequence)) == (7, 3, 0)
    assert int(batch.attributes) & 0x10 and len(batch.records) == 2
    idempotent, _ = read_batch(_records(7, 3, 0, 1, False), 0)
    assert not int(idempotent.attributes) & 0x10


@pytest.mark.parametrize("version", [0, 1])
def test_update_features_says_a_downgrade_as_its_version_can(version: int) -> None:
    answer = SimpleNamespace(error_code=0, error_message=None,
                             results=[SimpleNamespace(feature="f", error_code=42, error_message="bad")])
    client = FakeWire(version, [answer])
    result = update_features(client, UpdateFeaturesArgs("f", 0, "SAFE_DOWNGRADE"), None)  # type: ignore[arg-type]
    (request, options, _), = client.requests
    (update,) = request.feature_updates
    if version == 0:
        assert update.allow_downgrade is True
    else:
        assert update.upgrade_type == 2
    assert options == {"validate_only": False}
    assert result.resource("f").error_name == "INVALID_REQUEST" and result.resource("f").error_message == "bad"


def test_update_features_takes_the_response_error_over_the_results() -> None:
    client = FakeWire(1, [SimpleNamespace(error_code=41, error_message="not the controller", results=[])])
    result = update_features(client, UpdateFeaturesArgs("f", 1), None)  # type: ignore[arg-type]
    assert result.resource("f").error_name == "NOT_CONTROLLER"


def test_quorum_replicas_are_sorted_ids() -> None:
    replicas = [SimpleNamespace(replica_id=3), SimpleNamespace(replica_id=1)]
    partition = SimpleNamespace(error_code=0, error_message=None, leader_id=1, leader_epoch=4, high_watermark=9,
                                current_voters=replicas, observers=[SimpleNamespace(replica_id=7)])
    answer = SimpleNamespace(error_code=0, topics=[SimpleNamespace(partitions=[partition])])
    result = quorum_module.describe_metadata_quorum(FakeWire(2, [answer]), DescribeMetadataQuorumArgs(),  # type: ignore[arg-type]
                                                    None)
    fields = result.resource("__cluster_metadata-0").fields
    assert fields == {"leader_id": 1, "leader_epoch": 4, "high_watermark": 9, "voters": [1, 3], "observers": [7]}


def test_list_transactions_asks_every_broker_and_names_a_broker_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(list_module, "brokers", lambda client: {2: ("h", 2), 1: ("h", 1)})
    listing = SimpleNamespace(transactional_id="t", producer_id=5, transaction_state="Ongoing")
    answers = [SimpleNamespace(error_code=0, unknown_state_filters=[], transaction_states=[listing]),
               SimpleNamespace(error_code=15, unknown_state_filters=["Nope"], transaction_states=[])]
    client = FakeWire(1, answers)
    result = list_module.list_transactions(client, ListTransactionsArgs(("Ongoing", "Nope")), None)  # type: ignore[arg-type]
    assert [where for _, _, where in client.requests] == [("h", 1), ("h", 2)]
    assert client.requests[0][0].state_filters == ("Ongoing", "Nope")
    assert result.resource("t").fields == {"producer_id": 5, "state": "Ongoing"}
    assert result.resource("broker:2").error_name == "COORDINATOR_NOT_AVAILABLE"
    assert result.resource("broker:2").fields == {"unknown_state_filters": ["Nope"]}


def test_fence_producers_retries_while_the_coordinator_aborts(monkeypatch: pytest.MonkeyPatch) -> None:
    """CONCURRENT_TRANSACTIONS first (the open transaction being aborted), then the bumped epoch."""
    monkeypatch.setattr(fence_module, "coordinator", lambda client, key: (0, ("h", 1)))
    answers = [SimpleNamespace(error_code=51, producer_id=-1, producer_epoch=-1),
               SimpleNamespace(error_code=0, producer_id=5, producer_epoch=2)]
    client = FakeWire(4, answers)
    result = fence_module.fence_producers(client, FenceProducersArgs(["t"]), None)  # type: ignore[arg-type]
    assert len(client.requests) == 2 and client.requests[0][0].producer_id == -1
    assert result.resource("t").error_name == "NONE"
    assert result.resource("t").fields == {"producer_id": 5, "producer_epoch": 2}


def test_fields_say_none_as_the_java_client_does() -> None:
    """-1 is the protocol's "none" for a coordinator epoch, an open transaction's offset, a start time: null, as
    kafka-clients' OptionalInt and OptionalLong say it, so the kinds compare field by field."""
    state = SimpleNamespace(producer_id=5, producer_epoch=0, last_sequence=2, last_timestamp=10,
                            coordinator_epoch=-1, current_txn_start_offset=-1)
    assert producer_fields(state) == {"producer_id": 5, "producer_epoch": 0, "last_sequence": 2,
                                      "last_timestamp": 10, "coordinator_epoch": None,
                                      "current_txn_start_offset": None}
    started = 1_767_225_600_123  # the definitions give ms, kept to the millisecond
    transaction = SimpleNamespace(transaction_state="Ongoing", producer_id=5, producer_epoch=1,
                                  transaction_timeout=60000, transaction_start_time=started,
                                  topics=[SimpleNamespace(topic="b", partitions=[1, 0]), SimpleNamespace(
                                      topic="a", partitions=[0])])
    fields = transaction_fields(transaction)
    assert fields["timeout_ms"] == 60000 and fields["start_time_ms"] == started
    assert transaction_fields(SimpleNamespace(**{**vars(transaction), "transaction_start_time": -1}))[
        "start_time_ms"] is None
    assert fields["partitions"] == ["a:0", "b:0", "b:1"]


def test_a_confluent_release_without_the_method_says_so() -> None:
    client = object.__new__(ConfluentClient)
    client.library, client.version, client.librdkafka_version = object(), "2.16.1", "2.16.0"
    result = confluent_producers(client, DescribeProducersArgs("t"), None)
    assert (result.exception, result.request_version, result.librdkafka_version) == (
        "NotImplementedError", None, "2.16.0")
    assert result.exception_message == "confluent-kafka 2.16.1 has no AdminClient.describe_producers"
