"""``kcompat axes``: the default run's broker lines, chosen from a run over every line (``matrix.axes``)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click

from .display import note


@click.group("axes")
def axes() -> None:
    """The default run's axes, and why those."""


def _boot_seconds(run: dict[str, object], busy_s: float, clusters: int, workers: int) -> float:
    """Seconds a cluster's boot adds, from the run's own wall time (its workers' time not spent in cells,
    per cluster); 8 s (this project's measured boots) when the run did not finish."""
    try:
        wall = (datetime.fromisoformat(str(run["ended_at"]))
                - datetime.fromisoformat(str(run["started_at"]))).total_seconds()
    except (KeyError, TypeError, ValueError):
        return 8.0
    return max(1.0, (wall * workers - busy_s) / max(clusters, 1))


@axes.command("choose")
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("--budget", "budget_s", type=click.FloatRange(min=30), default=390.0, show_default=True,
              metavar="SECONDS", help="The default run's predicted wall time, from RUN_DIR's own timings (a run "
                                      "measured under load predicts high: 396 s for a default measured at 343 s).")
@click.option("--workers", type=click.IntRange(min=1, max=64), default=2, show_default=True,
              help="The default run's -n.")
@click.option("--keep", default=None, metavar="LINE,LINE",
              help="Lines the default holds whatever the data (default: the catalog's newest).")
@click.option("--write", is_flag=True, help="Write the choice into the default axes file.")
@click.option("--axes-file", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE",
              help="The default axes file --write writes (default: the installed default_axes.toml).")
@click.option("--json", "as_json", is_flag=True, help="Print the choice as JSON.")
def choose_command(run_dir: Path, budget_s: float, workers: int, keep: str | None, write: bool,
                   axes_file: Path | None, as_json: bool) -> None:
    """Pick the broker lines that observe the most verdict changes between adjacent lines, from RUN_DIR
    (a run of `kcompat run --brokers all`), within the budget."""
    from ..catalog import load_catalog
    from ..matrix.axes import (AXES_FILE, choose, clusters_in, defaults_text, lines_of, load_defaults, observed,
                               predicted, transitions)
    from ..matrix.runner import read_run
    from ..records import RECORDS_FILE, latest_by_cell, read_records

    records = [r.as_json() for r in latest_by_cell(read_records(run_dir / RECORDS_FILE).records).values()]
    if not records:
        raise click.UsageError(f"{run_dir / RECORDS_FILE}: no records to choose from (run `kcompat run --brokers "
                               "all --out DIR` first)")
    run = read_run(run_dir)
    first = lines_of(records, 0.0)
    if len(first) < 2:
        raise click.UsageError(f"{run_dir}: its records cover {len(first)} broker line; choosing needs a run over "
                               "several (kcompat run --brokers all)")
    workers_run = int(run.get("selection", {}).get("workers", workers))
    boot = _boot_seconds(run, sum(line.seconds for line in first.values()), clusters_in(records), workers_run)
    lines = lines_of(records, boot)
    newest = load_catalog().lines[-1].line if keep is None else None
    kept = [k.strip() for k in (keep.split(",") if keep is not None else [str(newest)]) if k.strip()]
    unknown = [k for k in kept if k not in lines]
    if unknown:
        raise click.UsageError(f"--keep {unknown[0]}: the run has no records of that line; it has "
                               f"{', '.join(sorted(lines))}")
    choice = choose(lines, budget_s, workers, kept)
    clients = sorted({str(r["client"]).split("@")[0] for r in records})
    current, current_clients = load_defaults()
    if as_json:
        click.echo(json.dumps({"lines": list(choice.lines), "observed": choice.observed,
                               "transitions": choice.transitions, "predicted_s": round(choice.predicted_s),
                               "boot_s": round(boot, 1), "edges": {f"{a}->{b}": n for (a, b), n in
                                                                  transitions(lines).items()},
                               "picks": [{"lines": list(p), "new": n, "seconds": round(s)}
                                         for p, n, s in choice.picks]}, indent=1))
    else:
        for (older, newer), count in transitions(lines).items():
            click.echo(f"{older:>6} -> {newer:<6} {count:5d} verdict changes")
        for picked, new, seconds in choice.picks:
            click.echo(f"pick {'+'.join(picked):<12} observes {new:4d} more, ~{seconds:.0f} s")
        held = [line for line in current if line in lines]
        click.echo(f"chosen: {', '.join(choice.lines)}: {choice.observed} of {choice.transitions} changes, "
                   f"~{choice.predicted_s:.0f} s predicted (budget {budget_s:g} s, -n {workers}, boot ~{boot:.0f} s)")
        click.echo(f"current default {', '.join(current)}: {observed(lines, held)} of "
                   f"{choice.transitions}, ~{predicted(lines, held, workers):.0f} s predicted")
    if write:
        kept_clients = [c for c in current_clients  # "confluent" ran as the installed release, confluent:2.16.1
                        if any(r == c or r.startswith(c + ":") for r in clients)] or clients
        target = axes_file or AXES_FILE
        try:
            target.write_text(defaults_text(choice, kept_clients, run, budget_s, workers))
        except OSError as exc:
            raise click.UsageError(f"--axes-file {target}: can't write it ({exc.strerror or exc})") from None
        note(f"wrote {target}")

