"""The consumer-group operations' pure logic, and the wire client's group calls against the stub broker (which
coordinates every group): argument mapping, result shaping, the consumer protocol's bytes."""

from __future__ import annotations

import struct

import pytest

from kcompat.harness.clients import AdminResult, Endpoint, ResourceOutcome
from kcompat.harness.clients.kinds.confluent.groups import state_name, state_of
from kcompat.harness.clients.kinds.wire.groups import FIND_COORDINATOR, OFFSET_COMMIT, commit_request, coordinator
from kcompat.harness.operations.describe_consumer_groups.wire import AUTHORIZED_UNKNOWN, operations_of
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.probes._shared import many_common
from kcompat.harness.matrix.setups.groups import assignment, subscription
from kcompat.harness.operations import perform
from kcompat.harness.operations.delete_consumer_groups import DELETE_CONSUMER_GROUPS, DeleteConsumerGroupsArgs
from kcompat.harness.operations.describe_consumer_groups import DESCRIBE_CONSUMER_GROUPS, DescribeConsumerGroupsArgs
from kcompat.harness.operations.list_consumer_group_offsets import (
    LIST_CONSUMER_GROUP_OFFSETS,
    ListConsumerGroupOffsetsArgs,
)
from kcompat.harness.operations.list_consumer_groups import LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs
from kcompat.harness.operations.remove_members_from_consumer_group import (
    REMOVE_MEMBERS_FROM_CONSUMER_GROUP,
    RemoveMembersFromConsumerGroupArgs,
)
from kcompat.harness.recorder import StubBroker


@pytest.fixture
def stub_wire() -> tuple[StubBroker, WireClient]:
    with StubBroker() as stub:
        client = WireClient(Endpoint(stub.bootstrap_servers), timeout=5)
        try:
            yield stub, client
        finally:
            client.close()


def test_authorized_operations_bits_are_acl_operation_codes() -> None:
    assert operations_of((1 << 3) | (1 << 8) | (1 << 6)) == ["READ", "DELETE", "DESCRIBE"]
    assert operations_of(0) == []
    assert operations_of(AUTHORIZED_UNKNOWN) is None  # not asked: Kafka's INT32_MIN, not "no operation"


def test_the_consumer_protocol_bytes() -> None:
    sub = subscription(("orders",))
    assert sub == struct.pack(">hih", 0, 1, 6) + b"orders" + struct.pack(">i", -1)
    given = assignment("orders", 2)
    version, topics, length = struct.unpack(">hih", given[:8])
    assert (version, topics, length, given[8:14]) == (0, 1, 6, b"orders")
    assert struct.unpack(">iiii", given[14:]) == (2, 0, 1, -1)  # two partitions, then no user data


@pytest.mark.parametrize("version", [1, 2, 6, 8, 9])
def test_a_commit_as_no_member_at_every_version(version: int) -> None:
    built = commit_request(version, "g", [("t", 0, 5), ("t", 1, 7), ("u", 0, 1)])
    assert built.version == version and built.api_key == OFFSET_COMMIT
    assert int(built.generation_id_or_member_epoch) == -1 and built.member_id == ""
    assert [(t.name, [(int(p.partition_index), int(p.committed_offset)) for p in t.partitions])
            for t in built.topics] == [("t", [(0, 5), (1, 7)]), ("u", [(0, 1)])]
    if version == 1:
        assert int(built.topics[0].partitions[0].commit_timestamp) == -1  # now, not the epoch
    if 2 <= version <= 4:
        assert built.retention_time == -1  # the broker's default retention, in ms
    if version >= 7:
        assert built.group_instance_id is None


def test_many_common_reads_the_first_error() -> None:
    def result(*resources: ResourceOutcome, exception: str | None = None) -> AdminResult:
        return AdminResult("op", "wire", "1", 0, resources, exception=exception)

    assert many_common(result()) == {"exception": None, "error": "NONE", "error_message": None}
    mixed = result(ResourceOutcome.of("t:0", 0), ResourceOutcome.of("t:1", 86, "subscribed"))
    assert many_common(mixed)["error"] == "GROUP_SUBSCRIBED_TO_TOPIC"
    thrown = result(exception="org.apache.kafka.common.errors.UnsupportedVersionException")
    assert many_common(thrown) == {"exception": "UnsupportedVersionException"}  # no error: nothing answered


def test_confluent_states_by_kafkas_names() -> None:
    for name in ("Empty", "Stable", "PreparingRebalance", "CompletingRebalance", "Dead"):
        assert state_name(state_of(name)) == name
    assert state_name(None) is None


def test_the_stub_coordinates_every_group_at_every_find_coordinator_version(stub_wire) -> None:
    stub, client = stub_wire
    found = coordinator(client, "g")
    assert (found.address, found.node_id, found.error) == ((stub.host, stub.port), 1, "NONE")
    assert "FindCoordinator" in stub.recording.versions()
    assert max(stub.recording.versions()["FindCoordinator"]) == 6 and FIND_COORDINATOR == 10


def test_wire_group_calls_against_the_stub(stub_wire) -> None:
    stub, client = stub_wire
    listed = perform(client, LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs(("Stable",)))
    assert (listed.exception, listed.resources, listed.request_version) == (None, (), 5)
    described = perform(client, DESCRIBE_CONSUMER_GROUPS, DescribeConsumerGroupsArgs(["g"], True))
    outcome = described.resource("g")
    assert outcome.error_name == "NONE" and outcome.fields["state"] == "Empty" and outcome.fields["coordinator"] == 1
    deleted = perform(client, DELETE_CONSUMER_GROUPS, DeleteConsumerGroupsArgs(["g", "h"]))
    assert [(r.resource, r.error_name) for r in deleted.resources] == [("g", "NONE"), ("h", "NONE")]
    offsets = perform(client, LIST_CONSUMER_GROUP_OFFSETS, ListConsumerGroupOffsetsArgs("g"))
    assert offsets.exception is None and offsets.request_version == 9 and offsets.resources == ()


@pytest.mark.parametrize(("operation", "args", "version", "option"), [
    (LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs(("Stable",)), 3, "states_filter"),
    (DESCRIBE_CONSUMER_GROUPS, DescribeConsumerGroupsArgs(["g"], True), 2, "include_authorized_operations"),
    (REMOVE_MEMBERS_FROM_CONSUMER_GROUP, RemoveMembersFromConsumerGroupArgs("g", ["i"]), 2, "members"),
])
def test_a_pinned_version_without_the_option_sends_nothing(stub_wire, operation, args, version, option) -> None:
    stub, client = stub_wire
    result = perform(client, operation, args, version=version)
    assert result.exception == "UnsupportedOption" and result.unsupported_options == (option,), result
    assert result.operation == operation.name
    assert version not in stub.recording.versions().get(operation.api, ())


def test_every_partition_is_never_sent_as_no_partition() -> None:
    """OffsetFetch's null topics ("every partition the group committed") is nullable from v2 only: below it the
    request can't say it, and an empty list would ask for nothing, so nothing is built (the wire client then
    records UnsupportedOption, nothing sent)."""
    from kcompat.harness.clients.kinds.wire.groups import OFFSET_FETCH, request
    from kcompat.harness.messages import Unexpressible

    with pytest.raises(Unexpressible, match="can't carry topics as asked"):
        request(OFFSET_FETCH, 1, group_id="g", topics=None)
    assert request(OFFSET_FETCH, 2, group_id="g", topics=None).body["Topics"] is None
