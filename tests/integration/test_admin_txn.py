"""The txn group of Admin methods (producers, transactions, features, the quorum) through every client kind.

Each probe runs as a cell would run it (the super user's wire client sets up, the cell's client makes the
call), against a KRaft broker that has every API of the group (3.9) and a ZooKeeper broker that has none of
KIP-664's or KIP-836's (2.3: before 2.8 and without a quorum; it does have InitProducerId, so fencing works).
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
from kcompat.harness.matrix.probes import implementation
from tests.slices import new_in_ci

BROKERS = {"old": ("2.3", "zk"), "new": ("3.9", "kraft")}
CLIENTS = ("wire", "confluent", "java:3.9.1", "java:2.3.1")
KIP_664 = ("describe_producers", "describe_transactions", "list_transactions")
REFUSED = {"wire": "UnsupportedVersion", "java:3.9.1": "UnsupportedVersionException"}


@pytest.fixture(scope="module", params=new_in_ci(BROKERS))
def broker(request: pytest.FixtureRequest, kafka_cluster_factory: Any) -> Any:
    version, mode = BROKERS[request.param]
    return kafka_cluster_factory(ClusterSpec.of(version, mode))


@pytest.fixture(params=CLIENTS)
def observe(request: pytest.FixtureRequest, broker: Any, admin_client_factory: Any, unique_topic: Any,
            kc_config: Any) -> Any:
    """``observe(probe, **args)``: the probe's observation through this client, as a cell makes it."""
    client = admin_client_factory(broker, request.param)
    admin = WireClient(endpoint_of(broker))

    def run(probe: str, **args: Any) -> dict[str, Any]:
        cell = SimpleNamespace(client=SimpleNamespace(kind=client.kind, pin=None),
                               claim=SimpleNamespace(args=args, keys=frozenset()))
        context = ProbeContext(cell, client, admin, broker, unique_topic, ArtifactStore(kc_config))  # type: ignore[arg-type]
        observed: dict[str, Any] = implementation(probe)(context)
        return observed

    run.ref = request.param  # type: ignore[attr-defined]
    run.new = broker.spec.mode == "kraft"  # type: ignore[attr-defined]
    yield run
    admin.close()


def _absent(observe: Any, observed: dict[str, Any]) -> bool:
    """The client has no such method: confluent-kafka (no release has it) or kafka-clients 2.3."""
    if observe.ref == "confluent":
        assert observed["exception"] == "NotImplementedError", observed
        return True
    if observe.ref == "java:2.3.1":
        assert observed["exception"] == "NoSuchMethodException", observed
        return True
    return False


def _refused(observe: Any, observed: dict[str, Any]) -> bool:
    """A broker without the API: the client's own refusal."""
    if not observe.new:
        assert observed["exception"] == REFUSED[observe.ref], observed
        return True
    return False


def test_describe_producers(observe: Any) -> None:
    for producer in ("idempotent", "transactional"):
        observed = observe("describe_producers", producer=producer)
        if _absent(observe, observed) or _refused(observe, observed):
            return
        assert observed["error"] == "NONE" and observed["exception"] is None, observed
        assert observed["listed"] is True and observed["last_sequence"] == 2, observed
        open_offset = observed["current_txn_start_offset"]
        assert (open_offset is not None) is (producer == "transactional"), observed


def test_describe_transactions(observe: Any) -> None:
    observed = observe("describe_transactions")
    if _absent(observe, observed) or _refused(observe, observed):
        return
    assert observed["error"] == "NONE" and observed["state"] == "Ongoing", observed
    assert observed["same_producer"] is True and observed["partitions_listed"] is True, observed
    assert observed["timeout_ms"] > 0 and observed["start_time_ms"] > 0, observed
    unknown = observe("describe_transactions", target="unknown")
    assert unknown["error"] == "TRANSACTIONAL_ID_NOT_FOUND", unknown


def test_list_transactions(observe: Any) -> None:
    observed = observe("list_transactions")
    if _absent(observe, observed) or _refused(observe, observed):
        return
    assert observed["error"] == "NONE" and observed["listed"] is True, observed
    assert observed["state"] == "Ongoing" and observed["same_producer"] is True, observed
    assert observe("list_transactions", states=["Ongoing"])["listed"] is True
    filtered = observe("list_transactions", states=["CompleteAbort"])
    assert filtered["error"] == "NONE" and filtered["listed"] is False, filtered


def test_fence_producers(observe: Any) -> None:
    observed = observe("fence_producers")
    assert observed["old_producer_error"] in ("PRODUCER_FENCED", "INVALID_PRODUCER_EPOCH", "NONE"), observed
    if _absent(observe, observed):
        assert observed["fenced"] is False  # nothing was sent: the old producer commits
        return
    assert observed["error"] == "NONE" and observed["exception"] is None, observed
    assert observed["fenced"] is True, observed
    assert observed["same_producer"] is True and observed["epoch_bumped"] is True, observed


def test_describe_features(observe: Any) -> None:
    observed = observe("describe_features")
    if _absent(observe, observed):
        return
    assert observed["error"] == "NONE" and observed["exception"] is None, observed
    if observe.new:
        assert "metadata.version" in observed["finalized_features"], observed
        assert "metadata.version" in observed["supported_features"], observed
        assert observed["finalized_epoch"] is not None and observed["finalized_epoch"] >= 0, observed
    elif observe.ref == "wire":  # ApiVersions v2 has no features at all: the keys are left out
        assert "supported_features" not in observed, observed
    else:  # kafka-clients reads an answer without features as none
        assert observed["supported_features"] == [] and observed["finalized_epoch"] is None, observed


def test_describe_metadata_quorum(observe: Any, broker: Any) -> None:
    observed = observe("describe_metadata_quorum")
    if _absent(observe, observed) or _refused(observe, observed):
        return
    assert observed["error"] == "NONE" and observed["exception"] is None, observed
    assert observed["leader_is_voter"] is True and observed["high_watermark"] > 0, observed


def test_update_features(observe: Any) -> None:
    """Nothing can change (the feature exists nowhere); what the controller answers is the observation."""
    deleted = observe("update_features")
    if _absent(observe, deleted) or _refused(observe, deleted):
        return
    assert deleted["exception"] is None and deleted["error"] == "NONE", deleted  # KRaft: deleting nothing is fine
    for upgrade_type in ("SAFE_DOWNGRADE", "UPGRADE"):
        raised = observe("update_features", level=1, upgrade_type=upgrade_type)
        assert raised["error"] == "INVALID_UPDATE_VERSION", raised
        assert "does not support this feature" in raised["error_message"], raised


def test_abort_transaction(observe: Any) -> None:
    """WriteTxnMarkers is 0.11's: even the old broker takes the abort (its coordinator epoch from Metadata)."""
    observed = observe("abort_transaction")
    if _absent(observe, observed):
        assert observed["aborted"] is False, observed  # nothing was sent: the transaction stays open
        return
    assert observed["error"] == "NONE" and observed["exception"] is None, observed
    assert observed["aborted"] is True, observed


def test_list_client_metrics_resources(observe: Any) -> None:
    observed = observe("list_client_metrics_resources")
    if _absent(observe, observed) or _refused(observe, observed):
        return
    assert observed["error"] == "NONE" and observed["exception"] is None, observed
    assert observed["listed"] is True, observed
