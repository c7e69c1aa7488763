"""The share- and streams-group operations' pure logic: the API names, the wire client's limits (Kafka's
definitions, not a library's), the streams set-up's first heartbeat on the wire, and the kinds that lack the
methods."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from kcompat.harness.clients.kinds.wire import KIND as WIRE
from kcompat.harness.clients.kinds.wire.groups import request
from kcompat.harness.codec.catalog import catalog_codec
from kcompat.harness.catalog import load_catalog
from kcompat.harness.config import HarnessConfig
from kcompat.harness.matrix.claims import API_KEYS
from kcompat.harness.matrix.setups.streams_groups import SUBTOPOLOGY, _join_body
from kcompat.harness.operations import operations
from kcompat.harness.protocol import api_name, build_request, definitions_release

NEW = ("describe_share_groups", "list_share_group_offsets", "alter_share_group_offsets",
       "delete_share_group_offsets", "delete_share_groups", "describe_streams_groups",
       "list_streams_group_offsets", "alter_streams_group_offsets", "delete_streams_group_offsets",
       "delete_streams_groups")


def test_the_new_apis_have_kafkas_names_for_claims_and_limits() -> None:
    assert api_name(90) == "DescribeShareGroupOffsets" and api_name(89) == "StreamsGroupDescribe"
    assert api_name(77) == "ShareGroupDescribe" and api_name(74) == "ListClientMetricsResources"  # the claims' name
    assert api_name(9999) is None
    assert {operations()[op].api for op in NEW} <= set(API_KEYS)


def test_the_wire_clients_limits_are_the_definitions_stable_versions() -> None:
    """Every API the merged definitions hold, up to its newest stable version: DescribeCluster v2 and the
    streams and share-group APIs of Kafka 4 included, where a library's schemas stopped short."""
    codec = catalog_codec()
    limits = WIRE.limits(SimpleNamespace(version=definitions_release()), HarnessConfig.resolve())
    assert limits.newest["DescribeCluster"] == 2 and limits.newest["ShareGroupDescribe"] == 1
    for name in ("StreamsGroupDescribe", "DescribeShareGroupOffsets", "AlterShareGroupOffsets",
                 "DeleteShareGroupOffsets"):
        assert limits.newest[name] == max(codec.versions(name)) - len(codec.unstable(name))
    newest_release = str(list(load_catalog())[-1].newest)
    assert limits.release == definitions_release() and definitions_release().endswith(f"+{newest_release}")


@pytest.mark.parametrize(("api", "values"), [
    (89, {"group_ids": ("g",), "include_authorized_operations": True, "include_topology_description": False}),
    (90, {"groups": [{"group_id": "g", "topics": [{"topic_name": "t", "partitions": [0]}]}]}),
    (91, {"group_id": "g", "topics": [{"topic_name": "t", "partitions": [{"partition_index": 0,
                                                                             "start_offset": 2}]}]}),
    (92, {"group_id": "g", "topics": [{"topic_name": "t"}]}),
    (77, {"group_ids": ("g",), "include_authorized_operations": False})])
def test_the_new_group_requests_are_built_by_field_name_and_encode(api: int, values: dict[str, Any]) -> None:
    codec = catalog_codec()
    version = codec.versions(api)[-1]
    built = request(api, version, **values)
    _, body = codec.decode_request(codec.encode_request(api, version, {"CorrelationId": 1, "ClientId": "t"},
                                                        built.body))
    assert {name: body[name] for name in built.body} == built.body


def test_the_streams_members_first_heartbeat_carries_its_topology() -> None:
    """The set-up's join (MemberEpoch 0) is a StreamsGroupHeartbeat every defined version encodes, its one
    subtopology reading the source topic."""
    codec = catalog_codec()
    for version in codec.versions("StreamsGroupHeartbeat"):
        built = build_request(88, version, group_id="g", member_id="m", endpoint_information_epoch=0,
                              **_join_body("t"))
        _, body = codec.decode_request(codec.encode_request(88, version, {"CorrelationId": 1, "ClientId": "t"},
                                                            built.body))
        assert body["MemberEpoch"] == 0 and body["Topology"]["Subtopologies"] == [{
            "SubtopologyId": SUBTOPOLOGY, "SourceTopics": ["t"], "SourceTopicRegex": [], "StateChangelogTopics": [],
            "RepartitionSinkTopics": [], "RepartitionSourceTopics": [], "CopartitionGroups": []}]


@pytest.mark.parametrize("name", NEW)
def test_confluent_kafka_says_it_lacks_each_method_as_data(name: str) -> None:
    from kcompat.harness.clients.confluent import ConfluentClient

    module = __import__(f"kcompat.harness.operations.{name}.confluent", fromlist=[name])
    client = SimpleNamespace(kind="confluent", version="2.16.1", librdkafka_version="2.16.0")
    operation = operations()[name]
    result = getattr(module, name)(client, operation.samples("t")[0], None)
    assert operation.implementation(object.__new__(ConfluentClient)) is not None
    assert (result.operation, result.exception, result.request_version) == (name, "NotImplementedError", None)
    assert result.exception_message == f"confluent-kafka 2.16.1 has no AdminClient.{name}"
    assert result.librdkafka_version == "2.16.0"


def test_a_member_that_stopped_heartbeating_during_the_call_is_the_harness_failure() -> None:
    """A set-up member fenced (or expired) while the probe called left the group the call observed: that is no
    verdict of the pair, so the cell is the harness's failure and runs again."""
    from kcompat.harness.errors import HarnessError
    from kcompat.harness.matrix.setups.members import Heartbeating

    member = Heartbeating()
    member.group, member.heartbeat_errors = "g", []
    member.held()  # a member that kept its session: nothing to say
    member.heartbeat_errors.append("FENCED_MEMBER_EPOCH")
    with pytest.raises(HarnessError, match="member of g stopped heartbeating during the call: FENCED_MEMBER_EPOCH"):
        member.held()
