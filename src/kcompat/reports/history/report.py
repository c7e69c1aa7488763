"""The report: a few SQL queries any engine runs, and the files built from their rows.

The queries are plain SQL that Spark SQL and DuckDB both read the same way (window functions,
``IS DISTINCT FROM``, no engine-specific functions), over one view ``obs`` with the records table's
columns.  Everything after the queries is Python over lists of dicts, so a report computed by Spark
and one computed by DuckDB over the same Parquet files are byte for byte the same files
(bench/history.py checks it).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kcompat.harness.records import DOCUMENT_ID, OUTCOMES
from kcompat.harness.versions import version_key

from .errors import HistoryError

ENV_FIELDS: tuple[str, ...] = ("broker_version", "client_version", "java_version", "librdkafka_version")
"""What may change between two runs of a cell besides the verdict: broker patch, client release,
Java, librdkafka."""

DOCUMENTED_CASES = ("supported", "below", "refused")
"""What a record's ``documented.case`` says (docs/RECORDS.md)."""

DEFAULT_FLAKY_WINDOW = 10
REGRESSIONS_FILE = "regressions.jsonl"
DEFAULT_HISTORY_DEPTH = 30
"""Runs per cell in the page's history: a month of nightlies."""


class Engine(Protocol):
    """Whatever runs SQL over the views ``obs`` (OBS_COLUMNS of every record) and ``obs_lines`` (run_id,
    cell_id and the whole line, ``record``, of the same rows): a Spark session or DuckDB."""

    def rows(self, sql: str) -> list[dict[str, Any]]: ...


OBS_COLUMNS: tuple[str, ...] = (
    "series", "run_started_at", "run_id", "cell_id", "outcome", "kip", "claim_id", "broker_version", "broker_mode",
    "client", "client_kind", "client_version", "java_version", "librdkafka_version", "limited_by", "documented",
    "intermittent", "held_count", "observation_count")
"""The records table's columns the queries read.  ``record`` (the whole line, most of the table's bytes)
is only read for each cell's latest row, from ``obs_lines``, so Spark can keep ``obs`` small and cached."""

NEWEST_FIRST: tuple[str, ...] = ("run_started_at", "run_id", "cell_id")
"""A series' runs, each ordered by these DESC.  Every window's PARTITION BY starts with ``series`` (a cell
id and a KIP table's key each belong to one series, so the partitions are the same), and the series'
windows all use this one order: rows spread by ``series`` once and sorted by series then newest first
serve every window without another shuffle or sort (engine.SparkEngine)."""

ORDERS: dict[str, tuple[str, ...]] = {
    "latest": ("cell_id",),
    "regressions": ("run_started_at", "run_id", "cell_id"),
    "flaky": ("series",),
    "intermittent": ("series",),
    "kips": ("kip", "claim_id", "broker_version", "broker_mode", "client_kind", "client_version", "client"),
    "history": ("series", "run_started_at", "run_id", "cell_id"),
}
"""Each query's rows in this order (a unique key of its rows, so the order is total).  The queries end
without ORDER BY and ``ordered`` sorts what they return, the same for both engines: on Spark a global
ORDER BY is a range shuffle that computes the whole query twice (once to sample it), which doubled
every query's time on the benchmark's year."""


