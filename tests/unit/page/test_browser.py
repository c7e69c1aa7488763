"""The matrix page in a real browser: Debian's Chromium, headless, driven by Playwright, from file://.

Fails (never skips) without Chromium or Playwright: scripts/bootstrap.sh installs both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from kcompat.reports.page import load, repro_command, write
from kcompat.reports.page.browser import chromium
from tests.unit.page.records import CHANGED, DEVIATION, INTERMITTENT, records, two_runs


@pytest.fixture
def page(tmp_path: Path) -> Iterator[tuple[Page, list[str]]]:
    html, _ = write(load(list(two_runs(tmp_path))), tmp_path / "page")
    errors: list[str] = []
    with chromium() as browser:
        view = browser.new_page(viewport={"width": 1400, "height": 900})
        view.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        view.on("pageerror", lambda exc: errors.append(str(exc)))
        view.goto(html.as_uri())
        yield view, errors
        view.screenshot(path=str(tmp_path / "matrix.png"), full_page=True)


def _count(view: Page, outcome: str) -> int:
    return int(view.inner_text(f"#count-{outcome}"))


def test_loads_without_console_errors_and_counts_every_outcome(page: tuple[Page, list[str]]) -> None:
    view, errors = page
    expected = Counter(r.outcome for r in records())
    expected["pass"] -= 1  # the newer run's CHANGED cell deviates
    expected["deviation"] += 1
    for outcome in ("pass", "unsupported", "deviation", "fail", "infra_error"):
        assert _count(view, outcome) == expected[outcome], outcome
    assert int(view.inner_text("#shown")) == 80
    assert view.locator("#matrix section.block").count() == 4
    assert view.locator("td.u.lb").count() > 0 and view.locator("td.u.lc").count() > 0
    assert view.locator("td.u.l2").count() > 0 and view.locator("td.x").count() == 1
    assert errors == []


def test_filters_by_kip_client_and_verdict(page: tuple[Page, list[str]]) -> None:
    view, errors = page
    view.select_option("#f-kip", "KIP-569")
    assert int(view.inner_text("#shown")) == sum(r.kip == "KIP-569" for r in records())
    assert view.locator('#matrix tr[data-k="KIP-525"]:visible').count() == 0
    view.select_option("#f-client", "java:4.4.0")
    assert int(view.inner_text("#shown")) == sum(r.kip == "KIP-569" and r.client == "java:4.4.0" for r in records())
    assert view.locator("#matrix section.block:visible").count() == 1
    view.select_option("#f-kip", "")
    view.select_option("#f-client", "")
    for outcome in ("pass", "unsupported", "fail", "infra_error"):
        view.uncheck(f'.f-out[value="{outcome}"]')
    assert int(view.inner_text("#shown")) == 4
    assert _count(view, "pass") == 23  # counts stay per verdict; the verdict filter only dims and hides
    assert view.locator("#matrix tbody tr:not(.g):visible").count() == 4
    assert errors == []


def test_a_click_opens_the_cell(page: tuple[Page, list[str]], tmp_path: Path) -> None:
    view, errors = page
    assert view.locator("#detail").is_hidden()
    view.select_option("#f-client", "wire")
    view.select_option("#f-kip", "KIP-525")
    view.locator("#matrix section.block:visible td.d").click()
    assert view.locator("#detail").is_visible()
    assert view.inner_text("#d-cell") == DEVIATION
    assert view.inner_text("#d-outcome") == "deviation"
    assert "validateOnly" in view.inner_text("#d-quotes")
    diff = view.locator("#cmp tr.diff")
    assert diff.count() == 1 and "configs" in diff.inner_text() and "present" in diff.inner_text()
    assert view.inner_text("#d-reqv") == "v5"
    assert view.inner_text("#d-repro") == repro_command(DEVIATION, str(tmp_path / "run-b"))
    assert view.inner_text("#d-log") == str(tmp_path / "run-b" / "logs/2.4.1-zk/broker.log")
    view.keyboard.press("Escape")
    assert view.locator("#detail").is_hidden()
    view.select_option("#f-client", "java:4.4.0")
    view.locator("#matrix section.block:visible td.x").click()
    assert view.inner_text("#d-cell") == CHANGED
    assert "pass" in view.inner_text("#d-history") and "changed" in view.inner_text("#d-history li.chg")
    assert errors == []


VERDICT_CELLS = {"pass": "td.p", "unsupported-broker": "td.u.lb", "unsupported-client": "td.u.lc",
                 "unsupported-both": "td.u.l2", "deviation": "td.d", "fail": "td.f", "infra_error": "td.e"}


@pytest.mark.parametrize("verdict", VERDICT_CELLS)
def test_the_detail_pane_of_every_verdict_reads_right(page: tuple[Page, list[str]], tmp_path: Path,
                                                      verdict: str) -> None:
    """What a reader sees in the pane, per verdict: no stray "null" text, the quote, the facts, the command."""
    view, errors = page
    view.locator(f"#matrix {VERDICT_CELLS[verdict]}").first.click()
    stray = view.evaluate("Array.from(document.getElementById('detail').childNodes)"
                          ".filter(n => n.nodeType === 3).map(n => n.textContent)")
    assert stray == []  # replaceChildren(null) once printed "null" under the verdict and after the command
    outcome = verdict.split("-")[0]
    assert view.inner_text("#d-outcome") == outcome
    status = view.locator("#d-outcome").locator("xpath=..").inner_text()
    assert "null" not in status and "undefined" not in status
    if outcome == "unsupported":
        assert f"limited by {verdict.split('-')[1]}" in status
    assert view.inner_text("#d-quotes").strip()
    assert view.inner_text("#d-repro").startswith("kcompat repro ")
    assert view.inner_text("#d-repro").count("\n") == 0
    if outcome in ("fail", "infra_error", "deviation"):
        assert view.inner_text("#d-reason").strip()
    else:
        assert view.locator("#d-reason").count() == 0
    view.locator("#detail").screenshot(path=str(tmp_path / f"detail-{verdict}.png"))
    assert errors == []


def test_an_intermittent_cell_shows_k_of_n_in_the_grid_and_the_pane(page: tuple[Page, list[str]],
                                                                     tmp_path: Path) -> None:
    """Observed three times, held twice: the grid reads 2/3 instead of D, the pane says held 2 of 3 and lists
    each observation; a steady deviation keeps its D and no observation list."""
    view, errors = page
    marked = view.locator("#matrix td.d.i")
    assert marked.count() == 1 and marked.inner_text() == "2/3"
    assert view.inner_text("#count-intermittent") == "1"
    marked.hover()
    assert marked.get_attribute("title") == f"{INTERMITTENT}: deviation, intermittent, held 2 of 3"
    marked.click()
    assert view.inner_text("#d-cell") == INTERMITTENT
    assert view.inner_text("#d-outcome") == "deviation"
    assert "intermittent, held 2 of 3" in view.inner_text("#d-held")
    assert "held 2 of 3 observations" in view.inner_text("#d-observations")
    rows = view.locator("#d-observation-list tbody tr")
    assert rows.count() == 3
    assert [rows.nth(k).locator("td").nth(1).inner_text() for k in range(3)] == ["deviation", "pass", "pass"]
    assert "configs: null" in rows.nth(0).inner_text() and "as documented" in rows.nth(1).inner_text()
    stray = view.evaluate("Array.from(document.getElementById('detail').childNodes)"
                          ".filter(n => n.nodeType === 3).map(n => n.textContent)")
    assert stray == []
    view.locator("#detail").screenshot(path=str(tmp_path / "detail-intermittent.png"))
    view.keyboard.press("Escape")
    view.select_option("#f-client", "wire")
    view.select_option("#f-kip", "KIP-525")
    view.locator("#matrix section.block:visible td.d").click()
    assert view.inner_text("#d-cell") == DEVIATION
    assert view.locator("#d-held").count() == 0 and view.locator("#d-observations").count() == 0
    view.select_option("#f-client", "java:4.4.0")
    assert view.inner_text("#count-intermittent") == "1"
    view.select_option("#f-client", "wire")
    assert view.inner_text("#count-intermittent") == "0"
    assert errors == []


def test_the_detail_pane_says_each_matcher_in_words(tmp_path: Path) -> None:
    """The documented column reads ``is null``, ``is one of ...``, never the record's ``{"null":true}``."""
    from kcompat.harness.records import Record
    from tests.unit.page.records import write_run
    from tests.unit.page.test_matchers import every_matcher

    matchers = {f"k_{kind}": matcher for kind, matcher in every_matcher().items()} | {"error": "NONE"}
    passed = next(r for r in records() if r.outcome == "pass")
    record = Record(**{**passed.as_json(), "documented": {**passed.documented, "expect": matchers}})
    html, _ = write(load([write_run(tmp_path / "run", [record])]), tmp_path / "page")
    with chromium() as browser:
        view = browser.new_page(viewport={"width": 1400, "height": 900})
        view.goto(html.as_uri())
        view.locator("#matrix td.p").first.click()
        rows = view.locator("#cmp tbody tr")
        shown = {rows.nth(k).locator("th").inner_text(): rows.nth(k).locator("td").nth(0).inner_text()
                 for k in range(rows.count())}
        view.locator("#detail").screenshot(path=str(tmp_path / "detail-matchers.png"))
    assert shown["k_null"] == "is null" and shown["error"] == 'is "NONE"', shown
    assert shown["k_in"] == 'is one of "NONE", "INVALID_CONFIG"', shown
    assert all(shown[key] and "{" not in shown[key] for key in matchers), shown


