"""``kcompat qualify``'s pure parts: profiles, reviewed known deviations, and the verdict over a run.

A **profile file** (TOML) names matrices to qualify a release against::

    [profiles.release]
    brokers = ["2.3.1", "2.4.1", "3.9", "4.4"]     # lines or exact releases
    modes = ["zk", "kraft"]                         # optional, default both
    clients = ["wire", "confluent", "java:4.4.0"]
    kips = ["KIP-525", "KIP-569"]
    known_deviations = "known_deviations.toml"      # optional, relative to this file
    known_intermittent = ["KIP-195/count-rises-when-the-call-returns"]   # optional: claim ids (* and ?)

A **known_deviations file** lists deviations someone reviewed and accepted::

    [[deviation]]
    cell = "KIP-525/validate-only-returns-configs[2.4.1-zk|*]"
    reason = "2.4.1 answers validateOnly without configs (KAFKA-9176); fixed in 2.5"
    reviewed_by = "alice@example.org"

``cell`` matches cell ids with ``*`` (any run of characters) and ``?`` (one
character); brackets are literal, since every cell id contains them (plain
``fnmatch`` would read ``[2.4.1-zk|...]`` as a character class).  Qualification
fails on any ``fail``, any ``infra_error`` (the run already retried it once),
and any ``deviation`` no entry covers; entries that cover no observed deviation
are reported as stale, with their file and line.  Intermittent deviations (a
cell observed again after deviating, and held in some observations: records
schema_version 3) are reported apart from steady ones: one whose claim the
profile lists in ``known_intermittent`` is accepted, whatever its cell; a known
deviation entry accepts one too; a steady deviation is never accepted by
``known_intermittent`` (the claim is known to flip, not to fail).  A profile's clients are
any reference the client kinds' registry parses (``kafka-python:3.0.12`` as well as
``java:4.4.0``).  Given the profile's cells, a record of a cell outside them is
reported and never judged, and a cell of the profile without a record is reported:
either leaves the release not qualified.  Every error names file and line.  Standard
library only (plus the harness's record type and client references): the command
that runs the matrix lives in the harness's CLI.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcompat.harness.clients.ref import ClientRef
from kcompat.harness.errors import ConfigError
from kcompat.harness.records import DOCUMENT_ID, Record, latest_by_cell
from kcompat.harness.tomlfile import read_toml

MODES = ("zk", "kraft")
_VERSION = re.compile(r"\d+(\.\d+){1,3}\Z")
_REFERENCE = re.compile(r"\S+\Z")
"""A client reference as written: what it names is the registry's to say (``ClientRef.parse``)."""
_KIP = re.compile(rf"{DOCUMENT_ID}\Z")
_MODE = re.compile(r"(zk|kraft)\Z")
_PROFILE_KEYS = {"brokers", "modes", "clients", "kips", "known_deviations", "known_intermittent", "description"}
_CLAIM_PATTERN = re.compile(rf"(?:{DOCUMENT_ID}|\*)/[a-z0-9*?][a-z0-9*?-]*\Z")
_ENTRY_KEYS = {"cell", "reason", "reviewed_by"}


MISSING_SHOWN = 20
"""Cells without a record named one a line; a run that died early leaves hundreds, counted after these."""


class QualifyError(ValueError):
    """A malformed profile or known_deviations file; the message is ``FILE:LINE: what``."""


