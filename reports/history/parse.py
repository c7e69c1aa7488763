"""Run directory -> table rows: records through ``harness.records``, everything else quarantined.

Pure Python (standard library and ``harness.records``) so it runs the same in the driver, in a
Spark executor (``--py-files``) and in unit tests.  Nothing is dropped silently: a line that is not
a record becomes a quarantine row with its reason, and callers count them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from harness.records import READABLE_SCHEMA_VERSIONS, RECORDS_FILE, RUN_FILE, Record, RecordError

from .errors import RunDirError

RECORD_COLUMNS: tuple[str, ...] = (
    "run_id", "cell_id", "kip", "claim_id", "api", "broker_version", "broker_mode", "client", "client_kind",
    "client_version", "java_version", "librdkafka_version", "outcome", "limited_by", "reason", "started_at",
    "run_started_at", "schema_version", "documented", "record")
"""The records table (besides ``ingested_at``, set by the store).  ``record`` is the whole line as
``Record.line`` writes it; ``documented`` its ``documented`` object, kept apart so the KIP tables
never read whole records."""

QUARANTINE_COLUMNS: tuple[str, ...] = ("run_id", "source", "line", "kind", "reason", "text")
QUARANTINE_KINDS: tuple[str, ...] = ("malformed", "unknown_schema", "torn_last_line")
MAX_QUARANTINED_TEXT = 4096
"""A quarantined line is kept up to this many characters: enough to see what it was."""


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


def records_path(run_dir: Path) -> Path:
    """The records file of a run directory, or a one-line error if there is nothing to ingest."""
    if not run_dir.is_dir():
        raise RunDirError(f"{run_dir} is not a run directory", hint="pass directories `kcompat run` wrote")
    path = run_dir / RECORDS_FILE
    if not path.is_file() or path.stat().st_size == 0:
        raise RunDirError(f"{run_dir} holds no records ({RECORDS_FILE} is missing or empty)",
                          hint="a run killed before its first cell ended has nothing to ingest")
    return path


def read_run_info(run_dir: Path) -> RunInfo:
    """run.json's id and start; a missing or unreadable run.json falls back to the directory name."""
    try:
        text = (run_dir / RUN_FILE).read_text(encoding="utf-8")
        data = json.loads(text)
        return RunInfo(str(data["run_id"]), utc_iso(data.get("started_at")), text)
    except (OSError, ValueError, KeyError, TypeError):
        return RunInfo(run_dir.name, None, None)


_RECORD_FIELDS = tuple(f.name for f in fields(Record))


def _line(record: Record) -> str:
    """``record.line()`` without its newline, for a record read from JSON: the same text without
    ``asdict``'s deep copy, which was most of ingest's CPU (a year is millions of records)."""
    return json.dumps({name: getattr(record, name) for name in _RECORD_FIELDS}, sort_keys=True,
                      separators=(",", ":"), default=str)


def record_row(record: Record, run_started_at: str | None) -> dict[str, Any]:
    return {
        "run_id": record.run_id, "cell_id": record.cell_id, "kip": record.kip, "claim_id": record.claim_id,
        "api": record.api, "broker_version": record.broker_version, "broker_mode": record.broker_mode,
        "client": record.client or record.cell.client, "client_kind": record.client_kind,
        "client_version": record.client_version, "java_version": record.java_version,
        "librdkafka_version": record.librdkafka_version, "outcome": record.outcome,
        "limited_by": record.limited_by, "reason": record.reason, "started_at": utc_iso(record.started_at),
        "run_started_at": run_started_at, "schema_version": record.schema_version,
        "documented": json.dumps(record.documented, sort_keys=True, separators=(",", ":"), default=str),
        "record": _line(record),
    }


def _quarantined(run: RunInfo, source: str, line: int, kind: str, reason: str, text: bytes) -> dict[str, Any]:
    return {"run_id": run.run_id, "source": source, "line": line, "kind": kind, "reason": reason,
            "text": text.decode("utf-8", "replace")[:MAX_QUARANTINED_TEXT]}


def parse_records(data: bytes, source: str, run: RunInfo) -> ParsedRun:
    """Every line of a records file: a record, or a quarantine row saying why not.

    A cell's last line is its verdict (a resumed run may repeat a cell).  A run's start is run.json's
    ``started_at``, else its earliest cell's: history orders runs by it, never by ingest order.
    """
    parsed = ParsedRun()
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline
    latest: dict[tuple[str, str], Record] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            if not isinstance(obj, dict):
                raise RecordError("not a JSON object")
            record = Record.from_json(obj)
        except RecordError as exc:
            unknown = isinstance(obj, dict) and obj.get("schema_version") not in READABLE_SCHEMA_VERSIONS
            parsed.quarantine.append(_quarantined(run, source, number, "unknown_schema" if unknown else "malformed",
                                                  str(exc), raw))
            continue
        except (ValueError, TypeError) as exc:
            parsed.quarantine.append(_quarantined(run, source, number, "malformed", f"not a record: {exc}", raw))
            continue
        latest.pop((record.run_id, record.cell_id), None)
        latest[(record.run_id, record.cell_id)] = record
    if torn:
        parsed.quarantine.append(_quarantined(run, source, len(lines) + 1, "torn_last_line",
                                              "last line has no newline: its writer died mid-write", torn))
    starts: dict[str, str] = {}
    for record in latest.values():
        when = utc_iso(record.started_at)
        if when and (record.run_id not in starts or when < starts[record.run_id]):
            starts[record.run_id] = when
    for record in latest.values():
        own = run.started_at if record.run_id == run.run_id else None
        parsed.rows.append(record_row(record, own or starts.get(record.run_id)))
    return parsed


def parse_run_dir(run_dir: Path) -> ParsedRun:
    path = records_path(run_dir)
    return parse_records(path.read_bytes(), str(path), read_run_info(run_dir))


def quarantine_counts(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(QUARANTINE_KINDS, 0)
    for row in rows:
        counts[str(row["kind"])] = counts.get(str(row["kind"]), 0) + 1
    return counts
