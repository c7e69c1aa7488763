"""Which request awaits which ACL, given the APIs a broker advertises (kcompat.harness.matrix.acls; no broker)."""

import pytest

from kcompat.harness import ConfigError, KafkaVersion
from kcompat.harness.errors import NotOffered
from kcompat.harness.clients import AclSpec
from kcompat.harness.matrix.acls import CHECK_TOPIC, AclCheck, acl_check, authorizes_nothing
from kcompat.harness.matrix.claims import parse_acl
from kcompat.harness.matrix.claims import API_KEYS

# what the catalog's brokers advertise, by the APIs that matter here
ZK_0_10_2 = {API_KEYS[n] for n in ("Metadata", "ApiVersions", "CreateTopics", "DeleteTopics", "SaslHandshake")}
ZK_0_11 = ZK_0_10_2 | {API_KEYS[n] for n in ("CreateAcls", "DescribeAcls", "DeleteAcls", "DescribeConfigs",
                                              "AlterConfigs", "InitProducerId")}
ZK_2_8 = ZK_0_11 | {API_KEYS["CreatePartitions"]}


def _acl(text: str) -> AclSpec:
    return parse_acl(text)


def test_a_claims_acl_text_parses_and_bad_text_names_the_format() -> None:
    assert _acl("cluster:kafka-cluster:User:alice:CREATE:ALLOW") == AclSpec(
        "cluster", "kafka-cluster", "User:alice", "CREATE", "ALLOW")
    with pytest.raises(ConfigError, match="resource:name:User:principal"):
        parse_acl("cluster:kafka-cluster:alice:CREATE")


@pytest.mark.parametrize("advertised,version", [(ZK_0_10_2, "0.10.2.2"), (ZK_2_8, "2.8.2")])
def test_cluster_create_is_awaited_through_create_topics_validate_only(advertised: set[int], version: str) -> None:
    check = acl_check(_acl("cluster:kafka-cluster:User:alice:CREATE:ALLOW"), advertised, KafkaVersion.parse(version))
    assert check == AclCheck("create_topics", CHECK_TOPIC, "alice")


@pytest.mark.parametrize("advertised,version", [(ZK_0_10_2, "0.10.2.2"), (ZK_2_8, "2.8.2")])
def test_topic_describe_is_awaited_through_metadata_of_that_topic(advertised: set[int], version: str) -> None:
    check = acl_check(_acl("topic:t1:User:erin:DESCRIBE:ALLOW"), advertised, KafkaVersion.parse(version))
    assert check == AclCheck("metadata", "t1", "erin")


def test_topic_create_authorizes_create_topics_only_from_2_0() -> None:
    acl = _acl("topic:t1:User:carol:CREATE:ALLOW")
    assert acl_check(acl, ZK_2_8, KafkaVersion.parse("2.0.1")) == AclCheck("create_topics", "t1", "carol")
    assert acl_check(acl, ZK_0_10_2, KafkaVersion.parse("0.10.2.2")) is None  # Cluster Create only: nothing to see
    assert acl_check(acl, ZK_0_11, KafkaVersion.parse("1.1.1")) is None


@pytest.mark.parametrize("text", ["topic:t1:User:carol:ALTER:ALLOW",  # CreatePartitions came in 1.0
                                  "topic:t1:User:erin:DESCRIBE_CONFIGS:ALLOW",  # DescribeConfigs in 0.11
                                  "cluster:kafka-cluster:User:dave:ALTER:ALLOW"])  # CreateAcls in 0.11
def test_an_acl_authorizing_only_missing_requests_is_not_awaited_on_0_10_2(text: str) -> None:
    assert acl_check(_acl(text), ZK_0_10_2, KafkaVersion.parse("0.10.2.2")) is None


@pytest.mark.parametrize("text", ["topic:t1:User:carol:ALTER:ALLOW", "cluster:kafka-cluster:User:dave:ALTER:ALLOW",
                                  "topic:t1:User:erin:DESCRIBE_CONFIGS:ALLOW", "topic:t1:User:erin:READ:ALLOW"])
def test_where_describe_acls_lists_them_other_acls_need_no_request(text: str) -> None:
    assert acl_check(_acl(text), ZK_2_8, KafkaVersion.parse("2.8.2")) is None


def test_an_acl_with_a_request_but_no_check_and_no_describe_acls_is_an_error() -> None:
    with pytest.raises(NotOffered, match="topic:t1:User:erin:READ:ALLOW"):
        acl_check(_acl("topic:t1:User:erin:READ:ALLOW"), ZK_0_10_2, KafkaVersion.parse("0.10.2.2"))
    with pytest.raises(ConfigError, match="only ALLOW"):
        acl_check(_acl("topic:t1:User:erin:DESCRIBE:DENY"), ZK_2_8, KafkaVersion.parse("2.8.2"))


@pytest.mark.parametrize("text,on_0_10_2,on_1_1,on_2_8", [
    ("cluster:kafka-cluster:User:alice:CREATE:ALLOW", False, False, False),
    ("cluster:kafka-cluster:User:dave:ALTER:ALLOW", True, False, False),  # CreateAcls from 0.11
    ("topic:t1:User:carol:CREATE:ALLOW", True, True, False),  # CreateTopics per topic from 2.0
    ("topic:t1:User:carol:ALTER:ALLOW", True, False, False),  # CreatePartitions from 1.0
    ("topic:t1:User:erin:DESCRIBE_CONFIGS:ALLOW", True, False, False),
    ("topic:t1:User:erin:DESCRIBE:ALLOW", False, False, False),
    ("topic:t1:User:erin:READ:ALLOW", False, False, False),  # not in the table: never assumed idle
])
def test_acls_authorizing_only_missing_requests(text: str, on_0_10_2: bool, on_1_1: bool, on_2_8: bool) -> None:
    """What 0.10.2's AclCommand refuses ("Topic only supports operations Read,All,Delete,Write,Describe",
    Cluster only Create,ClusterAction,All) is what authorizes nothing there."""
    acl = _acl(text)
    assert authorizes_nothing(acl, ZK_0_10_2, KafkaVersion.parse("0.10.2.2")) is on_0_10_2
    assert authorizes_nothing(acl, ZK_2_8, KafkaVersion.parse("1.1.1")) is on_1_1
    assert authorizes_nothing(acl, ZK_2_8, KafkaVersion.parse("2.8.2")) is on_2_8
