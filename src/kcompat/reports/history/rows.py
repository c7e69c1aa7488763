"""The history's table rows: their columns, and how a record or a line that is not one becomes a row.

Both readers of a run build on this module: ``kcompat.reports.history.parse`` (records.jsonl, and the choice of
reader per file) and ``kcompat.reports.history.junit`` (JUnit XML).  Pure Python (standard library and
``kcompat.harness.records``), so it runs the same in the driver, in a Spark executor and in unit tests.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from typing import Any

from kcompat.harness.records import BAD_LINE_KINDS, Cell, Record

ORIGINS: tuple[str, ...] = ("records", "junit")
"""Where a row came from; a run's records.jsonl wins over its JUnit XML (docs/HISTORY.md)."""

RECORD_COLUMNS: tuple[str, ...] = (
    "run_id", "cell_id", "series", "origin", "kip", "claim_id", "api", "broker_version", "broker_mode", "client", "client_kind",
    "client_version", "java_version", "librdkafka_version", "outcome", "limited_by", "reason", "started_at",
    "run_started_at", "schema_version", "documented", "record", "intermittent", "held_count", "observation_count")
"""The records table (besides ``ingested_at``, set by the store).  ``intermittent``, ``held_count`` and
``observation_count`` are the record's observations within its run (schema_version 3): a cell observed
more than once has both counts ("held 2 of 3"), one observed once has them null and ``intermittent`` false;
stores written before them read them as null (``V3_COLUMNS``).  ``record`` is the whole line as
``Record.line`` writes it; ``documented`` its ``documented`` object, kept apart so the KIP tables
never read whole records; ``series`` is ``Cell.series`` (stores written before it derive it at read)."""

V3_COLUMNS: dict[str, str] = {"intermittent": "BOOLEAN", "held_count": "INT", "observation_count": "INT"}
"""The columns records of schema_version 3 added, with their SQL types: what a store written before them
lacks, and both engines add as nulls when they read one."""

QUARANTINE_COLUMNS: tuple[str, ...] = ("run_id", "source", "line", "kind", "reason", "text")
"""``text`` identifies the line without keeping it: ``sha256:<16 hex> (<n> bytes)``.  A line that is not a
record may be anything (a file linked in by mistake, a secret); stores written before kept its first 4096
characters there."""
QUARANTINE_KINDS: tuple[str, ...] = BAD_LINE_KINDS


@functools.lru_cache(maxsize=4096)  # a run's cells share few distinct times; ingest calls this per record
def utc_iso(value: str | None) -> str | None:
    """One spelling for every timestamp, so ISO strings order as times in any engine."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class RunInfo:
    """What run.json says about a run the history needs: its id and when it started."""

    run_id: str
    started_at: str | None
    run_json: str | None = None


@dataclass
class ParsedRun:
    """The rows of one records file: the last record of each cell, and the quarantined lines."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    quarantine: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    """JUnit test cases that map to no cell (no ``kcompat_cell_id``): ``run_id, source, line, reason, text``."""


def series_of(cell_id: str) -> str:
    """``Cell.series`` of a cell id: what stores written before the column derive at read."""
    return Cell.parse(cell_id).series


_RECORD_FIELDS = tuple(f.name for f in fields(Record))


def _line(record: Record) -> str:
    """``record.line()`` without its newline, for a record read from JSON: the same text without
    ``asdict``'s deep copy, which was most of ingest's CPU (a year is millions of records)."""
    return json.dumps({name: getattr(record, name) for name in _RECORD_FIELDS}, sort_keys=True,
                      separators=(",", ":"), default=str)


def record_row(record: Record, run_started_at: str | None, origin: str = "records") -> dict[str, Any]:
    return {
        "run_id": record.run_id, "cell_id": record.cell_id, "series": record.cell.series, "origin": origin,
        "kip": record.kip, "claim_id": record.claim_id,
        "api": record.api, "broker_version": record.broker_version, "broker_mode": record.broker_mode,
        "client": record.client or record.cell.client, "client_kind": record.client_kind,
        "client_version": record.client_version, "java_version": record.java_version,
        "librdkafka_version": record.librdkafka_version, "outcome": record.outcome,
        "limited_by": record.limited_by, "reason": record.reason, "started_at": utc_iso(record.started_at),
        "run_started_at": run_started_at, "schema_version": record.schema_version,
        "documented": json.dumps(record.documented, sort_keys=True, separators=(",", ":"), default=str),
        "record": _line(record), "intermittent": record.intermittent,
        "held_count": record.held[0] if record.held else None,
        "observation_count": record.held[1] if record.held else None,
    }


def quarantined(run: RunInfo, source: str, line: int, kind: str, reason: str, text: bytes) -> dict[str, Any]:
    """A quarantine row: where and why, and the line's digest, never its bytes (they may be anything)."""
    return {"run_id": run.run_id, "source": source, "line": line, "kind": kind, "reason": reason[:1000],
            "text": f"sha256:{hashlib.sha256(text).hexdigest()[:16]} ({len(text)} bytes)"}


def run_rows(records: Iterable[Record], run: RunInfo, origin: str) -> list[dict[str, Any]]:
    """The last record of each (run, cell) as a table row.

    A run's start is run.json's ``started_at``, else its earliest cell's: history orders runs by it,
    never by ingest order.
    """
    latest: dict[tuple[str, str], Record] = {}
    for record in records:
        latest.pop((record.run_id, record.cell_id), None)
        latest[(record.run_id, record.cell_id)] = record
    starts: dict[str, str] = {}
    for record in latest.values():
        when = utc_iso(record.started_at)
        if when and (record.run_id not in starts or when < starts[record.run_id]):
            starts[record.run_id] = when
    rows = []
    for record in latest.values():
        own = run.started_at if record.run_id == run.run_id else None
        rows.append(record_row(record, own or starts.get(record.run_id), origin))
    return rows


def quarantine_counts(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(QUARANTINE_KINDS, 0)
    for row in rows:
        counts[str(row["kind"])] = counts.get(str(row["kind"]), 0) + 1
    return counts
