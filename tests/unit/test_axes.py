"""The default run's broker lines, chosen from a run's verdict changes between adjacent lines."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from kcompat.harness.matrix.axes import AXES_FILE, choose, lines_of, load_defaults, observed, transitions
from kcompat.harness.matrix.plan import DEFAULT_BROKERS, DEFAULT_CLIENTS
from tests.console import kcompat
from tests.history_builders import run_dir

ROOT = Path(__file__).resolve().parents[2]
VERSIONS = {"2.2": "2.2.2", "2.3": "2.3.1", "2.4": "2.4.1", "2.5": "2.5.1", "2.6": "2.6.3"}


def _records(outcomes: dict[str, list[str]]) -> list[dict[str, Any]]:
    """One record per (claim, line): ``outcomes[claim]`` in line order, each cell 10 s on its own cluster."""
    return [{"claim_id": f"KIP-525/{claim}", "client": "wire", "broker_version": VERSIONS[line],
             "outcome": outcome, "limited_by": None, "duration_ms": 10_000,
             "log": f"logs/r/kafka-{VERSIONS[line]}-zk-1n-{claim}-77-1/node-1/broker.log"}
            for claim, row in outcomes.items() for line, outcome in zip(VERSIONS, row, strict=True)]


ROWS = {"a": ["pass", "pass", "deviation", "deviation", "deviation"],
        "b": ["unsupported", "pass", "pass", "pass", "pass"],
        "c": ["unsupported", "unsupported", "pass", "pass", "deviation"]}


def test_a_transition_is_a_verdict_change_between_adjacent_lines() -> None:
    lines = lines_of(_records(ROWS), boot_s=5.0)
    assert transitions(lines) == {("2.2", "2.3"): 1, ("2.3", "2.4"): 2, ("2.4", "2.5"): 0, ("2.5", "2.6"): 1}
    assert lines["2.3"].seconds == 3 * 10 + 3 * 5  # three cells, three clusters
    assert observed(lines, ["2.3", "2.4"]) == 2 and observed(lines, ["2.2", "2.4"]) == 0


def test_the_greedy_choice_takes_the_busiest_edge_first_and_stays_in_its_budget() -> None:
    lines = lines_of(_records(ROWS), boot_s=5.0)
    choice = choose(lines, budget_s=15 + 45 * 4, workers=1, keep=["2.6"])  # each line: 3 cells of 10 s, 3 boots
    assert choice.lines == ("2.3", "2.4", "2.5", "2.6") and choice.observed == 3 and choice.transitions == 4
    assert choice.picks[1:] == ((("2.5",), 1, 45.0), (("2.3", "2.4"), 2, 90.0))  # equal ratios: the newer first
    everything = choose(lines, budget_s=10_000, workers=1)
    assert everything.observed == 4 and "2.5" in everything.lines


def test_the_plan_and_the_readme_and_main_sh_say_the_same_default_axes() -> None:
    brokers, clients = load_defaults()
    assert (DEFAULT_BROKERS, DEFAULT_CLIENTS) == (brokers, clients)
    readme = (ROOT / "README.md").read_text()
    said = re.search(r"bash scripts/main\.sh .*?brokers ([\d., ]+); ([^)]+)\)", readme)
    assert said, "README's main.sh line names the default brokers and clients"
    assert [b.strip() for b in said.group(1).split(",")] == list(brokers), "README's default brokers"
    assert [c.strip() for c in said.group(2).split(",")] == list(clients), "README's default clients"
    main = (ROOT / "scripts" / "main.sh").read_text()
    run = next(line for line in main.splitlines() if "kcompat run" in line and not line.startswith("#"))
    assert "--brokers" not in run and "--clients" not in run and "default_axes.toml" in main


def test_axes_choose_through_the_console_script(tmp_path: Path) -> None:
    cells = {f"KIP-525/validate-only-returns-configs[{v}-zk|wire]": ("pass" if v >= "2.4" else "unsupported")
             for v in VERSIONS.values()}
    run = run_dir(tmp_path, "all", 1, cells)
    before = AXES_FILE.read_text()
    done = kcompat("axes", "choose", str(run), "--keep", "2.6", "--json")
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["edges"]["2.3->2.4"] == 1 and set(said["lines"]) >= {"2.3", "2.4", "2.6"}
    refused = kcompat("axes", "choose", str(run), "--keep", "9.9")
    assert refused.returncode == 2 and "--keep 9.9: the run has no records of that line" in refused.stderr
    empty = kcompat("axes", "choose", str(tmp_path / "nothing"))
    assert empty.returncode == 2 and "no records to choose from" in empty.stderr
    assert AXES_FILE.read_text() == before  # only --write changes the default
    written = tmp_path / "axes.toml"
    done = kcompat("axes", "choose", str(run), "--keep", "2.6", "--write", "--axes-file", str(written))
    assert done.returncode == 0 and f"wrote {written}" in done.stderr + done.stdout, done.stderr
    assert load_defaults(written)[0] == tuple(said["lines"]) and AXES_FILE.read_text() == before
    nowhere = kcompat("axes", "choose", str(run), "--keep", "2.6", "--write", "--axes-file",
                      str(tmp_path / "no" / "dir" / "a.toml"))
    assert nowhere.returncode == 2 and "can't write it" in nowhere.stderr
