"""The one comparison of records (``kcompat.reports.compare``) that scripts/compare_runs.py and the golden slices
share, and each golden slice kept in step with the claim book (its cells are the slice's plan), without a broker."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kcompat.reports.compare import compare, golden_lines, load, parse, verdicts
from tests import goldens
from tests.console import kcompat, ok

ROOT = Path(__file__).resolve().parents[2]
CELL = "KIP-525/create-returns-configs[3.9.2-kraft|wire]"


def _record(**changes: Any) -> dict[str, Any]:
    record = {"cell_id": CELL, "run_id": "20250101-120000-abcdef", "outcome": "pass", "limited_by": None,
              "request_version": 5, "documented": {"case": "supported", "expect": {"error": "NONE"}},
              "observed": {"error": "NONE", "topic": "kc-20250101-120000-abcdef-gw0-7"}, "differences": [],
              "observations": [], "duration_ms": 12, "worker": "gw0"}
    return {**record, **changes}


def _run(tmp_path: Path, name: str, *records: dict[str, Any]) -> Path:
    run = tmp_path / name
    run.mkdir()
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return run


def test_a_changed_verdict_is_a_difference_and_raw_observations_only_a_count(tmp_path: Path) -> None:
    same = _run(tmp_path, "a", _record())
    other_run = _run(tmp_path, "b", _record(run_id="20250102-130000-012345", duration_ms=99, worker="gw1",
                                            observed={"error": "NONE", "topic": "kc-x-gw1-3", "partitions": 2}))
    result = compare(load(same), load(other_run))
    assert result.differences == () and result.observed == 1, result
    deviating = _run(tmp_path, "c", _record(outcome="deviation", differences=[{"key": "error"}]))
    result = compare(load(same), load(deviating), ("a", "c"))
    assert len(result.differences) == 1 and result.differences[0].startswith(f"{CELL}: differences: ")
    assert "outcome: 'pass' != 'deviation'" in result.differences[0]


def test_a_golden_file_keeps_the_verdict_and_fails_on_any_change_of_it(tmp_path: Path) -> None:
    cells = load(_run(tmp_path, "run", _record()))
    golden = parse(golden_lines(cells).splitlines())
    assert golden == verdicts(cells) and compare(golden, verdicts(cells)).differences == ()
    assert set(golden[CELL]) == {"cell_id", "outcome", "limited_by", "case", "request_version", "observed_keys",
                                 "deviating_keys"}
    for changed in ({"outcome": "unsupported"}, {"limited_by": "broker"}, {"request_version": 4},
                    {"observed": {}}, {"documented": {"case": "below", "expect": {"error": "NONE"}}}):
        again = load(_run(tmp_path, "+".join(changed), _record(**changed)))
        assert compare(golden, verdicts(again)).differences, changed
    gone = compare(golden, {}, ("the golden file", "this run")).differences
    assert gone == (f"{CELL}: only in the golden file",)


def test_compare_runs_prints_each_cell_judged_differently_and_exits_1(tmp_path: Path) -> None:
    a, b = _run(tmp_path, "a", _record()), _run(tmp_path, "b", _record(limited_by="client", outcome="unsupported"))
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "compare_runs.py"), str(a), str(b)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and done.stdout.startswith(f"{CELL}: limited_by: None != 'client'"), done
    assert done.stdout.splitlines()[-1] == "1 and 1 cells; 1 judged differently; 0 more with the same judgement " \
                                           "on other raw observations"


@pytest.mark.parametrize("name", goldens.names())
def test_the_golden_file_holds_every_cell_of_the_slices_plan_and_nothing_else(name: str) -> None:
    """A claim added to or taken from the slice's documents changes its cells: refresh the golden file."""
    planned = {line for line in ok(kcompat("run", *goldens.run_args(name), "--plan", timeout=120)).splitlines()
               if "[" in line}
    golden = set(goldens.golden(name))
    assert planned == golden, (sorted(planned - golden)[:10], sorted(golden - planned)[:10])


def test_a_slice_run_by_another_module_names_one_that_runs_it() -> None:
    """``run_by``: the module whose own run of the slice compares it; test_golden.py runs every other slice."""
    for name in goldens.names():
        module = goldens.about(name).get("run_by")
        if module is not None:
            text = (ROOT / module).read_text(encoding="utf-8")
            assert f'"{name}"' in text and "goldens.differences(" in text, (name, module)


def test_refresh_of_a_given_run_names_its_one_slice(tmp_path: Path) -> None:
    """A run directory is one slice's run: ``--run`` without a slice's name is refused, the files untouched."""
    run = _run(tmp_path, "run", _record())
    before = {name: (ROOT / "tests" / "golden" / name / "records.jsonl").read_bytes() for name in goldens.names()}
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "golden.py"), "refresh", "--run", str(run)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--run is a run of one slice: name it" in done.stderr, done
    assert before == {name: (ROOT / "tests" / "golden" / name / "records.jsonl").read_bytes()
                      for name in goldens.names()}


@pytest.mark.parametrize(("args", "said"), [
    (["refresh", "../../etc"], "no golden slice '../../etc'; the slices: "),
    (["refresh", "kip-525-569", "--run", "/nonexistent"], "--run /nonexistent: no records.jsonl there"),
])
def test_refresh_of_something_that_is_not_a_slice_or_a_run_is_one_line(args: list[str], said: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "golden.py"), *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr and said in done.stderr, done
