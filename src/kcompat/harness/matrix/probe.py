"""What a probe works with (``ProbeContext``) and the set-up steps it takes before its observed call.

A probe (src/kcompat/harness/matrix/probes/) observes one claim through the cell's client;
its set-up (topics, ACLs) goes through the super user's wire client and
raises ``ProbeFailed`` when refused: no observation can be judged, the
cell's outcome is ``fail``.  A HarnessError from here is the harness's or the
broker's (``infra_error``).
"""

from __future__ import annotations

import dataclasses

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from ..artifacts import ArtifactStore
from ..clients import AclSpec, AdminClient, AdminResult, NewTopic, error_name
from ..clients.wire import CREATE_ACLS, DESCRIBE_ACLS, WireClient
from ..errors import AdminToolRefused
from ..operations import Operation, perform
from ..operations.create_acls import CREATE_ACLS as CREATE_ACLS_OPERATION
from ..operations.create_acls import CreateAclsArgs
from ..operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from ..operations.describe_acls import DESCRIBE_ACLS as DESCRIBE_ACLS_OPERATION
from ..operations.describe_acls import AclFilter, DescribeAclsArgs
from ..protocol import METADATA, metadata_request, pick_version
from ..providers import Cluster
from ..tools import add_acls_zookeeper, list_acls_zookeeper
from ..waiting import attempts
from ..recorder import Traffic
from .acls import AclCheck, acl_check, authorizes_nothing
from .env import endpoint_of
from .plan import PlannedCell

A = TypeVar("A")

ACL_WAIT = 15.0
_AUTH_ERRORS = frozenset({"TOPIC_AUTHORIZATION_FAILED", "CLUSTER_AUTHORIZATION_FAILED"})
_METADATA_TOPICS_MAX = 9
"""The newest Metadata version whose topic entries are names only (v10 added topic ids)."""


class ProbeFailed(Exception):
    """A set-up step of a probe returned an error: no observation can be judged (outcome ``fail``)."""


class Disowned(ProbeFailed):
    """A set-up step was answered UNSUPPORTED_VERSION by a broker that advertises the request at that version
    (Kafka 4.1's share groups, a preview off by default): the set-up can't exist there, and the claim's own call
    is made bare (``probes._shared.bare_call``) so the cell judges what the broker does with it."""