def test_a_call_that_reached_its_deadline_says_so_in_the_cell_and_the_pane(tmp_path: Path) -> None:
    """A record whose call returned only at its adapter's deadline (``observed.deadline_reached``) is marked in
    the cell's title and in the detail pane; a cell without one has no marker."""
    from kcompat.harness.records import Record
    from tests.unit.page.records import write_run

    [first, second, *_] = records()
    blocked = Record(**{**first.as_json(), "observed": {**first.observed, "deadline_reached": 60.0}})
    html, _ = write(load([write_run(tmp_path / "run", [blocked, second])]), tmp_path / "page")
    with chromium() as browser:
        view = browser.new_page(viewport={"width": 1400, "height": 900})
        view.goto(html.as_uri())
        cells = view.locator("#matrix td[class]")
        assert cells.count() == 2
        titles = []
        for k in range(cells.count()):
            cells.nth(k).hover()
            titles.append(cells.nth(k).get_attribute("title") or "")
        marked = [k for k, title in enumerate(titles) if title.endswith(", reached its 60 s deadline")]
        assert len(marked) == 1, titles
        cells.nth(marked[0]).click()
        assert "reached its 60 s deadline" in view.inner_text("#d-deadline")
        cells.nth(1 - marked[0]).click()
        assert view.locator("#d-deadline").count() == 0


