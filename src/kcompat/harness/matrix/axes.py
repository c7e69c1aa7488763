"""The default run's broker lines, chosen from data: the lines where verdicts change, within a time budget.

A default run that skips the line before a fix, or the oldest lines, answers "would it have warned me?"
with a no it could have avoided.  From a run over every catalog line (``kcompat run --brokers all``), this
counts for each pair of adjacent lines the (claim, client) pairs whose verdict (outcome and limiting side)
differs between them: a *transition*, observed by a run holding both lines.  Lines are then picked greedily,
singly or as adjacent pairs, by transitions newly observed per second of predicted run time, until the
budget is spent.  The lines a run must hold whatever the data (the catalog's newest) are kept first.

Pure logic over records; ``kcompat axes choose`` reads the run and writes ``default_axes.toml``, which
``plan.DEFAULT_BROKERS`` reads.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..versions import KafkaVersion

AXES_FILE = Path(__file__).with_name("default_axes.toml")
STARTUP_S = 15.0
"""What a run costs besides its lines: the controller's checks, the workers' start, the page."""
_CLUSTER = re.compile(r"kafka-(?P<cluster>[^/]+?)-\d+-\d+/")
"""A record's log path names its cluster: ``logs/<run>/kafka-2.3.1-zk-1n-2dirs-<pid>-<n>/node-1/...``."""


def line_of(version: str) -> str:
    return KafkaVersion.parse(version).line


@dataclass(frozen=True)
class Line:
    """One catalog line as the run saw it: its verdicts, and what it cost."""

    line: str
    verdicts: Mapping[tuple[str, str], str]
    seconds: float
    """The cells' own time plus a boot per cluster: what the line adds to a run, on one worker."""
    cells: int


@dataclass(frozen=True)
class Choice:
    lines: tuple[str, ...]
    observed: int
    transitions: int
    predicted_s: float
    picks: tuple[tuple[tuple[str, ...], int, float], ...] = field(default_factory=tuple)
    """In order: the lines added, the transitions they newly observe, their seconds."""


def lines_of(records: Iterable[Mapping[str, Any]], boot_s: float) -> dict[str, Line]:
    """Each line's verdicts per (claim, client) and its cost; a line the run covered in several modes keeps
    each mode's verdict in one (a change in either is a change)."""
    verdicts: dict[str, dict[tuple[str, str], list[str]]] = defaultdict(lambda: defaultdict(list))
    seconds: dict[str, float] = defaultdict(float)
    clusters: dict[str, set[str]] = defaultdict(set)
    cells: dict[str, int] = defaultdict(int)
    for record in records:
        line = line_of(str(record["broker_version"]))
        verdict = f"{record['outcome']}/{record.get('limited_by') or '-'}"
        verdicts[line][(str(record["claim_id"]), str(record["client"]))].append(verdict)
        seconds[line] += float(record.get("duration_ms") or 0) / 1000
        found = _CLUSTER.search(str(record.get("log") or ""))
        clusters[line].add(found["cluster"] if found else str(record.get("broker_mode")))
        cells[line] += 1
    return {line: Line(line, {key: " ".join(sorted(v)) for key, v in found.items()},
                       seconds[line] + boot_s * len(clusters[line]), cells[line])
            for line, found in verdicts.items()}


def transitions(lines: Mapping[str, Line]) -> dict[tuple[str, str], int]:
    """For each pair of adjacent lines the run holds, the (claim, client) pairs whose verdict differs."""
    ordered = sorted(lines, key=KafkaVersion.parse)
    found: dict[tuple[str, str], int] = {}
    for older, newer in itertools.pairwise(ordered):
        a, b = lines[older].verdicts, lines[newer].verdicts
        found[(older, newer)] = sum(1 for key in a.keys() & b.keys() if a[key] != b[key])
    return found


def observed(lines: Mapping[str, Line], chosen: Iterable[str]) -> int:
    """The transitions a run holding ``chosen`` observes (both lines of each)."""
    return _seen(transitions(lines), chosen)


def clusters_in(records: Iterable[Mapping[str, Any]]) -> int:
    """The clusters a run booted, by the log paths its records name."""
    return len({(str(r.get("broker_version")), found["cluster"] if (found := _CLUSTER.search(str(r.get("log") or "")))
                 else str(r.get("broker_mode"))) for r in records})


def predicted(lines: Mapping[str, Line], chosen: Iterable[str], workers: int) -> float:
    return STARTUP_S + sum(lines[line].seconds for line in chosen) / max(workers, 1)