def ordered(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """A query's rows in ``ORDERS[query]``, nulls first (as Spark's ORDER BY puts them) and strings by code
    point (as both engines compare them: UTF-8 bytes)."""
    keys = ORDERS[query]
    return sorted(rows, key=lambda row: tuple((row[k] is not None, row[k] if row[k] is not None else "")
                                              for k in keys))


_ORDER_DESC = "ORDER BY " + ", ".join(f"{name} DESC" for name in NEWEST_FIRST)
_SERIES = f"WINDOW w AS (PARTITION BY series {_ORDER_DESC})"
"""A series' runs, newest first: windows go over ``series`` (``Cell.series``), so a broker patch or client
release bump continues a cell's history and shows up as what changed.  A run's previous run is the next
row (LEAD), its rank from the newest ROW_NUMBER."""
_JUDGED = "outcome <> 'infra_error'"  # a harness failure is not a verdict of the pair

LATEST_SQL = f"""
WITH k AS (
  SELECT cell_id, run_id, run_started_at, outcome FROM (
    SELECT cell_id, run_id, run_started_at, outcome,
           ROW_NUMBER() OVER (PARTITION BY series, cell_id {_ORDER_DESC}) AS rn FROM obs) t
  WHERE rn = 1)
SELECT /*+ BROADCAST(k) */ k.cell_id, k.run_id, k.run_started_at, k.outcome, l.record
FROM k JOIN obs_lines l ON l.cell_id = k.cell_id AND l.run_id = k.run_id
"""
"""Each cell's latest row; its whole line joined back at the end (the hint is a comment to DuckDB; to Spark
it says the few latest rows go to the scan of ``record``, not both sides through a shuffle)."""

_PREV = ", ".join(f"LEAD({name}) OVER w AS prev_{name}" for name in ("outcome", "run_id", "cell_id", *ENV_FIELDS))
_DOCUMENTED_CHANGED = "COALESCE(documented <> LEAD(documented) OVER w, FALSE) AS documented_changed"
"""The claim's documented side was revised between two runs: a real cause of a verdict change."""
_ENV_CHANGED = " OR ".join([*(f"{name} IS DISTINCT FROM prev_{name}" for name in ENV_FIELDS), "documented_changed"])

REGRESSIONS_SQL = f"""
WITH s AS (
  SELECT series, cell_id, claim_id, client_kind, outcome, run_id, run_started_at, {", ".join(ENV_FIELDS)}, {_PREV},
         {_DOCUMENTED_CHANGED}
  FROM obs WHERE {_JUDGED}
  {_SERIES})
SELECT cell_id, series, prev_cell_id AS from_cell_id, claim_id, broker_version, client_kind, client_version,
       prev_outcome AS from_outcome, outcome AS to_outcome, run_id, run_started_at, prev_run_id AS from_run_id,
       {", ".join(f"prev_{name}" for name in ENV_FIELDS)}, {", ".join(ENV_FIELDS[1:])}, documented_changed
FROM s WHERE prev_outcome IS NOT NULL AND prev_outcome <> outcome
"""

_FLIP = "prev_outcome IS NOT NULL AND rn < {window} AND prev_outcome <> outcome"
_LAST = "MAX(CASE WHEN rn = 1 THEN {0} END) AS {0}"

_NEWEST = "WINDOW w AS (PARTITION BY series ORDER BY rn)"
"""Over a series' newest rows, numbered newest first (``rn``): the same previous runs as ``_SERIES``
for every row but the oldest kept, whose previous run is cut off; queries keep one row more than they use."""

_INTERMITTENT_RUNS = "CAST(SUM(CASE WHEN intermittent THEN 1 ELSE 0 END) AS BIGINT)"
"""Runs in which the cell's own observations disagreed (records of schema_version 3; null before: none)."""

FLAKY_SQL = f"""
WITH n AS (
  SELECT series, cell_id, claim_id, client_kind, outcome, run_id, {", ".join(ENV_FIELDS)}, documented, intermittent,
         ROW_NUMBER() OVER w AS rn
  FROM obs WHERE {_JUDGED}
  {_SERIES}),
s AS (
  SELECT series, cell_id, claim_id, client_kind, outcome, run_id, {", ".join(ENV_FIELDS)}, {_PREV},
         {_DOCUMENTED_CHANGED}, intermittent, rn
  FROM n WHERE rn <= {{window}} + 1
  {_NEWEST})
SELECT {_LAST.format("cell_id")}, series, MAX(claim_id) AS claim_id, {_LAST.format("broker_version")},
       MAX(client_kind) AS client_kind, {_LAST.format("client_version")},
       CAST(SUM(CASE WHEN {_FLIP} THEN 1 ELSE 0 END) AS BIGINT) AS flips,
       CAST(COUNT(*) AS BIGINT) AS runs,
       {_INTERMITTENT_RUNS} AS intermittent_runs,
       MAX(CASE WHEN rn = 1 THEN outcome END) AS last_outcome,
       MAX(CASE WHEN rn = 1 THEN run_id END) AS last_run_id
FROM s WHERE rn <= {{window}}
GROUP BY series
HAVING SUM(CASE WHEN prev_outcome IS NOT NULL AND rn < {{window}} AND ({_ENV_CHANGED}) THEN 1 ELSE 0 END) = 0
   AND SUM(CASE WHEN {_FLIP} THEN 1 ELSE 0 END) >= 2
"""
"""A window's flips are the transitions between its runs (rn < window: both ends inside it); "nothing
changed" means no broker patch, client release, Java, librdkafka or documented side changed.  Verdicts that
change across runs; ``intermittent_runs`` says how many of those runs also disagreed within themselves."""

INTERMITTENT_SQL = f"""
WITH n AS (
  SELECT series, cell_id, claim_id, client_kind, broker_version, client_version, outcome, run_id, intermittent,
         held_count, observation_count, ROW_NUMBER() OVER w AS rn
  FROM obs WHERE {_JUDGED}
  {_SERIES})
SELECT {_LAST.format("cell_id")}, series, MAX(claim_id) AS claim_id, {_LAST.format("broker_version")},
       MAX(client_kind) AS client_kind, {_LAST.format("client_version")},
       {_INTERMITTENT_RUNS} AS intermittent_runs, CAST(COUNT(*) AS BIGINT) AS runs,
       CAST(SUM(CASE WHEN intermittent THEN held_count ELSE 0 END) AS BIGINT) AS held,
       CAST(SUM(CASE WHEN intermittent THEN observation_count ELSE 0 END) AS BIGINT) AS observations,
       MAX(CASE WHEN rn = 1 THEN outcome END) AS last_outcome,
       MAX(CASE WHEN rn = 1 THEN run_id END) AS last_run_id
FROM n WHERE rn <= {{window}}
GROUP BY series
HAVING SUM(CASE WHEN intermittent THEN 1 ELSE 0 END) > 0
"""
"""Flakiness within a run: series with a run of the window whose observations disagreed (the cell was
observed again after a deviation and some observations held), with how many of its observations held
over those runs (``held`` of ``observations``), apart from ``FLAKY_SQL``'s verdicts changing across runs."""

_KIP_KEY = "claim_id, broker_version, broker_mode, client_kind, client_version, client"
"""``client`` keeps the wire client's pins (``wire@v4``) apart from the unpinned wire client of the same release."""
_COUNTS = ", ".join(f"CAST(SUM(CASE WHEN outcome = '{o}' THEN 1 ELSE 0 END) OVER g AS BIGINT) AS n_{o}"
                    for o in OUTCOMES)

KIP_CELLS_SQL = f"""
SELECT kip, {_KIP_KEY}, outcome, limited_by, documented, run_id, {", ".join(f"n_{o}" for o in OUTCOMES)}
FROM (
  SELECT kip, {_KIP_KEY}, outcome, limited_by, documented, run_id, {_COUNTS},
         ROW_NUMBER() OVER (PARTITION BY series, {_KIP_KEY} {_ORDER_DESC}) AS rn
  FROM obs
  WINDOW g AS (PARTITION BY series, {_KIP_KEY} {_ORDER_DESC} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) t
WHERE rn = 1
"""
"""One row per claim x broker release x client release: its latest verdict and every verdict's count (over
the whole partition, in the row number's order so that one sort serves both)."""

_OBSERVATIONS = "intermittent, held_count, observation_count"

HISTORY_SQL = f"""
SELECT series, cell_id, run_id, run_started_at, outcome, limited_by, {", ".join(ENV_FIELDS)}, {_OBSERVATIONS},
       prev_run_id, {", ".join(f"prev_{name}" for name in ENV_FIELDS)}, documented_changed FROM (
  SELECT series, cell_id, run_id, run_started_at, outcome, limited_by, {", ".join(ENV_FIELDS)}, {_OBSERVATIONS},
         {_PREV}, {_DOCUMENTED_CHANGED}, rn
  FROM (
    SELECT series, cell_id, run_id, run_started_at, outcome, limited_by, {", ".join(ENV_FIELDS)}, {_OBSERVATIONS},
           documented, ROW_NUMBER() OVER w AS rn
    FROM obs
    {_SERIES}) n
  WHERE rn <= {{depth}} + 1
  {_NEWEST}) t
WHERE rn <= {{depth}}
"""
"""The newest ``depth`` runs of each series: numbered first (Spark stops at depth + 1 rows per series, a
WindowGroupLimit), previous runs over those only."""

COUNTS_SQL = "SELECT CAST(COUNT(*) AS BIGINT) AS records, CAST(COUNT(DISTINCT run_id) AS BIGINT) AS runs, " \
             "CAST(COUNT(DISTINCT cell_id) AS BIGINT) AS cells FROM obs"


@dataclass(frozen=True)
class Report:
    """Everything a report writes, as plain values."""

    summary: dict[str, Any]
    matrix: list[dict[str, Any]]
    regressions: list[dict[str, Any]]
    flaky: list[dict[str, Any]]
    intermittent: list[dict[str, Any]]
    kips: dict[str, dict[str, Any]]
    history: dict[str, list[dict[str, Any]]]


def changed_fields(row: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{field: {from, to}}`` of the ENV_FIELDS that differ from the series' previous run."""
    return {name: {"from": row[f"prev_{name}"], "to": row[name]}
            for name in ENV_FIELDS if row[f"prev_{name}"] != row[name]}


def regression_row(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"cell_id": row["cell_id"], "series": row["series"], "from_cell_id": row["from_cell_id"],
            "claim_id": row["claim_id"], "broker_version": row["broker_version"],
            "client_kind": row["client_kind"], "client_version": row["client_version"],
            "from_outcome": row["from_outcome"], "to_outcome": row["to_outcome"], "run_id": row["run_id"],
            "run_started_at": row["run_started_at"], "from_run_id": row["from_run_id"],
            "changed": changed_fields(row), "documented_changed": bool(row["documented_changed"])}


def what_changed(entry: Mapping[str, Any], before: Mapping[str, Any] | None) -> str:
    """One line: the verdict's change and every other change since the series' previous run (the page's
    history rows and the nightly's regression lines)."""
    parts = []
    if before is not None and before.get("outcome") != entry.get("outcome"):
        parts.append(f"verdict {before.get('outcome')} -> {entry.get('outcome')}")
    for name, change in sorted((entry.get("changed") or {}).items()):
        if isinstance(change, Mapping):
            parts.append(f"{name} {change.get('from')} -> {change.get('to')}")
    if entry.get("documented_changed"):
        parts.append("documented side revised")
    return ", ".join(parts)


def client_label(kind: str, version: str, client: str | None = None) -> str:
    """``java 2.3.1``; a pinned wire client keeps its pin (``wire@v4 0.5.0``)."""
    pin = client.partition("@")[2] if client else ""
    return f"{kind}@{pin} {version}" if pin else f"{kind} {version}"


_DOCUMENT = re.compile(DOCUMENT_ID + r"\Z")


def _object(text: Any) -> dict[str, Any]:
    """A stored JSON object (``documented``), or {} for anything else: a row written before ingest
    validated records must not stop a report."""
    try:
        value = json.loads(text) if isinstance(text, str) and text else {}
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _entry(row: Mapping[str, Any]) -> dict[str, Any]:
    documented = _object(row["documented"])
    return {"broker_version": row["broker_version"], "broker_mode": row["broker_mode"],
            "client_kind": row["client_kind"], "client_version": row["client_version"], "client": row["client"],
            "outcome": row["outcome"], "limited_by": row["limited_by"], "documented_case": documented.get("case"),
            "last_run_id": row["run_id"], "counts": {o: int(row[f"n_{o}"]) for o in OUTCOMES if row[f"n_{o}"]}}


def kip_tables(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per KIP, per claim: each broker x client entry, and where the claim holds, is unsupported, deviates.

    The documented side is what the records carry (``documented``: the KIP's quotes and the case it
    documents for the pair), so the table sits next to the KIP's own words.
    """
    kips: dict[str, dict[str, Any]] = {}
    for row in rows:
        if not isinstance(row["kip"], str) or not _DOCUMENT.match(row["kip"]):
            continue  # not a document id: never a table, never a file name (reports count such rows)
        kip = kips.setdefault(row["kip"], {"kip": row["kip"], "claims": {}})
        claim = kip["claims"].setdefault(row["claim_id"], {"claim_id": row["claim_id"], "quotes": [],
                                                           "entries": []})
        quotes = _object(row["documented"]).get("quotes")
        for quote in quotes if isinstance(quotes, list) else []:
            if isinstance(quote, str) and quote not in claim["quotes"]:
                claim["quotes"].append(quote)
        claim["entries"].append(_entry(row))
    for kip in kips.values():
        for claim in kip["claims"].values():
            claim["entries"].sort(key=lambda e: (version_key(e["broker_version"]), e["broker_mode"],
                                                 e["client_kind"], version_key(e["client_version"]), e["client"]))
            claim.update(_where(claim["entries"]))
        kip["claims"] = [kip["claims"][key] for key in sorted(kip["claims"])]
    return kips


def _where(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    def pairs(selected: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{"broker": f"{e['broker_version']}-{e['broker_mode']}",
                 "client": client_label(e["client_kind"], e["client_version"], e["client"]),
                 **({"limited_by": e["limited_by"]} if e["outcome"] == "unsupported" else {})}
                for e in selected]

    return {"holds": pairs(e for e in entries if e["outcome"] == "pass"),
            "unsupported": pairs(e for e in entries if e["outcome"] == "unsupported"),
            "deviates": pairs(e for e in entries if e["outcome"] == "deviation"),
            "documented": {case: pairs(e for e in entries if e["documented_case"] == case)
                           for case in DOCUMENTED_CASES}}


_MARK = {"pass": "holds", "unsupported": "unsupported", "deviation": "DEVIATES", "fail": "fail",
         "infra_error": "infra error"}


def kip_markdown(kip: Mapping[str, Any]) -> str:
    """The reconstructed table as a KIP would print it: brokers down, clients across."""
    out = [f"# {kip['kip']}: compatibility as observed", ""]
    for claim in kip["claims"]:
        out += [f"## {claim['claim_id']}", ""]
        out += [f"> {quote}" for quote in claim["quotes"]] or ["(the records carry no quote)"]
        clients = sorted({(e["client_kind"], e["client_version"], e["client"]) for e in claim["entries"]},
                         key=lambda c: (c[0], version_key(c[1]), c[2]))
        brokers = sorted({(e["broker_version"], e["broker_mode"]) for e in claim["entries"]},
                         key=lambda b: (version_key(b[0]), b[1]))
        cells = {(e["broker_version"], e["broker_mode"], e["client_kind"], e["client_version"], e["client"]): e
                 for e in claim["entries"]}
        out += ["", "| broker | " + " | ".join(client_label(*c) for c in clients) + " |",
                "|---|" + "---|" * len(clients)]
        for broker in brokers:
            row = [_md_cell(cells.get((*broker, *client))) for client in clients]
            out.append(f"| {broker[0]}-{broker[1]} | " + " | ".join(row) + " |")
        out.append("")
        out.append("Observed / documented per entry: documented `supported` means the KIP says the pair "
                   "can use the claim, `below` that it documents the fallback, `refused` that one side does "
                   "not accept the other's versions (the refusal is what is asserted).")
        out.append("")
    return "\n".join(out)


def _md_cell(entry: Mapping[str, Any] | None) -> str:
    if entry is None:
        return ""
    text = str(_MARK.get(entry["outcome"], entry["outcome"]))
    if entry["outcome"] == "unsupported" and entry["limited_by"]:
        text += f" ({entry['limited_by']})"
    if entry["documented_case"]:
        text += f" / {entry['documented_case']}"
    return text


_HISTORY_KEYS = ("cell_id", "run_id", "run_started_at", "outcome", "limited_by", *ENV_FIELDS, "held_count",
                 "observation_count")


def cell_histories(rows: Iterable[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """``{series: [run, ...]}``, oldest first; each run says what changed since the series' previous run."""
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        entry = {key: row[key] for key in _HISTORY_KEYS}
        first = row["prev_run_id"] is None
        entry["changed"] = {} if first else changed_fields(row)
        entry["documented_changed"] = bool(row["documented_changed"])
        entry["intermittent"] = bool(row["intermittent"])
        history[row["series"]].append(entry)
    return dict(history)


def compute(engine: Engine, *, flaky_window: int = DEFAULT_FLAKY_WINDOW,
            history_depth: int = DEFAULT_HISTORY_DEPTH, quarantined: int = 0,
            as_of: str | None = None) -> Report:
    counts = engine.rows(COUNTS_SQL)[0]
    latest = ordered(engine.rows(LATEST_SQL), "latest")
    matrix = [dict(record, run_started_at=row["run_started_at"]) for row in latest
              if (record := _object(row["record"]))]
    regressions = [regression_row(row) for row in ordered(engine.rows(REGRESSIONS_SQL), "regressions")]
    flaky = ordered(engine.rows(FLAKY_SQL.format(window=int(flaky_window))), "flaky")
    intermittent = ordered(engine.rows(INTERMITTENT_SQL.format(window=int(flaky_window))), "intermittent")
    kips = kip_tables(ordered(engine.rows(KIP_CELLS_SQL), "kips"))
    history = cell_histories(ordered(engine.rows(HISTORY_SQL.format(depth=int(history_depth))), "history"))
    summary = {"as_of": as_of, "runs": int(counts["runs"]), "records": int(counts["records"]),
               "cells": int(counts["cells"]), "quarantined": quarantined, "regressions": len(regressions),
               "unreadable_rows": len(latest) - len(matrix),
               "flaky": len(flaky), "intermittent": len(intermittent), "flaky_window": flaky_window, "history_depth": history_depth,
               "kips": sorted(kips)}
    return Report(summary, matrix, regressions, flaky, intermittent, kips, history)


def _dump(value: Any) -> str:
    return str(json.dumps(value, sort_keys=True, separators=(",", ":"), default=str))


def _jsonl(path: Path, rows: Iterable[Any]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(_dump(row) + "\n")


def write(report: Report, out_dir: Path) -> list[Path]:
    """The report's files (docs/HISTORY.md lists them); returns them in writing order."""
    kips_dir = out_dir / "kips"
    kips_dir.mkdir(parents=True, exist_ok=True)
    written = [out_dir / "matrix.jsonl", out_dir / REGRESSIONS_FILE, out_dir / "flaky.jsonl",
               out_dir / "intermittent.jsonl"]
    _jsonl(written[0], report.matrix)
    _jsonl(written[1], report.regressions)
    _jsonl(written[2], report.flaky)
    _jsonl(written[3], report.intermittent)
    for name, kip in sorted(report.kips.items()):
        if not _DOCUMENT.match(name):  # whatever a stored row says, nothing is written outside kips/
            continue
        (kips_dir / f"{name}.json").write_text(json.dumps(kip, sort_keys=True, indent=1) + "\n", encoding="utf-8")
        (kips_dir / f"{name}.md").write_text(kip_markdown(kip), encoding="utf-8")
        written += [kips_dir / f"{name}.json", kips_dir / f"{name}.md"]
    (out_dir / "history.json").write_text(_dump(report.history) + "\n", encoding="utf-8")
    (out_dir / "summary.json").write_text(json.dumps(report.summary, sort_keys=True, indent=1) + "\n",
                                          encoding="utf-8")
    return written + [out_dir / "history.json", out_dir / "summary.json"]


_GATE_FIELDS = ("cell_id", "run_id", "from_outcome", "to_outcome")


def regressions_in(out_dir: Path, run_ids: Collection[str]) -> list[dict[str, Any]]:
    """The regressions a report lists whose changing run is one of ``run_ids``: what a nightly fails on.

    The file lists every verdict change the store ever saw; a nightly answers for its own runs only, so a
    regression stays red for the night that brought it, not for every night after.  A file this command
    can't read is an error, never an empty list: a gate that reads nothing would pass every night.
    """
    path = out_dir / REGRESSIONS_FILE
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as exc:
        raise HistoryError(f"{out_dir} holds no {REGRESSIONS_FILE}",
                           hint="write it with kcompat history report --out " + str(out_dir)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise HistoryError(f"{path} is unreadable: {str(exc).splitlines()[0]}") from exc
    found = []
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            row = None
        if not isinstance(row, dict) or not all(isinstance(row.get(name), str) for name in _GATE_FIELDS):
            raise HistoryError(f"{path}:{number} is not a regression row (a JSON object with string "
                               + ", ".join(_GATE_FIELDS) + ")")
        if row["run_id"] in run_ids:
            found.append(row)
    return found


def improved(row: Mapping[str, Any]) -> bool:
    """A change to a verdict that holds (pass, unsupported with its fallback) from one that did not (deviation,
    fail): the documented behaviour holds now.  The gate names it and does not fail the night for it."""
    return row["from_outcome"] not in ("pass", "unsupported") and row["to_outcome"] in ("pass", "unsupported")


def regression_line(row: Mapping[str, Any]) -> str:
    """``CELL: pass -> deviation in run R (since run P; documented side revised)``: one line per cell."""
    changed = what_changed({"outcome": row["to_outcome"], "changed": row.get("changed"),
                            "documented_changed": row.get("documented_changed")}, None)
    since = f"since run {row.get('from_run_id')}" + (f"; {changed}" if changed else "")
    return f"{row['cell_id']}: {row['from_outcome']} -> {row['to_outcome']} in run {row['run_id']} ({since})"
