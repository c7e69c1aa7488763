"""The bug zoo's data: the installed zoo loads, every bad entry is one ``FILE:LINE: reason`` line through the
console script, a run's records are judged per entry (``kcompat zoo check``), and docs/ZOO.md lists every entry."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kcompat.harness.matrix.zoo import load_zoo
from kcompat.harness.records import Cell, Outcome, Record, append_record
from tests.console import kcompat, ok

ROOT = Path(__file__).resolve().parents[2]
GOOD = """
[[bug]]
id = "a-bug"
title = "t"
link = "https://issues.apache.org/jira/browse/KAFKA-1"
tracker = "kafka-jira"
operation = "describeConfigs"
symptom = "s"
reported = { client = "c", broker = "b" }
claim = "DOCS-admin/describe-configs"
buggy = { client = "wire@v0", broker = "4.4" }
fixed = { client = "wire@v1", broker = "4.4" }
"""


def test_the_installed_zoo_loads_with_enough_entries() -> None:
    bugs = load_zoo()
    assert len(bugs) >= 14
    assert sum(1 for bug in bugs if bug.buggy is not None) >= 8
    assert all(bug.not_reproduced for bug in bugs if bug.buggy is None)


def test_the_listing_names_every_entry_and_its_cells() -> None:
    out = ok(kcompat("zoo", timeout=120))
    for bug in load_zoo():
        assert bug.id in out
        assert f"  reported: client {bug.reported_client}; broker {bug.reported_broker}\n" in out, bug.id
        for label, text in (("fixed in", bug.fixed_in), ("note", bug.note)):
            assert text is None or f"  {label}: {text}\n" in out, (bug.id, label)
        for cell in bug.cells:
            assert cell.id in out


def _written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "zoo.toml"
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.parametrize(("change", "line", "reason"), [
    (('symptom = "s"', 'symptom = "s"\nseverity = "high"'), 9, "unknown key 'severity'"),
    (('claim = "DOCS-admin/describe-configs"', 'claim = "DOCS-admin/describe-confgs"'), 10, "no claim"),
    (('buggy = { client = "wire@v0"', 'buggy = { client = "jav:4.4.0"'), 11, "unknown client kind 'jav'"),
    (('fixed = { client = "wire@v1", broker = "4.4" }', 'fixed = { client = "wire@v1", broker = "7.1" }'), 12,
     "7.1 is not in the catalog"),
    (('id = "a-bug"', 'id = "A Bug"'), 3, "is not lower-case words joined by '-'"),
    (('link = "https://issues.apache.org/jira/browse/KAFKA-1"', 'link = "http://example.org"'), 5, "link"),
    (('buggy = { client = "wire@v0", broker = "4.4" }', 'buggy = { client = "wire@v0", broker = "2.3", mode = "kraft" }'),
     11, "has no kraft mode"),
])
def test_a_bad_entry_is_one_line_naming_file_and_line(tmp_path: Path, change: tuple[str, str], line: int,
                                                      reason: str) -> None:
    path = _written(tmp_path, GOOD.replace(*change))
    done = kcompat("zoo", "--zoo", str(path), timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert f"{path}:{line}: bug" in lines[0] and reason in lines[0], lines[0]


def test_not_toml_and_a_second_entry_with_the_same_id(tmp_path: Path) -> None:
    path = _written(tmp_path, GOOD + GOOD)
    done = kcompat("zoo", "--zoo", str(path), timeout=120)
    assert done.returncode == 2 and f"{path}:14: bug 'a-bug': id already used at line 2" in done.stderr
    path.write_text("[[bug]\n")
    done = kcompat("zoo", "--zoo", str(path), timeout=120)
    assert done.returncode == 2 and f"{path}:1: not valid TOML" in done.stderr


def _record(cell: Cell, outcome: Outcome) -> Record:
    return Record(run_id="r", cell_id=cell.id, kip=cell.kip, claim_id=cell.claim_id, api="DescribeConfigs",
                  broker_version=cell.broker_version, broker_mode=cell.broker_mode, provider="process",
                  client_kind="wire", client_version="", outcome=outcome, client=cell.client, broker_nodes=1,
                  security="plaintext", required_versions={"min": 0, "max": None}, started_at="2026-01-01T00:00:00")


@pytest.mark.parametrize(("buggy", "fixed", "fixed_verdict", "state", "code"), [
    ("unsupported", "pass", "pass", "reproduced", 0),
    ("deviation", "unsupported", "unsupported", "reproduced", 0),
    ("pass", "pass", "pass", "not reproduced", 1),
    ("deviation", "deviation", "pass", "not reproduced", 1),
    ("unsupported", "unsupported", "unsupported", "not reproduced", 1),
    ("infra_error", "pass", "pass", "inconclusive", 0),
    ("fail", "pass", "pass", "inconclusive", 0),
    ("unsupported", "infra_error", "pass", "inconclusive", 0),
    (None, "pass", "pass", "not in this run", 0),
])
def test_check_judges_each_entry_from_a_runs_records(tmp_path: Path, buggy: Outcome | None, fixed: Outcome,
                                                     fixed_verdict: str, state: str, code: int) -> None:
    path = _written(tmp_path, GOOD + f'fixed_verdict = "{fixed_verdict}"\n')
    bug = load_zoo(path)[0]
    assert bug.buggy is not None and bug.fixed is not None
    run = tmp_path / "run"
    run.mkdir()
    if buggy is not None:
        append_record(run / "records.jsonl", _record(bug.buggy, buggy))
    append_record(run / "records.jsonl", _record(bug.fixed, fixed))
    done = kcompat("zoo", "--zoo", str(path), "check", str(run), timeout=120)
    assert done.returncode == code, (done.stdout, done.stderr)
    assert f"a-bug: {state} (" in done.stdout


def test_check_refuses_a_directory_without_records(tmp_path: Path) -> None:
    done = kcompat("zoo", "check", str(tmp_path), timeout=120)
    assert done.returncode == 2 and "has no records.jsonl" in done.stderr


def test_the_zoo_page_lists_every_entry_with_its_link_and_cells() -> None:
    page = (ROOT / "docs" / "ZOO.md").read_text(encoding="utf-8")
    for bug in load_zoo():
        assert f"`{bug.id}`" in page, bug.id
        assert bug.link in page, bug.id
        for cell in bug.cells:
            assert cell.id in page, cell.id
    assert "docs/ZOO.md" in (ROOT / "README.md").read_text(encoding="utf-8")
