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
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path, PurePosixPath
from typing import Any, Literal

SCHEMA_VERSION = 8
READABLE_SCHEMA_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7, 8})
"""2 added ``broker_min_version`` and the ``refused`` documented case; a version-1 record reads with both absent.
3 added ``observations`` and ``intermittent``; a version-1 or 2 record reads as observed once.
7 added ``broker_features`` and feature levels in the cell id's broker part; an older record reads with none.
8 added ``client_settings`` and settings in the cell id's client part; an older record reads with none."""
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


FEATURE_LEVEL = r"@([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)=(0|[1-9]\d{0,4})"
"""One feature level of a cluster profile in a cell id (``@share.version=1``): groups 1 and 2 are name and level."""
_FEATURE = re.compile(FEATURE_LEVEL)
CLIENT_SETTING = r"@([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)=([A-Za-z0-9][A-Za-z0-9._-]*)"
"""One setting of a client reference in a cell id (``@version=broker``): groups 1 and 2 are key and value."""
_SETTING = re.compile(CLIENT_SETTING)
_CELL_ID = re.compile(r"^(?P<claim>" + DOCUMENT_ID + r"/[a-z0-9][a-z0-9-]*)\[(?P<broker>\d+(?:\.\d+){1,3})-(?P<mode>zk|kraft)"
                      r"(?P<features>(?:" + FEATURE_LEVEL + r")*)\|(?P<client>[a-z][a-z0-9-]*(?::\d+(?:\.\d+){1,3})?(?:@v\d+)?"
                      r"(?:" + CLIENT_SETTING + r")*)\]$", re.ASCII)


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
    broker_features: tuple[tuple[str, int], ...] = ()
    """The cluster profile's feature levels, sorted by name (``(("share.version", 1),)``); empty: the
    release's default configuration."""

    @property
    def broker(self) -> str:
        """The broker part of the id: ``4.1.2-kraft``, ``4.1.2-kraft@share.version=1``."""
        return f"{self.broker_version}-{self.broker_mode}{self.profile}"

    @property
    def profile(self) -> str:
        """The feature levels as the id writes them: ``@share.version=1``, empty for the default profile."""
        return "".join(f"@{name}={level}" for name, level in self.broker_features)

    @property
    def id(self) -> str:
        return f"{self.claim_id}[{self.broker}|{self.client}]"

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
        return f"{self.claim_id}[{release_line(self.broker_version)}-{self.broker_mode}{self.profile}|{client}]"

    @classmethod
    def parse(cls, cell_id: str) -> Cell:
        match = _CELL_ID.match(cell_id.strip())
        if match is None:
            raise RecordError(f"{cell_id!r} is not a cell id like "
                              "KIP-525/validate-only-returns-configs[2.4.1-zk|java:3.7.0]")
        levels = tuple((m[1], int(m[2])) for m in _FEATURE.finditer(match["features"]))
        if list(levels) != sorted(dict(levels).items()):
            raise RecordError(f"{cell_id!r} names its feature levels out of order or twice (one profile, one "
                              "spelling: sorted by name)")
        cell = cls(match["claim"], match["broker"], match["mode"], match["client"], levels)
        settings = cell.client_settings
        if list(settings) != sorted(dict(settings).items()):
            raise RecordError(f"{cell_id!r} names its client settings out of order or twice (one configuration, "
                              "one spelling: sorted by key)")
        return cell

    @property
    def client_settings(self) -> tuple[tuple[str, str], ...]:
        """The client reference's settings as the id writes them (``(("version", "broker"),)``), unresolved."""
        return tuple((m[1], m[2]) for m in _SETTING.finditer(self.client))

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
    observations: list[dict[str, Any]] = field(default_factory=list)
    """Every observation when the cell was observed more than once (its first deviated), in order; empty
    when it was observed once (``observed`` and ``differences`` are that observation)."""
    intermittent: bool = False
    """The observations disagree: some held, some deviated (the outcome is then ``deviation``)."""
    broker_features: dict[str, int] = field(default_factory=dict)
    """The feature levels the cluster was set to after boot (the cell id's ``@name=level``); empty: the
    release's default configuration."""
    client_settings: dict[str, str] = field(default_factory=dict)
    """The client reference's settings as the cell ran them (``{"version": "2.3.1"}`` for the id's
    ``@version=broker`` on 2.3.1, ``{"surface": "conn"}``); empty: the kind's default configuration."""
    schema_version: int = SCHEMA_VERSION

    @property
    def held(self) -> tuple[int, int] | None:
        """(observations that held, judged observations) of a cell observed more than once, else None."""
        judged = [o["outcome"] for o in self.observations if o.get("outcome") in ACCEPTED]
        if len(judged) < 2:
            return None
        return sum(1 for outcome in judged if outcome != "deviation"), len(judged)

    @property
    def held_text(self) -> str:
        """``held 2 of 3`` for a cell observed more than once, else ``""``: what every view prints."""
        held = self.held
        return f"held {held[0]} of {held[1]}" if held else ""

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
        """Read a record of any readable schema version; unknown keys are kept out, missing ones defaulted.

        Every field is checked against docs/RECORDS.md (types, the document id, agreement with the cell
        id), so a reader never files a cell under fields its id denies, and one hostile line can't
        crash the page, qualification or the history store that read it after us.
        """
        version = data.get("schema_version")
        if type(version) is not int or version not in READABLE_SCHEMA_VERSIONS:
            raise RecordError(f"schema_version {version!r} is not one this kcompat reads "
                              f"({', '.join(map(str, sorted(READABLE_SCHEMA_VERSIONS)))})")
        missing = [name for name in _REQUIRED if name not in data]
        if missing:
            raise RecordError(f"record lacks {', '.join(missing)}")
        known = {f.name: f for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        for name, value in values.items():
            check = _FIELD_CHECKS.get(name)
            if check is not None and not check(value):
                raise RecordError(f"{name} is {_shown(value)}, not {_FIELD_TYPES[name]}")
        _check_agreement(values)
        if version < 7 and (values.get("broker_features") or Cell.parse(values["cell_id"]).broker_features):
            raise RecordError(f"schema_version {version} has no broker feature levels (version 7 added them)")
        if version < 8 and (values.get("client_settings") or Cell.parse(values["cell_id"]).client_settings):
            raise RecordError(f"schema_version {version} has no client settings (version 8 added them)")
        if version < 3 and (values.get("intermittent") or values.get("observations")):
            raise RecordError(f"schema_version {version} has no observations or intermittent (version 3 added them)")
        if values.get("intermittent") and values["outcome"] != "deviation":
            raise RecordError(f"intermittent is true for outcome {values['outcome']}; only a deviation is intermittent")
        record = cls(**values)
        if record.intermittent and not (record.held and 0 < record.held[0] < record.held[1]
                                        and record.observations[0].get("outcome") == "deviation"):
            raise RecordError("intermittent is true but the observations do not disagree "
                              "(the first must deviate and a later one hold)")
        return record


_REQUIRED = ("run_id", "cell_id", "kip", "claim_id", "api", "broker_version", "broker_mode", "provider",
             "client_kind", "client_version", "outcome")


MAX_DEPTH = 32
"""Deepest nesting of a record's JSON: records written by kcompat stay under 8; deeper is hostile or broken."""


def _is_int(value: Any) -> bool:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _optional(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


def _is_str(value: Any) -> bool:
    return type(value) is str


def _is_log(value: Any) -> bool:
    """A path relative to the run directory that stays inside it: no root, no ``..``, no scheme."""
    if type(value) is not str or not value or "\\" in value or _CONTROL.search(value):
        return False
    path = PurePosixPath(value)
    return not path.is_absolute() and ".." not in path.parts and _SCHEME.match(value) is None


def _is_documented(value: Any) -> bool:
    if type(value) is not dict:
        return False
    quotes = value.get("quotes", [])
    return (type(quotes) is list and all(type(q) is str for q in quotes)
            and type(value.get("expect", {})) is dict and type(value.get("case", "")) is str)


def _is_differences(value: Any) -> bool:
    return type(value) is list and all(type(d) is dict and type(d.get("key", "")) is str for d in value)


def _is_observations(value: Any) -> bool:
    return type(value) is list and all(
        type(o) is dict and o.get("outcome") in OUTCOMES and type(o.get("observed", {})) is dict
        and _is_differences(o.get("differences", [])) and _optional(_is_str)(o.get("reason"))
        and _optional(_is_number)(o.get("call_ms")) for o in value)


def _is_versions(value: Any) -> bool:
    return type(value) is dict and all(type(k) is str and (v is None or _is_int(v)) for k, v in value.items())


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_FIELD_TYPES: dict[str, str] = {
    **{name: "a string" for name in ("run_id", "cell_id", "kip", "claim_id", "api", "broker_version", "broker_mode",
                                     "provider", "client_kind", "client_version", "client", "security", "started_at",
                                     "worker")},
    **{name: "a string or null" for name in ("librdkafka_version", "java_version", "reason")},
    **{name: "an int or null" for name in ("request_version", "broker_max_version", "broker_min_version",
                                           "client_max_version")},
    "broker_nodes": "an int", "attempt": "an int", "schema_version": "an int",
    "outcome": "one of " + ", ".join(OUTCOMES), "limited_by": "null or one of " + ", ".join(LIMITED_BY),
    "required_versions": "an object of ints or nulls", "documented": 'an object (quotes: strings, expect: object)',
    "observed": "an object", "differences": "a list of objects", "duration_ms": "a finite number",
    "call_ms": "a finite number or null", "log": "a path inside the run directory, or null",
    "observations": "a list of objects (outcome: a verdict, observed: object, differences: list, reason: string "
                    "or null, call_ms: finite number or null)",
    "intermittent": "a boolean", "broker_features": "an object of ints", "client_settings": "an object of strings",
}
_FIELD_CHECKS: dict[str, Callable[[Any], bool]] = {
    **{name: _is_str for name, kind in _FIELD_TYPES.items() if kind == "a string"},
    **{name: _optional(_is_str) for name, kind in _FIELD_TYPES.items() if kind == "a string or null"},
    **{name: _optional(_is_int) for name, kind in _FIELD_TYPES.items() if kind == "an int or null"},
    "broker_nodes": _is_int, "attempt": _is_int, "schema_version": _is_int,
    "outcome": lambda v: v in OUTCOMES, "limited_by": lambda v: v is None or v in LIMITED_BY,
    "required_versions": _is_versions, "documented": _is_documented, "observed": lambda v: type(v) is dict,
    "differences": _is_differences, "duration_ms": _is_number, "call_ms": _optional(_is_number),
    "log": _optional(_is_log), "observations": _is_observations, "intermittent": lambda v: type(v) is bool,
    "broker_features": lambda v: type(v) is dict and all(type(k) is str and _is_int(n) for k, n in v.items()),
    "client_settings": lambda v: type(v) is dict and all(type(k) is str and type(s) is str for k, s in v.items()),
}
_DOCUMENT = re.compile(DOCUMENT_ID + r"\Z")


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_agreement(values: Mapping[str, Any]) -> None:
    """The record's own fields must say what its cell id says: the id is the key every reader files by."""
    if not _DOCUMENT.match(values["kip"]):
        raise RecordError(f"kip {_shown(values['kip'])} is not a document id like KIP-525 or DOCS-authorization")
    cell = Cell.parse(values["cell_id"])
    if cell.id != values["cell_id"]:
        raise RecordError(f"cell_id {_shown(values['cell_id'])} carries characters around the id")
    said = {"kip": cell.kip, "claim_id": cell.claim_id, "broker_version": cell.broker_version,
            "broker_mode": cell.broker_mode, "client_kind": cell.client.partition(":")[0].partition("@")[0]}
    if values.get("client"):
        said["client"] = cell.client
    if dict(cell.broker_features) != values.get("broker_features", {}):
        raise RecordError(f"broker_features {_shown(values.get('broker_features', {}))} disagrees with cell_id "
                          f"{cell.id}")
    if not _settings_agree(cell.client_settings, values.get("client_settings", {})):
        raise RecordError(f"client_settings {_shown(values.get('client_settings', {}))} disagrees with cell_id "
                          f"{cell.id}")
    for name, expected in said.items():
        if values[name] != expected:
            raise RecordError(f"{name} {_shown(values[name])} disagrees with cell_id {cell.id} ({expected!r})")


def _settings_agree(written: tuple[tuple[str, str], ...], ran: Mapping[str, str]) -> bool:
    """The id's settings and the record's name the same keys and values, a ``broker`` in the id resolved to a
    release in the record."""
    return dict(written).keys() == ran.keys() and all(
        ran[key] == value or (value == "broker" and _RELEASE.fullmatch(ran[key]) is not None)
        for key, value in written)


_RELEASE = re.compile(r"\d+(?:\.\d+){1,3}", re.ASCII)


def _depth(value: Any) -> int:
    """Nesting depth without recursion (a hostile line can be deeper than Python's stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (RFC 8259 has no NaN or Infinity)")


def _finite(text: str) -> float:
    """A JSON number as a float, refusing one beyond a double's range (``1e400`` would read as infinity)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is beyond a double's range (it would read as Infinity)")
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A JSON escape of a UTF-16 surrogate: valid JSON, but alone it is no character and can't be written as UTF-8."""


def _lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def loads_json(text: str | bytes, what: str = "the line") -> Any:
    """Strict JSON: no NaN or Infinity, nesting at most ``MAX_DEPTH``, valid UTF-8; ValueError otherwise.

    The one JSON reader for the run directory's files, so a line the page refuses the history refuses too.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")  # strict: json.loads(bytes) would let encoded surrogates through
        except UnicodeDecodeError as exc:
            raise ValueError(f"{what} is not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError(f"{what} is nested too deeply") from None
    if _depth(value) > MAX_DEPTH:
        raise ValueError(f"{what} is nested deeper than {MAX_DEPTH} levels")
    if _SURROGATE_ESCAPE.search(text) and _lone_surrogate(value):
        raise ValueError(f"{what} holds a lone UTF-16 surrogate (\\uD800-\\uDFFF), which is no character")
    return value


def loads_record(text: str | bytes) -> Record:
    """One record from one JSON text (a records.jsonl line, a JUnit property): RecordError says why not."""
    try:
        obj = loads_json(text)
    except ValueError as exc:  # UnicodeDecodeError included
        raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise RecordError("not a JSON object")
    return Record.from_json(obj)


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
        try:
            records.append((number, loads_record(raw)))
        except RecordError as exc:
            bad.append(BadLine(number, "unknown_schema" if str(exc).startswith("schema_version") else "malformed",
                               str(exc), raw))
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
