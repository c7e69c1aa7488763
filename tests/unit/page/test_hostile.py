"""The page under hostile or broken run directories, through the installed ``kcompat`` console script.

Each case is one counted skip (or a banner) and a page that still opens; nothing crashes, nothing
links outside the run directory, nothing in summary.md turns into markup.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.harness.records import Record
from tests.unit.page.records import DEVIATION, records, write_run

KCOMPAT = str(Path(sys.executable).parent / "kcompat")


def _page(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KCOMPAT, "matrix", *args], capture_output=True, text=True, timeout=120, check=False)


def _append(run: Path, *lines: str) -> None:
    with (run / "records.jsonl").open("a", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in lines)


def _good() -> dict[str, object]:
    return records()[0].as_json()


HOSTILE_LINES = {
    "javascript-log": {**_good(), "log": "javascript:alert(document.domain)"},
    "absolute-log": {**_good(), "log": "/etc/passwd"},
    "climbing-log": {**_good(), "log": "../../../../etc/passwd"},
    "log-int": {**_good(), "log": 7},
    "kip-null": {**_good(), "kip": None},
    "kip-int": {**_good(), "kip": 525},
    "claim-without-slash": {**_good(), "claim_id": "KIP-525"},
    "limited-by-list": {**_good(), "limited_by": ["broker"]},
    "broker-version-float": {**_good(), "broker_version": 2.4},
    "client-int": {**_good(), "client": 5},
    "quotes-int": {**_good(), "documented": {"case": "supported", "quotes": 5, "expect": {}}},
    "differences-string": {**_good(), "differences": "x"},
    "fields-disagree-with-cell": {**_good(), "broker_version": "9.9.9", "client": "java:9.9.9"},
}


@pytest.mark.parametrize("name", HOSTILE_LINES)
def test_a_hostile_record_is_skipped_and_counted(tmp_path: Path, name: str) -> None:
    run = write_run(tmp_path / "run", records())
    _append(run, json.dumps(HOSTILE_LINES[name]))
    for out in (tmp_path / "page", run, tmp_path):  # --out elsewhere, the run dir itself, an ancestor of it
        done = _page(str(run), "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert "skipped:" in done.stderr and "malformed lines (1)" in done.stderr
        assert "80 cells:" in done.stdout  # the hostile line adds no row, column or client
        html = re.sub(r'<div class="skipped".*?</div>', "", (out / "index.html").read_text(), flags=re.S)
        assert "javascript:" not in html and "/etc/passwd" not in html and "9.9.9" not in html
        hrefs = re.findall(r'href\\?":?\\?"([^"\\]*)', html)
        assert all(not h.startswith(("/", "file:")) and ".." not in h.split("/")[1:] for h in hrefs), hrefs


@pytest.mark.parametrize("line", [
    json.dumps({**_good(), "duration_ms": float("nan")}),
    json.dumps({**_good(), "observed": {"x": float("inf")}}),
    "[" * 100_000 + "]" * 100_000,
    json.dumps({**_good(), "observed": json.loads("[" * 500 + "]" * 500)}),
], ids=["nan", "infinity", "deeper-than-the-stack", "deep-record"])
def test_nan_and_nesting_in_records_skip_one_line(tmp_path: Path, line: str) -> None:
    run = write_run(tmp_path / "run", records())
    _append(run, line)
    done = _page(str(run), "--out", str(tmp_path / "page"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "malformed lines (1)" in done.stderr
    html = (tmp_path / "page" / "index.html").read_text()
    blob = html[html.index('id="data"'):]
    assert "NaN" not in blob and "Infinity" not in blob  # JSON.parse would die on them: no filter, no detail


@pytest.mark.parametrize("file, text", [
    ("run.json", "[" * 100_000 + "]" * 100_000),
    ("run.json", json.dumps({"run_id": "r", "git_sha": 5, "ended_at": 7, "started_at": ["x"]})),
    ("run.json", b"\xff\xfe{}"),
    ("coverage.json", "[" * 100_000 + "]" * 100_000),
    ("coverage.json", json.dumps([{"kip": None, "statement": 5}, {"kip": "../x", "statement": "s"}])),
], ids=["run-deep", "run-wrong-types", "run-not-utf8", "coverage-deep", "coverage-wrong-types"])
def test_hostile_run_and_coverage_files_are_skipped_and_counted(tmp_path: Path, file: str, text: str | bytes) -> None:
    run = write_run(tmp_path / "run", records())
    (run / file).write_bytes(text if isinstance(text, bytes) else text.encode())
    done = _page(str(run), "--out", str(tmp_path / "page"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "skipped:" in done.stderr and file in done.stderr
    assert "80 cells:" in done.stdout


def test_a_killed_run_says_so_at_the_top_of_the_page_and_the_summary(tmp_path: Path) -> None:
    recs = records()
    run = write_run(tmp_path / "run", recs[:50])
    meta = json.loads((run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps({**meta, "ended_at": None, "exit_code": None}))
    (run / "selected-gw0-1.json").write_text(json.dumps([r.cell_id for r in recs]))
    done = _page(str(run), "--out", str(tmp_path / "page"))
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "page" / "index.html").read_text()
    top = html[html.index("<header>"):html.index('id="matrix"')]
    assert "Incomplete run" in top and "it did not end" in top and "30 selected cells without a verdict" in top
    summary = (tmp_path / "page" / "summary.md").read_text()
    assert summary.split("\n\n")[1].startswith("> **Incomplete run**") and "30 selected cells" in summary
    complete = write_run(tmp_path / "whole", recs)
    _page(str(complete), "--out", str(tmp_path / "page2"))
    assert "Incomplete" not in (tmp_path / "page2" / "summary.md").read_text()


def test_summary_md_shows_hostile_text_as_text(tmp_path: Path) -> None:
    reason = "bad\n\n## Injected heading\n![img](http://x/y.png) <img src=x onerror=alert(1)> [link](http://x) `code`"
    recs = [Record(**{**r.as_json(), "reason": reason}) if r.cell_id == DEVIATION else r for r in records()]
    run = write_run(tmp_path / "run", recs)
    done = _page(str(run), "--out", str(tmp_path / "page"), "--title", "T\n# <b>x</b> ![i](http://x)")
    assert done.returncode == 0, done.stderr
    summary = (tmp_path / "page" / "summary.md").read_text()
    assert "\n## Injected" not in summary and "\n# " not in summary
    assert "<img" not in summary and "<b>" not in summary and "![img](" not in summary and "![i](" not in summary
    assert "[link](" not in summary
    line = next(line for line in summary.splitlines() if DEVIATION in line)
    assert "Injected heading" in line and "&lt;img" in line  # the words are all there, on one line
