"""The bug zoo: publicly reported version-skew bugs in admin operations, each tied to the cells that show it.

``src/kcompat/scenarios/zoo.toml`` holds one ``[[bug]]`` table per report:
where it was filed, what its reporter ran, and the cell of the claim book
that shows it (``buggy``) and, where a release fixed it, the cell that shows
the fix (``fixed``); a report kcompat can't drive yet says why in
``not_reproduced``.  It answers "would kcompat have warned me?": a bug is
reproduced when its buggy cell got a judged verdict other than ``pass`` and
its fixed cell the verdict the fix gives (``pass`` unless ``fixed_verdict``
says the fix is a clean refusal), which the buggy cell's is not; an
``infra_error`` or ``fail`` cell says nothing of the pair (inconclusive).
Loading checks every name as a run would (the claim book, the broker catalog,
the client kinds, the planned cell), each problem one ``FILE:LINE: reason``
line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalog import Catalog, load_catalog
from ..clients.ref import ClientRef
from ..errors import ConfigError, HarnessError
from ..records import Cell, Record, latest_by_cell
from ..tomlfile import read_toml
from .claims import ClaimBook, claims_dir, load_claim_book, scenarios_dir
from .plan import Selection, plan

ZOO_FILE = "zoo.toml"
TRACKERS = ("kafka-jira", "librdkafka", "confluent-kafka-python", "kafka-python", "kafkajs", "sarama", "franz-go",
            "kafka-go", "downstream")
"""Where a report was filed: Kafka's JIRA, a client library's GitHub tracker, or ``downstream`` (a project built
on a client, reporting what the client did)."""
VERDICTS = ("pass", "unsupported", "deviation")
"""What a fixed cell may be expected to get: a judged verdict, never an ``INCONCLUSIVE`` one."""
INCONCLUSIVE = ("infra_error", "fail")
"""Outcomes that say nothing of the pair: the harness, its machine or the probe's set-up broke."""
_REQUIRED = {"id", "title", "link", "tracker", "operation", "symptom", "reported"}
_OPTIONAL = {"claim", "buggy", "fixed", "fixed_in", "fixed_verdict", "not_reproduced", "nightly", "note"}
_PAIR_KEYS = {"client", "broker", "mode"}
_REPORTED_KEYS = {"client", "broker"}
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_LINK = re.compile(r"https://(issues\.apache\.org/jira/browse/KAFKA-\d+|github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+)\Z")
_HEADER = re.compile(r"\s*\[\[\s*bug\s*\]\]")


@dataclass(frozen=True)
class Bug:
    """One reported bug: the report's words and versions, and the cells kcompat judges it by."""

    id: str
    title: str
    link: str
    tracker: str
    operation: str
    symptom: str
    reported_client: str
    reported_broker: str
    line: int
    claim: str | None = None
    buggy: Cell | None = None
    fixed: Cell | None = None
    fixed_in: str | None = None
    fixed_verdict: str = "pass"
    not_reproduced: str | None = None
    nightly: bool = False
    note: str | None = None

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(c for c in (self.buggy, self.fixed) if c is not None)


class _Problem(Exception):
    """A problem with one key of one entry; turned into ``FILE:LINE: reason`` by the loader."""

    def __init__(self, key: str | None, reason: str):
        super().__init__(reason)
        self.key = key


def zoo_file() -> Path:
    """The installed ``src/kcompat/scenarios/zoo.toml`` (located beside the claims, never imported)."""
    return scenarios_dir() / ZOO_FILE


def load_zoo(path: Path | None = None) -> list[Bug]:
    """Every entry of ``path`` (default: the installed zoo), checked against the installed claim book and the
    broker catalog; the first problem raises ConfigError ``FILE:LINE: reason``."""
    path = path or zoo_file()
    text, data = read_toml(path, ConfigError, "a bug zoo")
    starts = [n for n, line in enumerate(text.splitlines(), 1) if _HEADER.match(line)]
    unknown = sorted(set(data) - {"bug"})
    if unknown:
        raise ConfigError(f"{path}:1: unknown top-level key {unknown[0]!r} (a zoo holds [[bug]] tables)")
    entries = data.get("bug", [])
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path}:1: no [[bug]] tables")
    book, catalog = load_claim_book(claims_dir()), load_catalog()
    lines = text.splitlines()
    bugs: list[Bug] = []
    for index, entry in enumerate(entries):
        start = starts[index] if index < len(starts) else 1
        end = starts[index + 1] if index + 1 < len(starts) else len(lines) + 1
        try:
            bugs.append(_bug(entry, start, book, catalog))
        except _Problem as problem:
            raise ConfigError(f"{path}:{_key_line(lines, start, end, problem.key)}: bug {_name(entry, index)}: "
                              f"{problem}") from None
    _unique(bugs, path)
    return bugs


