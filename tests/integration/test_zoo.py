"""``kcompat zoo run`` for real: the command's own line for every reproducible entry says ``reproduced``.  The
entries on the cached brokers with the wire and Java clients run in the normal suite; the rest (older brokers,
confluent-kafka releases to install) at night."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.matrix.zoo import Bug, load_zoo
from kcompat.harness.records import latest_by_cell, read_records
from tests.console import kcompat, run_workers


def _assert_reproduced(bugs: list[Bug], stdout: str) -> None:
    """Every entry's own line says ``reproduced``: the judging is the CLI's, not re-done here."""
    lines = stdout.splitlines()
    for bug in bugs:
        assert any(line.startswith(f"{bug.id}: reproduced (") for line in lines), (bug.id, stdout[-3000:])


@pytest.mark.timeout(600)
def test_zoo_run_reproduces_the_entries_on_cached_brokers(tmp_path: Path) -> None:
    bugs = [bug for bug in load_zoo() if bug.buggy is not None and not bug.nightly]
    assert bugs
    done = kcompat("zoo", "run", "--no-nightly", "--out", str(tmp_path / "run"), "-n", run_workers(), timeout=580)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-2000:])
    _assert_reproduced(bugs, done.stdout)
    assert f"{len(bugs)} reproduced" in done.stdout
    ran = set(latest_by_cell(read_records(tmp_path / "run" / "records.jsonl").records))
    assert ran == {cell.id for bug in bugs for cell in bug.cells}  # exactly the entries' cells


@pytest.mark.nightly
@pytest.mark.timeout(1800)
def test_zoo_run_reproduces_every_entry(tmp_path: Path) -> None:
    bugs = [bug for bug in load_zoo() if bug.buggy is not None]
    done = kcompat("zoo", "run", "--out", str(tmp_path / "run"), "-n", run_workers(), timeout=1780)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-2000:])
    _assert_reproduced(bugs, done.stdout)
    check = kcompat("zoo", "check", str(tmp_path / "run"), timeout=120)
    assert check.returncode == 0 and f"{len(bugs)} reproduced" in check.stdout
    _assert_reproduced(bugs, check.stdout)