def choose(lines: Mapping[str, Line], budget_s: float, workers: int, keep: Sequence[str] = ()) -> Choice:
    """Greedy by transitions newly observed per second: each step adds the single line or adjacent pair
    with the best ratio that still fits the budget; ties go to the newer lines (the ones users run)."""
    edges = transitions(lines)
    ordered = sorted(lines, key=KafkaVersion.parse)
    chosen = [line for line in keep if line in lines]
    picks: list[tuple[tuple[str, ...], int, float]] = [(tuple(chosen), _seen(edges, chosen), 0.0)] if chosen else []
    while True:
        best: tuple[float, int, tuple[str, ...]] | None = None
        for candidate in _candidates(ordered, chosen):
            cost = sum(lines[line].seconds for line in candidate) / max(workers, 1)
            if predicted(lines, [*chosen, *candidate], workers) > budget_s:
                continue
            gain = _seen(edges, [*chosen, *candidate]) - _seen(edges, chosen)
            if gain <= 0:
                continue
            rank = (gain / max(cost, 1e-9), ordered.index(candidate[-1]), candidate)
            if best is None or rank[:2] > best[:2]:
                best = rank
        if best is None:
            break
        candidate = best[2]
        picks.append((candidate, _seen(edges, [*chosen, *candidate]) - _seen(edges, chosen),
                      sum(lines[line].seconds for line in candidate) / max(workers, 1)))
        chosen.extend(candidate)
    final = tuple(sorted(chosen, key=KafkaVersion.parse))
    return Choice(final, _seen(edges, final), sum(edges.values()), predicted(lines, final, workers), tuple(picks))


def _candidates(ordered: Sequence[str], chosen: Sequence[str]) -> Iterable[tuple[str, ...]]:
    free = [line for line in ordered if line not in chosen]
    yield from ((line,) for line in free)
    yield from ((a, b) for a, b in itertools.pairwise(ordered) if a in free and b in free)


def _seen(edges: Mapping[tuple[str, str], int], chosen: Iterable[str]) -> int:
    held = set(chosen)
    return sum(count for (older, newer), count in edges.items() if older in held and newer in held)


def load_defaults(path: Path = AXES_FILE) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The default brokers and clients ``kcompat run`` uses (written by ``kcompat axes choose --write``)."""
    try:
        data = tomllib.loads(path.read_text())
        brokers, clients = data["brokers"], data["clients"]
    except (OSError, tomllib.TOMLDecodeError, KeyError) as exc:
        raise ConfigError(f"{path}: not a default axes file ({exc}); restore it from the release or write it with "
                          "`kcompat axes choose RUN --write`") from None
    if not all(isinstance(v, list) and v and all(isinstance(x, str) for x in v) for v in (brokers, clients)):
        raise ConfigError(f"{path}: brokers and clients are lists of names")
    return tuple(brokers), tuple(clients)


def defaults_text(choice: Choice, clients: Sequence[str], run: Mapping[str, Any], budget_s: float,
                  workers: int) -> str:
    """``default_axes.toml``: the choice, and the figures it rests on, for whoever asks why these lines."""
    lines = [
        "# The default run's axes (`kcompat run` with no --brokers/--clients; scripts/main.sh).",
        "# Written by `kcompat axes choose RUN --write` from a run over every catalog line: the lines picked",
        "# greedily by verdict transitions between adjacent lines observed per second, within the budget",
        "# (docs/MATRIX.md, \"The default run\").  Edit by re-running the command, not by hand.",
        f"brokers = [{', '.join(repr(line).replace(chr(39), chr(34)) for line in choice.lines)}]",
        f"clients = [{', '.join(repr(c).replace(chr(39), chr(34)) for c in clients)}]",
        "",
        "[chosen_from]",
        f"run = \"{run.get('run_id', '')}\"",
        f"started_at = \"{run.get('started_at', '')}\"",
        f"budget_s = {budget_s:g}",
        f"workers = {workers}",
        f"transitions = {choice.transitions}",
        f"observed = {choice.observed}",
        f"predicted_s = {choice.predicted_s:.0f}",
    ]
    return "\n".join(lines) + "\n"


__all__ = ["AXES_FILE", "Choice", "Line", "choose", "clusters_in", "defaults_text", "line_of", "lines_of",
           "load_defaults", "observed", "predicted", "transitions"]
