"""``kcompat qualify``: run a profile's matrix, then judge it against the reviewed known deviations.

The matrix is run by ``kcompat run`` in a child process (the run directory is
the only thing read back, as for every report), the verdict is
``kcompat.reports.qualify.classify`` over the profile's cells (planned here as
``kcompat run`` plans them), and the page is written beside the run.  A run
resumed for a profile is that profile's: another selection, or a record of a
cell outside the profile, is one line before anything boots.  Registered in
the ``kcompat.commands`` entry-point group.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from kcompat.harness.config import HarnessConfig
from kcompat.harness.errors import HarnessError
from kcompat.harness.records import RECORDS_FILE, RUN_FILE, latest_by_cell, read_records
from kcompat.reports.page import model, render
from kcompat.reports.qualify import Profile, QualifyError, classify, load_profile


def _cells(brokers: Sequence[str], modes: str, clients: Sequence[str], kips: Sequence[str],
           config: HarnessConfig | None = None) -> set[str]:
    """The cell ids of a selection, planned as ``kcompat run`` plans them from the installed claim book; with
    ``config``, every name checked as ``kcompat run`` checks it (an unpublished release is one line)."""
    from kcompat.harness.catalog import load_catalog
    from kcompat.harness.matrix.claims import claims_dir, load_claim_book
    from kcompat.harness.matrix.plan import Selection, plan
    from kcompat.harness.matrix.runner import checked_cells

    book = load_claim_book(claims_dir())
    selection = Selection.of(brokers, modes, clients, kips)
    planned = checked_cells(selection, book, config) if config is not None else plan(selection, book, load_catalog())
    return {c.cell.id for c in planned}


def _resumable(run_dir: Path, profile: Profile, cells: set[str]) -> None:
    """``run_dir`` continues a run of ``profile``: it was started with a selection of the same cells, and
    records no cell outside them.  A run.json that can't be read is left to ``kcompat run --resume``."""
    where = f"profile {profile.name} ({profile.file}:{profile.line})"
    try:
        chosen = json.loads((run_dir / RUN_FILE).read_text())["selection"]
        started = _cells(chosen["brokers"], chosen["modes"], chosen["clients"], chosen["kips"])
    except (OSError, ValueError, KeyError, TypeError, HarnessError):
        started = cells
    if started != cells:
        raise click.ClickException(
            f"{run_dir} was started with another selection than {where}: {len(started - cells)} of its cells are "
            f"not the profile's, {len(cells - started)} of the profile's are not in it; start another --out")
    if (run_dir / RECORDS_FILE).is_file():
        outside = sorted(set(latest_by_cell(read_records(run_dir / RECORDS_FILE).records)) - cells)
        if outside:
            raise click.ClickException(
                f"{run_dir / RECORDS_FILE} records {len(outside)} cell(s) outside {where}, e.g. {outside[0]}; "
                "resume a run of this profile, or start another --out")


def _config() -> HarnessConfig:
    """The configuration ``kcompat``'s group resolved (its global options); the defaults outside it."""
    root = click.get_current_context().find_root().obj
    return root if isinstance(root, HarnessConfig) else HarnessConfig.resolve()


@click.command("qualify")
@click.option("--profile", "profile_file", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Profile file ([profiles.NAME] tables: brokers, modes, clients, kips, known_deviations).")
@click.option("--name", help="The profile to run (default: the file's only one).")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for the run (OUT/run) and the page (OUT/page).")
@click.option("-n", "workers", type=click.IntRange(0, 16), default=2, show_default=True, help="pytest-xdist workers.")
@click.option("--resume", is_flag=True, help="Continue OUT/run instead of starting it.")
def qualify(profile_file: Path, name: str | None, out_dir: Path, workers: int, resume: bool) -> None:
    """Exit non-zero on any fail, any infra_error left after its retry, any deviation the profile's
    known_deviations file does not list, and any intermittent deviation of a claim outside its
    known_intermittent; stale known deviations are reported too."""
    try:
        profile = load_profile(profile_file, name)
        known = profile.load_known_deviations()
    except QualifyError as exc:
        raise click.ClickException(str(exc)) from None
    run_dir = out_dir / "run"
    modes = "all" if set(profile.modes) == {"zk", "kraft"} else profile.modes[0]
    try:
        cells = _cells(profile.brokers, modes, profile.clients, profile.kips, _config())
    except HarnessError as exc:  # a name the catalog, the claim book or the client kinds don't know
        raise click.ClickException(f"{profile.file}:{profile.line}: profile {profile.name}: {exc}") from None
    if resume:
        _resumable(run_dir, profile, cells)
    # -P: the installed kcompat, never a package of the same name that happens to be in the working directory
    command = [sys.executable, "-P", "-c", "from kcompat.harness.cli import run; run()", "run", "--brokers",
               ",".join(profile.brokers), "--clients", ",".join(profile.clients), "--mode", modes, "-n",
               str(workers), "--quiet", "--out", str(run_dir), *(f"--kip={k}" for k in profile.kips)]
    if resume:
        command = [*command[:5], "--resume", "--quiet", "--out", str(run_dir)]
    click.echo(f"qualify: profile {profile.name} ({profile.file}): {len(profile.brokers)} brokers x "
               f"{len(profile.clients)} clients x {len(profile.kips)} KIPs; known deviations: {len(known)}; "
               f"known intermittent claims: {len(profile.known_intermittent)}")
    done = subprocess.run(command, check=False)
    if not (run_dir / RECORDS_FILE).is_file():
        raise click.ClickException(f"the matrix run wrote no records (kcompat run exited {done.returncode}); "
                                   f"see {run_dir}")
    verdict = classify(read_records(run_dir / RECORDS_FILE).records, known, profile.known_intermittent, cells)
    for line in verdict.lines():
        click.echo(line)
    data = model.load([run_dir], [str(run_dir)])
    html, summary = render.write(data, out_dir / "page", f"kcompat qualify: {profile.name}")
    click.echo(f"page: {html}")
    sys.exit(verdict.exit_code)
