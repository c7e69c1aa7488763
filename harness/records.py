"""The matrix's public contract: cells and the records they produce (docs/RECORDS.md).

This module imports only the standard library, so the reports, the Spark job
and users' own tools can read a run directory anywhere: no kio, no pytest, no
Kafka client.  A cell is (claim, broker version, metadata mode, client
reference); its id is the key that records, repro, bisect and history share.

Writing is append-only and crash-safe: each record is one ``os.write`` of a
whole line to a file opened with ``O_APPEND`` under an exclusive ``flock``,
then ``fsync``; a reader skips (and counts) a torn last line, so a run killed
with SIGKILL keeps every finished cell.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

SCHEMA_VERSION = 2
READABLE_SCHEMA_VERSIONS = frozenset({1, 2})
"""2 added ``broker_min_version`` and the ``refused`` documented case; a version-1 record reads with both absent."""
RECORDS_FILE = "records.jsonl"
RUN_FILE = "run.json"

Outcome = Literal["pass", "unsupported", "deviation", "fail", "infra_error"]
OUTCOMES: tuple[Outcome, ...] = ("pass", "unsupported", "deviation", "fail", "infra_error")
"""Every verdict, in the order summaries show them."""
ACCEPTED: frozenset[str] = frozenset({"pass", "unsupported", "deviation"})
"""Verdicts of a judged cell: a run whose every cell has one of these succeeded."""
LimitedBy = Literal["broker", "client", "both"]
LIMITED_BY: tuple[LimitedBy, ...] = ("broker", "client", "both")

DOCUMENT_ID = r"(?:KIP-\d+|DOCS-[a-z][a-z0-9-]*)"
"""What a claim is documented by: a KIP, or an excerpt of Kafka's documentation (``DOCS-<name>``)."""

def document_order(kip: str) -> tuple[int, int, str]:
    """KIPs by number, then the docs excerpts (``DOCS-*``) by name: the order of files, summaries, pages."""
    number = kip.split("-", 1)[-1]
    return (0, int(number), "") if kip.startswith("KIP-") and number.isdigit() else (1, 0, kip)


_CELL_ID = re.compile(r"^(?P<claim>" + DOCUMENT_ID + r"/[a-z0-9][a-z0-9-]*)\[(?P<broker>\d+(?:\.\d+){1,3})-(?P<mode>zk|kraft)"
                      r"\|(?P<client>[a-z]+(?::\d+(?:\.\d+){1,3})?(?:@v\d+)?)\]$")


def release_line(version: str, kind: str = "kafka") -> str:
    """A version's release line: Kafka's (brokers, ``java:``) keep three parts before 1.0
    (``0.11.0.3`` -> ``0.11.0``) and two after (``2.4.1`` -> ``2.4``); other clients keep two."""
    parts = version.split(".")
    width = 3 if kind in ("kafka", "java") and parts[0] == "0" else 2
    return ".".join(parts[:width])


class RecordError(ValueError):
    """A cell id or record that does not follow docs/RECORDS.md."""


@dataclass(frozen=True, order=True)
class Cell:
    """One point of the matrix: a claim, a broker (version and mode), a client reference."""

    claim_id: str
    broker_version: str
    broker_mode: str
    client: str
    """A client reference as written on the command line: ``wire``, ``wire@v5``, ``confluent``,
    ``confluent:2.0.2``, ``java:3.7.0``."""

    @property
    def id(self) -> str:
        return f"{self.claim_id}[{self.broker_version}-{self.broker_mode}|{self.client}]"

    @property
    def kip(self) -> str:
        return self.claim_id.split("/", 1)[0]

    @property
    def series(self) -> str:
        """The cell with both versions reduced to their release lines: ``KIP-108/x[0.11.0-zk|confluent:2.16]``.

        A catalog bump to a new broker patch or client release continues the same series, so the
        history can say what changed with a verdict instead of starting a new cell.
        """
        kind, sep, rest = self.client.partition(":")
        client = self.client
        if sep:
            version, at, pin = rest.partition("@")
            client = f"{kind}:{release_line(version, kind)}{at}{pin}"
        return f"{self.claim_id}[{release_line(self.broker_version)}-{self.broker_mode}|{client}]"

    @classmethod
    def parse(cls, cell_id: str) -> Cell:
        match = _CELL_ID.match(cell_id.strip())
        if match is None:
            raise RecordError(f"{cell_id!r} is not a cell id like "
                              "KIP-525/validate-only-returns-configs[2.4.1-zk|java:3.7.0]")
        return cls(match["claim"], match["broker"], match["mode"], match["client"])

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class Record:
    """One judged cell, one line of records.jsonl.  Field meanings: docs/RECORDS.md."""

    run_id: str
    cell_id: str
    kip: str
    claim_id: str
    api: str
    broker_version: str
    broker_mode: str
    provider: str
    client_kind: str
    client_version: str
    outcome: Outcome
    client: str = ""
    broker_nodes: int = 1
    security: str = "plaintext"
    librdkafka_version: str | None = None
    java_version: str | None = None
    request_version: int | None = None
    required_versions: dict[str, int | None] = field(default_factory=dict)
    broker_max_version: int | None = None
    broker_min_version: int | None = None
    client_max_version: int | None = None
    limited_by: LimitedBy | None = None
    documented: dict[str, Any] = field(default_factory=dict)
    observed: dict[str, Any] = field(default_factory=dict)
    differences: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None
    duration_ms: float = 0.0
    call_ms: float | None = None
    started_at: str = ""
    attempt: int = 1
    worker: str = "main"
    log: str | None = None
    schema_version: int = SCHEMA_VERSION

    @property
    def cell(self) -> Cell:
        return Cell.parse(self.cell_id)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["schema_version"] = self.schema_version
        return data

    def line(self) -> str:
        return json.dumps(self.as_json(), sort_keys=True, separators=(",", ":"), default=str) + "\n"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        """Read a record of any readable schema version; unknown keys are kept out, missing ones defaulted."""
        version = data.get("schema_version")
        if version not in READABLE_SCHEMA_VERSIONS:
            raise RecordError(f"schema_version {version!r} is not one this kcompat reads "
                              f"({', '.join(map(str, sorted(READABLE_SCHEMA_VERSIONS)))})")
        known = {f.name for f in fields(cls)}
        missing = [name for name in _REQUIRED if name not in data]
        if missing:
            raise RecordError(f"record lacks {', '.join(missing)}")
        if data["outcome"] not in OUTCOMES:
            raise RecordError(f"outcome {data['outcome']!r} is not one of {', '.join(OUTCOMES)}")
        Cell.parse(str(data["cell_id"]))
        return cls(**{k: v for k, v in data.items() if k in known})


