"""What the matrix page shows, read from run directories alone (docs/RECORDS.md).

Reading is tolerant: a missing file, a torn or malformed line, an unknown
schema_version is counted and named in ``Matrix.skipped``, never raised, so a
page always renders what is readable.  With several run directories each cell
shows its newest record (by the run's start) and its history across the runs;
nightly shards (disjoint cells) merge the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcompat.harness.clients.kinds import kind_rank
from kcompat.harness.records import (
    DOCUMENT_ID,
    OUTCOMES,
    RECORDS_FILE,
    RUN_FILE,
    Record,
    document_order,
    loads_json,
    read_records,
)
from kcompat.harness.versions import VersionKey, version_key

COVERAGE_FILE = "coverage.json"
MODES = ("zk", "kraft")


def client_key(client: str) -> tuple[int, VersionKey, str]:
    """Kinds in their registry's order (wire, confluent, java), each by version; pinned request versions after
    the plain one."""
    base = client.split("@", 1)[0]
    kind, _, version = base.partition(":")
    return kind_rank(kind), version_key(version), client


@dataclass
class Run:
    """One run directory as the page knows it."""

    path: Path
    label: str
    """The directory as given on the command line: what the repro command names."""
    run_id: str
    started_at: str
    meta: dict[str, Any]
    records: list[Record]
    missing: int | None = None
    """Cells its pytest processes selected (``selected-*.json``) that have no record: None when unknown."""

    @property
    def ended(self) -> bool:
        """run.json says it ended; a run without run.json is taken as ended (there is nothing to say otherwise)."""
        return not self.meta or bool(self.meta.get("ended_at"))

    @property
    def incomplete(self) -> bool:
        return not self.ended or bool(self.missing)


@dataclass
class Skipped:
    """Something unreadable in a run directory, with how much of it."""

    run: str
    what: str
    count: int
    detail: str = ""

    def line(self) -> str:
        return f"{self.run}: {self.what} ({self.count})" + (f": {self.detail}" if self.detail else "")


@dataclass
class HistoryEntry:
    run: int
    outcome: str
    observed_changed: bool


@dataclass
class CellView:
    """A cell's newest record and where it came from."""

    record: Record
    run: int
    history: list[HistoryEntry]

    @property
    def changed(self) -> bool:
        """The newest run's verdict or observation differs from the run before it."""
        if len(self.history) < 2:
            return False
        last, before = self.history[-1], self.history[-2]
        return last.outcome != before.outcome or last.observed_changed


@dataclass
class CoverageItem:
    kip: str
    section: str
    statement: str
    claims: list[str]
    testable: bool
    reason: str | None


@dataclass
class Matrix:
    runs: list[Run]
    cells: dict[str, CellView]
    skipped: list[Skipped] = field(default_factory=list)
    coverage: list[CoverageItem] = field(default_factory=list)
    coverage_found: bool = False
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """The nightly history by series (``kcompat history``'s history.json), when the page was given one."""

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
        for view in self.cells.values():
            counts[view.record.outcome] += 1
        return counts

    @property
    def intermittent(self) -> int:
        """Deviations whose observations disagreed within their run (some held)."""
        return sum(1 for view in self.cells.values() if view.record.intermittent)

    @property
    def columns(self) -> list[tuple[str, str, str]]:
        """(mode, broker version, cluster profile): grouped by mode (zk, then kraft), each by version, the default
        profile (``""``) before those with feature levels (``@share.version=1``): each profile its own column."""
        seen = {(v.record.broker_mode, v.record.broker_version, v.record.cell.profile) for v in self.cells.values()}
        return sorted(seen, key=lambda c: (MODES.index(c[0]) if c[0] in MODES else len(MODES), version_key(c[1]),
                                           c[2]))

    @property
    def clients(self) -> list[str]:
        return sorted({v.record.client or _client_of(v.record) for v in self.cells.values()}, key=client_key)


def _client_of(record: Record) -> str:
    """The client reference, from the cell id when an old writer left ``client`` empty."""
    return record.cell.client


_RUN_KEYS: dict[str, tuple[type, ...]] = {
    "run_id": (str,), "started_at": (str,), "ended_at": (str, type(None)), "kcompat_version": (str, type(None)),
    "git_sha": (str, type(None)), "exit_code": (int, type(None)), "selection": (dict,), "command": (list,),
}
"""The keys of run.json the page reads, with the JSON types docs/RECORDS.md gives them."""


def _read_json(file: Path) -> Any:
    """Strict JSON (``kcompat.harness.records.loads_json``: no NaN, bounded nesting), ValueError with the reason."""
    try:
        return loads_json(file.read_bytes(), file.name)
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None


def _read_run_json(path: Path, label: str, skipped: list[Skipped]) -> dict[str, Any]:
    file = path / RUN_FILE
    if not file.exists():
        skipped.append(Skipped(label, f"no {RUN_FILE}", 1, "run start taken from its records"))
        return {}
    try:
        data = _read_json(file)
    except ValueError as exc:
        skipped.append(Skipped(label, f"unreadable {RUN_FILE}", 1, str(exc).splitlines()[0] if str(exc) else ""))
        return {}
    if not isinstance(data, dict):
        skipped.append(Skipped(label, f"unreadable {RUN_FILE}", 1, "not a JSON object"))
        return {}
    wrong = sorted(key for key, types in _RUN_KEYS.items()
                   if key in data and (type(data[key]) not in types or type(data[key]) is bool))
    if wrong:
        skipped.append(Skipped(label, f"{RUN_FILE} keys of the wrong type, ignored", len(wrong), ", ".join(wrong)))
    return {key: value for key, value in data.items() if key not in wrong}