def _outside_strings(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it starts outside a multi-line string: only those can hold a table header."""
    starts: list[bool] = []
    inside: str | None = None
    for line in lines:
        starts.append(inside is None)
        position = 0
        while True:
            if inside is None:
                hits = [(found, quote) for quote in ('"""', "'''") if (found := line.find(quote, position)) >= 0]
                if not hits:
                    break
                position, inside = min(hits)
                position += 3
            else:
                found = line.find(inside, position)
                if found < 0:
                    break
                position, inside = found + 3, None
    return starts


def _line_of(lines: Sequence[str], pattern: str, start: int = 0, default: int = 1) -> int:
    """1-based line of the first match at or after ``start`` (0-based), else ``default``."""
    compiled = re.compile(pattern)
    for number in range(start, len(lines)):
        if compiled.match(lines[number]):
            return number + 1
    return default


# ----- known deviations ---------------------------------------------------------------------------------------------


class _Listed:
    """An entry of a reviewed list: where it is written, and the ``*``/``?`` pattern it accepts."""

    file: Path
    line: int

    @property
    def accepts(self) -> str:
        raise NotImplementedError

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def matches(self, name: str) -> bool:
        return _pattern(self.accepts).match(name) is not None


@dataclass(frozen=True)
class KnownDeviation(_Listed):
    """A reviewed deviation: matches cell ids."""

    cell: str
    reason: str
    reviewed_by: str
    file: Path
    line: int

    @property
    def accepts(self) -> str:
        return self.cell


def _pattern(cell: str) -> re.Pattern[str]:
    """``*`` and ``?`` as in fnmatch, every other character (brackets too) literal."""
    parts = [".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in cell]
    return re.compile("".join(parts) + r"\Z")


def _entry(item: Any, file: Path, line: int) -> KnownDeviation:
    if not isinstance(item, dict):
        raise QualifyError(f"{file}:{line}: a known deviation is a [[deviation]] table")
    unknown = sorted(set(item) - _ENTRY_KEYS)
    if unknown:
        raise QualifyError(f"{file}:{line}: unknown key {', '.join(unknown)} (known: cell, reason, reviewed_by)")
    for key in ("cell", "reason", "reviewed_by"):
        value = item.get(key)
        if not isinstance(value, str) or not value.strip():
            raise QualifyError(f"{file}:{line}: known deviation lacks {key} (a non-empty string)")
    cell = item["cell"].strip()
    can_match = "[" in cell or "*" in cell  # every cell id has its [broker|client] part
    if re.search(r"\s", cell) or not (re.match(DOCUMENT_ID, cell) or cell.startswith("*")) or not can_match:
        raise QualifyError(f"{file}:{line}: cell {cell!r} is not a cell id pattern like "
                           "KIP-525/validate-only-returns-configs[2.4.1-zk|*]")
    return KnownDeviation(cell, item["reason"].strip(), item["reviewed_by"].strip(), file, line)


def parse_known_deviations(path: Path) -> list[KnownDeviation]:
    """Every entry of a known_deviations file, or a QualifyError naming the file and the entry's line."""
    text, data = read_toml(path, QualifyError, "a profile or known-deviations file")
    lines = text.splitlines()
    unknown = sorted(set(data) - {"deviation"})
    if unknown:
        line = _line_of(lines, rf"^\s*\[*\s*{re.escape(unknown[0])}\b|^\s*{re.escape(unknown[0])}\s*=")
        raise QualifyError(f"{path}:{line}: unknown key {unknown[0]} (entries are [[deviation]] tables)")
    items = data.get("deviation", [])
    if not isinstance(items, list):
        line = _line_of(lines, r"^\s*\[?\s*deviation\b")
        raise QualifyError(f"{path}:{line}: deviation must be an array of tables ([[deviation]])")
    outside = _outside_strings(lines)
    headers = [n + 1 for n, text in enumerate(lines)
               if outside[n] and re.match(r"^\s*\[\[\s*deviation\s*\]\]", text)]
    if len(headers) != len(items):  # an inline array: every entry on the key's line
        headers = [_line_of(lines, r"^\s*deviation\s*=")] * len(items)
    return [_entry(item, path, line) for item, line in zip(items, headers, strict=True)]


@dataclass(frozen=True)
class KnownIntermittent(_Listed):
    """A claim a profile lists as known to hold only sometimes within a run: matches claim ids."""

    claim: str
    file: Path
    line: int

    @property
    def accepts(self) -> str:
        return self.claim


# ----- the verdict ----------------------------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What a qualification run found: the cells that fail it, the accepted ones, and the file's stale entries."""

    failed: list[Record] = field(default_factory=list)
    infra_errors: list[Record] = field(default_factory=list)
    unknown_deviations: list[Record] = field(default_factory=list)
    known_deviations: list[tuple[Record, KnownDeviation]] = field(default_factory=list)
    stale: list[KnownDeviation] = field(default_factory=list)
    """Entries whose cells ran and none deviated: the deviation is gone (or the pattern is wrong)."""
    unexercised: list[KnownDeviation] = field(default_factory=list)
    """Entries matching no cell of this run: outside the profile's selection, not evidence either way."""
    broad: list[tuple[KnownDeviation, int, bool]] = field(default_factory=list)
    """Entries that accepted deviations of more than one claim: (entry, claims, whether it matches every cell).
    ``cell = "*"`` would accept any deviation without a word; a review names what it accepts."""
    unknown_intermittent: list[Record] = field(default_factory=list)
    """Intermittent deviations neither the profile's known_intermittent nor a known deviation entry covers."""
    known_intermittent: list[tuple[Record, KnownIntermittent | KnownDeviation]] = field(default_factory=list)
    steady_intermittent: list[KnownIntermittent] = field(default_factory=list)
    """known_intermittent claims whose cells ran and none was intermittent (not a failure: it may flip next run)."""
    outside: list[Record] = field(default_factory=list)
    """Records of cells the profile does not select (a resumed run of another selection): never judged."""
    missing: list[str] = field(default_factory=list)
    """Cells the profile selects that have no record: not evidence of anything, so not qualified either."""
    cells: int = 0

    @property
    def ok(self) -> bool:
        return not (self.failed or self.infra_errors or self.unknown_deviations or self.unknown_intermittent
                    or self.outside or self.missing)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def lines(self) -> list[str]:
        """One line per cell that fails qualification, then the file's stale and unexercised entries."""
        out = [f"outside the profile: {r.cell_id}: the profile selects no such cell; not judged" for r in self.outside]
        out += [f"no record: {cell}" for cell in self.missing[:MISSING_SHOWN]]
        if len(self.missing) > MISSING_SHOWN:
            out.append(f"no record: ... and {len(self.missing) - MISSING_SHOWN} more cells of the profile")
        out += [f"fail: {r.cell_id}: {r.reason or 'no reason recorded'}" for r in self.failed]
        out += [f"infra_error: {r.cell_id}: {r.reason or 'no reason recorded'}" for r in self.infra_errors]
        out += [f"deviation not in known_deviations: {r.cell_id}{_held(r)}: {r.reason or _differences(r)}"
                for r in self.unknown_deviations]
        out += [f"intermittent deviation not in known_intermittent: {r.cell_id} ({r.held_text}): "
                f"{r.reason or _differences(r)}" for r in self.unknown_intermittent]
        out += [f"known deviation: {r.cell_id} (accepted by {e.where})" for r, e in self.known_deviations]
        out += [f"known intermittent: {r.cell_id} ({r.held_text}; accepted by {e.where})"
                for r, e in self.known_intermittent]
        out += [f"known intermittent {e.where}: {e.claim} was not intermittent in this run"
                for e in self.steady_intermittent]
        out += [f"stale known deviation {e.where}: {e.cell} matches no deviation of this run" for e in self.stale]
        out += [f"known deviation {e.where}: {e.cell} matches no cell of this run" for e in self.unexercised]
        out += [f"broad known deviation {e.where}: {e.cell} accepted deviations of {n} claims"
                + (" and matches every cell of this run" if every else "") + "; name the claim it reviews"
                for e, n, every in self.broad]
        verdict = "qualified" if self.ok else "NOT qualified"
        out.append(f"{verdict}: {self.cells} cells, {len(self.failed)} fail, {len(self.infra_errors)} infra_error, "
                   f"{len(self.unknown_deviations)} unknown deviation, {len(self.known_deviations)} known deviation, "
                   f"{len(self.unknown_intermittent)} unknown intermittent, {len(self.known_intermittent)} known "
                   f"intermittent, {len(self.stale)} stale entr{'y' if len(self.stale) == 1 else 'ies'}"
                   + (f", {len(self.outside)} outside the profile" if self.outside else "")
                   + (f", {len(self.missing)} without a record" if self.missing else ""))
        return out


def _held(record: Record) -> str:
    """`` (steady, held 0 of 3)`` for a deviation observed more than once, else nothing."""
    return f" (steady, {record.held_text})" if record.held else ""


def _differences(record: Record) -> str:
    keys = [str(d.get("key")) for d in record.differences if isinstance(d, dict)]
    return "differs in " + ", ".join(keys) if keys else "no differences recorded"


def classify(records: Iterable[Record], known: Sequence[KnownDeviation],
             known_intermittent: Sequence[KnownIntermittent] = (), cells: Collection[str] | None = None) -> Verdict:
    """Judge a run's records (the last line of each cell) against reviewed known deviations and the claims a
    profile knows to be intermittent; intermittent and steady deviations are kept apart.  Given the profile's
    ``cells``, only their records are judged: the others are reported as outside it, and its cells without a
    record as missing."""
    latest = latest_by_cell(records)
    verdict = Verdict()
    if cells is not None:
        verdict.outside = [latest.pop(cell_id) for cell_id in sorted(set(latest) - set(cells))]
        verdict.missing = sorted(set(cells) - set(latest))
    verdict.cells = len(latest)
    used: set[int] = set()
    for cell_id in sorted(latest):
        record = latest[cell_id]
        if record.outcome == "fail":
            verdict.failed.append(record)
        elif record.outcome == "infra_error":
            verdict.infra_errors.append(record)
        elif record.outcome == "deviation":
            flips = next((e for e in known_intermittent if e.matches(record.claim_id)), None) \
                if record.intermittent else None
            match = next((i for i, e in enumerate(known) if e.matches(cell_id)), None)
            if match is not None:
                used.add(match)  # it matched a deviation of this run, whichever list accepted it: not stale
            if flips is not None:
                verdict.known_intermittent.append((record, flips))
            elif match is None:
                (verdict.unknown_intermittent if record.intermittent else verdict.unknown_deviations).append(record)
            else:
                verdict.known_deviations.append((record, known[match]))
    for index, entry in enumerate(known):
        claims = {r.claim_id for r, e in verdict.known_deviations if e is entry}
        if len(claims) > 1:
            verdict.broad.append((entry, len(claims), all(entry.matches(cell_id) for cell_id in latest)))
        if index in used:
            continue
        if any(entry.matches(cell_id) for cell_id in latest):
            verdict.stale.append(entry)
        else:
            verdict.unexercised.append(entry)
    flipped = {id(e) for _, e in verdict.known_intermittent}
    verdict.steady_intermittent = [e for e in known_intermittent if id(e) not in flipped
                                   and any(e.matches(r.claim_id) for r in latest.values())]
    return verdict


# ----- profiles -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    """A named matrix to qualify against: what ``kcompat run`` gets as its selection."""

    name: str
    brokers: tuple[str, ...]
    modes: tuple[str, ...]
    clients: tuple[str, ...]
    kips: tuple[str, ...]
    known_deviations: Path | None
    file: Path
    line: int
    known_intermittent: tuple[KnownIntermittent, ...] = ()

    def load_known_deviations(self) -> list[KnownDeviation]:
        return [] if self.known_deviations is None else parse_known_deviations(self.known_deviations)


def _strings(table: dict[str, Any], key: str, pattern: re.Pattern[str], where: str, what: str,
             required: bool = True) -> tuple[str, ...]:
    value = table.get(key)
    if value is None and not required:
        return ()
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise QualifyError(f"{where}: {key} must be a non-empty list of strings")
    bad = [v for v in value if not pattern.match(v)]
    if bad:
        raise QualifyError(f"{where}: {key}: {bad[0]!r} is not {what}")
    return tuple(value)


def _profile(name: str, table: Any, path: Path, lines: Sequence[str]) -> Profile:
    header = _line_of(lines, rf"^\s*\[\s*profiles\s*\.\s*\"?{re.escape(name)}\"?\s*\]")

    def where(key: str) -> str:
        line = _line_of(lines, r"^\s*" + re.escape(key) + r"\s*=", header, header)
        return f"{path}:{line}"

    if not isinstance(table, dict):
        raise QualifyError(f"{path}:{header}: profile {name} must be a table ([profiles.{name}])")
    unknown = sorted(set(table) - _PROFILE_KEYS)
    if unknown:
        raise QualifyError(f"{where(unknown[0])}: unknown key {unknown[0]} in profile {name} "
                           f"(known: {', '.join(sorted(_PROFILE_KEYS))})")
    brokers = _strings(table, "brokers", _VERSION, where("brokers"), "a Kafka version like 3.9 or 2.4.1")
    modes = _strings(table, "modes", _MODE, where("modes"), "zk or kraft", required=False)
    clients = _strings(table, "clients", _REFERENCE, where("clients"), "a client reference (KIND[:RELEASE])")
    for client in clients:
        try:
            ClientRef.parse(client)
        except ConfigError as exc:
            raise QualifyError(f"{where('clients')}: clients: {exc}") from None
    kips = _strings(table, "kips", _KIP, where("kips"), "a KIP like KIP-525 or a docs excerpt like DOCS-authorization")
    known = table.get("known_deviations")
    known_path = None
    if known is not None:
        if not isinstance(known, str) or not known.strip():
            raise QualifyError(f"{where('known_deviations')}: known_deviations must be a file name")
        known_path = (path.parent / known).resolve() if not Path(known).is_absolute() else Path(known)
        if not known_path.is_file():
            raise QualifyError(f"{where('known_deviations')}: known_deviations file {known_path} does not exist")
    claims = _strings(table, "known_intermittent", _CLAIM_PATTERN, where("known_intermittent"),
                      "a claim id (patterns with * and ?) like KIP-195/count-rises-when-the-call-returns",
                      required=False)
    intermittent = tuple(KnownIntermittent(c, path, _line_of(lines, rf".*{re.escape(json.dumps(c))}", header,
                                                              _line_of(lines, r"^\s*known_intermittent\s*=",
                                                                       header, header)))
                         for c in claims)
    return Profile(name, brokers, modes or MODES, clients, kips, known_path, path, header, intermittent)


def load_profiles(path: Path) -> dict[str, Profile]:
    text, data = read_toml(path, QualifyError, "a profile or known-deviations file")
    lines = text.splitlines()
    profiles = data.get("profiles")
    if not isinstance(profiles, dict) or not profiles:
        raise QualifyError(f"{path}:1: no profile (expected [profiles.NAME] tables)")
    return {name: _profile(name, table, path, lines) for name, table in profiles.items()}


def load_profile(path: Path, name: str | None = None) -> Profile:
    """The named profile, or the file's only one when no name is given."""
    profiles = load_profiles(path)
    if name is None:
        if len(profiles) != 1:
            raise QualifyError(f"{path}: {len(profiles)} profiles ({', '.join(profiles)}); name one")
        return next(iter(profiles.values()))
    if name not in profiles:
        raise QualifyError(f"{path}: no profile {name!r} (profiles: {', '.join(profiles)})")
    return profiles[name]
