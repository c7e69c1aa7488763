"""``kcompat zoo``: the bug zoo (src/kcompat/scenarios/zoo.toml), its cells, and whether a run reproduces it.

``kcompat zoo`` lists the entries with their cells; ``zoo check RUN_DIR``
judges each from a run's records; ``zoo run --out DIR`` runs exactly the cells
the entries need, through the runner ``kcompat run`` uses, then checks them.
The judging is ``kcompat.harness.matrix.zoo``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .display import harness_config

if TYPE_CHECKING:
    from ..matrix.zoo import Bug

ZOO_OPTION = click.option("--zoo", "zoo_path", type=click.Path(path_type=Path), metavar="FILE",
                          help="The zoo file (default: the installed src/kcompat/scenarios/zoo.toml).")


def _load(path: Path | None) -> list[Bug]:
    """The zoo, every name checked; a problem is a usage error (``FILE:LINE: reason``, exit 2)."""
    from ..errors import ConfigError
    from ..matrix.zoo import load_zoo

    try:
        return load_zoo(path)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


@click.group("zoo", invoke_without_command=True)
@ZOO_OPTION
@click.pass_context
def zoo(ctx: click.Context, zoo_path: Path | None) -> None:
    """Publicly reported version-skew bugs in admin operations and the cells that show them."""
    ctx.obj = {"zoo": zoo_path}
    if ctx.invoked_subcommand is not None:
        return
    for bug in _load(zoo_path):
        _show(bug)


def _show(bug: Bug) -> None:
    """One entry: a line naming it, then one short line per thing it says (what the buggy cell must not get is
    ``pass``, nor the fixed cell's verdict)."""
    where = bug.not_reproduced and f"not reproducible: {bug.not_reproduced}"
    click.echo(f"{bug.id} ({bug.link}): {bug.operation}: {where or bug.claim}")
    click.echo(f"  reported: client {bug.reported_client}; broker {bug.reported_broker}")
    shown_not = " nor ".join(dict.fromkeys(("pass", bug.fixed_verdict if bug.fixed is not None else "pass")))
    for label, cell in (("buggy", bug.buggy), ("fixed", bug.fixed)):
        if cell is not None:
            expected = bug.fixed_verdict if label == "fixed" else f"not {shown_not}"
            click.echo(f"  {label}: {cell.id} (expect {expected})")
    for label, text in (("fixed in", bug.fixed_in), ("note", bug.note)):
        if text is not None:
            click.echo(f"  {label}: {text}")


def _report(bugs: Sequence[Bug], run_dir: Path, require_all: bool) -> int:
    """Each entry judged from ``run_dir``'s records, one line each, then the count; the exit code."""
    from ..matrix.zoo import judge_all
    from ..records import RECORDS_FILE, read_records

    if not (run_dir / RECORDS_FILE).is_file():
        raise click.UsageError(f"{run_dir} has no {RECORDS_FILE}: not a kcompat run directory")
    judgements = judge_all(bugs, read_records(run_dir / RECORDS_FILE).records)
    for judgement in judgements:
        click.echo(f"{judgement.bug.id}: {judgement.state}" + (f" ({judgement.detail})" if judgement.detail else ""))
    counts = {state: sum(1 for j in judgements if j.state == state)
              for state in ("reproduced", "not reproduced", "inconclusive", "not in this run", "not reproducible")}
    click.echo(", ".join(f"{n} {state}" for state, n in counts.items()))
    failed = any(j.failed or (require_all and j.state in ("inconclusive", "not in this run")) for j in judgements)
    return 1 if failed else 0


@zoo.command("check")
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@click.pass_context
def check(ctx: click.Context, run_dir: Path) -> None:
    """Judge every entry from RUN_DIR's records: reproduced, not reproduced, inconclusive, or not in this run.

    Exits 1 when the run holds an entry's cells and their judged verdicts don't show it."""
    bugs = _load(ctx.obj["zoo"])
    ctx.exit(_report(bugs, run_dir, require_all=False))


@zoo.command("run")
@click.option("--out", required=True, type=click.Path(path_type=Path), metavar="DIR",
              help="The run directory (new or empty).")
@click.option("-n", "workers", type=click.IntRange(0, 16), default=0, help="pytest-xdist workers (0: one process).")
@click.option("--nightly/--no-nightly", default=True, show_default=True,
              help="Include the entries marked nightly (slow brokers or client releases to install).")
@click.pass_context
def run(ctx: click.Context, out: Path, workers: int, nightly: bool) -> None:
    """Run exactly the cells the reproducible entries need, then judge every entry (exit 1 when one isn't
    reproduced, or a cell got no record or an inconclusive one)."""
    from ..errors import ConfigError
    from ..matrix.runner import RunOptions, prepare, run_prepared, settings_args
    from ..matrix.zoo import selection
    from ..providers import reap_orphans

    config = harness_config(ctx)
    bugs = [b for b in _load(ctx.obj["zoo"]) if nightly or not b.nightly]
    cells = {cell.id for bug in bugs for cell in bug.cells}
    narrowed = tuple(arg for cell in sorted(cells) for arg in ("--kc-cell", cell))
    try:
        options = RunOptions(out.absolute(), selection(bugs), workers, settings=settings_args(config) + narrowed)
        options, planned, run_json = prepare(options, config)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    chosen = [c for c in planned if c.cell.id in cells]
    reap_orphans(config, ("process", config.provider))
    run_prepared((options, chosen, run_json), config, echo=None)
    click.echo(f"run directory: {options.out}")
    ctx.exit(_report(bugs, options.out, require_all=True))
