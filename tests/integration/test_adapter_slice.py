"""`kcompat run` through the four adapter kinds issue 18 names, on 2.3 (ZooKeeper) and 3.9 (KRaft): KIP-525,
KIP-569 and a slice of the Admin methods each client has, asserting the verdicts their measured limits imply.

A cell's verdict must follow from two measurements and nothing typed by hand: the newest request version the
client sends (harness/clients/limits.jsonl, measured against the stub broker) and the broker's ApiVersions.
Below the claim's range on one side, the cell is ``unsupported`` limited by that side (``both`` when both);
within it on both, the call was made and the cell is ``pass`` or ``deviation`` with the request version the
recorder saw.  Nothing is ``fail`` or ``infra_error``.
"""

from __future__ import annotations


import pytest

from kcompat.harness.clients.limits import checked_in
from kcompat.harness.records import RECORDS_FILE, Record, read_records
from tests.console import kcompat, ok, run_workers

pytestmark = pytest.mark.timeout(1200)

ADAPTERS = ("kafka-python:3.0.12", "kafkajs:2.2.4", "franz-go:1.22.2", "sarama:1.61.1")
SLICE = ("KIP-525 or KIP-569 or describe-cluster or delete-topics or list-offsets-latest or "
         "create-acls or list-consumer-groups")
"""The KIPs whole; of DOCS-admin, methods every adapter kind declares and some lack (kafkajs: no
listOffsets of its own kind, no authorized operations): both sides of the client limit."""


@pytest.fixture(scope="module")
def cells(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Record]:
    out = tmp_path_factory.mktemp("adapter-slice") / "run"
    ok(kcompat("run", "--brokers", "2.3,3.9", "--clients", ",".join(ADAPTERS), "--kip", "KIP-525", "--kip",
               "KIP-569", "--kip", "DOCS-admin", "-k", SLICE, "-n", run_workers(), "--quiet", "--out", str(out),
               timeout=1100))
    return {r.cell_id: r for r in read_records(out / RECORDS_FILE).records}


def test_every_cell_is_judged_by_each_adapter_on_both_brokers(cells: dict[str, Record]) -> None:
    assert {r.outcome for r in cells.values()} <= {"pass", "unsupported", "deviation"}, \
        [(r.cell_id, r.reason) for r in cells.values() if r.outcome not in ("pass", "unsupported", "deviation")]
    seen = {(r.client, r.broker_version, r.kip) for r in cells.values()}
    assert seen == {(c, b, k) for c in ADAPTERS for b in ("2.3.1", "3.9.2")
                    for k in ("KIP-525", "KIP-569", "DOCS-admin")}, seen


def test_verdicts_follow_the_measured_limits(cells: dict[str, Record]) -> None:
    measured = checked_in()
    judged = 0
    for record in cells.values():
        claim_min = record.required_versions["min"]
        if claim_min is None or record.documented.get("case") == "requires":
            continue
        newest = measured[record.client].newest.get(record.api)
        assert record.client_max_version == newest, record.cell_id  # the cell used the measurement
        client_short = newest is None or newest < claim_min
        broker_short = record.broker_max_version is None or record.broker_max_version < claim_min
        if record.outcome == "unsupported" and record.documented.get("case") != "below":
            expected = "both" if client_short and broker_short else "client" if client_short else "broker"
            assert record.limited_by == expected, (record.cell_id, record.limited_by, expected)
        api_short = record.limited_by == "client" and "unsupported_fields" in record.observed  # its API lacks a field
        if not client_short and not broker_short and "unsupported_options" not in record.observed and not api_short:
            assert record.outcome in ("pass", "deviation"), (record.cell_id, record.outcome, record.observed)
            assert record.request_version is not None, record.cell_id  # the recorder saw the request
            judged += 1
    assert judged > 20, judged


@pytest.mark.parametrize("client", ADAPTERS)
def test_kip_525_needs_create_topics_v5_on_both_sides(cells: dict[str, Record], client: str) -> None:
    """2.3 answers CreateTopics up to v3: KIP-525's fields are limited by the broker there (and by kafkajs,
    which sends v3, too), whatever the client makes of their absence (franz-go's kadm reports the schema's
    -1 defaults, a deviation from "not returned"); 3.9 answers v7."""
    newest = checked_in()[client].newest["CreateTopics"]
    v5 = [r for r in cells.values() if r.client == client and r.kip == "KIP-525" and r.api == "CreateTopics"
          and r.required_versions["min"] == 5]
    on_23 = [r for r in v5 if r.broker_version == "2.3.1"]
    on_39 = [r for r in v5 if r.broker_version == "3.9.2"]
    assert on_23 and on_39
    assert all(r.outcome in ("unsupported", "deviation") and r.limited_by in ("broker", "both") for r in on_23), \
        [(r.cell_id, r.outcome, r.limited_by) for r in on_23]
    if newest < 5:
        assert all(r.outcome == "unsupported" and r.limited_by == "client" for r in on_39), \
            [(r.cell_id, r.outcome, r.limited_by) for r in on_39]
    elif client.startswith("sarama:"):  # sends v7, but ClusterAdmin.CreateTopic hands back an error only: short
        assert all(r.outcome == "unsupported" and r.limited_by == "client" and r.request_version == newest
                   and r.observed["unsupported_fields"]["num_partitions"] == "sarama.ClusterAdmin.CreateTopic"
                   for r in on_39), [(r.cell_id, r.outcome, r.request_version) for r in on_39]
    else:
        assert any(r.outcome == "pass" and r.request_version == newest for r in on_39), \
            [(r.cell_id, r.outcome, r.request_version) for r in on_39]
