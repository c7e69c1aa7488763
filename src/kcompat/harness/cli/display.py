"""What the command line shows: progress on stderr, tables and messages that survive a pipe.

Output to a terminal is laid out for its width.  Output to anything else (a
file, ``| cat``, ``2>err.txt``) is never wrapped: a path or a table row is one
line however long, so it can be copied, grepped and diffed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..artifacts import ArtifactStore, BrokerArtifacts
from ..catalog import BrokerRelease
from ..config import HarnessConfig
from ..providers import provider_for
from ..providers.base import Cluster
from ..spec import ClusterSpec

UNWRAPPED_WIDTH = 1_000_000
"""The width a non-terminal gets: wide enough that nothing is ever folded."""


def console(*, stderr: bool = False) -> Console:
    """A console for stdout or stderr that wraps only on a terminal."""
    plain = Console(stderr=stderr)
    if plain.is_terminal:
        return Console(stderr=stderr, soft_wrap=True)
    return Console(stderr=stderr, soft_wrap=True, width=UNWRAPPED_WIDTH)


def note(text: str) -> None:
    """A message for the user on stderr (markup allowed), one line however long."""
    console(stderr=True).print(text, highlight=False)


def show(renderable: Any) -> None:
    """A table (or other rich renderable) on stdout.  Piped, a table is its title, header, rows and caption as
    lines of tab-separated cells: a row is one line as long as its cells, never padded to the widest."""
    out = console()
    if isinstance(renderable, Table) and not out.is_terminal:
        for line in plain_lines(renderable):
            click.echo(line)
        return
    out.print(renderable)


def plain_lines(table: Table) -> list[str]:
    """A table as lines without layout: the title, the header and each row (cells joined by a tab), the
    caption; a tab or a newline inside a cell becomes a space, so each row stays one line."""
    def cell(value: object) -> str:
        return str(value).replace("\t", " ").replace("\n", " ")

    rows = zip(*([cell(c) for c in column.cells] for column in table.columns), strict=True)
    header = "\t".join(cell(column.header) for column in table.columns)
    framed = [str(table.title)] if table.title else []
    return [*framed, header, *("\t".join(row) for row in rows), *([str(table.caption)] if table.caption else [])]


def harness_config(ctx: click.Context) -> HarnessConfig:
    """The configuration the top-level group resolved from options, environment and defaults."""
    config = ctx.find_root().obj
    assert isinstance(config, HarnessConfig), "the kcompat group resolves the config before any command"
    return config


class Reporter:
    """Progress on stderr (silent with ``--json``): downloads, then boot stages."""

    def __init__(self, quiet: bool):
        self.quiet = quiet

    @contextmanager
    def task(self, description: str, total: float | None = None) -> Iterator[Callable[..., None]]:
        if self.quiet:
            yield lambda *args, **kwargs: None
            return
        err = console(stderr=True)
        if not err.is_terminal:  # no live bar in a file: just the line saying it is done
            yield lambda *args, **kwargs: None
            note(f"[green]✓[/] {description}")
            return
        columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn()]
        with Progress(*columns, console=err, transient=True) as progress:
            task_id = progress.add_task(description, total=total)

            def update(text: str | None = None, advance: float = 0) -> None:
                progress.update(task_id, description=text or description, advance=advance)

            yield update
        note(f"[green]✓[/] {description}")

    def fetch(self, store: ArtifactStore, release: BrokerRelease, *, verify: bool = False) -> BrokerArtifacts:
        cached = store.is_cached(release)
        label = f"Kafka {release.version}: {'cached' if cached else 'downloading from Maven Central'}"
        with self.task(label) as update:
            def downloads(files: int, size: int) -> None:
                update(f"Kafka {release.version}: {files} files, {size / 1e6:.1f} MB downloaded")

            return store.resolve(release, verify_hashes=verify, progress=downloads)

    def boot(self, config: HarnessConfig, spec: ClusterSpec, provider: str) -> Cluster:
        stages = spec.nodes * 2 + 2  # resolve, ZooKeeper or format, then start and ready per broker
        with self.task(f"booting {spec.label} ({provider})", total=stages) as update:
            def step(line: str) -> None:
                update(f"{spec.label}: {line}", advance=1)

            return provider_for(provider, config, progress=step).start(spec)
