"""One cell again (``kcompat repro``) and the first release where a cell changed (``kcompat bisect``).

Both run cells exactly as ``kcompat run`` does (a pytest process on the
scenarios, ``--kc-cell`` narrowing it to one cell) into their own run
directories, so what they observe is a record like any other.  The search is
pure (``first_change``) and tested on crafted signatures.
"""

from __future__ import annotations

import difflib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalog import load_catalog
from ..central import fetch_metadata, parse_metadata
from ..config import HarnessConfig
from ..errors import ConfigError, HarnessError
from ..records import RECORDS_FILE, RUN_FILE, Cell, Record, RecordError, latest_by_cell, read_records
from ..versions import KafkaVersion
from .claims import claims_dir, load_claim_book
from .plan import Selection, plan
from .runner import Echo, RunOptions, read_run, recorded_claims, run_matrix, settings_args


def run_claims(run_dir: Path) -> Path | None:
    """The claim book a run was judged by (run.json's ``claims.dir``), when it was not the installed one.

    A repro of a cell from a run judged by a draft book judges by that book again; None when the run
    used the installed book, or names none (a run from before run.json recorded it).
    """
    if not (run_dir / RUN_FILE).is_file():
        return None
    claims = recorded_claims(read_run(run_dir), run_dir)  # a run.json that can't say: one line naming it
    if claims is None or claims[0] == claims_dir():
        return None
    return claims_dir(claims[0])  # gone since: one line naming the directory


def resolve_cell(text: str, run_dir: Path | None = None, claims: Path | None = None) -> Cell:
    """A cell id that names a planned cell, or a one-line error listing the nearest ones."""
    known: list[str] = []
    if run_dir is not None:
        known = sorted(latest_by_cell(read_records(run_dir / RECORDS_FILE).records))
    try:
        cell = Cell.parse(text)
    except RecordError as exc:
        near = difflib.get_close_matches(text, known, n=3, cutoff=0.5)
        raise ConfigError(f"{exc}" + (f"; nearest in {run_dir}: {', '.join(near)}" if near else "")) from None
    book = load_claim_book(claims_dir(claims))
    claim_ids = [c.id for c in book.claims]
    if cell.claim_id not in claim_ids:
        near = difflib.get_close_matches(cell.claim_id, claim_ids, n=3, cutoff=0.4)
        raise ConfigError(f"no claim {cell.claim_id}; nearest: {', '.join(near) or ', '.join(claim_ids[:3])}")
    cells = plan(Selection((f"{cell.broker_version}{cell.profile}",), cell.broker_mode, (cell.client,), (cell.kip,)), book,
                 load_catalog())
    ids = [c.cell.id for c in cells]
    if cell.id not in ids:
        near = difflib.get_close_matches(cell.id, ids + known, n=3, cutoff=0.5)
        raise ConfigError(f"{cell.id} is not a cell of the matrix (the claim does not apply to that client, or "
                          f"the mode is not that broker's); nearest: {', '.join(near) or 'none'}")
    return cell


def run_cell(cell: Cell, config: HarnessConfig, out: Path, *, keep: bool = False,
             echo: Echo | None = None, claims: Path | None = None) -> Record | None:
    """Run one cell into ``out``, judged by the book in ``claims`` (None: the installed one); its record,
    or None when it produced none (the output says why)."""
    extra = ("--kc-cell", cell.id) + (("--kc-keep",) if keep else ())
    options = RunOptions(out, Selection((f"{cell.broker_version}{cell.profile}",), cell.broker_mode, (cell.client,), (cell.kip,)),
                         settings=settings_args(config) + extra, claims=claims)
    run_matrix(options, config, echo=echo)
    return latest_by_cell(read_records(out / RECORDS_FILE).records).get(cell.id)


def recorded(cell: Cell, run_dir: Path) -> Record:
    """The cell's record in ``run_dir``; none is one line naming the nearest cells it holds, before anything
    boots (a repro compared with nothing would say it reproduced)."""
    if not (run_dir / RECORDS_FILE).is_file():
        raise ConfigError(f"{run_dir} has no {RECORDS_FILE}: not a kcompat run directory")
    report = read_records(run_dir / RECORDS_FILE)
    held = latest_by_cell(report.records)
    if cell.id in held:
        return held[cell.id]
    near = difflib.get_close_matches(cell.id, sorted(held), n=3, cutoff=0.5)
    unread = f"; {report.skipped} line(s) could not be read" if report.skipped else ""
    raise ConfigError(f"{run_dir / RECORDS_FILE} holds no record of {cell.id} ({len(held)} cells{unread}); "
                      f"nearest: {', '.join(near) or 'none'}")


