"""Two sets of records compared cell by cell on what was judged: the one comparison behind
``scripts/compare_runs.py`` (a refactoring must leave a run's verdicts as they were) and the golden records'
test (``tests/golden/``: a fixed slice's verdicts, checked in), so both hold a run to the same rules.

What differs by nature is left out: times, ids, workers and log paths (scrubbed), and the raw ``observed``
values, which brokers vary between two runs of the same code (connection ids in error messages, a partition
count read before KRaft's metadata caught up): those are counted, never a difference.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VOLATILE = frozenset({"run_id", "started_at", "duration_ms", "call_ms", "worker", "log"})
_RUN_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{6}")
_WORKER = re.compile(r"-(gw\d+|main)-\d+\b")

Cells = dict[str, dict[str, Any]]


def scrub(value: Any) -> Any:
    """``value`` without the volatile keys, run ids and worker names (in topic names, reasons...)."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, str):
        return _WORKER.sub("-W-N", _RUN_ID.sub("RUN", value))
    return value


def judged(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record without its raw observations (what a verdict was judged from, not the verdict)."""
    kept = {k: v for k, v in record.items() if k != "observed"}
    kept["observations"] = [{k: v for k, v in o.items() if k != "observed"} for o in record.get("observations", [])]
    return kept


def verdict(record: Mapping[str, Any]) -> dict[str, Any]:
    """What a golden file keeps of a record: its verdict and what it rests on (the claim book's case, the side
    that limits, the request version the recorder saw, the documented keys observed and those that deviated),
    nothing a change of wording, a new optional field or a broker's raw answer would alter."""
    documented = record.get("documented") or {}
    expected = set(documented.get("expect") or {})
    return {"cell_id": record["cell_id"], "outcome": record["outcome"], "limited_by": record.get("limited_by"),
            "case": documented.get("case"), "request_version": record.get("request_version"),
            "observed_keys": sorted(expected & set(record.get("observed") or {})),
            "deviating_keys": sorted({d["key"] for d in record.get("differences") or []})}


def parse(lines: Iterable[str], ignore: frozenset[str] = frozenset()) -> Cells:
    """Records as JSON lines, scrubbed and keyed by cell (a resumed run's last line of a cell is its verdict)."""
    cells: Cells = {}
    for line in lines:
        if line.strip():
            record = json.loads(line)
            cells[record["cell_id"]] = {k: v for k, v in scrub(record).items() if k not in ignore}
    return cells


def load(run: Path, ignore: frozenset[str] = frozenset()) -> Cells:
    """A run directory's records (or a records file's)."""
    path = run / "records.jsonl" if run.is_dir() else run
    return parse(path.read_text(encoding="utf-8").splitlines(), ignore)


@dataclass(frozen=True)
class Comparison:
    """Each cell judged differently (one line each) and the count of cells alike but for raw observations."""

    left: int
    right: int
    differences: tuple[str, ...]
    observed: int

    def summary(self) -> str:
        return (f"{self.left} and {self.right} cells; {len(self.differences)} judged differently; "
                f"{self.observed} more with the same judgement on other raw observations")


def compare(left: Cells, right: Cells, names: tuple[str, str] = ("left", "right")) -> Comparison:
    """Cell by cell: missing on a side, or any judged field unequal (named with both values)."""
    differences: list[str] = []
    observed = 0
    for cell in sorted(left.keys() | right.keys()):
        if cell not in right or cell not in left:
            differences.append(f"{cell}: only in {names[0] if cell in left else names[1]}")
            continue
        one, two = judged(left[cell]), judged(right[cell])
        fields = sorted(k for k in one.keys() | two.keys() if one.get(k) != two.get(k))
        if fields:
            differences.append(f"{cell}: " + "; ".join(f"{k}: {one.get(k)!r} != {two.get(k)!r}" for k in fields))
        elif left[cell] != right[cell]:
            observed += 1
    return Comparison(len(left), len(right), tuple(differences), observed)


def verdicts(cells: Cells) -> Cells:
    """Each cell's golden view (``verdict``)."""
    return {cell: verdict(record) for cell, record in cells.items()}


def golden_lines(cells: Cells) -> str:
    """A golden file's text: one verdict per line, in cell order, so a refresh's diff reads cell by cell."""
    return "".join(json.dumps(verdict(cells[cell]), sort_keys=True) + "\n" for cell in sorted(cells))
