"""The nightly's gate and script on what needs no broker and no Spark: ``kcompat history gate`` on crafted
reports, and ``scripts/nightly.sh`` refusing bad arguments in one line (both as a user types them).
The two real nights are tests/integration/test_nightly.py."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.console import kcompat

ROOT = Path(__file__).resolve().parents[2]
CELL = "KIP-569/type-and-documentation-when-asked[4.4.0-kraft|wire]"


def _regression(run_id: str, cell_id: str = CELL, **extra: object) -> dict[str, object]:
    return {"cell_id": cell_id, "run_id": run_id, "from_run_id": "night-1", "from_outcome": "pass",
            "to_outcome": "deviation", "changed": {}, "documented_changed": False, **extra}


def _report(tmp_path: Path, *rows: dict[str, object]) -> Path:
    out = tmp_path / "report"
    out.mkdir(parents=True)
    (out / "regressions.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return out


def _run(tmp_path: Path, run_id: str) -> Path:
    run = tmp_path / run_id
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"run_id": run_id}))
    return run


def test_the_gate_names_tonights_regressions_only(tmp_path: Path) -> None:
    report = _report(tmp_path, _regression("night-0", "KIP-569/older[4.4.0-kraft|wire]"),
                     _regression("night-2", changed={"broker_version": {"from": "4.3.0", "to": "4.4.0"}},
                                 documented_changed=True))
    done = kcompat("history", "gate", str(report), str(_run(tmp_path, "night-2")))
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        f"regression: {CELL}: pass -> deviation in run night-2 (since run night-1; "
        "broker_version 4.3.0 -> 4.4.0, documented side revised)"]
    assert done.stderr == f"kcompat: error: 1 regression(s) in 1 run(s); see {report / 'regressions.jsonl'}\n"

    quiet = kcompat("history", "gate", str(report), str(_run(tmp_path, "night-3")))
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "no regression in 1 run(s)\n", "")


def test_an_improvement_is_named_and_never_red(tmp_path: Path) -> None:
    """deviation -> pass (the documented behaviour holds now) is said, and the night stays green; a change
    between two verdicts that hold (pass -> unsupported) is still a regression."""
    fixed = _regression("night-2", from_outcome="deviation", to_outcome="pass")
    report = _report(tmp_path, fixed)
    done = kcompat("history", "gate", str(report), str(_run(tmp_path, "night-2")))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"improved: {CELL}: deviation -> pass in run night-2 (since run night-1)",
                                        "no regression in 1 run(s)"]
    limited = _report(tmp_path / "b", _regression("night-2", to_outcome="unsupported"))
    assert kcompat("history", "gate", str(limited), str(tmp_path / "night-2")).returncode == 1


@pytest.mark.parametrize("content", [b"[" * 100_000 + b"\n", b'{"cell_id": 5}\n', b"\xff\xfe\n", b"NaN\n"],
                         ids=["deep", "wrong-type", "not-utf-8", "nan"])
def test_a_report_the_gate_cannot_read_is_one_line_never_a_pass(tmp_path: Path, content: bytes) -> None:
    report = _report(tmp_path)
    (report / "regressions.jsonl").write_bytes(content)
    done = kcompat("history", "gate", str(report), str(_run(tmp_path, "night-2")))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(f"kcompat: error: {report / 'regressions.jsonl'}") and done.stderr.count("\n") == 1


def test_the_gate_refuses_a_missing_report_or_run(tmp_path: Path) -> None:
    run = _run(tmp_path, "night-2")
    missing = kcompat("history", "gate", str(tmp_path / "nowhere"), str(run))
    assert missing.returncode == 1 and missing.stderr.startswith(f"kcompat: error: {tmp_path / 'nowhere'} holds no")
    no_run = kcompat("history", "gate", str(_report(tmp_path)), str(tmp_path / "gone"))
    assert (no_run.returncode, no_run.stderr) == (1, f"kcompat: error: {tmp_path / 'gone'} is not a run directory\n")


def _script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(ROOT / "scripts" / "nightly.sh"), *args], capture_output=True, text=True,
                          timeout=300, check=False, cwd=cwd, env=dict(os.environ))


@pytest.mark.parametrize("args", [[], ["run-1"], ["--store", "s"], ["--store"], ["--bogus", "--store", "s", "r"]],
                         ids=["nothing", "no-store", "no-shard", "store-without-value", "unknown-option"])
def test_the_script_refuses_bad_arguments_in_one_line(tmp_path: Path, args: list[str]) -> None:
    done = _script(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1].startswith("usage: scripts/nightly.sh --store STORE")
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_shard_without_records_fails_before_spark_and_names_the_step(tmp_path: Path) -> None:
    (tmp_path / "run-empty").mkdir()
    done = _script("--store", "store", "--out", "night", "run-empty", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "kcompat: error: run-empty" in done.stderr  # ingest's own line, before any JVM
    assert "scripts/nightly.sh: the ingest into store failed" in done.stderr
    assert not (tmp_path / "store").exists()
    assert "scripts/nightly.sh: shard run-empty: its run.json is unreadable" in done.stderr


@pytest.mark.parametrize("run, said", [({"ended_at": None, "exit_code": None}, "its run never ended (killed?)"),
                                       ({"ended_at": "2026-11-24T01:00:00+00:00", "exit_code": 1},
                                        "its run ended with exit code 1")])
def test_a_shard_job_that_did_not_end_well_fails_the_night(tmp_path: Path, run: dict[str, object], said: str) -> None:
    (tmp_path / "run-4.4").mkdir()
    (tmp_path / "run-4.4" / "run.json").write_text(json.dumps({"run_id": "r", **run}))
    done = _script("--store", "store", "--out", "night", "run-4.4", cwd=tmp_path)
    assert done.returncode == 1 and f"scripts/nightly.sh: shard run-4.4: {said}" in done.stderr, done.stderr


def test_a_torn_run_json_does_not_hide_tonights_regression(tmp_path: Path) -> None:
    """A shard killed while writing run.json leaves its records: the gate knows the run by them."""
    from tests.history_builders import JAVA, run_dir

    report = _report(tmp_path, _regression("night-2", JAVA))
    shard = run_dir(tmp_path / "shards", "night-2", 2, {JAVA: "deviation"}).rename(tmp_path / "shards" / "run-4.4")
    (shard / "run.json").write_text('{"run_id": "nig')
    done = kcompat("history", "gate", str(report), str(shard))
    assert done.returncode == 1 and f"regression: {JAVA}" in done.stdout, done.stdout + done.stderr
