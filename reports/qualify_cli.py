"""``kcompat qualify``: run a profile's matrix, then judge it against the reviewed known deviations.

The matrix is run by ``kcompat run`` in a child process (the run directory is
the only thing read back, as for every report), the verdict is
``kcompat.reports.qualify.classify``, and the page is written beside the run.
Registered in the ``kcompat.commands`` entry-point group.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click

from kcompat.harness.records import RECORDS_FILE, read_records
from kcompat.reports.page import model, render
from kcompat.reports.qualify import QualifyError, classify, load_profile


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
    # -P: the installed kcompat, never a harness/ package that happens to be in the working directory
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
    verdict = classify(read_records(run_dir / RECORDS_FILE).records, known, profile.known_intermittent)
    for line in verdict.lines():
        click.echo(line)
    data = model.load([run_dir], [str(run_dir)])
    html, summary = render.write(data, out_dir / "page", f"kcompat qualify: {profile.name}")
    click.echo(f"page: {html}")
    sys.exit(verdict.exit_code)
