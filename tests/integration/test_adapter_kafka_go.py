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


CONN = "kafka-go:0.4.47@surface=conn"


def test_conn_surface_sends_its_fixed_versions(kafka_cluster_factory: Callable[..., Any],
                                               admin_client_factory: Callable[..., Any],
                                               unique_topic: Callable[[str], str]) -> None:
    """kafka.Conn, the path kafka-go's README shows: CreateTopics and DeleteTopics at v0 on a Conn to the
    controller, whatever the broker offers; what Conn has no method for is the client lacking it."""
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9"))
    client = admin_client_factory(cluster, CONN)
    name = unique_topic("kgoconn")

    created = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert (created.exception, created.resource(name).error_name, created.request_version) == (None, "NONE", 0)
    again = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert again.resource(name).error_name == "NONE"  # Conn.CreateTopics passes over TOPIC_ALREADY_EXISTS
    assert again.unsupported_fields["num_partitions"] == "kafka.Conn.CreateTopics"

    listed = perform(client, LIST_TOPICS, ListTopicsArgs())
    assert listed.resource(name).fields["partitions"] == 1 and "internal" in listed.unsupported_fields
    cluster_info = perform(client, DESCRIBE_CLUSTER, DescribeClusterArgs())
    assert cluster_info.resource("cluster").fields["nodes"] == [b.node_id for b in cluster.brokers]
    assert cluster_info.unsupported_fields == {"cluster_id": "kafka.Conn"}

    lacking = perform(client, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", name)], False, False))
    assert lacking.exception == "NotImplementedError" and "kafka.Conn" in (lacking.exception_message or "")

    deleted = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert (deleted.resource(name).error_name, deleted.request_version) == ("NONE", 0)
    gone = perform(client, DELETE_TOPICS, DeleteTopicsArgs([name]))
    assert gone.resource(name).error_name == "UNKNOWN_TOPIC_OR_PARTITION"


def test_conn_surface_against_kafka_4(kafka_cluster_factory: Callable[..., Any],
                                      admin_client_factory: Callable[..., Any],
                                      unique_topic: Callable[[str], str]) -> None:
    """Kafka 4 dropped CreateTopics v0-1 and DeleteTopics v0 (KIP-896): the broker closes Conn's connection,
    while the default surface (kafka.Client, which negotiates) creates the same topic."""
    cluster = kafka_cluster_factory(ClusterSpec.of("4.4"))
    name = unique_topic("kgoconn4")

    conn = perform(admin_client_factory(cluster, CONN), CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert conn.exception is not None and conn.request_version == 0, conn
    negotiated = perform(admin_client_factory(cluster, "kafka-go:0.4.47"), CREATE_TOPICS,
                         CreateTopicsArgs([NewTopic(name, 1, 1)]))
    assert negotiated.exception is None and negotiated.resource(name).error_name == "NONE"