def reproduced(before: Record | None, now: Record | None) -> bool:
    """Whether a repro agrees with the recorded cell: the same verdict, or, for a cell recorded as
    intermittent, any verdict its observations saw (this time it may hold, as pass or as the documented
    fallback's unsupported, or deviate again)."""
    if now is None or now.outcome in ("fail", "infra_error"):
        return False
    if before is None or before.outcome == now.outcome:
        return True
    return before.intermittent and now.outcome in {o.get("outcome") for o in before.observations}


def signature(record: Record | None) -> tuple[Any, ...]:
    """What bisect compares: the verdict, the short side, and the observed value of every documented key."""
    if record is None:
        return ("no record",)
    keys = sorted(record.documented.get("expect", {}))
    return (record.outcome, record.limited_by,
            json.dumps({k: record.observed.get(k, {"absent": True}) for k in keys}, sort_keys=True, default=str))


@dataclass(frozen=True)
class Step:
    release: KafkaVersion
    record: Record | None


def first_change(releases: Sequence[KafkaVersion], observe: Callable[[KafkaVersion], Record | None],
                 ) -> tuple[KafkaVersion | None, list[Step]]:
    """Binary search for the first release whose signature differs from the first one's.

    Assumes one change between the ends (as git bisect does); observes the two
    ends, then only the midpoints the search needs.  None when the ends agree.
    """
    steps: list[Step] = []
    seen: dict[KafkaVersion, tuple[Any, ...]] = {}

    def sig(index: int) -> tuple[Any, ...]:
        release = releases[index]
        if release not in seen:
            record = observe(release)
            steps.append(Step(release, record))
            seen[release] = signature(record)
        return seen[release]

    low, high = 0, len(releases) - 1
    if sig(low) == sig(high):
        return None, steps
    while high - low > 1:
        middle = (low + high) // 2
        if sig(middle) == sig(low):
            low = middle
        else:
            high = middle
    return releases[high], steps


def releases_between(good: str, bad: str, fetch: Callable[[str], str] = fetch_metadata) -> list[KafkaVersion]:
    """Every plain release Maven Central publishes from ``good`` to ``bad`` (patches included) that the
    catalog can boot, in order."""
    low, high = KafkaVersion.parse(good), KafkaVersion.parse(bad)
    if not low < high:
        raise ConfigError(f"--good {good} must be an older release than --bad {bad}")
    catalog = load_catalog()
    published = {v for scala in sorted({line.scala for line in catalog} | {"2.13"}) for v in parse_metadata(fetch(scala))}
    bootable = []
    for version in sorted(published):
        if low <= version <= high:
            try:
                catalog.release(version)
            except HarnessError:
                continue
            bootable.append(version)
    for end in (low, high):
        if end not in bootable:
            raise ConfigError(f"{end} is not a release Maven Central publishes that the catalog can boot")
    return bootable


def bisect(claim_id: str, client: str, good: str, bad: str, mode: str, config: HarnessConfig, out: Path,
           echo: Echo, claims: Path | None = None) -> tuple[KafkaVersion | None, list[Step], list[KafkaVersion]]:
    book = load_claim_book(claims_dir(claims))
    claim = book.claim(claim_id)
    releases = releases_between(good, bad)
    catalog = load_catalog()

    def observe(release: KafkaVersion) -> Record | None:
        chosen = catalog.release(release).line.default_mode if mode == "default" else mode
        cell = Cell(claim.id, str(release), chosen, client)
        started = time.perf_counter()
        record = run_cell(resolve_cell(cell.id, claims=claims), config, out / str(release), claims=claims)
        echo(f"{release}: {record.outcome if record else 'no record'}"
             + (f" (limited by {record.limited_by})" if record and record.limited_by else "")
             + f"  [{time.perf_counter() - started:.0f} s]")
        return record

    first, steps = first_change(releases, observe)
    return first, steps, releases
