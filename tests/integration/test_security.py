"""SASL/PLAIN listeners with an authorizer, and broker plug-ins on the classpath."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness import ClusterSpec, SaslSpec, WireError
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.javac import compile_plugin

TOPIC_AUTHORIZATION_FAILED = 29
CLUSTER_AUTHORIZATION_FAILED = 31
POLICY_VIOLATION = 44
USERS = (("alice", "alice-secret"),)
POLICY_SOURCES = Path(__file__).resolve().parents[2] / "src" / "kcompat" / "fixtures" / "plugins" / "create_topic_policy"


@pytest.mark.parametrize(("version", "mode"), [("3.9", "kraft"), ("2.8", "zk"), ("0.11", "zk")])
def test_sasl_users_and_acls(kafka_cluster_factory, wire, create_topic, unique_topic, version: str, mode: str) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of(version, mode, sasl=SaslSpec(users=USERS)))
    conn, offered = wire(cluster, user="alice", password="alice-secret")
    with conn:
        denied = create_topic(conn, offered, "kc-alice-topic")
    # Before KIP-277 (2.0) a create was authorized against the Cluster resource.
    per_topic = cluster.spec.version.supports("create_topics_topic_acl")
    assert int(denied.error_code) == (TOPIC_AUTHORIZATION_FAILED if per_topic else CLUSTER_AUTHORIZATION_FAILED)
    admin, offered = wire(cluster)
    with admin:
        assert int(create_topic(admin, offered, unique_topic("kc-admin-topic")).error_code) == 0
    with pytest.raises(WireError, match="alice"):
        wire(cluster, user="alice", password="wrong")


@pytest.mark.parametrize(("version", "mode"), [("3.9", "kraft"), ("0.11", "zk")])
def test_create_topic_policy_from_extra_classpath(kafka_cluster_factory, kc_config, wire, create_topic, unique_topic,
                                                  version: str,
                                                  mode: str) -> None:
    release = ClusterSpec.of(version, mode).release
    classes = compile_plugin(POLICY_SOURCES, ArtifactStore(kc_config).resolve(release), kc_config.cache_dir)
    spec = ClusterSpec.of(version, mode, extra_classpath=[classes],
                          server_properties={"create.topic.policy.class.name": "kcompat.plugins.RejectPrefixPolicy"})
    conn, offered = wire(kafka_cluster_factory(spec))
    with conn:
        rejected = create_topic(conn, offered, unique_topic("forbidden-topic"))
        allowed = create_topic(conn, offered, unique_topic("allowed-topic"))
    assert int(rejected.error_code) == POLICY_VIOLATION
    if hasattr(rejected, "error_message"):  # CreateTopics v1+ carries the policy's message
        assert "kcompat policy" in (rejected.error_message or "")
    assert int(allowed.error_code) == 0
