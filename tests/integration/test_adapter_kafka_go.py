"""The kafka-go adapter against one real broker: each declared operation through kcompat, as a cell calls it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kcompat.harness import ClusterSpec
from kcompat.harness.clients.base import AclSpec, ConfigTarget, NewPartitions, NewTopic
from kcompat.harness.operations import perform
from kcompat.harness.operations.create_acls import CREATE_ACLS, CreateAclsArgs
from kcompat.harness.operations.create_partitions import CREATE_PARTITIONS, CreatePartitionsArgs
from kcompat.harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from kcompat.harness.operations.delete_topics import DELETE_TOPICS, DeleteTopicsArgs
from kcompat.harness.operations.describe_acls import DESCRIBE_ACLS, AclFilter, DescribeAclsArgs
from kcompat.harness.operations.describe_cluster import DESCRIBE_CLUSTER, DescribeClusterArgs
from kcompat.harness.operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs
from kcompat.harness.operations.list_groups import LIST_GROUPS, ListGroupsArgs

CLIENT = "kafka-go:0.4.51"


def test_declared_operations_against_a_broker(kafka_cluster_factory: Callable[..., Any],
                                              admin_client_factory: Callable[..., Any],
                                              unique_topic: Callable[[str], str]) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9"))
    client = admin_client_factory(cluster, CLIENT)
    name = unique_topic("kgo")

    created = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1, configs={"retention.ms": "3600000"})]))
    assert created.exception is None and created.resource(name).error_name == "NONE"
    assert isinstance(created.request_version, int)  # read off the frames kafka-go wrote
    again = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert (again.resource(name).error_code, again.resource(name).error_name) == (36, "TOPIC_ALREADY_EXISTS")

    grown = perform(client, CREATE_PARTITIONS, CreatePartitionsArgs([NewPartitions(name, 2)]))
    assert grown.resource(name).error_name == "NONE"

    described = perform(client, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", name)], True, True))
    entries = {e["name"]: e for e in described.resource(f"topic:{name}").fields["configs"]}
    assert entries["retention.ms"]["value"] == "3600000"
    assert entries["retention.ms"]["source"] == "DYNAMIC_TOPIC_CONFIG"
    assert "configs.documentation" in described.result_fields

    cluster_info = perform(client, DESCRIBE_CLUSTER, DescribeClusterArgs())
    fields = cluster_info.resource("cluster").fields
    assert fields["nodes"] == [b.node_id for b in cluster.brokers] and fields["cluster_id"]

    listed = perform(client, LIST_TOPICS, ListTopicsArgs())  # its own CreateTopics refreshed the client's cache
    assert listed.resource(name).fields["internal"] is False  # partitions: as of the cache, 1 or 2
    hidden = perform(client, LIST_TOPICS, ListTopicsArgs(list_internal=False))
    assert hidden.unsupported_options == ("list_internal",)  # kafka-go lists every topic Metadata gives

    deleted = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert deleted.resource(name).error_name == "NONE"
    gone = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert gone.resource(name).error_name == "UNKNOWN_TOPIC_OR_PARTITION"

    acl = AclSpec("topic", name, "User:kcompat", "READ")
    granted = perform(client, CREATE_ACLS, CreateAclsArgs([acl]))  # a broker without an authorizer refuses it
    assert granted.resource(acl.label).error_name == "SECURITY_DISABLED"
    listed_acls = perform(client, DESCRIBE_ACLS, DescribeAclsArgs(AclFilter("topic", name)))
    assert listed_acls.resources[0].error_name == "SECURITY_DISABLED"

    lacking = perform(client, LIST_GROUPS, ListGroupsArgs())  # not declared: the client lacks it
    assert lacking.exception == "NotImplementedError"
