"""Which of a claim's ACLs a broker can hold, and which request shows that its authorizer applies one.

A cell's ACLs must be in force before its probe runs.  Where the broker has
DescribeAcls (0.11 on), a listed ACL is an applied one on that broker; where
it doesn't (0.10.2: SimpleAclAuthorizer, no CreateAcls/DescribeAcls, ACLs
written to ZooKeeper by AclCommand), the only evidence is the ACL's effect:
the one request it authorizes, sent as its principal, stops being refused.
That check also covers KRaft, whose controller authorizes CreateTopics with
its own copy of the ACLs.  The choice is pure (advertised API keys and the
broker's version in, a check out) so it is unit-tested without a broker.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from ..clients.base import AclSpec
from ..errors import ConfigError, NotOffered
from ..versions import KafkaVersion
from .claims import API_KEYS

CHECK_TOPIC = "kcompat-acl-check"
"""The topic name Create on the Cluster is checked with (CreateTopics validate_only: never created)."""

AUTHORIZES: dict[tuple[str, str], tuple[str, ...]] = {
    ("cluster", "CREATE"): ("CreateTopics",),
    ("cluster", "ALTER"): ("CreateAcls", "DeleteAcls"),
    ("topic", "CREATE"): ("CreateTopics",),  # from 2.0 only (KIP-277): see authorizes_nothing
    ("topic", "ALTER"): ("CreatePartitions",),
    ("topic", "DESCRIBE_CONFIGS"): ("DescribeConfigs",),
    ("topic", "ALTER_CONFIGS"): ("AlterConfigs",),
}
"""The admin requests each (resource, operation) the claims grant authorizes, per Kafka's docs table."""


@dataclass(frozen=True)
class AclCheck:
    """Send ``request`` about ``topic`` as ``user`` until the answer shows the ACL: CreateTopics validate_only
    until it is no authorization error; Metadata until it is what the super user gets for the topic (0.10.2
    answers a topic the principal may not Describe with UNKNOWN_TOPIC_OR_PARTITION, not
    TOPIC_AUTHORIZATION_FAILED, so "no authorization error" would end at once there)."""

    request: Literal["create_topics", "metadata"]
    topic: str
    user: str


def authorizes_nothing(acl: AclSpec, advertised: Collection[int], version: KafkaVersion) -> bool:
    """Whether every request ``acl`` authorizes is missing from this broker, so it can change no answer.

    Such ACLs are exactly the ones 0.10.2's authorizer can't hold (its
    AclCommand: "ResourceType Topic only supports operations
    Read,All,Delete,Write,Describe", Cluster only Create,ClusterAction,All).
    """
    key = (acl.resource_type, acl.operation)
    if key not in AUTHORIZES:
        return False
    if key == ("topic", "CREATE") and not version.supports("create_topics_topic_acl"):
        return True  # CreateTopics checks Create on the Cluster only before KIP-277
    return not any(API_KEYS[api] in advertised for api in AUTHORIZES[key])


def acl_check(acl: AclSpec, advertised: Collection[int], version: KafkaVersion) -> AclCheck | None:
    """The request whose answer shows the broker applies ``acl``, or None when there is none to wait for.

    Cluster CREATE: CreateTopics validate_only of a probe topic; topic CREATE
    (from 2.0): CreateTopics validate_only of that topic; topic DESCRIBE:
    Metadata of that topic.  None where DescribeAcls lists the ACL (the
    caller waits on that), or where the ACL authorizes only requests this
    broker doesn't have (topic ALTER before CreatePartitions in 1.0,
    DESCRIBE_CONFIGS before 0.11, cluster ALTER before CreateAcls, topic
    CREATE before 2.0): it cannot change any answer of this broker.  An ACL
    that authorizes a request this broker has, with no check here and no
    DescribeAcls, is ``NotOffered``: waiting for nothing would race the probe, and a cell whose API the broker
    lacks anyway observes its call without the grant (``probes._shared.bare_call``).
    """
    if acl.permission != "ALLOW":
        raise ConfigError(f"ACL {acl.label}: only ALLOW ACLs are granted and awaited")
    if authorizes_nothing(acl, advertised, version):
        return None
    user = acl.principal.split(":", 1)[1]
    key = (acl.resource_type, acl.operation)
    has = {api for api, number in API_KEYS.items() if number in advertised}
    if "CreateTopics" in AUTHORIZES.get(key, ()):
        return AclCheck("create_topics", CHECK_TOPIC if acl.resource_type == "cluster" else acl.resource_name, user)
    if key == ("topic", "DESCRIBE") and "Metadata" in has:
        return AclCheck("metadata", acl.resource_name, user)
    if "DescribeAcls" in has:
        return None
    raise NotOffered(f"no request here shows whether Kafka {version} applies ACL {acl.label} "
                      "(src/kcompat/harness/matrix/acls.py: AUTHORIZES and acl_check)")