@dataclass
class ProbeContext:
    """What a probe works with: the cell's client, a super-user wire client for set-up, the cluster."""

    cell: PlannedCell
    client: AdminClient
    admin: WireClient
    cluster: Cluster
    topic: Callable[[str], str]
    store: ArtifactStore
    call_ms: float = 0.0
    results: list[AdminResult] = field(default_factory=list)
    reach: Callable[[tuple[str, int]], tuple[str, int]] = lambda broker: broker
    """The address at which the cell's client reaches a broker of ``cluster`` (the request recorder's port for it,
    when the client connects through one): for a probe that names the broker a request goes to."""
    traffic: Traffic | None = None
    """The request recorder's traffic the client goes through: a call whose client can't say which version it
    sent (an adapter may not know) gets the version the recorder saw, so a probe reads one either way."""

    @property
    def args(self) -> Mapping[str, Any]:
        return self.cell.claim.args

    @property
    def keys(self) -> frozenset[str]:
        return self.cell.claim.keys

    def call(self, operation: Operation[A], args: A) -> AdminResult:
        """The observed admin call (timed; a pinned client at its pinned version)."""
        mark = self.traffic.mark() if self.traffic is not None else None
        started = time.perf_counter()
        result = perform(self.client, operation, args, version=self.cell.client.pin)
        self.call_ms += (time.perf_counter() - started) * 1000
        if result.request_version is None and self.traffic is not None and mark is not None:
            result = dataclasses.replace(result, request_version=self.traffic.version_since(mark, operation.api))
        self.results.append(result)
        return result

    def notes(self) -> dict[str, Any]:
        """What the observed calls' answers said of the library, beside what the probe read: the result fields its
        API has no way to carry (``unsupported_fields``: field -> the API type lacking it) and a deadline a call
        returned only at (``deadline_reached``: its seconds), so the verdict can tell a short client and a call
        that blocked from a library returning other than documented."""
        notes: dict[str, Any] = {}
        lacking = {name: api for result in self.results for name, api in result.unsupported_fields.items()}
        if lacking:
            notes["unsupported_fields"] = dict(sorted(lacking.items()))
        reached = [r.deadline_reached for r in self.results if r.deadline_reached is not None]
        if reached:
            notes["deadline_reached"] = max(reached)
        return notes

    @property
    def principal(self) -> str:
        """The principal the cell's client acts as (``User:alice``); ProbeFailed if the claim names none."""
        user = self.args.get("as_user")
        if not isinstance(user, str):
            raise ProbeFailed(f"{self.cell.claim.id} grants ACLs to its user, and names no as_user")
        return f"User:{user}"

    def grant(self, acls: Sequence[AclSpec]) -> None:
        """Set-up: the super user grants these ACLs and waits (bounded) until the broker applies them."""
        grant_acls(self.cluster, self.admin, acls, self.store)

    def listed_acls(self, resource_type: Literal["topic", "group", "cluster"], name: str) -> set[str]:
        """Every binding on a resource (as ``AclSpec.label``), read by the super user: DescribeAcls, or on
        brokers without it (0.10.2) the release's AclCommand ``--list`` against ZooKeeper."""
        if DESCRIBE_ACLS not in {r.api_key for r in self.cluster.api_versions}:
            return list_acls_zookeeper(self.store, self.cluster, resource_type, name)
        return listed_bindings(self.admin, resource_type, name)

    def grant_topic(self, name: str) -> None:
        """Set-up: the claim's ``topic_acl`` operation on topic ``name`` (literal) for the cell's user."""
        operation = self.args.get("topic_acl")
        if isinstance(operation, str):
            self.grant([AclSpec("topic", name, self.principal, operation.upper())])

    def create_topic(self, name: str, configs: Mapping[str, str] | None = None, *, partitions: int = 1,
                     replication_factor: int = 1) -> None:
        """Set-up: a topic created by the super user; an error is ``ProbeFailed``."""
        result = perform(self.admin, CREATE_TOPICS, CreateTopicsArgs([NewTopic(name, partitions, replication_factor,
                                                                                configs=dict(configs or {}))]))
        outcome = result.resources[0] if result.resources else None
        if result.exception or outcome is None or outcome.error_code != 0:
            raise ProbeFailed(f"set-up: creating topic {name} as the super user gave "
                              f"{result.exception or (outcome.error_name if outcome else 'no result')}")


Probe = Callable[[ProbeContext], dict[str, Any]]



def grant_acls(cluster: Cluster, admin: WireClient, acls: Sequence[AclSpec], store: ArtifactStore) -> None:
    """Set-up: the super user grants ``acls`` and waits (bounded, ACL_WAIT each) until the broker applies them.

    Through CreateAcls where the broker advertises it, then DescribeAcls lists
    them; before 0.11 (no CreateAcls) the release's own AclCommand writes them
    to ZooKeeper.  Then each ACL's effect is awaited through the one request it
    authorizes, as its principal (``kcompat.harness.matrix.acls.acl_check``): the only
    evidence where DescribeAcls is missing too, and KRaft's controller
    authorizes CreateTopics with its own copy.  An ACL that authorizes only
    requests this broker doesn't have (topic Create before 2.0, topic Alter
    before CreatePartitions, DescribeConfigs before 0.11, cluster Alter before
    CreateAcls) can change no answer of this broker: it is not awaited, and on
    the ZooKeeper path not written either (0.10.2's AclCommand refuses those
    operations).  A refusal (through CreateAcls or by AclCommand) is ``ProbeFailed``, the cell's ``fail``;
    AclCommand overrunning its time is the harness's ``infra_error``.
    """
    advertised = {r.api_key for r in cluster.api_versions}
    wanted = list(acls)
    if CREATE_ACLS not in advertised:
        wanted = [a for a in acls if not authorizes_nothing(a, advertised, cluster.spec.version)]
    if not wanted:
        return
    if CREATE_ACLS in advertised:
        result = perform(admin, CREATE_ACLS_OPERATION, CreateAclsArgs(wanted))
        refused = [r for r in result.resources if r.error_code != 0]
        if result.exception or refused:
            raise ProbeFailed(f"set-up: the authorizer refused ACL(s) {', '.join(a.label for a in wanted)}: "
                              f"{result.exception or refused[0].error_name} {result.exception_message or ''}".strip())
        await_acls(admin, wanted)
    else:
        try:
            add_acls_zookeeper(store, cluster, wanted)
        except AdminToolRefused as exc:  # the tool said no: a finding, like a refusal through CreateAcls
            raise ProbeFailed(f"set-up: the authorizer refused ACL(s) {', '.join(a.label for a in wanted)}: "
                              f"{exc}") from exc
    checks = {c for a in wanted if (c := acl_check(a, advertised, cluster.spec.version)) is not None}
    for check in sorted(checks, key=lambda c: (c.user, c.request, c.topic)):
        _await_effect(cluster, admin, check)