def test_the_pane_names_the_document_that_decided_a_cell(tmp_path: Path) -> None:
    """A cell another KIP decided (KIP-896's removals here) says so under the heading, naming the KIP."""
    from kcompat.harness.records import Record
    from tests.unit.page.records import write_run

    decided = {"case": "refused", "quotes": ["Kafka brokers would return the UNSUPPORTED_VERSION error."],
               "expect": {"refused": True}, "decided_by": "KIP-896", "precedence": "removal"}
    recs = [Record(**{**r.as_json(), "documented": decided}) if r.outcome == "unsupported" else r for r in records()]
    html, _ = write(load([write_run(tmp_path / "run", recs)]), tmp_path / "page")
    with chromium() as browser:
        view = browser.new_page(viewport={"width": 1400, "height": 900})
        view.goto(html.as_uri())
        view.locator("#matrix td.u").first.click()
        assert "What KIP-896 says" in view.inner_text("#detail")
        assert view.inner_text("#d-decided") == ("decided by KIP-896: the removal of old request versions, ahead of "
                                                 "the javadoc's minimum release")
        view.locator("#d-close").click()
        view.locator("#matrix td.p").first.click()
        assert view.locator("#d-decided").count() == 0  # a record without decided_by: the claim's own words
        assert "What the KIP says" in view.inner_text("#detail")