def _missing(path: Path, records: Sequence[Record]) -> int | None:
    """How many selected cells have no record; None when no ``selected-*.json`` says what was selected."""
    selected: set[str] = set()
    for file in path.glob("selected-*.json"):
        try:
            ids = _read_json(file)
        except ValueError:
            continue
        if isinstance(ids, list):
            selected.update(i for i in ids if isinstance(i, str))
    if not selected:
        return None
    return len(selected - {record.cell_id for record in records})


def _lines(items: Sequence[tuple[int, str]]) -> str:
    shown = ", ".join(f"line {n}: {why}" for n, why in items[:3])
    return shown + (f", and {len(items) - 3} more" if len(items) > 3 else "")


def read_run(path: Path, label: str, skipped: list[Skipped]) -> Run | None:
    """One run directory; None (and a Skipped entry) when it holds no readable records file."""
    if not path.is_dir():
        skipped.append(Skipped(label, "not a directory", 1))
        return None
    if not (path / RECORDS_FILE).is_file():
        skipped.append(Skipped(label, f"no {RECORDS_FILE}", 1))
        return None
    meta = _read_run_json(path, label, skipped)
    try:
        report = read_records(path / RECORDS_FILE)
    except OSError as exc:
        skipped.append(Skipped(label, f"unreadable {RECORDS_FILE}", 1, str(exc)))
        return None
    if report.malformed:
        skipped.append(Skipped(label, "malformed lines", len(report.malformed), _lines(report.malformed)))
    if report.unknown_schema:
        skipped.append(Skipped(label, "lines of an unknown schema_version", len(report.unknown_schema),
                               _lines(report.unknown_schema)))
    if report.torn_last_line:
        skipped.append(Skipped(label, "torn last line (its writer died mid-write)", 1))
    started = meta.get("started_at") if isinstance(meta.get("started_at"), str) else None
    if not started:
        started = min((r.started_at for r in report.records if r.started_at), default="")
    run_id = meta.get("run_id") if isinstance(meta.get("run_id"), str) else None
    if not run_id:
        run_id = report.records[0].run_id if report.records else path.name
    return Run(path, label, run_id, started, meta, report.records, _missing(path, report.records))


def _observed(record: Record) -> str:
    return json.dumps(record.observed, sort_keys=True, default=str)


def read_coverage(runs: Iterable[Run], skipped: list[Skipped]) -> tuple[list[CoverageItem], bool]:
    """Statements of every coverage.json, newest run first wins for a repeated (kip, section, statement)."""
    items: dict[tuple[str, str, str], CoverageItem] = {}
    found = False
    for run in sorted(runs, key=lambda r: r.started_at, reverse=True):
        file = run.path / COVERAGE_FILE
        if not file.exists():
            continue
        try:
            data = _read_json(file)
            if not isinstance(data, list):
                raise ValueError("not a JSON list")
        except ValueError as exc:
            skipped.append(Skipped(run.label, f"unreadable {COVERAGE_FILE}", 1, str(exc).splitlines()[0]))
            continue
        found = True
        bad = 0
        for entry in data:
            item = _coverage_item(entry)
            if item is None:
                bad += 1
                continue
            items.setdefault((item.kip, item.section, item.statement), item)
        if bad:
            skipped.append(Skipped(run.label, f"malformed {COVERAGE_FILE} entries", bad))
    return sorted(items.values(), key=lambda i: (document_order(i.kip), i.section)), found


_DOCUMENT = re.compile(DOCUMENT_ID + r"\Z")


def _coverage_item(entry: Any) -> CoverageItem | None:
    """One coverage.json entry as RECORDS.md types it, or None."""
    if not isinstance(entry, dict):
        return None
    kip, section, statement = entry.get("kip"), entry.get("section") or "", entry.get("statement")
    claims, testable, reason = entry.get("claims") or [], entry.get("testable", True), entry.get("reason")
    if not (isinstance(kip, str) and _DOCUMENT.match(kip) and isinstance(section, str)
            and isinstance(statement, str) and isinstance(claims, list) and all(isinstance(c, str) for c in claims)
            and isinstance(testable, bool) and (reason is None or isinstance(reason, str))):
        return None
    return CoverageItem(kip, section, statement, claims, testable, reason)


def load(run_dirs: Sequence[Path], labels: Sequence[str] | None = None) -> Matrix:
    """Read run directories into one matrix: newest record per cell, history across runs."""
    skipped: list[Skipped] = []
    runs: list[Run] = []
    for index, path in enumerate(run_dirs):
        label = labels[index] if labels is not None else str(path)
        run = read_run(path, label, skipped)
        if run is not None:
            runs.append(run)
    runs.sort(key=lambda r: (r.started_at, r.label))
    cells: dict[str, CellView] = {}
    for number, run in enumerate(runs):
        latest: dict[str, Record] = {}
        for record in run.records:
            latest[record.cell_id] = record  # a resumed run: the last line of a cell is its verdict
        for cell_id, record in latest.items():
            view = cells.get(cell_id)
            if view is None:
                cells[cell_id] = CellView(record, number, [HistoryEntry(number, record.outcome, False)])
                continue
            changed = _observed(record) != _observed(view.record)
            view.history.append(HistoryEntry(number, record.outcome, changed))
            view.record, view.run = record, number
    coverage, found = read_coverage(runs, skipped)
    return Matrix(runs, cells, skipped, coverage, found)
