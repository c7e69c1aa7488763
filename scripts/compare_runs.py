"""Two runs' records, compared cell by cell minus what differs by nature (times, ids, workers, log paths).

``python scripts/compare_runs.py RUN_A RUN_B [--ignore KEY]...`` prints one line per cell whose
judgement differs (missing on a side; outcome, limits, documented side,
differences, request version, observations' outcomes...) and exits 1 when any
does: a refactoring of the engine must leave them byte-for-byte the same.
The raw ``observed`` values are compared too but only counted: brokers vary
between two runs of the same code (connection ids in error messages, a
partition count read before KRaft's metadata caught up), so they are
reported as a figure, never a failure.  ``--ignore schema_version`` compares runs written on
either side of a records version that changed no field (4: a bug of ours is ``infra_error``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

VOLATILE = {"run_id", "started_at", "duration_ms", "call_ms", "worker", "log"}
_RUN_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{6}")
_WORKER = re.compile(r"-(gw\d+|main)-\d+\b")


def _scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, str):
        return _WORKER.sub("-W-N", _RUN_ID.sub("RUN", value))
    return value


def _judged(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its raw observations (what a verdict was judged from, not the verdict)."""
    kept = {k: v for k, v in record.items() if k != "observed"}
    kept["observations"] = [{k: v for k, v in o.items() if k != "observed"} for o in record.get("observations", [])]
    return kept


def load(run: Path, ignore: frozenset[str] = frozenset()) -> dict[str, dict[str, Any]]:
    cells: dict[str, dict[str, Any]] = {}
    for line in (run / "records.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            cells[record["cell_id"]] = {k: v for k, v in _scrub(record).items() if k not in ignore}
    return cells


def main(a: str, b: str, ignore: frozenset[str] = frozenset()) -> int:
    left, right = load(Path(a), ignore), load(Path(b), ignore)
    differing = observed = 0
    for cell in sorted(left.keys() | right.keys()):
        if cell not in right or cell not in left:
            differing += 1
            print(f"{cell}: only in {a if cell in left else b}")
            continue
        one, two = _judged(left[cell]), _judged(right[cell])
        fields = sorted(k for k in one.keys() | two.keys() if one.get(k) != two.get(k))
        if fields:
            differing += 1
            print(f"{cell}: " + "; ".join(f"{k}: {one.get(k)!r} != {two.get(k)!r}" for k in fields))
        elif left[cell] != right[cell]:
            observed += 1
    print(f"{len(left)} and {len(right)} cells; {differing} judged differently; "
          f"{observed} more with the same judgement on other raw observations")
    return 1 if differing else 0


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_a", type=Path)
    parser.add_argument("run_b", type=Path)
    parser.add_argument("--ignore", action="append", default=[], metavar="KEY",
                        help="a record key to leave out of the comparison (repeatable)")
    args = parser.parse_args()
    sys.exit(main(str(args.run_a), str(args.run_b), frozenset(args.ignore)))
