"""The security admin operations (ACLs, client quotas, SCRAM credentials, delegation tokens) through every client
kind, against a new KRaft broker and an old ZooKeeper one (2.2: before KIP-546 and KIP-554, so those calls are
refused there), each one through its probe as a cell would run it, on SASL clusters (tokens enabled by the
harness); and a token asked for on a PLAINTEXT listener.

kafka-clients 2.3.1 has the ACL and token methods but no quota or SCRAM methods (NoSuchMethodException);
confluent-kafka has no quota or token methods on any release (NotImplementedError).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kcompat.harness import ClusterSpec, SaslSpec
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients import ClientRef, kind
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.claims import API_KEYS, Claim
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.plan import PlannedCell
from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import implementation
from kcompat.harness.records import Cell
from tests.slices import new_in_ci

BROKERS = {"new": ("3.9", "kraft"), "old": ("2.2", "zk")}
USERS = (("alice", "alice-secret"),)
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:2.3.1"]
SCRAM = [{"mechanism": "SCRAM_SHA_256", "iterations": 8192}]
# probe -> (its API, its args, what it observes where the broker and the client have the method)
PROBES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "describe_acls": ("DescribeAcls", {"by": "principal"},
                      {"error": "NONE", "matched": True, "filtered_out": True, "binding_count": 1}),
    "delete_acls": ("DeleteAcls", {}, {"error": "NONE", "deleted": True, "gone": True, "other_kept": True}),
    "alter_client_quotas": ("AlterClientQuotas", {"value": 2048}, {"error": "NONE", "quota_after": 2048.0}),
    "describe_client_quotas": ("DescribeClientQuotas", {"value": 512},
                               {"error": "NONE", "quota": 512.0, "entity_count": 1}),
    "alter_user_scram_credentials": ("AlterUserScramCredentials", {"action": "upsert"},
                                     {"error": "NONE", "described_error": "NONE", "credentials_after": SCRAM}),
    "describe_user_scram_credentials": ("DescribeUserScramCredentials", {},
                                        {"error": "NONE", "credentials": SCRAM,
                                         "unknown_error": "RESOURCE_NOT_FOUND"}),
    "create_delegation_token": ("CreateDelegationToken", {},
                                {"error": "NONE", "created": True, "owner_is_caller": True, "listed": True}),
    "renew_delegation_token": ("RenewDelegationToken", {},
                               {"error": "NONE", "expiry_moved": True, "returned_expiry_described": True}),
    "expire_delegation_token": ("ExpireDelegationToken", {}, {"error": "NONE", "gone": True}),
    "describe_delegation_token": ("DescribeDelegationToken", {}, {"error": "NONE", "listed": True}),
}
DELETE_SCRAM = ("AlterUserScramCredentials", {"action": "delete"},
                {"error": "NONE", "described_error": "RESOURCE_NOT_FOUND"})
# Methods a client release lacks: what its result's exception says instead of a call.
LACKS = {**{("confluent", api): "NotImplementedError"
            for api in ("AlterClientQuotas", "DescribeClientQuotas", "CreateDelegationToken", "RenewDelegationToken",
                        "ExpireDelegationToken", "DescribeDelegationToken")},
         ("java:2.3.1", "AlterClientQuotas"): "NoSuchMethodException",
         ("java:2.3.1", "DescribeClientQuotas"): "NoSuchMethodException",
         ("java:2.3.1", "AlterUserScramCredentials"): "NoSuchMethodException",
         ("java:2.3.1", "DescribeUserScramCredentials"): "NoSuchMethodException"}


@pytest.fixture(params=new_in_ci(BROKERS))
def broker(request, kafka_cluster_factory):
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode, sasl=SaslSpec(users=USERS)))


def observe(cluster, ref: str, probe: str, api: str, args: dict[str, Any], clients, topic: Callable[[str], str],
            kc_config) -> dict[str, Any]:
    """The probe's observation on this cluster through client ``ref``, made as a cell makes it; the neutral
    result of its observed call is checked on the way."""
    claim = Claim(f"test-{probe}", "DOCS-admin", "test", api, 0, None, probe, args, (), ())
    client_ref = ClientRef.parse(ref)
    planned = PlannedCell(Cell(f"DOCS-admin/{claim.id}", str(cluster.spec.version), cluster.spec.mode, ref), claim,
                          cluster.spec.version, cluster.spec.mode, client_ref)
    admin = WireClient(endpoint_of(cluster))
    try:
        context = ProbeContext(planned, clients(cluster, ref), admin, cluster, topic, ArtifactStore(kc_config))
        observed = implementation(probe)(context)
        (result,) = context.results
        assert (result.operation, result.client) == (probe, client_ref.kind), result
        if result.exception is None and not any(r.exception for r in result.resources):  # made and answered
            assert isinstance(result.request_version, int) and result.resources, result
        return observed
    finally:
        admin.close()


@pytest.mark.parametrize("ref", CLIENTS)
def test_every_security_probe_through_each_client(broker, ref, admin_client_factory, unique_topic, kc_config):
    offered = {r.api_key for r in broker.api_versions}
    for probe, (api, args, documented) in [*PROBES.items(), ("alter_user_scram_credentials", DELETE_SCRAM)]:
        observed = observe(broker, ref, probe, api, args, admin_client_factory, unique_topic, kc_config)
        assert {"exception", "unsupported_options"} & set(observed) or "error" in observed, (probe, observed)
        lacking = LACKS.get((ref, api))
        if lacking is not None:
            assert observed["exception"] == lacking, (probe, ref, observed)
        elif API_KEYS[api] not in offered:  # the broker predates the API: the client's refusal
            assert kind(ClientRef.parse(ref).kind).refuses(observed.get("exception"), observed.get("error")), (
                probe, ref, observed)
        else:
            assert {k: observed.get(k) for k in documented} == documented, (probe, ref, observed)
            assert observed["exception"] is None, (probe, observed)


@pytest.mark.parametrize("ref", ["wire", "java:3.9.1"])
def test_a_token_over_plaintext_is_refused(kafka_cluster_factory, ref, admin_client_factory, unique_topic, kc_config):
    """The javadoc's UnsupportedByAuthenticationException: "If the request sent on PLAINTEXT/1-way SSL channels"."""
    cluster = kafka_cluster_factory(ClusterSpec.of("3.9", "kraft"))
    observed = observe(cluster, ref, "create_delegation_token", "CreateDelegationToken", {}, admin_client_factory,
                       unique_topic, kc_config)
    assert observed["error"] == "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED" and observed["created"] is False, observed
    if ref != "wire":
        assert observed["exception"] == "UnsupportedByAuthenticationException", observed
