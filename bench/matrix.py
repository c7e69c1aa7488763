"""The matrix's cost: one fixed slice run with one process and with two xdist workers, side by side.

    .venv/bin/python bench/matrix.py [--brokers 2.3,2.6,3.9,4.4] [--clients wire,confluent,java:4.4.0]

Runs ``kcompat run`` on the same selection (KIP-525 and KIP-569) at ``-n 0``
and ``-n 2`` and reports, from each run directory: wall time, clusters
started (one ``kafka-*`` directory per boot) against distinct cluster configs
in the records, cells, the per-cell harness overhead (``duration_ms -
call_ms``; the first cell of a cluster carries its boot, so p50 is the
steady-state figure) p50/p95, and seconds per (broker, client) pair.  Prints
Markdown for docs/PERFORMANCE.md.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.records import RECORDS_FILE, read_records


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def one_run(out: Path, brokers: str, clients: str, workers: int) -> dict[str, float]:
    command = [sys.executable, "-c", "from harness.cli import run; run()", "run", "--brokers", brokers,
               "--clients", clients, "--kip", "KIP-525", "--kip", "KIP-569", "-n", str(workers), "--quiet",
               "--out", str(out)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"bench: kcompat run -n {workers} exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    records = read_records(out / RECORDS_FILE).records
    overhead = [r.duration_ms - (r.call_ms or 0.0) for r in records]
    started_clusters = len(list((out / "logs").glob("*/kafka-*")))
    distinct = len({(r.broker_version, r.broker_mode, r.broker_nodes, r.security) for r in records})
    pairs = len({(r.broker_version, r.broker_mode, r.client_kind) for r in records})
    return {"wall": wall, "cells": len(records), "started": started_clusters, "distinct": distinct,
            "p50": statistics.median(overhead), "p95": percentile(overhead, 0.95), "pairs": pairs,
            "per_pair": wall / pairs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brokers", default="2.3,2.6,3.9,4.4")
    parser.add_argument("--clients", default="wire,confluent,java:4.4.0")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="kcompat-bench-matrix-"))
    try:
        # A warm-up so both measured runs find jars, JDKs, sidecars and images in the cache.
        one_run(scratch / "warm", args.brokers.split(",")[-1], "wire", 0)
        results = {n: one_run(scratch / f"n{n}", args.brokers, args.clients, n) for n in (0, 2)}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"Machine: {os.cpu_count()} cores, {platform.platform()}, Python {platform.python_version()}")
    print(f"Command: .venv/bin/python bench/matrix.py --brokers {args.brokers} --clients {args.clients}\n")
    print("| workers | wall s | cells | clusters started / distinct | overhead p50 ms | p95 ms | s per (broker, client) |")
    print("|---|---|---|---|---|---|---|")
    for n, r in results.items():
        print(f"| -n {n} | {r['wall']:.1f} | {r['cells']:.0f} | {r['started']:.0f} / {r['distinct']:.0f} | "
              f"{r['p50']:.1f} | {r['p95']:.0f} | {r['per_pair']:.1f} |")
    print(f"\nspeed-up -n 2 over -n 0: {results[0]['wall'] / results[2]['wall']:.2f}x")


if __name__ == "__main__":
    main()
