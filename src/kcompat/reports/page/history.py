"""The nightly history in a cell's detail: the series' last runs, from `kcompat history` outputs.

``kcompat matrix ... --history DIR`` reads a report's ``history.json``; ``--store STORE`` runs the
report's history query on the store through ``kcompat.reports.history`` (the code ``kcompat history report``
runs).  Entries are keyed by series (``Cell.series``), so a cell's detail shows its runs across broker
patch and client release bumps, each with what changed.  Without either option the page is unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from kcompat.harness.records import OUTCOMES, Cell
from kcompat.reports.history.report import what_changed
from kcompat.reports.history.store import Location

HISTORY_FILE = "history.json"
PAGE_HISTORY_RUNS = 10
"""Runs of a series the detail lists, newest last."""

History = dict[str, list[dict[str, Any]]]


def from_report(out_dir: Path) -> History:
    """``history.json`` of a `kcompat history report` output directory, or one usage line."""
    path = out_dir / HISTORY_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise click.BadParameter(f"{out_dir} holds no {HISTORY_FILE} (write one with `kcompat history report`)",
                                 param_hint="--history") from exc
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{path} is unreadable: {str(exc).splitlines()[0]}", param_hint="--history") from exc
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise click.BadParameter(f"{path} is not a {{series: [run, ...]}} object", param_hint="--history")
    return data


def from_store(ctx: click.Context, store: Location, runs: int = PAGE_HISTORY_RUNS) -> History:
    """The report's history query on STORE (a local Spark session, as `kcompat history report` starts)."""
    from kcompat.reports.history.cli import report_from_store

    return report_from_store(ctx, store, history_depth=runs).history


def cell_entries(history: History, cell_id: str, runs: int = PAGE_HISTORY_RUNS) -> list[list[Any]]:
    """The detail's rows for a cell: ``[outcome index, run id, started, what changed, verdict changed,
    held]`` (held: ``intermittent, held k of n`` for a run whose observations disagreed, else empty)."""
    series: Sequence[Mapping[str, Any]] = history.get(Cell.parse(cell_id).series) or []
    rows = []
    for index in range(max(0, len(series) - runs), len(series)):
        entry = series[index]
        before = series[index - 1] if index > 0 else None
        outcome = str(entry.get("outcome"))
        started = str(entry.get("run_started_at") or "")[:16].replace("T", " ")
        flipped = before is not None and before.get("outcome") != outcome
        rows.append([OUTCOMES.index(outcome) if outcome in OUTCOMES else -1, str(entry.get("run_id")), started,
                     what_changed(entry, before), int(flipped), _held(entry)])
    return rows


def _held(entry: Mapping[str, Any]) -> str:
    """``intermittent, held 2 of 3`` when the run's record says so in whole numbers (the file is data)."""
    held, judged = entry.get("held_count"), entry.get("observation_count")
    if entry.get("intermittent") is not True or type(held) is not int or type(judged) is not int:
        return ""
    return f"intermittent, held {held} of {judged}"
