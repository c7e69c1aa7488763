"""The matrix as one self-contained HTML page and a short Markdown summary.

The grid is rendered server-side (Jinja) so counts and colours read without
scripts; the details a click opens travel as one compact JSON blob in which
repeated values (a claim's documented case, identical observations across
brokers) are stored once.  Cells appear in the blob in the grid's document
order, so the page's script pairs them by position, with no id per cell.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import jinja2

from kcompat.harness.records import OUTCOMES, Record, document_order
from kcompat.reports.page.history import cell_entries
from kcompat.reports.page.matchers import with_words
from kcompat.reports.page.model import CellView, Matrix, client_key

HTML_FILE = "index.html"
SUMMARY_FILE = "summary.md"
OUTCOME_CLASS = {"pass": "p", "unsupported": "u", "deviation": "d", "fail": "f", "infra_error": "e"}
OUTCOME_LETTER = {"pass": "", "unsupported": "U", "deviation": "D", "fail": "F", "infra_error": "I"}
LIMITED = {"broker": ("lb", "B"), "client": ("lc", "C"), "both": ("l2", "BC")}
SUMMARY_LISTED = 10
"""Cells the Markdown summary names per kind before it says "and N more" (a PR comment stays short)."""


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")


def md_text(value: object) -> str:
    """Text from the data as Markdown shows it, and nothing more: one line, no markup, no HTML.

    summary.md becomes a pull-request comment; a reason or title with newlines, ``![img](...)`` or
    ``<img>`` must read as those characters, never as new lines, images or tags.
    """
    text = _CONTROL.sub(" ", str(value))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", text)


def md_code(value: object) -> str:
    """An inline code span holding ``value`` verbatim on one line, whatever backticks it contains."""
    text = _CONTROL.sub(" ", str(value))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("kcompat.reports.page", "templates"),
                             autoescape=jinja2.select_autoescape(["html"]), trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["md"] = md_text
    env.filters["code"] = md_code
    env.filters["sh"] = shlex.quote
    return env


def repro_command(cell_id: str, run_label: str) -> str:
    """The one command that reproduces a cell (``kcompat repro``), quoted for a POSIX shell."""
    return f"kcompat repro {shlex.quote(cell_id)} --run {shlex.quote(run_label)}"


def cell_mark(record_outcome: str, limited_by: str | None, changed: bool,
              held: tuple[int, int] | None = None, intermittent: bool = False) -> tuple[str, str]:
    """A cell's CSS classes and its letter: the verdict's colour, the limiting side's pattern and letter; an
    intermittent deviation reads ``k/n`` (observations that held of those made) instead of ``D``."""
    classes = [OUTCOME_CLASS[record_outcome]]
    letter = OUTCOME_LETTER[record_outcome]
    if intermittent and held is not None:
        classes.append("i")
        letter = f"{held[0]}/{held[1]}"
    if limited_by in LIMITED:
        css, side = LIMITED[limited_by]
        classes.append(css)
        letter = side if record_outcome == "unsupported" else letter + side
    if changed:
        classes.append("x")
    return " ".join(classes), letter


def _observations(record: Record, intern: _Interner) -> Any:
    """The detail's observations of a cell observed more than once: ``[held, n, intermittent, observations]``."""
    if record.held is None:
        return 0
    return [record.held[0], record.held[1], int(record.intermittent), intern(record.observations)]


class _Interner:
    """Stores each distinct JSON value once; cells refer to it by index."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._index: dict[str, int] = {}

    def __call__(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True, default=str)
        index = self._index.get(key)
        if index is None:
            index = self._index[key] = len(self.values)
            self.values.append(value)
        return index


@dataclass
class _Row:
    claim_id: str
    kip: str
    cells: list[tuple[str, str] | None]


def _group_label(record: Record) -> str:
    """A row group's label: the API, and for the Admin javadoc's claims the method first (a row per method)."""
    javadoc = record.documented.get("javadoc")
    method = javadoc.get("method") if isinstance(javadoc, dict) else None
    return f"Admin.{method} ({record.api})" if isinstance(method, str) else record.api


def _grid(matrix: Matrix, out_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The template's blocks (client -> KIP/API group -> claim row -> column) and the detail blob."""
    columns = matrix.columns
    column_index = {c: i for i, c in enumerate(columns)}
    claims: dict[str, tuple[str, str]] = {}
    by_client: dict[str, dict[str, list[tuple[int, CellView]]]] = {}
    for view in matrix.cells.values():
        record = view.record
        claims.setdefault(record.claim_id, (record.kip, _group_label(record)))
        client = record.client or record.cell.client
        column = column_index[(record.broker_mode, record.broker_version, record.cell.profile)]
        by_client.setdefault(client, {}).setdefault(record.claim_id, []).append((column, view))
    claim_order = sorted(claims, key=lambda c: (document_order(claims[c][0]), claims[c][1], c))
    claim_index = {c: i for i, c in enumerate(claim_order)}
    clients = sorted(by_client, key=client_key)
    intern = _Interner()
    links = _LogLinks(matrix, out_dir, intern)
    cells: list[list[Any]] = []
    blocks: list[dict[str, Any]] = []
    for client_number, client in enumerate(clients):
        groups: list[dict[str, Any]] = []
        counts = dict.fromkeys(OUTCOMES, 0)
        for claim_id in claim_order:
            if claim_id not in by_client[client]:
                continue
            kip, api = claims[claim_id]
            if not groups or (groups[-1]["kip"], groups[-1]["api"]) != (kip, api):
                groups.append({"kip": kip, "api": api, "rows": []})
            row = _Row(claim_id, kip, [None] * len(columns))
            for column, view in sorted(by_client[client][claim_id], key=lambda item: item[0]):
                record = view.record
                row.cells[column] = cell_mark(record.outcome, record.limited_by, view.changed, record.held,
                                              record.intermittent)
                counts[record.outcome] += 1
                cells.append(_cell_data(view, links, intern, claim_index[claim_id], column, client_number)
                             + [cell_entries(matrix.history, record.cell_id) if matrix.history else 0,
                                _observations(record, intern)])
            groups[-1]["rows"].append(row)
        blocks.append({"client": client, "groups": groups, "counts": counts})
    data = {"outcomes": list(OUTCOMES), "claims": claim_order, "apis": [claims[c][1] for c in claim_order],
            "columns": [[version, mode, profile] for mode, version, profile in columns], "clients": clients,
            "runs": [[run.label, run.run_id, run.started_at] for run in matrix.runs],
            "series": {view.record.cell_id: view.record.cell.series for view in matrix.cells.values()}
            if matrix.history else {},
            "values": intern.values, "cells": cells}
    return blocks, data


