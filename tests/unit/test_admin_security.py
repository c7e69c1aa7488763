"""Pure parts of the security operations: names, filters, SCRAM hashing, token timestamps, the token key a
SASL cluster gets, and the JSON the sidecar reads."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import pytest

from kcompat.harness import ClusterSpec, HarnessError, SaslSpec
from kcompat.harness.operations.describe_client_quotas.confluent import lacking
from kcompat.harness.operations.alter_user_scram_credentials.wire import salted
from kcompat.harness.operations.create_delegation_token.wire import epoch_ms, principal
from kcompat.harness.operations.describe_acls.wire import filter_fields, label_of
from kcompat.harness.clients.wire import WireClient, Refused
from kcompat.harness.clients.base import Endpoint
from kcompat.harness.operations.alter_client_quotas import AlterClientQuotasArgs
from kcompat.harness.operations.alter_user_scram_credentials import (
    AlterUserScramCredentialsArgs,
    ScramDeletion,
    ScramUpsertion,
)
from kcompat.harness.operations.describe_acls import AclFilter, binding_label
from kcompat.harness.operations.describe_client_quotas import entity_label
from kcompat.harness.render import NodeLayout, broker_properties

SECRET_KEYS = ("delegation.token.master.key", "delegation.token.secret.key")


def _props(version: str, mode: str, sasl: SaslSpec | None, node: int = 1) -> dict[str, str]:
    nodes = [NodeLayout(i, 9000 + i, 9100 + i if mode == "kraft" else None, Path(f"/runs/{i}")) for i in (1, 2)]
    return broker_properties(ClusterSpec.of(version, mode, nodes=2, sasl=sasl), nodes[node - 1], nodes,
                             zk_port=2181)


@pytest.mark.parametrize(("version", "mode", "key"), [
    ("1.0", "zk", None), ("1.1", "zk", "delegation.token.master.key"), ("2.2", "zk", "delegation.token.master.key"),
    ("2.8", "zk", "delegation.token.secret.key"), ("3.5", "zk", "delegation.token.secret.key"),
    ("3.5", "kraft", None),  # KRaft has tokens from 3.6 (KIP-900): 3.3-3.5 refuse to boot with a key
    ("3.6", "kraft", "delegation.token.secret.key"), ("3.9", "kraft", "delegation.token.secret.key"),
    ("4.4", "kraft", "delegation.token.secret.key")])
def test_a_sasl_cluster_enables_delegation_tokens_where_the_release_has_them(version: str, mode: str,
                                                                             key: str | None) -> None:
    sasl = SaslSpec(users=(("alice", "pw"),))
    first, second = _props(version, mode, sasl, 1), _props(version, mode, sasl, 2)
    assert [k for k in SECRET_KEYS if k in first] == ([key] if key else [])
    if key:
        assert first[key] == second[key]  # every node verifies the others' tokens
        assert sasl.super_password not in first[key]
        assert first[key] != _props(version, mode, SaslSpec(users=(("alice", "pw"),)))[key]  # per cluster


def test_a_plaintext_cluster_has_no_token_key() -> None:
    assert not set(SECRET_KEYS) & set(_props("3.9", "kraft", None))


def test_names_every_client_uses() -> None:
    assert AclFilter("topic", "t", "User:alice").label == "topic:t:User:alice:ANY:ANY"
    assert AclFilter("any").label == "any:*:*:ANY:ANY"
    assert binding_label("TOPIC", "t", "User:a", "read", "allow") == "topic:t:User:a:READ:ALLOW"
    assert label_of(2, "t", "User:a", 3, 3) == "topic:t:User:a:READ:ALLOW"
    assert entity_label({"user": "alice", "client-id": None}) == "client-id=<default>,user=alice"


def test_an_acl_filter_as_request_fields_and_a_pattern_v0_cannot_carry() -> None:
    client = WireClient(Endpoint("127.0.0.1:1"))
    fields = filter_fields(AclFilter("topic", "t", "User:a", pattern="PREFIXED"), 1, "describe_acls", client)
    assert fields == {"resource_type_filter": 2, "resource_name_filter": "t", "principal_filter": "User:a",
                      "host_filter": None, "operation": 1, "permission_type": 1, "pattern_type_filter": 4}
    assert "pattern_type_filter" not in filter_fields(AclFilter("topic", "t"), 0, "describe_acls", client)
    with pytest.raises(Refused) as refused:
        filter_fields(AclFilter("topic", "t", pattern="PREFIXED"), 0, "describe_acls", client)
    assert refused.value.result.exception == "UnsupportedOption"
    assert refused.value.result.unsupported_options == ("pattern",)


def test_scram_salted_password_is_pbkdf2_of_the_mechanisms_hash() -> None:
    sha256 = salted(ScramUpsertion("u", "pencil", "SCRAM_SHA_256", 4096), b"salt")
    assert len(sha256) == 32 and sha256 == salted(ScramUpsertion("u", "pencil", "SCRAM_SHA_256", 4096), b"salt")
    assert len(salted(ScramUpsertion("u", "pencil", "SCRAM_SHA_512", 4096), b"salt")) == 64
    assert sha256 != salted(ScramUpsertion("u", "pencil", "SCRAM_SHA_256", 4097), b"salt")


def test_token_timestamps_and_principals() -> None:
    assert epoch_ms(-1) == -1  # an error's answer
    assert epoch_ms(1767323045123) == 1767323045123
    assert principal("User:alice", "") == ("User", "alice")


def test_the_json_the_sidecar_reads() -> None:
    """perform_by_name sends the arguments' dataclass as JSON: the keys the ops/*.java classes read."""
    scram = dataclasses.asdict(AlterUserScramCredentialsArgs([ScramUpsertion("u", "p")], [ScramDeletion("v")]))
    assert scram == {"upsertions": [{"user": "u", "password": "p", "mechanism": "SCRAM_SHA_256",
                                     "iterations": 8192}],
                     "deletions": [{"user": "v", "mechanism": "SCRAM_SHA_256"}]}
    quotas = dataclasses.asdict(AlterClientQuotasArgs({"user": "u"}, {"producer_byte_rate": None}))
    assert quotas == {"entity": {"user": "u"}, "quotas": {"producer_byte_rate": None}, "validate_only": False}
    assert "password" not in repr(ScramUpsertion("u", "secret")) and "secret" not in repr(ScramUpsertion("u", "secret"))


def test_a_confluent_release_without_the_method_is_a_record_and_one_with_it_our_gap() -> None:
    client = SimpleNamespace(library=object(), kind="confluent", version="2.16.1", librdkafka_version="2.16.0")
    result = lacking(client, "describe_client_quotas", "describe_client_quotas")  # type: ignore[arg-type]
    assert result.exception == "NotImplementedError"
    assert result.exception_message == "confluent-kafka 2.16.1 has no AdminClient.describe_client_quotas"
    client.library = SimpleNamespace(describe_client_quotas=None)
    with pytest.raises(HarnessError, match="does not call yet"):
        lacking(client, "describe_client_quotas", "describe_client_quotas")  # type: ignore[arg-type]
