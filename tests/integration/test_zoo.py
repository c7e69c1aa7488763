"""``kcompat zoo run`` for real: every reproducible entry's buggy cell is judged and not ``pass``, its fixed cell
gets the fix's verdict.  The entries on the cached brokers with the wire and Java clients run in the normal
suite; the rest (older brokers, confluent-kafka releases to install) at night."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.matrix.zoo import Bug, load_zoo
from kcompat.harness.records import latest_by_cell, read_records
from tests.console import kcompat, run_workers


def _assert_reproduced(bugs: list[Bug], out: Path) -> None:
    latest = latest_by_cell(read_records(out / "records.jsonl").records)
    for bug in bugs:
        assert bug.buggy is not None
        buggy = latest[bug.buggy.id]
        assert buggy.outcome not in ("pass", "infra_error"), (bug.id, buggy.outcome, buggy.reason)
        if bug.fixed is not None:
            fixed = latest[bug.fixed.id]
            assert fixed.outcome == bug.fixed_verdict, (bug.id, fixed.outcome, fixed.reason)


@pytest.mark.timeout(600)
def test_zoo_run_reproduces_the_entries_on_cached_brokers(tmp_path: Path) -> None:
    bugs = [bug for bug in load_zoo() if bug.buggy is not None and not bug.nightly]
    assert bugs
    done = kcompat("zoo", "run", "--no-nightly", "--out", str(tmp_path / "run"), "-n", run_workers(), timeout=580)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-2000:])
    _assert_reproduced(bugs, tmp_path / "run")
    assert f"{len(bugs)} reproduced" in done.stdout
    ran = set(latest_by_cell(read_records(tmp_path / "run" / "records.jsonl").records))
    assert ran == {cell.id for bug in bugs for cell in bug.cells}  # exactly the entries' cells


@pytest.mark.nightly
@pytest.mark.timeout(1800)
def test_zoo_run_reproduces_every_entry(tmp_path: Path) -> None:
    bugs = [bug for bug in load_zoo() if bug.buggy is not None]
    done = kcompat("zoo", "run", "--out", str(tmp_path / "run"), "-n", run_workers(), timeout=1780)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-2000:])
    _assert_reproduced(bugs, tmp_path / "run")
    check = kcompat("zoo", "check", str(tmp_path / "run"), timeout=120)
    assert check.returncode == 0 and f"{len(bugs)} reproduced" in check.stdout
