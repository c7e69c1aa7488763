"""The nightly as CI runs it: ``scripts/nightly.sh`` for two simulated nights on one broker, one client, one KIP.

Night 1 runs its shard itself (a broker line: the script calls ``kcompat run``); night 2 hands the script a
run directory a shard job produced (as the workflow does), judged by a claim book in which one claim's
documented side is revised (tests/history_builders.revised_book, as test_history_real.py plants its
regression).  Both nights go into one store through the real default path (Spark and Delta); night 2 must
fail naming the regressed cell, and its report and page must carry both nights.  Night 2 names the store by its
``file://`` URI: the code path an object store (``s3a://``) takes, which nothing here can reach.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.console import kcompat
from tests.history_builders import jsonl, revised_book

pytest.importorskip("pyspark")
pytest.importorskip("delta")
pytestmark = pytest.mark.timeout(900)

ROOT = Path(__file__).resolve().parents[2]
SLICE = ("--clients", "wire", "--kip", "KIP-569", "-n", "0")
REVISED = "KIP-569/type-and-documentation-when-asked"
BEFORE = 'observe = { entry_fields = { contains = ["type", "documentation"] } }'
AFTER = 'observe = { entry_fields = { contains = ["type", "documentation", "sensitivity"] } }'
"""The revision: the claim now documents a field no broker sends, so the in-range wire cells deviate."""


def nightly(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(ROOT / "scripts" / "nightly.sh"), *args], capture_output=True, text=True,
                          timeout=800, check=False, env=dict(os.environ))


def run_id(run: Path) -> str:
    return str(json.loads((run / "run.json").read_text())["run_id"])


def test_two_nights_the_second_fails_naming_its_regressed_cell(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first = nightly("--store", str(store), "--out", str(tmp_path / "night-1"), "4.4", "--", *SLICE)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert first.stdout.strip().splitlines()[-1] == "no regression in 1 run(s)"
    night_1 = run_id(tmp_path / "night-1" / "runs" / "run-4.4")

    shard = tmp_path / "run-4.4"  # what a shard job uploads
    book = revised_book(tmp_path, "KIP-569", BEFORE, AFTER)
    produced = kcompat("run", "--brokers", "4.4", *SLICE, "--quiet", "--claims", str(book), "--out", str(shard))
    assert produced.returncode == 0, produced.stdout[-3000:] + produced.stderr[-3000:]
    night_2 = run_id(shard)

    # the same store as a URI: the code path of an object store (s3a://...), on Hadoop's local file system
    second = nightly("--store", store.as_uri(), "--out", str(tmp_path / "night-2"), str(shard))
    assert second.returncode == 1, second.stdout[-3000:] + second.stderr[-3000:]
    assert "Traceback" not in second.stderr
    report = tmp_path / "night-2" / "history"
    regressed = {r["cell_id"] for r in jsonl(report / "regressions.jsonl")}
    assert regressed and all(cell.startswith(REVISED + "[4.4.0-kraft|wire") for cell in regressed), regressed
    named = [line for line in second.stdout.splitlines() if line.startswith("regression: ")]
    assert sorted(named) == sorted(
        f"regression: {cell}: pass -> deviation in run {night_2} (since run {night_1}; documented side revised)"
        for cell in regressed)
    assert f"regression: {REVISED}[4.4.0-kraft|wire]: pass -> deviation" in second.stdout
    assert second.stderr.strip().splitlines()[-1] == (
        f"kcompat: error: {len(regressed)} regression(s) in 1 run(s); see {report / 'regressions.jsonl'}")

    summary = json.loads((report / "summary.json").read_text())
    assert summary["runs"] == 2  # the store kept night 1
    history = json.loads((report / "history.json").read_text())
    assert {tuple(e["run_id"] for e in runs) for runs in history.values()} == {(night_1, night_2)}
    page = (tmp_path / "night-2" / "page" / "index.html").read_text()
    assert night_1 in page and night_2 in page  # night 1 is on the page through the history only
