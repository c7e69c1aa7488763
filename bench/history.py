"""A synthetic year of nightly history: ingest and report timed on Spark (local mode), DuckDB as yardstick.

    .venv/bin/python bench/history.py [--runs 365] [--cells 10000] [--work DIR] [--keep]
    .venv/bin/python bench/history.py --store-only --work DIR [--runs N --cells N]   # generate + ingest
    .venv/bin/python bench/history.py --report-only --work DIR                       # reports of that store
    .venv/bin/python bench/history.py --nightly --work DIR                           # one more night's ingest

Writes RUNS run directories of CELLS records each (regressions and flaky cells planted), times
``python -m kcompat.reports.history ingest`` and ``report`` as the user runs them (Spark session start
included), computes the same report with DuckDB over the records table's current Parquet files,
checks the files are identical and prints the Spark/DuckDB time ratio.  Figures: docs/PERFORMANCE.md.
``--store-only`` keeps WORK after the ingest; ``--report-only`` times both reports again over it (the
year's ingest takes minutes, its report is what gets tuned).  ``--nightly`` writes the next night of WORK's
store (CELLS records, the shape it was generated with) and times its ingest into the store as the nightly job
runs it: what a night pays with a year already stored.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kcompat.harness.records import RECORDS_FILE, RUN_FILE, Record, read_records  # noqa: E402

BROKERS = [f"{major}.{minor}.1" for major, minor in ((0, 11), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (2, 3),
                                                      (2, 4), (2, 5), (2, 6), (2, 7), (2, 8), (3, 0), (3, 1),
                                                      (3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7), (3, 8),
                                                      (3, 9), (4, 0), (4, 1), (4, 2))]
CLIENTS = [("wire", "wire", "0.5.0"), ("java:3.7.0", "java", "3.7.0"), ("confluent", "confluent", "2.16.1"),
           ("java:2.8.2", "java", "2.8.2")]


def cells(count: int) -> list[tuple[str, str, str, str, str, str]]:
    """(cell_id, kip, claim_id, broker, client, kind): 20 KIPs, claims of 100 cells (25 brokers x 4 clients)."""
    out = []
    claim = 0
    while len(out) < count:
        kip = f"KIP-{100 + claim % 20}"
        claim_id = f"{kip}/claim-{claim}"
        for broker in BROKERS:
            for client, kind, _ in CLIENTS:
                out.append((f"{claim_id}[{broker}-zk|{client}]", kip, claim_id, broker, client, kind))
        claim += 1
    return out[:count]


_RUN, _DAY = "nightly-@@@", "1999-12-31"
"""Placeholders in the line templates, replaced per night: a run id and a date no night has."""


def record(cell: tuple[str, str, str, str, str, str], run_id: str, day: str, outcome: str, java: str) -> Record:
    """The record of one cell on one night: every generated line is this record's ``line()``."""
    cell_id, kip, claim_id, broker, client, kind = cell
    version = dict((c, v) for c, _, v in CLIENTS)[client]
    return Record(
        run_id=run_id, cell_id=cell_id, kip=kip, claim_id=claim_id, api="CreateTopics", broker_version=broker,
        broker_mode="zk", provider="process", client_kind=kind, client_version=version, outcome=outcome,  # type: ignore[arg-type]
        client=client, java_version=java, limited_by="broker" if outcome == "unsupported" else None,
        documented={"case": "supported" if broker >= "2.4" else "below", "quotes": [f"{claim_id} quote"]},
        observed={"configs": outcome == "pass"}, started_at=f"{day}T02:00:00Z", duration_ms=1200.0)


def verdict(cell_id: str, broker: str, night: int, runs: int, regressing: set[str], flaky: set[str]
            ) -> tuple[str, str]:
    """(outcome, broker Java) of a cell on a night: the planted regressions and flaky cells live here."""
    outcome, java = ("pass" if broker >= "2.4" else "unsupported"), "17.0.15"
    if cell_id in regressing and night >= runs // 2:
        outcome, java = "deviation", "21.0.4"
    if cell_id in flaky and night >= runs - 10 and night % 2:
        outcome = "deviation"
    return outcome, java


def planted(count: int) -> tuple[set[str], set[str]]:
    """The cells planted as regressing and as flaky among ``count`` cells."""
    grid = cells(count)
    regressing = {c[0] for c in grid[::97]}
    return regressing, {c[0] for c in grid[45::89]} - regressing


