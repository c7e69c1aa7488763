"""Run directory -> table rows: records through ``kcompat.harness.records``, everything else quarantined.

Pure Python (standard library and ``kcompat.harness.records``) so it runs the same in the driver, in a
Spark executor (``--py-files``) and in unit tests.  Nothing is dropped silently: a line that is not
a record becomes a quarantine row with its reason, and callers count them.  JUnit XML files take
the same way through ``kcompat.reports.history.junit``; the rows both build, and their columns, are
``kcompat.reports.history.rows``.
"""

from __future__ import annotations

import json
from pathlib import Path

from kcompat.harness.records import RECORDS_FILE, RUN_FILE, parse_lines

from .errors import RunDirError
from .rows import ParsedRun, RunInfo, quarantined, run_rows, utc_iso

JUNIT_GLOB = "junit-*.xml"


def _inside(path: Path, directory: Path) -> Path:
    """``path``, unless it is a link leading out of ``directory``: never read a file the run did not write."""
    if path.is_symlink() and not path.resolve().is_relative_to(directory.resolve()):
        raise RunDirError(f"{path} is a link to {path.resolve()}, outside its directory; not followed",
                          hint="ingest the run directory the link points into instead")
    return path


def records_path(run_dir: Path) -> Path:
    """The records file of a run directory, or a one-line error if there is nothing to ingest."""
    if not run_dir.is_dir():
        raise RunDirError(f"{run_dir} is not a run directory", hint="pass directories `kcompat run` wrote")
    path = _inside(run_dir / RECORDS_FILE, run_dir)
    if not path.is_file() or path.stat().st_size == 0:
        raise RunDirError(f"{run_dir} holds no records ({RECORDS_FILE} is missing or empty)",
                          hint="a run killed before its first cell ended has nothing to ingest")
    return path


def ingest_sources(path: Path) -> list[Path]:
    """What one ingest argument contributes: a run directory's records.jsonl, else a JUnit XML file or
    a directory's ``junit-*.xml``.  A run directory's own JUnit files are not read: its records.jsonl
    carries everything they do, and more."""
    if path.is_file() and path.suffix == ".xml":
        return [path]
    if path.is_dir() and not (path / RECORDS_FILE).exists() and not (path / RECORDS_FILE).is_symlink():
        junit = sorted(_inside(file, path) for file in path.glob(JUNIT_GLOB))
        if junit:
            return junit
    return [records_path(path)]


def read_run_info(run_dir: Path) -> RunInfo:
    """run.json's id and start; a missing or unreadable run.json falls back to the directory name."""
    try:
        text = (run_dir / RUN_FILE).read_text(encoding="utf-8")
        data = json.loads(text)
        return RunInfo(str(data["run_id"]), utc_iso(data.get("started_at")), text)
    except (OSError, ValueError, KeyError, TypeError):
        return RunInfo(run_dir.name, None, None)


def parse_records(data: bytes, source: str, run: RunInfo) -> ParsedRun:
    """Every line of a records file: a record, or a quarantine row saying why not (``kcompat.harness.records``'s
    tolerant reader).  A cell's last line is its verdict (a resumed run may repeat a cell)."""
    parsed = ParsedRun()
    lines, bad = parse_lines(data)
    for line in bad:
        parsed.quarantine.append(quarantined(run, source, line.line, line.kind, line.reason, line.text))
    parsed.rows = run_rows([record for _, record in lines], run, "records")
    return parsed


def parse_file(data: bytes, source: str, run: RunInfo) -> ParsedRun:
    """A records file or a JUnit XML file, by its name."""
    if source.endswith(".xml"):
        from .junit import parse_junit  # here, not above: only JUnit files need defusedxml, which executors may lack

        return parse_junit(data, source, run)
    return parse_records(data, source, run)


def parse_run_dir(run_dir: Path) -> ParsedRun:
    path = records_path(run_dir)
    return parse_records(path.read_bytes(), str(path), read_run_info(run_dir))
