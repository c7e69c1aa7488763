"""``kcompat matrix``: the page and the summary from run directories.

Registered in the ``kcompat.commands`` entry-point group (pyproject.toml), so
the harness's CLI gains it without importing reports; ``python -m
kcompat.reports.page`` runs it alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kcompat.reports.history.cli import STORE
from kcompat.reports.history.store import Location
from kcompat.reports.page import history as nightly
from kcompat.reports.page import model, render
from kcompat.reports.page.browser import BrowserUnavailable, screenshot as take_screenshot

SCREENSHOT_FILE = "matrix.png"


@click.command("matrix")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for index.html and summary.md (created).")
@click.option("--title", default="kcompat matrix", show_default=True, help="The page's title.")
@click.option("--screenshot", is_flag=True,
              help=f"Also write {SCREENSHOT_FILE} (headless Chromium through Playwright).")
@click.option("--history", "history_dir", type=click.Path(file_okay=False, path_type=Path),
              help="A `kcompat history report` output: each cell's detail lists its series' last runs.")
@click.option("--store", type=STORE,
              help="A history store: the same, computed by the history report's query (starts Spark).")
@click.pass_context
def matrix(ctx: click.Context, run_dirs: tuple[Path, ...], out_dir: Path, title: str, screenshot: bool,
           history_dir: Path | None, store: Location | None) -> None:
    """Write the matrix page of RUN_DIR... (several: each cell's newest verdict and its history).

    Unreadable parts (a missing directory or file, malformed lines, an unknown
    schema_version) are skipped and named on the page and here; the command
    fails only when no cell at all could be read.  With --history or --store
    (both: the store wins for a series in both) each cell's detail also lists
    the last runs of its series from the nightly history, with what changed.
    """
    data = model.load(list(run_dirs), [str(path) for path in run_dirs])
    if history_dir is not None:
        data.history.update(nightly.from_report(history_dir))
    if store is not None:
        data.history.update(nightly.from_store(ctx, store))
    try:
        html, summary = render.write(data, out_dir, title)
    except OSError as exc:
        raise click.ClickException(f"cannot write the page into {out_dir}: {exc.strerror or exc}") from exc
    for item in data.skipped:
        click.echo(f"skipped: {item.line()}", err=True)
    counts = data.counts()
    shown = [f"{n} {o}" + (f" ({data.intermittent} intermittent)" if o == "deviation" and data.intermittent else "")
             for o, n in counts.items()]
    click.echo(f"{sum(counts.values())} cells: " + ", ".join(shown))
    click.echo(f"page: {html}")
    click.echo(f"summary: {summary}")
    if screenshot:
        try:
            click.echo(f"screenshot: {take_screenshot(html, out_dir / SCREENSHOT_FILE)}")
        except BrowserUnavailable as exc:
            raise click.ClickException(f"no screenshot: {exc}") from exc
    if not data.cells:
        click.echo("no readable cell in " + ", ".join(map(str, run_dirs)), err=True)
        sys.exit(1)