def night_day(night: int) -> str:
    """The date of a night: the first is 2025-01-01."""
    return time.strftime("%Y-%m-%d", time.gmtime(1735689600 + night * 86400))


def run_directory(parent: Path, run_id: str, day: str) -> Path:
    """A night's run directory with its run.json (its records are the caller's)."""
    path = parent / run_id
    path.mkdir(parents=True)
    (path / RUN_FILE).write_text(json.dumps({"schema_version": 1, "run_id": run_id, "started_at": f"{day}T01:00:00Z"}))
    return path


def generate(work: Path, runs: int, count: int) -> tuple[list[Path], set[str], set[str]]:
    """Run directories, and the cells planted as regressing (on the middle night) and flaky (last 10 nights).

    Synthetic input, not what is measured: the nights are of a few kinds (before or after the
    regression, a flaky cell's odd night or not); each kind's file is built once from
    ``record(...).line()`` with placeholders for the run id and the date, and every night's file is
    its kind's text with the two replaced.  ``check_sample`` proves the lines are what building each
    record would give.
    """
    grid = cells(count)
    regressing, flaky = planted(count)
    templates: dict[tuple[bool, bool], str] = {}
    dirs = []
    for night in range(runs):
        day, run_id = night_day(night), f"nightly-{night:03d}"
        path = run_directory(work / "runs", run_id, day)
        kind = (night >= runs // 2, night >= runs - 10 and night % 2 == 1)  # what verdict() looks at
        text = templates.get(kind)
        if text is None:
            text = templates[kind] = "".join(
                record(cell, _RUN, _DAY, *verdict(cell[0], cell[3], night, runs, regressing, flaky)).line()
                for cell in grid)
        (path / RECORDS_FILE).write_text(text.replace(_RUN, run_id).replace(_DAY, day))
        dirs.append(path)
    return dirs, regressing, flaky


def check_sample(dirs: list[Path], runs: int, count: int, regressing: set[str], flaky: set[str],
                 every: int = 37) -> int:
    """Every ``every``-th line of the first, middle and last nights parses as a record (kcompat.harness.records)
    and is byte for byte the line its record writes; returns how many lines were checked."""
    grid = cells(count)
    checked = 0
    for night in sorted({0, runs // 2, runs - 1}):
        day = night_day(night)
        report = read_records(dirs[night] / RECORDS_FILE)
        assert report.skipped == 0 and len(report.records) == count, (night, report.skipped)
        text = (dirs[night] / RECORDS_FILE).read_text().splitlines(keepends=True)
        for n in range(0, count, every):
            outcome, java = verdict(grid[n][0], grid[n][3], night, runs, regressing, flaky)
            expected = record(grid[n], f"nightly-{night:03d}", day, outcome, java)
            assert report.records[n] == expected and text[n] == expected.line(), (night, n)
            checked += 1
    return checked


def delta_files(table: Path) -> list[str]:
    """The Parquet files of a Delta table's current version, from its log (adds minus removes)."""
    live: set[str] = set()
    for commit in sorted((table / "_delta_log").glob("*.json")):
        for line in commit.read_text().splitlines():
            action = json.loads(line)
            if "add" in action:
                live.add(action["add"]["path"])
            elif "remove" in action:
                live.discard(action["remove"]["path"])
    from urllib.parse import unquote

    return sorted(str(table / unquote(path)) for path in live)


CLI = [sys.executable, "-m", "kcompat.reports.history"]


def timed(argv: list[str]) -> float:
    started = time.monotonic()
    subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return time.monotonic() - started


SHAPE_FILE = "bench.json"
"""In WORK: the runs and cells its store was generated with (``--report-only`` reads them)."""


def build_store(work: Path, runs: int, count: int) -> dict[str, object]:
    """Generate the runs, check a sample, ingest them all in one command; the figures of those steps."""
    started = time.monotonic()
    dirs, regressing, flaky = generate(work, runs, count)
    generated = time.monotonic() - started
    checked = check_sample(dirs, runs, count, regressing, flaky)
    (work / SHAPE_FILE).write_text(json.dumps({"runs": runs, "cells": count}) + "\n")
    ingest = timed(CLI + ["ingest", *map(str, dirs), "--store", str(work / "store")])
    return {"generate_s": round(generated, 1), "sample_lines_checked": checked, "spark_ingest_s": round(ingest, 1)}


def nightly_ingest(work: Path, runs: int, count: int) -> dict[str, object]:
    """Write the store's next night (after the generated ones and any earlier ``--nightly``), ingest it alone."""
    night = runs + len(list((work / "nightly").glob("nightly-*")))
    day, run_id = night_day(night), f"nightly-{night:03d}"
    path = run_directory(work / "nightly", run_id, day)
    regressing, flaky = planted(count)
    (path / RECORDS_FILE).write_text("".join(
        record(cell, run_id, day, *verdict(cell[0], cell[3], night, runs, regressing, flaky)).line()
        for cell in cells(count)))
    started = time.monotonic()
    done = subprocess.run(CLI + ["ingest", str(path), "--store", str(work / "store")], cwd=ROOT, check=True,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    seconds = time.monotonic() - started
    return {"night": run_id, "nightly_ingest_s": round(seconds, 1),
            "nightly_said": done.stdout.strip().splitlines()[-1]}


def reports(work: Path, count: int) -> dict[str, object]:
    """Both engines' reports of WORK's store, timed, and whether their files are the same bytes."""
    for name in ("spark", "duckdb"):
        shutil.rmtree(work / name, ignore_errors=True)
    report = timed(CLI + ["report", "--store", str(work / "store"), "--out", str(work / "spark")])

    from kcompat.reports.history import report as reporting
    from kcompat.reports.history.engine import DuckDBEngine

    started = time.monotonic()
    duck = reporting.compute(DuckDBEngine(delta_files(work / "store" / "records")))
    reporting.write(duck, work / "duckdb")
    duck_s = time.monotonic() - started
    regressing, flaky = planted(count)
    return {"spark_report_s": round(report, 1), "duckdb_report_s": round(duck_s, 1),
            "spark_duckdb_ratio": round(report / duck_s, 2),
            "identical": _files(work / "spark") == _files(work / "duckdb"),
            "planted_regressions_found": regressing <= _cell_ids(work / "spark" / "regressions.jsonl"),
            "planted_flaky_found": flaky == _cell_ids(work / "spark" / "flaky.jsonl")}


def _files(directory: Path) -> dict[Path, bytes]:
    """A report directory's files by relative path, as bytes (the two engines' must be equal)."""
    return {p.relative_to(directory): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def _cell_ids(path: Path) -> set[str]:
    return {json.loads(line)["cell_id"] for line in path.read_text().splitlines()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=365)
    parser.add_argument("--cells", type=int, default=10_000)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--keep", action="store_true")
    steps = parser.add_mutually_exclusive_group()
    steps.add_argument("--store-only", action="store_true", help="generate and ingest, keep WORK, no report")
    steps.add_argument("--report-only", action="store_true", help="time the reports of WORK's existing store")
    steps.add_argument("--nightly", action="store_true", help="time one more night's ingest into WORK's store")
    args = parser.parse_args()
    if (args.store_only or args.report_only or args.nightly) and args.work is None:
        parser.error("--store-only, --report-only and --nightly need --work DIR")
    work = args.work or Path(tempfile.mkdtemp(prefix="kcompat-history-bench-"))
    keep = args.keep or args.store_only or args.report_only or args.nightly
    load_start = os.getloadavg()[0]  # the machine may be shared: the figures say how loaded it was
    try:
        if args.report_only or args.nightly:
            if not (work / SHAPE_FILE).is_file():
                parser.error(f"{work} holds no store this benchmark built (no {SHAPE_FILE}); run --store-only first")
            shape = json.loads((work / SHAPE_FILE).read_text())
            runs, count, figures = int(shape["runs"]), int(shape["cells"]), {}
            if args.nightly:
                figures = nightly_ingest(work, runs, count)
        else:
            runs, count = args.runs, args.cells
            figures = build_store(work, runs, count)
        if not (args.store_only or args.nightly):
            figures.update(reports(work, count))
        print(json.dumps({"runs": runs, "cells": count, "records": runs * count, **figures,
                          "cpus": os.cpu_count(),
                          "load_average_start_end": [round(load_start, 1), round(os.getloadavg()[0], 1)]}, indent=1))
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
