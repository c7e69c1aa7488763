"""The topic, config and record probes (the topics group) through each kind's own client outside a matrix cell:
each observes its keys, no other, against a new KRaft broker and an old ZooKeeper broker that shows the "below"
side.  What each client should see is the claim book's; the verdicts are pinned by the golden slice
(tests/integration/test_golden.py: DOCS-admin's topic methods on 2.3 and 3.9 through wire, confluent-kafka,
kafka-clients 2.3.1 and 4.4.0).

Old: 2.2 (no IncrementalAlterConfigs, no ListOffsets v7, no topic ids, Metadata before KIP-430's v8).
New: 3.9 (KRaft).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.matrix.env import endpoint_of
from kcompat.harness.matrix.probe import ProbeContext
from kcompat.harness.matrix.probes import implementation, specs
from tests.slices import new_in_ci

BROKERS = {"old": ("2.2", "zk"), "new": ("3.9", "kraft")}


@pytest.fixture(scope="module", params=new_in_ci(BROKERS))
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture
def admin(broker: Any) -> Any:
    wire = WireClient(endpoint_of(broker))
    yield wire
    wire.close()


PROBES = {
    "delete_topics": ({"by": "name"}, {"error", "deleted"}),
    "describe_topics_by_id": ({}, {"exception"}),
    "describe_cluster": ({}, {"error", "nodes_match", "controller_known"}),
    "alter_configs": ({"configs": {"retention.ms": "3600000"}}, {"error", "applied"}),
    "incremental_alter_configs": ({"configs": {"retention.ms": "3600000"}}, {"exception"}),
    "delete_records": ({"records": 5, "before": 2}, {"error", "low_watermark", "earliest_after"}),
    "list_offsets": ({"spec": "timestamp"}, {"error", "offset", "timestamp_matches"}),
}


def _context(broker: Any, client: Any, admin: WireClient, unique_topic: Any, kc_config: Any, probe: str,
              args: dict[str, Any]) -> ProbeContext:
    """A probe's context outside a matrix cell: the claim is only its arguments and every key the probe has."""
    claim = SimpleNamespace(id=f"test/{probe}", args=args, keys=specs()[probe].keys)
    cell = SimpleNamespace(claim=claim, client=SimpleNamespace(kind=client.kind, pin=None))
    return ProbeContext(cell, client, admin, broker, unique_topic, ArtifactStore(kc_config))  # type: ignore[arg-type]


@pytest.mark.parametrize("ref", ["wire", "confluent", "java:3.9.1"])
@pytest.mark.parametrize("probe", sorted(PROBES))
def test_probes_observe_their_keys(broker, admin, admin_client_factory, unique_topic, kc_config, ref, probe):
    args, keys = PROBES[probe]
    client = admin_client_factory(broker, ref)
    observed = implementation(probe)(_context(broker, client, admin, unique_topic, kc_config, probe, args))
    assert set(observed) <= specs()[probe].keys
    assert keys <= set(observed), observed
