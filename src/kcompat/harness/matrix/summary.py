"""The end-of-run summary: per KIP, a grid of broker x client with the count of each verdict.

Plain text (no terminal library) so pytest's summary, ``kcompat run`` and CI logs show the same
lines.  A grid cell reads ``3P 2U 1D``: pass, unsupported (``Ub``/``Uc``/``U2`` by broker,
client, both), deviation (D), fail (F), infra_error (E).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from ..records import OUTCOMES, Record, latest_by_cell
from ..versions import VersionKey, version_key
from .claims import document_order

_LETTER = {"pass": "P", "deviation": "D", "fail": "F", "infra_error": "E"}
_SIDE = {"broker": "Ub", "client": "Uc", "both": "U2"}


def _letter(record: Record) -> str:
    if record.outcome == "unsupported":
        return _SIDE.get(record.limited_by or "", "U")
    return _LETTER[record.outcome]


def _broker_key(label: str) -> tuple[VersionKey, str]:
    version, _, mode = label.rpartition("-")
    return version_key(version), mode


def _totals(records: list[Record]) -> str:
    """``3 pass, 2 deviation (1 intermittent)``: each verdict that occurs, deviations with their intermittent."""
    totals = Counter(r.outcome for r in records)
    intermittent = sum(1 for r in records if r.intermittent)
    return ", ".join(f"{totals[o]} {o}" + (f" ({intermittent} intermittent)" if o == "deviation" and intermittent
                                            else "") for o in OUTCOMES if totals[o])


def summary_lines(records: Iterable[Record]) -> list[str]:
    latest = list(latest_by_cell(records).values())
    lines: list[str] = []
    by_kip: dict[str, list[Record]] = defaultdict(list)
    for record in latest:
        by_kip[record.kip].append(record)
    for kip in sorted(by_kip, key=document_order):
        rows = by_kip[kip]
        brokers = sorted({r.cell.broker for r in rows}, key=_broker_key)
        clients = sorted({r.client or f"{r.client_kind}:{r.client_version}" for r in rows})
        grid: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        for r in rows:
            grid[(r.client or f"{r.client_kind}:{r.client_version}", r.cell.broker)][
                _letter(r)] += 1
        width = max(len(c) for c in clients)
        cells = {key: " ".join(f"{n}{letter}" for letter, n in sorted(counter.items())) for key, counter in grid.items()}
        column = max([len(b) for b in brokers] + [len(v) for v in cells.values()])
        lines.append(f"{kip}: {len(rows)} cells, {_totals(rows)}")
        lines.append(" " * (width + 4) + "  ".join(b.ljust(column) for b in brokers))
        for client in clients:
            lines.append(f"  {client.ljust(width)}  " + "  ".join(cells.get((client, b), "-").ljust(column)
                                                            for b in brokers).rstrip())
    if latest:
        lines.append(f"all: {len(latest)} cells, {_totals(latest)}"
                     + "  (P pass, Ub/Uc/U2 unsupported by broker/client/both, D deviation, F fail, E infra_error)")
    return lines