def _name(entry: Any, index: int) -> str:
    return repr(entry["id"]) if isinstance(entry, dict) and isinstance(entry.get("id"), str) else f"#{index + 1}"


def _key_line(lines: Sequence[str], start: int, end: int, key: str | None) -> int:
    """The line of ``key = ...`` inside the entry's lines, else the entry's ``[[bug]]`` line."""
    if key is not None:
        pattern = re.compile(rf"\s*{re.escape(key)}\s*=")
        for number in range(start, min(end, len(lines) + 1)):
            if pattern.match(lines[number - 1]):
                return number
    return start


def _unique(bugs: Iterable[Bug], path: Path) -> None:
    seen: dict[str, int] = {}
    for bug in bugs:
        if bug.id in seen:
            raise ConfigError(f"{path}:{bug.line}: bug {bug.id!r}: id already used at line {seen[bug.id]}")
        seen[bug.id] = bug.line


def _text(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise _Problem(key, f"{key!r} must be a non-empty string")
    return value.strip()


def _bug(entry: Any, line: int, book: ClaimBook, catalog: Catalog) -> Bug:
    if not isinstance(entry, dict):
        raise _Problem(None, "a [[bug]] entry must be a table")
    unknown = sorted(set(entry) - _REQUIRED - _OPTIONAL)
    if unknown:
        raise _Problem(unknown[0], f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_REQUIRED | _OPTIONAL))})")
    missing = sorted(_REQUIRED - set(entry))
    if missing:
        raise _Problem(None, f"missing key {missing[0]!r}")
    bug_id = _text(entry, "id")
    if not _ID.match(bug_id):
        raise _Problem("id", f"id {bug_id!r} is not lower-case words joined by '-'")
    link = _text(entry, "link")
    if not _LINK.match(link):
        raise _Problem("link", f"link {link!r} is neither a Kafka JIRA issue nor a GitHub issue or pull request")
    tracker = _text(entry, "tracker")
    if tracker not in TRACKERS:
        raise _Problem("tracker", f"tracker {tracker!r} is not one of {', '.join(TRACKERS)}")
    reported = _reported(entry.get("reported"))
    common = {"id": bug_id, "title": _text(entry, "title"), "link": link, "tracker": tracker,
              "operation": _text(entry, "operation"), "symptom": _text(entry, "symptom"),
              "reported_client": reported[0], "reported_broker": reported[1], "line": line,
              "nightly": _flag(entry, "nightly"), "note": _optional_text(entry, "note")}
    if "not_reproduced" in entry:
        return _unreproduced(entry, common, book)
    return _reproducible(entry, common, book, catalog)


def _reported(value: Any) -> tuple[str, str]:
    if not isinstance(value, dict) or set(value) != _REPORTED_KEYS or not all(
            isinstance(v, str) and v.strip() for v in value.values()):
        raise _Problem("reported", "'reported' must be { client = \"...\", broker = \"...\" } as the report says")
    return value["client"].strip(), value["broker"].strip()


def _flag(entry: Mapping[str, Any], key: str) -> bool:
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise _Problem(key, f"{key!r} must be true or false")
    return value


def _optional_text(entry: Mapping[str, Any], key: str) -> str | None:
    return _text(entry, key) if key in entry else None


def _unreproduced(entry: Mapping[str, Any], common: dict[str, Any], book: ClaimBook) -> Bug:
    reason = _text(entry, "not_reproduced")
    if "\n" in reason:
        raise _Problem("not_reproduced", "'not_reproduced' is one line")
    for key in ("buggy", "fixed", "fixed_verdict"):
        if key in entry:
            raise _Problem(key, f"{key!r} names a cell to run, and the entry says it is not reproduced")
    claim = _optional_text(entry, "claim")
    if claim is not None and claim not in {c.id for c in book.claims}:
        raise _Problem("claim", f"no claim {claim!r} in the claim book ({claims_dir()})")
    return Bug(**common, claim=claim, fixed_in=_optional_text(entry, "fixed_in"), not_reproduced=reason)