def _await_effect(cluster: Cluster, admin: WireClient, check: AclCheck) -> None:
    """Send the check's request as its user until the answer shows the ACL applied (bounded; see AclCheck)."""
    checker = WireClient(endpoint_of(cluster, check.user))
    error: str | None = None
    try:
        for _ in attempts(ACL_WAIT, interval=0.2):
            if check.request == "create_topics":
                result = perform(checker, CREATE_TOPICS, CreateTopicsArgs([NewTopic(check.topic, 1, 1)], True))
                error = result.resources[0].error_name if result.resources else result.exception
                if error not in _AUTH_ERRORS:
                    return
            else:
                error, expected = _metadata_error(checker, check.topic), _metadata_error(admin, check.topic)
                if error == expected:
                    return
                error = f"{error}, the super user {expected}"
    finally:
        checker.close()
    raise ProbeFailed(f"set-up: {check.user}'s ACLs were granted but not applied within {ACL_WAIT:.0f}s "
                      f"({check.request} of {check.topic} as {check.user} still {error})")


def _metadata_error(client: WireClient, topic: str) -> str:
    """The error Metadata gives for ``topic`` to the client's principal (never creating it)."""
    conn, offered = client.connection()
    version = min(max(1, pick_version(METADATA, offered)), _METADATA_TOPICS_MAX)
    request = metadata_request(version, ())
    entry = sys.modules[type(request).__module__].MetadataRequestTopic
    response = conn.send(metadata_request(version, (entry(name=topic),)))
    named = [t for t in response.topics if str(t.name) == topic]
    return error_name(int(named[0].error_code)) if named else "NO_ANSWER"


def listed_bindings(admin: WireClient, resource_type: str, name: str) -> set[str]:
    """Every binding on a resource of any pattern type (``AclSpec.label``s), as the super user's DescribeAcls
    lists them (v0 has no pattern types: literal bindings only)."""
    offered = admin.api_versions().get(DESCRIBE_ACLS)
    pattern = "ANY" if offered is not None and offered.max_version >= 1 else "LITERAL"
    result = perform(admin, DESCRIBE_ACLS_OPERATION, DescribeAclsArgs(AclFilter(resource_type, name, pattern=pattern)))
    if result.exception:
        raise ProbeFailed(f"set-up: DescribeAcls of {resource_type} {name} as the super user gave "
                          f"{result.exception}: {result.exception_message}")
    return {b for r in result.resources if r.error_code == 0 for b in r.fields.get("bindings") or ()}


def await_acls(admin: WireClient, acls: Sequence[AclSpec]) -> None:
    """Wait (bounded) until DescribeAcls lists every binding: the broker's authorizer answers DescribeAcls
    from the ACLs it applies (ZooKeeper's cache, KRaft's metadata image), so listed means applied."""
    wanted = {a.label for a in acls}
    listed: set[str] = set()
    for _ in attempts(ACL_WAIT, interval=0.2):
        listed = set()
        for resource_type, name in {(a.resource_type, a.resource_name) for a in acls}:
            listed |= listed_bindings(admin, resource_type, name)
        if wanted <= listed:
            return
    raise ProbeFailed(f"set-up: ACL(s) {', '.join(sorted(wanted - listed))} were created but DescribeAcls "
                      f"did not list them within {ACL_WAIT:.0f}s")


