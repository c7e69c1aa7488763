"""CI's slice of DOCS-admin: brokers straddling the javadoc's releases (0.11, 1.0, 2.2, 2.3, 2.8, 3.9 KRaft, 4.4)
through the wire client, confluent-kafka and kafka-clients 2.3.1 and 4.4.0, each verdict asserted as the
javadoc of the cell's kafka-clients release implies it; the full catalog is the nightly's."""

from __future__ import annotations

import pytest

from kcompat.harness.records import Record, read_records
from tests.console import kcompat, run_workers

pytestmark = pytest.mark.timeout(1800)
BROKERS = "0.11,1.0,2.2,2.3,2.8,3.9,4.4"
CLIENTS = "wire,confluent,java:2.3.1,java:4.4.0"
CLAIMS = ("describe-configs", "create-partitions", "incremental-alter-configs", "list-offsets-max-timestamp",
          "describe-producers")


@pytest.fixture(scope="module")
def cells(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], Record]:
    out = tmp_path_factory.mktemp("admin-slice") / "run"
    selection = " or ".join(f"DOCS-admin/{claim}[" for claim in CLAIMS)
    done = kcompat("run", "--kip", "DOCS-admin", "--brokers", BROKERS, "--clients", CLIENTS, "-k", selection,
                   "-n", run_workers(), "--quiet", "--out", str(out), timeout=1700)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    records = read_records(out / "records.jsonl").records
    assert records, (done.stdout[-2000:], done.stderr[-2000:])
    bad = [f"{r.cell_id}: {r.outcome} {r.reason}" for r in records if r.outcome in ("fail", "infra_error")]
    assert not bad, "\n".join(bad)
    assert done.returncode == 0, done.stdout[-2000:]
    return {(r.claim_id.split("/", 1)[1], ".".join(r.broker_version.split(".")[:2]),
             "confluent" if r.client_kind == "confluent" else r.client): r for r in records}


def _verdict(cells: dict[tuple[str, str, str], Record], claim: str, broker: str, client: str) -> tuple[str, str | None]:
    record = cells[(claim, broker, client)]
    return record.outcome, record.limited_by


def test_incremental_alter_configs_is_refused_on_2_2_and_works_on_2_3_through_java_2_3_1(
        cells: dict[tuple[str, str, str], Record]) -> None:
    """kafka-clients 2.3.1: "This operation is supported by brokers with version 2.3.0 or higher." """
    assert _verdict(cells, "incremental-alter-configs", "2.2", "java:2.3.1") == ("unsupported", "broker")
    assert _verdict(cells, "incremental-alter-configs", "2.3", "java:2.3.1") == ("pass", None)
    record = cells[("incremental-alter-configs", "2.2", "java:2.3.1")]
    assert record.documented["javadoc"]["release"] == "2.3.1" and record.documented["javadoc"]["minimum"] == "2.3.0"
    assert record.observed["refused"] is True


def test_create_partitions_below_1_0_is_refused_and_works_from_1_0(cells: dict[tuple[str, str, str], Record]) -> None:
    for client in ("wire", "java:2.3.1", "confluent"):
        assert _verdict(cells, "create-partitions", "0.11", client) == ("unsupported", "broker"), client
        assert _verdict(cells, "create-partitions", "1.0", client) == ("pass", None), client


def test_kafka_clients_4_refuses_brokers_its_javadoc_says_it_supports(cells: dict[tuple[str, str, str], Record]) -> None:
    """4.4.0's javadoc (as 4.3.1's, read where 4.4.0's sources are not served) still says describeConfigs is
    "supported by brokers with version 0.11.0.0 or higher"; kafka-clients 4 sends no DescribeConfigs v0 (KIP-896),
    the only version 0.11 and 1.0 have: a deviation there, not an unsupported cell."""
    for broker in ("0.11", "1.0"):
        record = cells[("describe-configs", broker, "java:4.4.0")]
        assert (record.outcome, record.limited_by) == ("deviation", None), broker
        assert record.observed["exception"] == "UnsupportedVersionException"
        assert _verdict(cells, "describe-configs", broker, "java:2.3.1") == ("pass", None), broker
    assert _verdict(cells, "describe-configs", "2.2", "java:4.4.0") == ("pass", None)


def test_a_method_a_release_lacks_is_unsupported_by_the_client(cells: dict[tuple[str, str, str], Record]) -> None:
    """listOffsets and describeProducers came after kafka-clients 2.3.1: its cells assert the absence."""
    for claim in ("list-offsets-max-timestamp", "describe-producers"):
        record = cells[(claim, "3.9", "java:2.3.1")]
        assert (record.outcome, record.limited_by) == ("unsupported", "client"), claim
        assert record.documented["javadoc"]["has_method"] is False


def test_a_method_without_a_broker_sentence_needs_its_api(cells: dict[tuple[str, str, str], Record]) -> None:
    """describeProducers' javadoc names no broker release: its request schema does (DescribeProducers, 2.8)."""
    assert _verdict(cells, "describe-producers", "2.3", "java:4.4.0")[0] == "unsupported"
    for client in ("wire", "java:4.4.0"):
        assert _verdict(cells, "describe-producers", "2.8", client) == ("pass", None), client
        assert _verdict(cells, "describe-producers", "4.4", client) == ("pass", None), client
    record = cells[("describe-producers", "2.8", "wire")]
    assert record.documented["quotes"][0].startswith('"validVersions"')


def test_max_timestamp_offsets_need_3_0(cells: dict[tuple[str, str, str], Record]) -> None:
    assert _verdict(cells, "list-offsets-max-timestamp", "2.8", "java:4.4.0")[0] == "unsupported"
    assert _verdict(cells, "list-offsets-max-timestamp", "3.9", "java:4.4.0") == ("pass", None)


def test_every_cell_documents_whose_javadoc_it_quotes(cells: dict[tuple[str, str, str], Record]) -> None:
    for record in cells.values():
        javadoc = record.documented.get("javadoc")
        assert javadoc and javadoc["release"], record.cell_id
        expected = record.client.split(":", 1)[1] if record.client.startswith("java:") else None
        if expected is not None and javadoc["note"] is None:
            assert javadoc["release"] == expected, record.cell_id
        assert record.documented["quotes"], record.cell_id
    # every claim on every broker through every client (the wire client's pinned versions besides)
    assert {(c, b, k) for c in CLAIMS for b in BROKERS.split(",") for k in CLIENTS.split(",")} <= set(cells)