class _LogLinks:
    """A cell's log as shown (under the run directory as given) and as a link relative to the page."""

    def __init__(self, matrix: Matrix, out_dir: Path, intern: _Interner) -> None:
        self._runs = [(run.label, os.path.relpath(run.path.resolve(), out_dir.resolve())) for run in matrix.runs]
        self._intern = intern
        self._cache: dict[tuple[int, str], int] = {}

    def __call__(self, run: int, log: str | None) -> int | None:
        if not log:
            return None
        index = self._cache.get((run, log))
        if index is None:
            label, relative = self._runs[run]
            href = Path(os.path.normpath(os.path.join(relative, log))).as_posix()
            index = self._cache[(run, log)] = self._intern([os.path.join(label, log), href])
        return index


def _cell_data(view: CellView, links: _LogLinks, intern: _Interner, claim: int, column: int,
               client: int) -> list[Any]:
    record = view.record
    log = links(view.run, record.log)
    history: Any = 0
    if len(view.history) > 1:
        history = [[h.run, OUTCOMES.index(h.outcome), int(h.observed_changed)] for h in view.history]
    return [claim, column, client, OUTCOMES.index(record.outcome), record.limited_by or "",
            record.request_version, record.broker_max_version, record.client_max_version,
            intern(record.required_versions), intern(with_words(record.documented)), intern(record.observed),
            intern(record.differences), record.reason or "", log, view.run, history, int(view.changed)]


def _mode_groups(columns: Sequence[tuple[str, str, str]]) -> list[tuple[str, int]]:
    groups: list[tuple[str, int]] = []
    for mode, *_ in columns:
        if groups and groups[-1][0] == mode:
            groups[-1] = (mode, groups[-1][1] + 1)
        else:
            groups.append((mode, 1))
    return groups


def _coverage(matrix: Matrix) -> dict[str, Any]:
    uncovered = [item for item in matrix.coverage if not item.claims]
    return {"found": matrix.coverage_found, "total": len(matrix.coverage),
            "claimed": len(matrix.coverage) - len(uncovered),
            "untestable": sum(1 for item in uncovered if not item.testable), "uncovered": uncovered}


def _json_for_script(data: Any) -> str:
    """JSON safe inside a <script> element: no ``</script>`` or comment opener can end it early."""
    text = json.dumps(data, separators=(",", ":"), default=str, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def context(matrix: Matrix, out_dir: Path, title: str = "kcompat matrix") -> dict[str, Any]:
    blocks, data = _grid(matrix, out_dir)
    columns = matrix.columns
    counts = matrix.counts()
    notable = {outcome: sorted((v for v in matrix.cells.values() if v.record.outcome == outcome),
                               key=lambda v: (v.record.intermittent, v.record.cell_id))
               for outcome in ("fail", "infra_error", "deviation")}
    return {
        "title": title,
        "generated_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "runs": matrix.runs,
        "incomplete": [run for run in matrix.runs if run.incomplete],
        "skipped": matrix.skipped,
        "counts": counts,
        "intermittent": matrix.intermittent,
        "total": sum(counts.values()),
        "outcomes": OUTCOMES,
        "outcome_class": OUTCOME_CLASS,
        "kips": sorted({v.record.kip for v in matrix.cells.values()}, key=document_order),
        "clients": [block["client"] for block in blocks],
        "columns": columns,
        "mode_groups": _mode_groups(columns),
        "blocks": blocks,
        "coverage": _coverage(matrix),
        "changed": sorted((v for v in matrix.cells.values() if v.changed), key=lambda v: v.record.cell_id),
        "notable": notable,
        "listed": SUMMARY_LISTED,
        "repro": lambda view: repro_command(view.record.cell_id, matrix.runs[view.run].label),
        "runs_outcomes": lambda view: " -> ".join(entry.outcome for entry in view.history[-2:]),
        "data_json": _json_for_script(data),
    }


def render_html(matrix: Matrix, out_dir: Path, title: str = "kcompat matrix") -> str:
    return _environment().get_template("matrix.html").render(context(matrix, out_dir, title))


def render_markdown(matrix: Matrix, out_dir: Path, title: str = "kcompat matrix") -> str:
    return _environment().get_template("summary.md").render(context(matrix, out_dir, title))


def write(matrix: Matrix, out_dir: Path, title: str = "kcompat matrix") -> tuple[Path, Path]:
    """Write index.html and summary.md into ``out_dir`` (created); returns both paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    env = _environment()
    values = context(matrix, out_dir, title)
    html, summary = out_dir / HTML_FILE, out_dir / SUMMARY_FILE
    html.write_text(env.get_template("matrix.html").render(values), encoding="utf-8")
    summary.write_text(env.get_template("summary.md").render(values), encoding="utf-8")
    return html, summary
