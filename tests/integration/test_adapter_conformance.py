"""Every adapter kind of the registry (a kind with an adapter program), at the release its limits were measured
at, held to the adapter protocol (docs/ADAPTERS.md) alike: its ready line and a failure for an operation it
lacks; ACLs and an authorization error on a SASL cluster, its password in no line and no log; and its topic
operations through kcompat's own client, as every cell makes it.  What a kind's library makes of a call (which
fields its API carries, how it refuses a version) is that kind's own module's (test_adapter_<kind>.py); what a
client should see of a claim is the claim book's, pinned by the golden slice (test_golden.py)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

from kcompat.harness import ClusterSpec, SaslSpec
from kcompat.harness.clients import Endpoint, NewTopic
from kcompat.harness.clients.adapter import PROTOCOL
from kcompat.harness.clients.kinds import registry
from kcompat.harness.clients.limits import checked_in
from kcompat.harness.config import HarnessConfig
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.operations import perform
from kcompat.harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from kcompat.harness.operations.delete_topics import DELETE_TOPICS, DeleteTopicsArgs
from kcompat.harness.operations.list_topics import LIST_TOPICS, ListTopicsArgs
from kcompat.harness.waiting import attempts
from tests.adapter_driver import AdapterProcess

SASL_USERS = (("alice", "alice-secret-pw"),)


def adapter_refs() -> list[str]:
    """One reference per adapter kind: the newest release of it the checked-in limits measured."""
    kinds = {name for name, declared in registry().items() if declared.program is not None}
    newest = {ref.split(":", 1)[0]: ref for ref in checked_in() if ref.split(":", 1)[0] in kinds}
    assert set(newest) == kinds, f"adapter kinds without a measured release: {kinds - set(newest)}"
    return sorted(newest.values())


@pytest.fixture(params=adapter_refs())
def ref(request: pytest.FixtureRequest) -> str:
    chosen: str = request.param
    return chosen


@pytest.fixture
def adapter(ref: str, kc_config: HarnessConfig) -> Iterator[AdapterProcess]:
    name, release = ref.split(":", 1)
    installer = importlib.import_module(f"kcompat.harness.clients.kinds.{name.replace('-', '_')}.install")
    argv, env = installer.install(release, kc_config)  # a kind's package is named after it (the registry's rule)
    process = AdapterProcess(argv, env, kc_config.run_root / "adapters" / f"conformance-{name}-{release}.log")
    try:
        yield process
    finally:
        process.kill()


def test_the_ready_line_names_the_release_protocol_and_operations(adapter: AdapterProcess, ref: str) -> None:
    assert adapter.ready["ready"] == ref.split(":", 1)[1] and adapter.ready["protocol"] == PROTOCOL
    operations = adapter.ready["operations"]
    assert operations and all(isinstance(op, str) for op in operations), adapter.ready
    assert {"create_topics", "delete_topics", "create_acls", "describe_acls", "delete_acls"} <= set(operations)
    assert "failure" in adapter.call("no_such_op", None, {})  # the adapter can't run it: not a result
    assert adapter.close() == 0
    assert all(json.loads(line) for line in adapter.lines)  # nothing but protocol lines on stdout


def _topic(name: str) -> dict[str, Any]:
    return {"name": name, "partitions": 1, "replication_factor": 1, "assignments": None, "configs": {}}


def _only(result: dict[str, Any]) -> dict[str, Any]:
    assert len(result["resources"]) == 1, result
    entry: dict[str, Any] = result["resources"][0]
    return entry


def _acls_settle(adapter: AdapterProcess, at: Endpoint, flt: dict[str, Any], label: str) -> None:
    """KRaft: an ACL shows once the broker applied it (bounded)."""
    for _ in attempts(30, interval=0.5):
        described = adapter.result("describe_acls", at, {"filter": flt})
        if described["resources"] and _only(described)["fields"].get("bindings") == [label]:
            return
    raise AssertionError(f"{label} was not described within 30 s: {described}")


def test_acls_and_an_authorization_error_on_a_sasl_cluster(adapter: AdapterProcess, kafka_cluster_factory: Any,
                                                           unique_topic: Any) -> None:
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9", "kraft", sasl=SaslSpec(users=SASL_USERS)))
    admin, alice = endpoint_of(cluster), endpoint_of(cluster, "alice")
    topic = unique_topic("kc-conform-acl")
    label = f"topic:{topic}:User:alice:DESCRIBE:ALLOW"
    acl = {"resource_type": "topic", "resource_name": topic, "principal": "User:alice", "operation": "DESCRIBE",
           "permission": "ALLOW", "host": "*", "pattern": "LITERAL", "label": label}
    created = adapter.result("create_acls", admin, {"acls": [acl]})
    assert _only(created)["error_name"] == "NONE", created
    flt = {"resource_type": "topic", "resource_name": topic, "principal": None, "operation": "ANY",
           "permission": "ANY", "host": None, "pattern": "LITERAL"}
    _acls_settle(adapter, admin, flt, label)
    denied = adapter.result("create_topics", alice, {"validate_only": False, "topics": [_topic(topic)]})
    assert (_only(denied)["error_code"], _only(denied)["error_name"]) == (29, "TOPIC_AUTHORIZATION_FAILED"), denied
    deleted = adapter.result("delete_acls", admin, {"filters": [flt]})
    assert _only(deleted)["fields"]["deleted"] == [label], deleted
    assert adapter.result("close", alice, {})["resources"] == []
    assert adapter.close() == 0
    assert b"alice-secret-pw" not in b"\n".join(adapter.lines)
    assert "alice-secret-pw" not in adapter.log.read_text(errors="replace")


def test_the_kind_through_kcompats_own_client(ref: str, kafka_cluster_factory: Any, admin_client_factory: Any,
                                              unique_topic: Any) -> None:
    """The arguments kcompat writes are the ones the adapter reads, and its answers the ones kcompat reads."""
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9", "kraft"))
    client = admin_client_factory(cluster, ref)
    topic = unique_topic("kc-conform")
    created = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(topic, 2, 1)]))
    assert f"{created.client}:{created.client_version}" == ref
    assert created.resource(topic).error_name == "NONE", created
    again = perform(client, CREATE_TOPICS, CreateTopicsArgs([NewTopic(topic, 1, 1)]))
    assert (again.resource(topic).error_code, again.resource(topic).error_name) == (36, "TOPIC_ALREADY_EXISTS")
    for _ in attempts(30, interval=0.5):  # KRaft: a broker lists the topic once its metadata has it
        listed = perform(client, LIST_TOPICS, ListTopicsArgs())
        if topic in {r.resource for r in listed.resources}:
            break
    else:
        raise AssertionError(f"{topic} was never listed: {listed}")
    deleted = perform(client, DELETE_TOPICS, DeleteTopicsArgs([topic]))
    assert deleted.resource(topic).error_name == "NONE", deleted
