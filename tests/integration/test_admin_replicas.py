"""The replicas group (log dirs, replica log dirs, elections, reassignments) through every client kind.

New: 3.9 in KRaft (JBOD in KRaft since 3.7, KIP-455 reassignments, KIP-460 elections).  Old: 2.2 with
ZooKeeper, which has DescribeLogDirs, AlterReplicaLogDirs and ElectLeaders v0 (preferred only) but no
reassignment API: the "below" side of KIP-455 and of unclean elections.  One cluster per broker serves
every test: three nodes, two log dirs each.  Each test runs the group's probe, as a cell would, and asserts
its observation keys; the probes' set-up goes through the super user's wire client.
"""

from __future__ import annotations

from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients import ClientRef
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.claims import Claim
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.plan import PlannedCell
from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import implementation
from kcompat.harness.operations import perform
from kcompat.harness.operations.describe_log_dirs import DESCRIBE_LOG_DIRS, DescribeLogDirsArgs
from kcompat.harness.records import Cell
from tests.slices import new_in_ci

BROKERS = {"old": ("2.2", "zk"), "new": ("3.9", "kraft")}
CLIENTS = ["wire", "confluent", "java:3.9.1", "java:2.3.1"]
JAVA_2_3 = "java:2.3.1"
LACKS = {"confluent": "NotImplementedError"}
"""What a client without the method records (confluent-kafka has only elect_leaders of this group)."""
REFUSED = {"wire": "UnsupportedVersion", "java:3.9.1": "UnsupportedVersionException",
           "java:2.3.1": "NoSuchMethodException", "confluent": "NotImplementedError"}
"""What each client records calling KIP-455's reassignment API on a broker without it."""


@pytest.fixture(params=new_in_ci(BROKERS))
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode, nodes=3, log_dirs=2))


@pytest.fixture
def observe(broker: Any, admin_client_factory: Any, unique_topic: Any, kc_config: Any) -> Any:
    """``observe(probe, client, **args)``: the probe's observation through that client, as a cell makes it."""
    admins: list[WireClient] = []

    def run(probe: str, client: str, **args: Any) -> dict[str, Any]:
        ref = ClientRef.parse(client)
        claim = Claim("replicas-test", "DOCS-admin", "", "Metadata", 0, None, probe, args, (), ())
        planned = PlannedCell(Cell(claim.id, str(broker.spec.version), broker.spec.mode, client), claim,
                              broker.spec.version, broker.spec.mode, ref)
        admin = WireClient(endpoint_of(broker))
        admins.append(admin)
        context = ProbeContext(planned, admin_client_factory(broker, ref), admin, broker, unique_topic,
                               ArtifactStore(kc_config))
        observed: dict[str, Any] = implementation(probe)(context)
        assert context.results and context.results[-1].client == ref.kind
        sent.append(context.results[-1].request_version)
        return observed

    sent: list[int | None] = []
    run.sent = sent  # type: ignore[attr-defined]  # the request version of each observed call, in order
    yield run
    for admin in admins:
        admin.close()


def _is_new(broker: Any) -> bool:
    return str(broker.spec.mode) == "kraft"


def test_the_cluster_has_two_log_dirs_per_broker(broker: Any) -> None:
    admin = WireClient(endpoint_of(broker))
    try:
        for node in broker.brokers:
            result = perform(admin, DESCRIBE_LOG_DIRS, DescribeLogDirsArgs([node.node_id]))
            assert [r.error_name for r in result.resources] == ["NONE", "NONE"], result
            assert all(r.resource.startswith(f"{node.node_id}:") for r in result.resources)
    finally:
        admin.close()


@pytest.mark.parametrize("client", CLIENTS)
def test_describe_log_dirs_lists_the_partition_with_its_size(observe: Any, broker: Any, client: str) -> None:
    observed = observe("describe_log_dirs", client)
    if client in LACKS:
        assert observed["exception"] == LACKS[client] and "listed" in observed and not observed["listed"]
        return
    assert observed["exception"] is None and observed["error"] == "NONE", observed
    assert observed["listed"] is True and observed["log_dirs"] == 2
    assert observed["size"] == 0 and observed["is_future"] is False  # a topic nobody wrote to
    volume = client == "wire" and _is_new(broker)  # DescribeLogDirs v4 (KIP-827): 3.3+ brokers, and kio
    assert ("total_bytes" in observed) is volume or client.startswith("java:3"), observed
    if volume:
        assert observed["total_bytes"] > 0 and observed["usable_bytes"] > 0


@pytest.mark.parametrize("client", CLIENTS)
def test_describe_replica_log_dirs_names_the_listed_dir(observe: Any, client: str) -> None:
    observed = observe("describe_replica_log_dirs", client)
    if client in LACKS:
        assert observed["exception"] == LACKS[client] and "current_log_dir" not in observed
        return
    assert observed["exception"] is None and observed["error"] == "NONE", observed
    assert isinstance(observed["current_log_dir"], str) and observed["in_listed_dir"] is True
    assert observed["future_log_dir"] is None and observed["current_offset_lag"] == 0


