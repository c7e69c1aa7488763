"""The matrix page with the nightly history (``--history DIR``): a cell's detail lists its series' runs.

The history is a crafted one (tests/history_builders.py) reported by the history's own SQL on DuckDB;
tests/integration/test_history.py opens the same detail from a real store (``--store``).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kcompat.reports.page.cli import matrix
from kcompat.reports.page.history import cell_entries
from tests.history_builders import ACL, BUMPED, WIRE, bumps, intermittent_nights

pytest.importorskip("duckdb")


def history_report(tmp_path: Path) -> tuple[list[Path], Path]:
    from kcompat.reports.history import report as reporting
    from tests.unit.test_history import engine_over

    runs = bumps(tmp_path / "runs")
    out = tmp_path / "history"
    reporting.write(reporting.compute(engine_over(tmp_path, runs)), out)
    return runs, out


def _blob(html: Path) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="data">(.*?)</script>', html.read_text(), re.S)
    assert match is not None
    data: dict[str, object] = json.loads(match.group(1))
    return data


@contextlib.contextmanager
def page_with_history(tmp_path: Path, runs: list[Path], history: Path) -> Iterator[Any]:
    """The page of ``runs`` with ``history`` open in Chromium (a Playwright page); no script error on it."""
    from kcompat.reports.page.browser import chromium

    done = CliRunner().invoke(matrix, [*map(str, runs), "--out", str(tmp_path / "page"), "--history", str(history)])
    assert done.exit_code == 0, done.output
    errors: list[str] = []
    with chromium() as browser:
        view = browser.new_page(viewport={"width": 1400, "height": 900})
        view.on("pageerror", lambda exc: errors.append(str(exc)))
        view.goto((tmp_path / "page" / "index.html").as_uri())
        yield view
    assert errors == []


def test_cell_entries_say_what_changed(tmp_path: Path) -> None:
    _, out = history_report(tmp_path)
    history = json.loads((out / "history.json").read_text())
    assert cell_entries(history, BUMPED) == [
        [0, "run-1", "2025-01-01 01:00", "", 0, ""], [0, "run-2", "2025-01-02 01:00", "", 0, ""],
        [2, "run-3", "2025-01-03 01:00", "verdict pass -> deviation, broker_version 2.4.0 -> 2.4.1", 1, ""],
        [2, "run-4", "2025-01-04 01:00", "", 0, ""]]
    assert cell_entries(history, ACL, runs=2) == [
        [0, "run-3", "2025-01-03 01:00", "", 0, ""],
        [2, "run-4", "2025-01-04 01:00", "verdict pass -> deviation, documented side revised", 1, ""]]
    assert cell_entries(history, "KIP-1/none[1.0.0-zk|wire]") == []


def test_without_history_the_page_is_as_before_and_a_bad_history_is_one_line(tmp_path: Path) -> None:
    runs, out = history_report(tmp_path)
    plain = CliRunner().invoke(matrix, [*map(str, runs), "--out", str(tmp_path / "plain")])
    assert plain.exit_code == 0, plain.output
    blob = _blob(tmp_path / "plain" / "index.html")
    assert blob["series"] == {} and {cell[17] for cell in blob["cells"]} == {0}  # type: ignore[union-attr,index]
    bad = CliRunner().invoke(matrix, [*map(str, runs), "--out", str(tmp_path / "bad"), "--history", str(runs[0])])
    assert bad.exit_code == 2 and "holds no history.json" in bad.output


def test_the_detail_of_a_regressed_cell_shows_the_regression(tmp_path: Path) -> None:
    runs, out = history_report(tmp_path)
    with page_with_history(tmp_path, runs, out) as view:
        view.locator('#matrix section.block[data-client="java:3.7.0"] td.d').click()
        assert view.inner_text("#d-cell") == BUMPED
        assert view.inner_text("#d-series") == "Nightly history of KIP-525/validate-only-returns-configs[2.4-zk|java:3.7]"
        items = view.locator("#d-nightly li")
        assert items.count() == 4
        assert items.nth(2).inner_text() == (
            "2025-01-03 01:00 run-3: deviation verdict pass -> deviation, broker_version 2.4.0 -> 2.4.1")
        assert view.locator("#d-nightly li.chg").count() == 1
        view.keyboard.press("Escape")
        view.locator('#matrix section.block[data-client="wire"] tr[data-k="KIP-525"] td.d').click()
        assert view.inner_text("#d-cell") == WIRE
        assert view.locator("#d-nightly li.chg").count() == 3  # flaky: flips with nothing else changed


def test_the_nightly_history_says_which_runs_were_intermittent(tmp_path: Path) -> None:
    """A run whose observations disagreed says its k of n in the cell's nightly history (held 2 of 3 on the
    odd nights), in history.json's rows and in the detail pane as Chromium shows it."""
    from kcompat.reports.history import report as reporting
    from tests.unit.test_history import engine_over

    runs, out = intermittent_nights(tmp_path / "runs"), tmp_path / "history"
    reporting.write(reporting.compute(engine_over(tmp_path, runs)), out)
    history = json.loads((out / "history.json").read_text())
    assert [row[5] for row in cell_entries(history, WIRE)] == [
        "intermittent, held 2 of 3", "", "intermittent, held 2 of 3", ""]
    hostile = {series: [{**entry, "held_count": "<b>2</b>", "observation_count": 3.5} for entry in rows]
               for series, rows in history.items()}
    assert {row[5] for row in cell_entries(hostile, WIRE)} == {""}
    with page_with_history(tmp_path, runs, out) as view:
        view.locator('#matrix section.block[data-client="wire"] tr[data-k="KIP-525"] td.p').click()
        assert view.inner_text("#d-cell") == WIRE
        items = view.locator("#d-nightly li")
        assert items.count() == 4
        assert items.nth(0).inner_text().endswith("run-1: deviation · intermittent, held 2 of 3")
        assert items.nth(1).inner_text().endswith("run-2: pass verdict deviation -> pass")
        view.locator("#detail").screenshot(path=str(tmp_path / "nightly-intermittent.png"))
