"""`kcompat run` records what a client sent outside the broker's range, and judges it (docs/RECORDS.md's
``observed.out_of_range``): a library client that sent it deviates, naming the request; a pinned wire client
above the broker's newest version is the broker's refusal.

Brokers: 4.4 (KRaft, CreateTopics v2-v7: KIP-896 removed v0 and v1) and 2.3 (DescribeConfigs up to v2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.records import RECORDS_FILE, Record, read_records
from tests.console import kcompat, ok

pytestmark = pytest.mark.timeout(1500)


def _run(out: Path, *args: str) -> dict[str, Record]:
    ok(kcompat("run", *args, "-n", "0", "--quiet", "--out", str(out), timeout=1400))
    return {r.cell_id: r for r in read_records(out / RECORDS_FILE).records}


def test_a_library_client_pinned_to_an_old_broker_sends_a_removed_version_and_deviates_naming_it(
        tmp_path: Path) -> None:
    # kafka-python told the broker is 0.10.2 sends CreateTopics v1, which 4.x no longer accepts
    client = "kafka-python:3.0.12@api_version=0.10.2"
    cells = _run(tmp_path / "run", "--brokers", "4.4", "--clients", client, "--kip", "KIP-525",
                 "-k", "create-returns-configs")
    cell = cells[f"KIP-525/create-returns-configs[4.4.0-kraft|{client}]"]
    sent = cell.observed["out_of_range"]
    assert {"api": "CreateTopics", "version": 1, "broker_min": 2, "broker_max": 7} in sent, cell.observed
    assert cell.outcome == "deviation"
    assert "out_of_range" in {d["key"] for d in cell.differences}
    assert "CreateTopics v1 (the broker offers v2-v7)" in (cell.reason or "")


def test_a_pinned_wire_client_above_the_brokers_newest_is_the_brokers_refusal(tmp_path: Path) -> None:
    # DescribeConfigs v3 (KIP-569's types and documentation) on 2.3, whose newest is v2: the pin is sent anyway
    cells = _run(tmp_path / "run", "--brokers", "2.3", "--clients", "wire", "--kip", "KIP-569",
                 "-k", "type-and-documentation-when-asked")
    cell = cells["KIP-569/type-and-documentation-when-asked[2.3.1-zk|wire@v3]"]
    assert (cell.outcome, cell.limited_by, cell.documented["case"]) == ("unsupported", "broker", "refused")
    assert cell.observed["out_of_range"] == [
        {"api": "DescribeConfigs", "version": 3, "broker_min": 0, "broker_max": 2}]
    # the wire client that negotiates sent nothing outside the range
    assert cells["KIP-569/type-and-documentation-when-asked[2.3.1-zk|wire]"].observed["out_of_range"] == []
