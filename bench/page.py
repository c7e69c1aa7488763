"""The matrix page's cost: generation time, page weight, and load time in headless Chromium.

    .venv/bin/python bench/page.py [--cells 100000] [--claims 30] [--rounds 3]

Two synthetic run directories (records.jsonl written as the run engine would,
without the per-line fsync, which is the run's cost and not the page's):

* *catalog*: the full catalog matrix, ``--claims`` claims x every version/mode
  pair of src/kcompat/harness/catalog.toml x six clients (wire, confluent, the four
  kafka-clients releases of the catalog);
* *large*: about ``--cells`` cells (more claims and clients on the same
  columns).

For each: ``kcompat matrix``'s work (read + render + write, seconds), the
page's weight (KB), and in Debian's Chromium the time from navigation to the
grid being interactive (the page's script done), and a click's detail.
Prints Markdown for docs/PERFORMANCE.md.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
import tomllib
from pathlib import Path

from kcompat.harness.records import Record
from kcompat.reports.page import load, write
from kcompat.reports.page.browser import chromium

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kcompat"
OUTCOMES = ["pass"] * 12 + ["unsupported"] * 6 + ["deviation", "fail"] + ["pass"] * 20 + ["infra_error"]


def catalog_columns() -> list[tuple[str, str]]:
    data = tomllib.loads((SRC / "harness" / "catalog.toml").read_text())
    return [(line["newest"], mode) for line in data["line"] for mode in line["modes"]]


def catalog_clients() -> list[str]:
    data = tomllib.loads((SRC / "harness" / "catalog.toml").read_text())
    return ["wire", "confluent"] + [f"java:{c['version']}" for c in data["java_client"]]


def synthetic_run(path: Path, claims: int, clients: list[str]) -> int:
    path.mkdir(parents=True)
    started = "2026-11-23T02:00:00Z"
    (path / "run.json").write_text(json.dumps({"schema_version": 1, "run_id": path.name, "started_at": started}))
    count = 0
    with (path / "records.jsonl").open("w") as out:
        for c in range(claims):
            kip, api = (f"KIP-{500 + c // 4}", ["CreateTopics", "DescribeConfigs", "CreatePartitions"][c % 3])
            claim = f"{kip}/claim-number-{c}"
            for v, (version, mode) in enumerate(catalog_columns()):
                for k, client in enumerate(clients):
                    outcome = OUTCOMES[(c * 7 + v * 3 + k) % len(OUTCOMES)]
                    below = outcome == "unsupported"
                    kind, _, client_version = client.partition(":")
                    record = Record(
                        run_id=path.name, cell_id=f"{claim}[{version}-{mode}|{client}]", kip=kip, claim_id=claim,
                        api=api, broker_version=version, broker_mode=mode, provider="process", client_kind=kind,
                        client_version=client_version or "2.16.1", outcome=outcome, client=client,  # type: ignore[arg-type]
                        request_version=3 if below else 5, required_versions={"min": 5, "max": None},
                        broker_max_version=3 if below and v % 2 else 7, client_max_version=3 if below else 7,
                        limited_by=("broker" if v % 2 else "client") if below else None,  # type: ignore[arg-type]
                        documented={"case": "below" if below else "supported",
                                    "quotes": [f"{kip} says that {api} v5 returns the field of claim {c}."],
                                    "expect": {"configs": {"absent": True} if below else {"present": True},
                                               "error": None}},
                        observed={"configs": None if outcome == "deviation" else ["cleanup.policy=delete"],
                                  "error": None, "throttle_time_ms": 0},
                        differences=[{"key": "configs", "documented": {"present": True}, "observed": None}]
                        if outcome == "deviation" else [],
                        reason={"fail": "set-up: CreateTopics returned POLICY_VIOLATION (log: logs/x/broker.log)",
                                "infra_error": "broker 0 died during boot (log: logs/x/broker.log)",
                                "deviation": "configs is null where the KIP says present"}.get(outcome),
                        duration_ms=1200.0, call_ms=11.0, started_at=started, log=f"logs/{version}-{mode}/broker.log")
                    out.write(record.line())
                    count += 1
    return count


def generate(run: Path, out: Path) -> tuple[float, Path]:
    start = time.perf_counter()
    html, _ = write(load([run]), out)
    return time.perf_counter() - start, html


def browser_times(html: Path, rounds: int) -> tuple[float, float]:
    """Median ms from navigation to the page's script done (load event), and of a click's detail (in page)."""
    loads, clicks = [], []
    with chromium() as browser:
        for _ in range(rounds):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(html.as_uri(), wait_until="load")
            loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
            clicks.append(page.evaluate("""() => {
                const start = performance.now();
                document.querySelector('#matrix td.d').click();  // the detail is built synchronously
                if (document.getElementById('detail').hidden) throw new Error('no detail');
                return performance.now() - start; }"""))
            page.close()
    return statistics.median(loads), statistics.median(clicks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cells", type=int, default=100_000)
    parser.add_argument("--claims", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    columns = len(catalog_columns())
    rows = []
    with tempfile.TemporaryDirectory(prefix="kcompat-bench-page-") as tmp:
        large_clients = catalog_clients() + [f"confluent:2.{n}.0" for n in range(14)]
        large_claims = -(-args.cells // (columns * len(large_clients)))
        for name, claims, clients in (("catalog", args.claims, catalog_clients()),
                                      ("large", large_claims, large_clients)):
            run = Path(tmp) / f"run-{name}"
            cells = synthetic_run(run, claims, clients)
            seconds = min(generate(run, Path(tmp) / f"page-{name}")[0] for _ in range(args.rounds))
            html = Path(tmp) / f"page-{name}" / "index.html"
            load_ms, click_ms = browser_times(html, args.rounds)
            rows.append(f"| {name} | {claims} x {columns} x {len(clients)} = {cells} | {seconds:.2f} | "
                        f"{html.stat().st_size / 1024:.0f} | {load_ms:.0f} | {click_ms:.0f} |")
    print(f"python {platform.python_version()}, {platform.platform()}\n")
    print("| matrix | claims x version/mode x clients = cells | generation (s, best of rounds) | page (KB) "
          "| Chromium load (ms, median) | click to detail (ms, median) |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
