"""The matrix's cost: one fixed slice run with one process and with two xdist workers, side by side.

    .venv/bin/python bench/matrix.py [--brokers 2.3,2.6,3.9,4.4] [--clients wire,confluent,java:4.4.0]
    .venv/bin/python bench/matrix.py --five-kips [--brokers ...] [--clients ...] [--kip KIP-N ...] [-n 2]

Runs ``kcompat run`` on the same selection (KIP-525 and KIP-569) at ``-n 0``
and ``-n 2`` and reports, from each run directory: wall time, clusters
started (one ``kafka-*`` directory per boot) against distinct cluster configs
in the records, cells, the per-cell harness overhead (``duration_ms -
call_ms``; the first cell of a cluster carries its boot, so p50 is the
steady-state figure) p50/p95, and seconds per (broker, client) pair.  Prints
Markdown for docs/PERFORMANCE.md.  Never run by the tests.

``--five-kips`` instead runs the whole matrix once, every KIP of
the claim book (or the ``--kip`` ones) over 8 brokers x 4 clients by default,
at ``-n 2``, after warming what a first run would otherwise pay for (broker
jars, JDKs, the broker plug-ins compiled per release, the Java sidecars), and
reports wall time, clusters started against the distinct cluster keys of the
recorded cells (the plan's ``cluster_key``: version, mode, nodes, security
profile, plug-ins), the per-cell overhead, and cells per verdict.  A run with
``fail`` or ``infra_error`` cells is still measured: the verdicts are part of
the report.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from kcompat.harness.records import RECORDS_FILE, Record, read_records

FIVE_KIP_BROKERS = "0.11,1.1,2.3,2.6,2.8,3.9,4.0,4.4"
FIVE_KIP_CLIENTS = "wire,confluent,java:2.3.1,java:4.4.0"
LEGACY_BROKERS, LEGACY_CLIENTS = "2.3,2.6,3.9,4.4", "wire,confluent,java:4.4.0"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def one_run(out: Path, brokers: str, clients: str, workers: int) -> dict[str, float]:
    wall, cpu, code, tail = kcompat_run(out, brokers, clients, ["KIP-525", "KIP-569"], workers)
    if code != 0:
        sys.exit(f"bench: kcompat run -n {workers} exited {code}:\n{tail}")
    records = read_records(out / RECORDS_FILE).records
    overhead = [r.duration_ms - (r.call_ms or 0.0) for r in records]
    started_clusters = len(list((out / "logs").glob("*/kafka-*")))
    distinct = len({(r.broker_version, r.broker_mode, r.broker_nodes, r.security) for r in records})
    pairs = len({(r.broker_version, r.broker_mode, r.client_kind) for r in records})
    return {"wall": wall, "cpu": cpu, "cells": len(records), "started": started_clusters, "distinct": distinct,
            "p50": statistics.median(overhead), "p95": percentile(overhead, 0.95), "pairs": pairs,
            "per_pair": wall / pairs}


def kcompat_run(out: Path, brokers: str, clients: str, kips: list[str], workers: int) -> tuple[float, float, int, str]:
    """One ``kcompat run``: (wall seconds, CPU seconds of every process it waited for, exit code, output's tail)."""
    command = [sys.executable, "-c", "from kcompat.harness.cli import run; run()", "run", "--brokers", brokers,
               "--clients", clients, *[a for kip in kips for a in ("--kip", kip)], "-n", str(workers), "--quiet",
               "--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, f"{done.stdout[-3000:]}{done.stderr[-2000:]}"


def warm_cache(brokers: str, clients: str, kips: list[str]) -> None:
    """What a first run pays once and a measured run should not: jars, JDKs, plug-ins, sidecars."""
    from kcompat.harness.artifacts import ArtifactStore
    from kcompat.harness.catalog import load_catalog
    from kcompat.harness.clients.java import Sidecar, close_sidecars
    from kcompat.harness.config import HarnessConfig
    from kcompat.harness.java import select_java
    from kcompat.harness.javac import compile_plugin
    from kcompat.harness.matrix.claims import BROKER_PLUGINS, claims_dir, load_claim_book
    from kcompat.harness.matrix.plan import Selection, brokers as planned_brokers, plugin_sources

    config, catalog = HarnessConfig.resolve(), load_catalog()
    claims = load_claim_book(claims_dir()).select(tuple(kips))
    plugins = sorted({name for claim in claims for name in claim.cluster.plugins})
    for version, _ in planned_brokers(Selection.of(brokers), catalog):
        release = catalog.release(version)
        artifacts = ArtifactStore(config).resolve(release)
        select_java(release.line.java, config.cache_dir, offline=config.offline, what=f"Kafka {release.version}")
        for name in plugins:
            compile_plugin(plugin_sources(BROKER_PLUGINS[name]), artifacts, config.cache_dir)
    try:
        for ref in clients.split(","):
            if ref.startswith("java:"):
                Sidecar(ref.split(":", 1)[1], config).call("version", None, {})
    finally:
        close_sidecars()


def cluster_keys(records: list[Record], brokers: str, clients: str, kips: list[str]) -> tuple[int, int]:
    """(distinct cluster keys of the recorded cells, of all planned cells): the clusters a run should boot."""
    from kcompat.harness.catalog import load_catalog
    from kcompat.harness.matrix.claims import claims_dir, load_claim_book
    from kcompat.harness.matrix.plan import Selection, plan

    planned = plan(Selection.of(brokers, None, clients, kips), load_claim_book(claims_dir()), load_catalog())
    key_of = {c.cell.id: c.cluster_key for c in planned}
    recorded = {key_of[r.cell_id] for r in records if r.cell_id in key_of}
    return len(recorded), len(set(key_of.values()))


def five_kips(brokers: str, clients: str, kips: list[str], workers: int) -> None:
    """The whole matrix once at ``-n workers``, measured."""
    from kcompat.harness.matrix.claims import claims_dir, load_claim_book

    kips = kips or sorted({claim.kip for claim in load_claim_book(claims_dir()).select(())})
    warm_cache(brokers, clients, kips)
    scratch = Path(tempfile.mkdtemp(prefix="kcompat-bench-matrix-"))
    load_before = os.getloadavg()[0]
    try:
        wall, cpu, code, tail = kcompat_run(scratch / "run", brokers, clients, kips, workers)
        load_after = os.getloadavg()
        records = read_records(scratch / "run" / RECORDS_FILE).records if (scratch / "run").exists() else []
        if not records:
            sys.exit(f"bench: kcompat run -n {workers} exited {code} and recorded no cell:\n{tail}")
        started = len(list((scratch / "run" / "logs").glob("*/kafka-*")))
        distinct, planned = cluster_keys(records, brokers, clients, kips)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    overhead = [r.duration_ms - (r.call_ms or 0.0) for r in records]
    verdicts = Counter(r.outcome for r in records)
    per_kip = Counter(r.kip for r in records)
    n_brokers, n_clients = len(brokers.split(",")), len(clients.split(","))
    print(f"Machine: {os.cpu_count()} cores, {platform.platform()}, Python {platform.python_version()}; "
          f"1-minute load average {load_before:.1f} before, {load_after[0]:.1f} after "
          f"(5-minute {load_after[1]:.1f})")
    print(f"Command: .venv/bin/python bench/matrix.py --five-kips --brokers {brokers} --clients {clients} "
          f"{' '.join(f'--kip {k}' for k in kips)} -n {workers}".rstrip())
    print(f"kcompat run exited {code} ({'every cell judged' if code == 0 else 'see the verdicts'})\n")
    print("| brokers x clients | KIPs | workers | wall s | CPU s | cores busy | cells | "
          "clusters started / distinct (planned) | overhead p50 ms | p95 ms | cells per minute |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {n_brokers} x {n_clients} | {len(kips)} | -n {workers} | {wall:.1f} | {cpu:.1f} | {cpu / wall:.2f} | "
          f"{len(records)} | "
          f"{started} / {distinct} ({planned}) | {statistics.median(overhead):.1f} | "
          f"{percentile(overhead, 0.95):.0f} | {len(records) / wall * 60:.0f} |")
    print("\n| verdict | cells |\n|---|---|")
    for outcome, count in sorted(verdicts.items(), key=lambda kv: -kv[1]):
        print(f"| {outcome} | {count} |")
    print("\ncells per KIP: " + ", ".join(f"{kip} {count}" for kip, count in sorted(per_kip.items())))
    if code != 0:
        print(f"\nkcompat run's summary:\n{tail}")


def legacy(brokers: str, clients: str) -> None:
    """KIP-525 and KIP-569 at -n 0 and -n 2 (the two-worker measurement)."""
    scratch = Path(tempfile.mkdtemp(prefix="kcompat-bench-matrix-"))
    try:
        # A warm-up so both measured runs find jars, JDKs, sidecars and images in the cache.
        one_run(scratch / "warm", brokers.split(",")[-1], "wire", 0)
        results = {n: one_run(scratch / f"n{n}", brokers, clients, n) for n in (0, 2)}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"Machine: {os.cpu_count()} cores, {platform.platform()}, Python {platform.python_version()}")
    print(f"Command: .venv/bin/python bench/matrix.py --brokers {brokers} --clients {clients}\n")
    print("| workers | wall s | CPU s | cores busy | cells | clusters started / distinct | overhead p50 ms | p95 ms "
          "| s per (broker, client) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, r in results.items():
        print(f"| -n {n} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['cpu'] / r['wall']:.2f} | {r['cells']:.0f} | "
              f"{r['started']:.0f} / {r['distinct']:.0f} | {r['p50']:.1f} | {r['p95']:.0f} | {r['per_pair']:.1f} |")
    speedup = results[0]["wall"] / results[2]["wall"]
    # With the CPU -n 0 used, two workers on os.cpu_count() cores can be at most this much faster.
    bound = min(2.0, (os.cpu_count() or 1) / (results[0]["cpu"] / results[0]["wall"]))
    print(f"\nspeed-up -n 2 over -n 0: {speedup:.2f}x; the cores bound it at {bound:.2f}x "
          f"({os.cpu_count()} cores / {results[0]['cpu'] / results[0]['wall']:.2f} busy at -n 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brokers", help=f"default {LEGACY_BROKERS}; with --five-kips {FIVE_KIP_BROKERS}")
    parser.add_argument("--clients", help=f"default {LEGACY_CLIENTS}; with --five-kips {FIVE_KIP_CLIENTS}")
    parser.add_argument("--five-kips", action="store_true", help="the whole matrix once at -n")
    parser.add_argument("--kip", action="append", default=[], help="with --five-kips: only these KIPs (repeatable)")
    parser.add_argument("-n", type=int, default=2, dest="workers", help="with --five-kips: xdist workers")
    args = parser.parse_args()
    if args.five_kips:
        five_kips(args.brokers or FIVE_KIP_BROKERS, args.clients or FIVE_KIP_CLIENTS, args.kip, args.workers)
    elif args.kip:
        parser.error("--kip needs --five-kips (the default measurement is KIP-525 and KIP-569)")
    else:
        legacy(args.brokers or LEGACY_BROKERS, args.clients or LEGACY_CLIENTS)


if __name__ == "__main__":
    main()