_REQUIRED = ("run_id", "cell_id", "kip", "claim_id", "api", "broker_version", "broker_mode", "provider",
             "client_kind", "client_version", "outcome")


def append_record(path: Path, record: Record) -> None:
    """Append one whole line and make it durable before the cell counts as done."""
    data = record.line().encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        written = os.write(fd, data)
        if written != len(data):  # a full disk: never leave half a line for the next writer
            os.ftruncate(fd, os.fstat(fd).st_size - written)
            raise OSError(f"short write to {path} ({written} of {len(data)} bytes)")
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class BadLine:
    """A line of records.jsonl that is not a record, and why: ``kind`` is one of ``BAD_LINE_KINDS``."""

    line: int
    kind: str
    reason: str
    text: bytes


BAD_LINE_KINDS: tuple[str, ...] = ("malformed", "unknown_schema", "torn_last_line")


def parse_lines(data: bytes) -> tuple[list[tuple[int, Record]], list[BadLine]]:
    """Every line of a records file: ``(line number, record)``, or a ``BadLine`` saying why not.

    The one tolerant reader: the page, qualification and the history all go through it, so a line
    one of them skips is skipped by all, for the same reason.
    """
    records: list[tuple[int, Record]] = []
    bad: list[BadLine] = []
    lines = data.split(b"\n")
    torn = lines.pop()  # b"" when the file ends with a newline
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        obj: Any = None
        try:
            obj = json.loads(raw)
            if not isinstance(obj, dict):
                raise RecordError("not a JSON object")
            records.append((number, Record.from_json(obj)))
        except RecordError as exc:
            unknown = isinstance(obj, dict) and obj.get("schema_version") not in READABLE_SCHEMA_VERSIONS
            bad.append(BadLine(number, "unknown_schema" if unknown else "malformed", str(exc), raw))
        except (ValueError, TypeError) as exc:
            bad.append(BadLine(number, "malformed", f"not a record: {exc}", raw))
    if torn:
        bad.append(BadLine(len(lines) + 1, "torn_last_line", "last line has no newline: its writer died mid-write",
                           torn))
    return records, bad


@dataclass
class ReadReport:
    """What a tolerant read of records.jsonl skipped, and why: never silent, never fatal."""

    records: list[Record] = field(default_factory=list)
    malformed: list[tuple[int, str]] = field(default_factory=list)
    """(line number, reason) of lines that are not JSON or not a record."""
    unknown_schema: list[tuple[int, str]] = field(default_factory=list)
    torn_last_line: bool = False

    @property
    def skipped(self) -> int:
        return len(self.malformed) + len(self.unknown_schema) + int(self.torn_last_line)


def read_records(path: Path) -> ReadReport:
    report = ReadReport()
    if not path.exists():
        return report
    records, bad = parse_lines(path.read_bytes())
    report.records = [record for _, record in records]
    for line in bad:
        if line.kind == "torn_last_line":
            report.torn_last_line = True  # a writer died mid-line (or the file was cut): not a record
        else:
            (report.unknown_schema if line.kind == "unknown_schema" else report.malformed).append(
                (line.line, line.reason))
    return report


def latest_by_cell(records: Iterable[Record]) -> dict[str, Record]:
    """The last record of each cell (a resumed run may hold an earlier attempt's line)."""
    latest: dict[str, Record] = {}
    for record in records:
        latest[record.cell_id] = record
    return latest


def iter_record_files(run_dirs: Iterable[Path]) -> Iterator[Path]:
    for run_dir in run_dirs:
        yield run_dir / RECORDS_FILE
