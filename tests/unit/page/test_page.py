"""The matrix page without a browser: reading run directories, bad input, the summary, the command."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from click.testing import CliRunner

from kcompat.harness.records import Record, append_record
from kcompat.reports.page import load, repro_command, write
from kcompat.reports.page.cli import matrix
from kcompat.harness.versions import version_key
from kcompat.reports.page.model import client_key
from tests.console import kcompat
from tests.unit.page.records import CHANGED, DEVIATION, INTERMITTENT, records, two_runs, write_run

ROOT = Path(__file__).resolve().parents[3]


def test_columns_group_by_mode_then_version_and_clients_by_kind(tmp_path: Path) -> None:
    data = load([write_run(tmp_path / "r", records())])
    assert data.columns == [("zk", "2.3.1", ""), ("zk", "2.4.1", ""), ("zk", "2.6.3", ""), ("kraft", "3.9.2", ""),
                            ("kraft", "4.4.0", "")]
    assert data.clients == ["wire", "confluent", "java:2.3.1", "java:4.4.0"]
    assert version_key("2.10.0") > version_key("2.9.1")
    assert sorted(["java:4.4.0", "wire@v5", "confluent:2.0.2", "wire", "java:2.3.1"], key=client_key) == [
        "wire", "wire@v5", "confluent:2.0.2", "java:2.3.1", "java:4.4.0"]


def test_newest_run_wins_and_history_marks_the_change(tmp_path: Path) -> None:
    older, newer = two_runs(tmp_path)
    data = load([newer, older])  # order given does not matter: runs are ordered by their start
    assert [run.run_id for run in data.runs] == ["run-a", "run-b"]
    view = data.cells[CHANGED]
    assert view.record.outcome == "deviation" and [h.outcome for h in view.history] == ["pass", "deviation"]
    assert [cell for cell, v in data.cells.items() if v.changed] == [CHANGED]


def test_the_last_line_of_a_cell_is_its_verdict(tmp_path: Path) -> None:
    run = write_run(tmp_path / "r", records())
    first = next(r for r in records() if r.cell_id == DEVIATION)
    append_record(run / "records.jsonl", Record(**{**first.as_json(), "outcome": "pass", "differences": []}))
    assert load([run]).cells[DEVIATION].record.outcome == "pass"


def test_bad_input_is_skipped_and_counted_never_raised(tmp_path: Path) -> None:
    run = write_run(tmp_path / "r", records())
    with (run / "records.jsonl").open("a") as out:
        out.write("{not json\n")
        out.write(json.dumps({**records()[0].as_json(), "schema_version": 99}) + "\n")
        out.write(json.dumps({"schema_version": 1, "cell_id": "x"}) + "\n")
        out.write('{"schema_version": 1, "run_id": "torn')  # a writer killed mid-line
    (run / "run.json").unlink()
    (run / "coverage.json").write_text("[{\"kip\": \"KIP-525\"}]")
    no_records = tmp_path / "empty"
    no_records.mkdir()
    result = CliRunner().invoke(matrix, [str(run), str(tmp_path / "absent"), str(no_records),
                                         "--out", str(tmp_path / "page")])
    assert result.exception is None, result.output
    skipped = {line for line in result.output.splitlines() if line.startswith("skipped:")}
    assert any("malformed lines (2)" in line for line in skipped)
    assert any("unknown schema_version (1)" in line for line in skipped)
    assert any("torn last line" in line for line in skipped)
    assert any("absent: not a directory" in line for line in skipped)
    assert any("empty: no records.jsonl" in line for line in skipped)
    assert any("no run.json" in line for line in skipped)
    assert any("malformed coverage.json entries (1)" in line for line in skipped)
    html = (tmp_path / "page" / "index.html").read_text()
    assert 'id="skipped"' in html and "malformed lines (2)" in html
    assert f'<b id="count-pass">{sum(r.outcome == "pass" for r in records())}</b>' in html
    assert "skipped" in (tmp_path / "page" / "summary.md").read_text()


def test_no_readable_cell_writes_a_page_and_fails(tmp_path: Path) -> None:
    result = CliRunner().invoke(matrix, [str(tmp_path / "nothing"), "--out", str(tmp_path / "page")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "No readable cell" in (tmp_path / "page" / "index.html").read_text()


def test_page_is_self_contained(tmp_path: Path) -> None:
    html_path, _ = write(load(list(two_runs(tmp_path))), tmp_path / "page")
    html = html_path.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<script src" not in html and 'rel="stylesheet"' not in html
    assert "@import" not in html and "url(http" not in html


def test_records_cannot_break_out_of_the_page(tmp_path: Path) -> None:
    hostile = [Record(**{**r.as_json(), "reason": "</script><script>alert(1)</script>"}) for r in records()]
    html_path, _ = write(load([write_run(tmp_path / "r", hostile)]), tmp_path / "page")
    html = html_path.read_text()
    assert "<script>alert(1)" not in html and html.count("</script>") == 2


def test_summary_is_short_and_names_the_findings(tmp_path: Path) -> None:
    many = [Record(**{**r.as_json(), "outcome": "deviation", "limited_by": None,
                      "reason": "configs is null where KIP says present"}) for r in records()]
    _, summary = write(load([write_run(tmp_path / "r", many)]), tmp_path / "page")
    text = summary.read_text()
    assert len(text.splitlines()) < 40 and "**deviation** (80)" in text and "and 70 more" in text
    assert "kcompat repro '" in text


def test_summary_and_page_say_k_of_n_and_read_every_schema_version(tmp_path: Path) -> None:
    """Through the console script: an intermittent cell's k of n in summary.md and the count line; records of
    schema_version 1 and 2 (no observations) beside version 3 ones are cells like any other."""
    recs = records()
    old = []
    for number, record in enumerate(recs[:10]):
        line = record.as_json()
        line["schema_version"] = 1 + number % 2
        del line["observations"], line["intermittent"]
        if line["schema_version"] == 1:
            del line["broker_min_version"]
        old.append(json.dumps(line))
    run = write_run(tmp_path / "r", recs[10:])
    (run / "records.jsonl").write_text("\n".join(old) + "\n" + (run / "records.jsonl").read_text())
    done = kcompat("matrix", str(run), "--out", str(tmp_path / "page"), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "80 cells: 24 pass, 51 unsupported, 3 deviation (1 intermittent), 1 fail, 1 infra_error" in done.stdout
    assert "skipped" not in done.stderr
    text = (tmp_path / "page" / "summary.md").read_text()
    assert "3 deviation (1 intermittent)" in text
    line = next(line for line in text.splitlines() if INTERMITTENT in line)
    assert line.startswith(f"- `{INTERMITTENT}` (intermittent, held 2 of 3): ")
    assert "(intermittent" not in next(line for line in text.splitlines() if DEVIATION in line)
    html = (tmp_path / "page" / "index.html").read_text()
    assert '<td class="d i">2/3</td>' in html and 'id="count-intermittent">1<' in html


def test_repro_command_quotes_for_the_shell() -> None:
    assert repro_command(DEVIATION, "run-2.4.1") == f"kcompat repro '{DEVIATION}' --run run-2.4.1"
    assert repro_command(DEVIATION, "my runs/x") == f"kcompat repro '{DEVIATION}' --run 'my runs/x'"


def test_coverage_lists_statements_without_a_claim(tmp_path: Path) -> None:
    html_path, summary = write(load([write_run(tmp_path / "r", records())]), tmp_path / "page")
    html = html_path.read_text()
    assert "3 KIP statements: 1 with a claim, 2 without (1 not testable)." in html
    assert "no broker in the catalog has a dynamic config without docs" in html
    assert "1 of 3 KIP statements have a claim" in summary.read_text()


def test_python_dash_m_and_the_entry_point(tmp_path: Path) -> None:
    run = write_run(tmp_path / "r", records())
    done = subprocess.run([sys.executable, "-m", "kcompat.reports.page", str(run), "--out", str(tmp_path / "page")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "80 cells: 24 pass, 51 unsupported, 3 deviation (1 intermittent), 1 fail, 1 infra_error" in done.stdout
    (command,) = [ep for ep in entry_points(group="kcompat.commands") if ep.name == "matrix"]
    assert command.load() is matrix
