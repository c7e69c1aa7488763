"""The golden slices (``tests/golden/NAME``): each one's ``kcompat run`` arguments, and a run's verdicts compared
with its checked-in records (``kcompat.reports.compare``, the comparison ``scripts/compare_runs.py`` makes).

A slice whose ``slice.json`` names a module in ``run_by`` is run by that module, whose run serves other
assertions too; ``tests/integration/test_golden.py`` runs the others.  docs/TESTING.md says how to refresh one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kcompat.harness.records import RECORDS_FILE
from kcompat.reports.compare import Cells, compare, load, parse, verdicts

GOLDEN = Path(__file__).resolve().parent / "golden"


def names() -> list[str]:
    """Every golden slice, by folder name."""
    return sorted(path.parent.name for path in GOLDEN.glob("*/slice.json"))


def about(name: str) -> dict[str, Any]:
    """The slice's ``slice.json``: ``run`` (its arguments), ``about`` and, optionally, ``run_by``."""
    loaded: dict[str, Any] = json.loads((GOLDEN / name / "slice.json").read_text(encoding="utf-8"))
    return loaded


def run_args(name: str) -> list[str]:
    """The ``kcompat run`` arguments of slice ``name`` (a test adds workers and ``--out``)."""
    return list(about(name)["run"])


def golden(name: str) -> Cells:
    """The slice's golden verdicts, by cell."""
    return parse((GOLDEN / name / RECORDS_FILE).read_text(encoding="utf-8").splitlines())


def differences(name: str, run: Path) -> str:
    """Each cell the run judged otherwise than the golden file (one line each), or '' when none was."""
    result = compare(golden(name), verdicts(load(run)), ("the golden file", "this run"))
    if not result.differences:
        return ""
    return "\n".join([*result.differences, result.summary(),
                      f"reviewed and meant? python scripts/golden.py refresh {name} --run {run}"])
