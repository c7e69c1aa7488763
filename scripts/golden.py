"""Golden records: a fixed slice's verdicts, checked in, refreshed by this one command after a reviewed change.

``python scripts/golden.py refresh [NAME...] [--run RUN]`` runs each slice ``tests/golden/NAME/slice.json``
names (every slice when none is named; ``kcompat run`` with its arguments, two workers; or reads the run directory
RUN made by them, for one NAME), prints each cell judged differently from the checked-in ``records.jsonl`` and
writes the new verdicts there.  A run with a cell
that is ``fail`` or ``infra_error`` is refused: a golden slice holds judged cells only.  Review the printed
differences (and ``git diff tests/golden``) before committing them; CI compares every run of a slice with its
file, verdict by verdict (``kcompat.reports.compare``): ``tests/integration/test_golden.py``, or the module a
slice's ``run_by`` names.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from kcompat.harness.records import ACCEPTED
from kcompat.reports.compare import compare, golden_lines, load, parse, verdicts

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
KCOMPAT = Path(sys.executable).parent / "kcompat"


def slice_args(name: str) -> list[str]:
    """The ``kcompat run`` arguments of golden slice ``name``."""
    args: list[str] = json.loads((GOLDEN / name / "slice.json").read_text(encoding="utf-8"))["run"]
    return args


def run_slice(name: str, out: Path) -> None:
    """Runs the slice into ``out``; its exit code is the run's (1 when a cell is not judged)."""
    done = subprocess.run([str(KCOMPAT), "run", *slice_args(name), "-n", "2", "--quiet", "--out", str(out)],
                          check=False)
    if done.returncode not in (0, 1):
        sys.exit(f"golden.py: kcompat run exited {done.returncode}; nothing refreshed")


def refresh(name: str, run: Path) -> int:
    """Writes the run's verdicts as the golden file, after printing how they differ from the old one."""
    cells = load(run)
    unjudged = sorted(c for c, r in cells.items() if r["outcome"] not in ACCEPTED)
    if unjudged:
        print("\n".join(unjudged))
        sys.exit(f"golden.py: {len(unjudged)} cell(s) of {run} not judged (above); nothing refreshed")
    path = GOLDEN / name / "records.jsonl"
    old = parse(path.read_text(encoding="utf-8").splitlines()) if path.exists() else {}
    result = compare(old, verdicts(cells), ("the golden file", str(run)))
    print("\n".join([*result.differences, result.summary()]))
    path.write_text(golden_lines(cells), encoding="utf-8")
    print(f"wrote {len(cells)} verdicts to {path.relative_to(ROOT)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["refresh"])
    parser.add_argument("names", nargs="*", metavar="NAME", help="a slice: a folder of tests/golden (default: all)")
    parser.add_argument("--run", type=Path, help="a run directory of the one slice named (default: run it now)")
    args = parser.parse_args()
    known = sorted(path.parent.name for path in GOLDEN.glob("*/slice.json"))
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"no golden slice {unknown[0]!r}; the slices: {', '.join(known)}")
    names = args.names or known
    if args.run is not None:
        if len(names) != 1:
            parser.error("--run is a run of one slice: name it")
        if not (args.run / "records.jsonl").is_file():
            parser.error(f"--run {args.run}: no records.jsonl there (not a kcompat run directory)")
        return refresh(names[0], args.run)
    for name in names:
        with tempfile.TemporaryDirectory(prefix="kcompat-golden-") as scratch:
            run_slice(name, Path(scratch) / "run")
            refresh(name, Path(scratch) / "run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