@pytest.mark.parametrize("client", CLIENTS)
def test_alter_replica_log_dirs_moves_the_replica(observe: Any, client: str) -> None:
    observed = observe("alter_replica_log_dirs", client)
    assert observed["log_dirs"] == 2
    if client in LACKS:
        assert observed["exception"] == LACKS[client] and observed["moved"] is False
        return
    assert observed["exception"] is None and observed["error"] == "NONE", observed
    assert observed["moved"] is True


@pytest.mark.parametrize("client", CLIENTS)
def test_a_preferred_election_leaves_the_preferred_replica_leading(observe: Any, broker: Any, client: str
                                                                   ) -> None:
    observed = observe("elect_leaders", client, election_type="preferred")
    assert observed["displaced"] is _is_new(broker)  # 2.2 can't reassign: its leader is the preferred one already
    if client == JAVA_2_3:  # electLeaders arrived in 2.4 (KIP-460): 2.3 has electPreferredLeaders
        assert observed["exception"] == "NoSuchMethodException", observed
        observed = observe("elect_leaders", client, election_type="preferred", method="electPreferredLeaders")
    assert observed["exception"] is None and observed["error"] == "NONE", observed
    assert observed["leader_is_preferred"] is True


@pytest.mark.parametrize("client", ["wire", "confluent", "java:3.9.1"])
def test_only_releases_before_3_0_have_elect_preferred_leaders(observe: Any, client: str) -> None:
    observed = observe("elect_leaders", client, election_type="preferred", method="electPreferredLeaders")
    if client == "wire":  # the same request as a preferred electLeaders
        assert observed["exception"] is None and observed["leader_is_preferred"] is True, observed
    else:
        assert observed["exception"] == {"confluent": "NotImplementedError"}.get(client, "NoSuchMethodException")


@pytest.mark.parametrize("client", CLIENTS)
def test_an_election_of_an_unknown_partition(observe: Any, broker: Any, client: str) -> None:
    method = "electPreferredLeaders" if client == JAVA_2_3 else "electLeaders"
    preferred = observe("elect_leaders", client, election_type="preferred", target="unknown", method=method)
    assert preferred["error"] == "UNKNOWN_TOPIC_OR_PARTITION", preferred
    unclean = observe("elect_leaders", client, election_type="unclean", target="unknown")
    if client == JAVA_2_3:  # no electLeaders: unclean elections arrived in 2.4 (KIP-460)
        assert unclean["exception"] == "NoSuchMethodException", unclean
    elif _is_new(broker):
        assert unclean["error"] == "UNKNOWN_TOPIC_OR_PARTITION", unclean
    elif client == "confluent":  # a finding: librdkafka sends v0, which can only elect the preferred replica
        assert unclean["error"] == "UNKNOWN_TOPIC_OR_PARTITION" and observe.sent[-1] == 0, unclean
    else:  # ElectLeaders v0 has no election type: each client refuses, in its own words
        refusal = {"wire": "UnsupportedOption"}
        assert unclean["exception"] == refusal.get(client, "UnsupportedVersionException"), unclean


@pytest.mark.parametrize("client", CLIENTS)
def test_alter_partition_reassignments_moves_the_partition(observe: Any, broker: Any, client: str) -> None:
    observed = observe("alter_partition_reassignments", client, initial=[1], replicas=[2])
    if client in LACKS or client == JAVA_2_3 or not _is_new(broker):
        assert observed["exception"] == REFUSED[client] and observed["replicas_after"] == [1], observed
        assert observed["reassigned"] is False
        return
    assert observed["exception"] is None and observed["error"] == "NONE", observed
    assert observed["reassigned"] is True and observed["replicas_after"] == [2]
    cancelled = observe("alter_partition_reassignments", client, initial=[1], target="cancel")
    assert cancelled["error"] == "NO_REASSIGNMENT_IN_PROGRESS" and cancelled["replicas_after"] == [1], cancelled
    unknown = observe("alter_partition_reassignments", client, replicas=[2], target="unknown")
    assert unknown["error"] == "UNKNOWN_TOPIC_OR_PARTITION", unknown


@pytest.mark.parametrize("client", CLIENTS)
def test_list_partition_reassignments_of_a_quiet_partition(observe: Any, broker: Any, client: str) -> None:
    observed = observe("list_partition_reassignments", client)
    if client in LACKS or client == JAVA_2_3 or not _is_new(broker):
        assert observed["exception"] == REFUSED[client] and "listed" not in observed, observed
        return
    assert observed["exception"] is None and observed["error"] == "NONE", observed
    assert observed["listed"] is False and observed["reassignments"] == 0
    every = observe("list_partition_reassignments", client, all=True)
    assert every["error"] == "NONE" and every["listed"] is False, every