def _reproducible(entry: Mapping[str, Any], common: dict[str, Any], book: ClaimBook, catalog: Catalog) -> Bug:
    claim = _text(entry, "claim") if "claim" in entry else None
    if claim is None:
        raise _Problem(None, "an entry names 'claim' and 'buggy', or says why it is 'not_reproduced'")
    known = {c.id for c in book.claims}
    if claim not in known:
        raise _Problem("claim", f"no claim {claim!r} in the claim book ({claims_dir()})")
    if "buggy" not in entry:
        raise _Problem(None, "missing key 'buggy' (or 'not_reproduced')")
    verdict = entry.get("fixed_verdict", "pass")
    if verdict not in VERDICTS:
        raise _Problem("fixed_verdict", f"fixed_verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    if "fixed_verdict" in entry and "fixed" not in entry:
        raise _Problem("fixed_verdict", "'fixed_verdict' without a 'fixed' cell")
    buggy = _cell(entry, "buggy", claim, book, catalog)
    fixed = _cell(entry, "fixed", claim, book, catalog) if "fixed" in entry else None
    if fixed is not None and fixed == buggy:
        raise _Problem("fixed", "the fixed cell is the buggy cell")
    return Bug(**common, claim=claim, buggy=buggy, fixed=fixed, fixed_in=_optional_text(entry, "fixed_in"),
               fixed_verdict=verdict)


def _cell(entry: Mapping[str, Any], key: str, claim: str, book: ClaimBook, catalog: Catalog) -> Cell:
    """The cell ``{ client, broker[, mode] }`` names, planned as a run plans it; a name the client kinds or the
    catalog refuse, or a cell the plan lacks, is the key's problem."""
    pair = entry[key]
    if not isinstance(pair, dict) or not {"client", "broker"} <= set(pair) or set(pair) - _PAIR_KEYS or not all(
            isinstance(v, str) for v in pair.values()):
        raise _Problem(key, f"{key!r} must be {{ client = \"REF\", broker = \"VERSION\" }} (and optionally mode)")
    try:
        ref = ClientRef.parse(pair["client"]).resolved()
        release = catalog.release(pair["broker"])
        mode = pair.get("mode", release.line.default_mode)
        if mode not in release.line.modes:
            raise ConfigError(f"Kafka {release.version} has no {mode} mode (it runs in "
                              f"{', '.join(release.line.modes)})")
        cell = Cell(claim, str(release.version), mode, str(ref))
        kip = cell.kip
        planned = {c.cell.id for c in plan(Selection((str(release.version),), mode, (str(ref),), (kip,)), book,
                                           catalog)}
    except HarnessError as exc:
        raise _Problem(key, f"{key}: {exc}") from None
    if cell.id not in planned:
        raise _Problem(key, f"{key}: {cell.id} is not a cell of the matrix (the claim does not apply to "
                            f"{ref.kind}, or {ref} can't send the claim's request)")
    return cell


def selection(bugs: Sequence[Bug]) -> Selection:
    """The smallest run selection holding every cell the reproducible entries need (their brokers, modes, clients
    and documents); the run narrows it to exactly those cells."""
    cells = [c for bug in bugs for c in bug.cells]
    if not cells:
        raise ConfigError("no entry of the zoo names a cell to run")
    catalog = load_catalog()
    defaults = all(catalog.release(c.broker_version).line.default_mode == c.broker_mode for c in cells)
    return Selection(tuple(dict.fromkeys(c.broker_version for c in cells)), "default" if defaults else "all",
                     tuple(dict.fromkeys(c.client for c in cells)), tuple(dict.fromkeys(c.kip for c in cells)))


@dataclass(frozen=True)
class Judgement:
    """What one run says of one entry."""

    bug: Bug
    state: str
    """``reproduced``, ``not reproduced``, ``inconclusive`` (a cell got ``infra_error`` or ``fail``), ``not in this
    run`` or ``not reproducible`` (the entry says why)."""
    detail: str

    @property
    def failed(self) -> bool:
        """An entry expected reproduced that the run's records contradict (a missing or inconclusive record is not
        one)."""
        return self.state == "not reproduced"


def _seen(cell: Cell, record: Record | None) -> str:
    return f"{cell.id}: " + ("no record" if record is None else record.outcome)


def judge(bug: Bug, latest: Mapping[str, Record]) -> Judgement:
    """Reproduced: the buggy cell judged and not ``pass``, the fixed cell (if any) ``fixed_verdict`` and the buggy
    cell's verdict another (the same verdict on both sides shows no fix)."""
    if bug.buggy is None:
        return Judgement(bug, "not reproducible", bug.not_reproduced or "")
    records = [(cell, latest.get(cell.id)) for cell in bug.cells]
    detail = "; ".join(_seen(cell, record) for cell, record in records)
    if any(record is None for _, record in records):
        return Judgement(bug, "not in this run", detail)
    if any(record.outcome in INCONCLUSIVE for _, record in records if record is not None):
        return Judgement(bug, "inconclusive", detail)
    buggy = latest[bug.buggy.id].outcome
    fixed = latest[bug.fixed.id].outcome if bug.fixed is not None else None
    shown = buggy != "pass" and (fixed is None or (fixed == bug.fixed_verdict and buggy != fixed))
    return Judgement(bug, "reproduced" if shown else "not reproduced", detail)


def judge_all(bugs: Sequence[Bug], records: Iterable[Record]) -> list[Judgement]:
    latest = latest_by_cell(records)
    return [judge(bug, latest) for bug in bugs]


__all__ = ["Bug", "Judgement", "ZOO_FILE", "judge", "judge_all", "load_zoo", "selection", "zoo_file"]
