"""``kcompat run``, ``repro`` and ``bisect``: the matrix from the command line (src/kcompat/harness/matrix does the work)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from ..providers import PROVIDERS, reap_orphans
from .display import harness_config, note

CLAIMS_OPTION = click.option(
    "--claims", "claims", type=click.Path(path_type=Path), metavar="DIR",
    help="Judge by the claim book in DIR (KIP-*.toml, DOCS-*.toml; default: the installed src/kcompat/scenarios/claims).")


def checked_claims(claims: Path | None) -> Path | None:
    """``--claims DIR`` resolved and loaded: a bad book is a usage error (one line, exit 2) before anything boots."""
    from ..errors import ConfigError
    from ..matrix.claims import claims_dir, load_claim_book

    if claims is None:
        return None
    try:
        directory = claims_dir(claims)
        load_claim_book(directory)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--claims") from None
    return directory


def _directory(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """A directory option as a path; an empty one (which a path would take as the current directory) refused."""
    if value is not None and not value.strip():
        raise click.BadParameter("names no directory (give a path; '.' for the current directory)")
    return None if value is None else Path(value)


@click.command("run")
@click.option("--brokers", "brokers_", metavar="V,V|all", help="Broker versions or lines (default 2.3,2.6,3.9,4.4).")
@click.option("--clients", metavar="REF,REF",
              help="wire, confluent, confluent:2.0.2, java:3.7.0 (default wire,confluent,java:2.3.1,java:4.4.0).")
@click.option("--kip", "kips", multiple=True, metavar="KIP-N", help="KIPs to run (repeatable; default all).")
@click.option("--mode", type=click.Choice(["default", "zk", "kraft", "all"]), default="default", show_default=True,
              help="Metadata modes: each line's own, one of them, or every mode a line has.")
@click.option("--provider", "provider", type=click.Choice(sorted(PROVIDERS)),
              help="How brokers run (overrides the global --provider).")
@click.option("--observations", metavar="N",
              help="Observations of a cell whose first deviates, in all (overrides the global --observations).")
@click.option("-n", "workers", type=click.IntRange(0, 16), default=0, help="pytest-xdist workers (0: one process).")
@click.option("--out", callback=_directory, metavar="DIR",
              help="The run directory (new or empty, or a run to --resume; not with --plan).")
@click.option("--resume", is_flag=True, help="Continue the run in --out: recorded cells are kept, the rest run.")
@click.option("-m", "markexpr", help="pytest marker selection, e.g. kip525 or createtopics (with --plan too).")
@click.option("-k", "keyword", help="pytest keyword selection on cell ids (with --plan too).")
@click.option("--quiet", is_flag=True, help="Only the summary, not pytest's progress.")
@click.option("--allure", is_flag=True, help="Also allure results and the HTML report in the run directory.")
@click.option("--plan", "plan_only", is_flag=True,
              help="Only list the selection's cells (the claim book loaded and checked); boot nothing, write nothing.")
@CLAIMS_OPTION
@click.pass_context
def run_command(ctx: click.Context, brokers_: str | None, clients: str | None, kips: tuple[str, ...], mode: str,
                provider: str | None, observations: str | None, workers: int, out: Path, resume: bool,
                markexpr: str | None, keyword: str | None, quiet: bool, allure: bool, plan_only: bool,
                claims: Path | None) -> None:
    """Run a slice of the compatibility matrix into a run directory (records.jsonl, run.json, logs)."""
    import dataclasses

    from ..config import setting_named as setting
    from ..errors import ConfigError
    from ..matrix.plan import Selection
    from ..matrix.runner import RunOptions, prepare, run_prepared, settings_args

    claims = checked_claims(claims)
    extra = (("-m", markexpr) if markexpr else ()) + (("-k", keyword) if keyword else ())
    if plan_only:
        if out is not None or resume:
            raise click.UsageError("--plan lists the cells of a selection: it takes no --out or --resume")
        with _usage():
            _plan(brokers_, mode, clients, kips, claims, extra)
        return
    if out is None:
        raise click.UsageError("Missing option '--out' (the run directory)")
    config = harness_config(ctx)
    if provider is not None:
        config = dataclasses.replace(config, provider=provider)
    if observations is not None:
        try:
            config = dataclasses.replace(config, observations=setting("observations").coerce(observations,
                                                                                             "--observations"))
        except ConfigError as exc:
            raise click.BadParameter(str(exc), param_hint="--observations") from None
    with _usage():
        options = RunOptions(out.absolute(), Selection.of(brokers_, mode, clients, kips), workers, resume, extra,
                             settings_args(config), allure=allure, claims=claims)
        prepared = prepare(options, config)
    _say_derived()
    options = prepared[0]

    def work() -> int:
        reap_orphans(config, ("process", config.provider))
        result = run_prepared(prepared, config, echo=None if quiet else click.echo)
        click.echo("")
        for line in result.lines:
            click.echo(line)
        for problem in result.problems[:20]:
            note(escape(f"kcompat: {problem}"))
        if result.missing:
            note(escape(f"kcompat: {len(result.missing)} cell(s) got no verdict: {', '.join(result.missing[:10])}"
                        + (" ..." if len(result.missing) > 10 else "")))
        click.echo(f"run directory: {options.out}")
        return result.exit_code

    ctx.exit(work())


def _plan(brokers_: str | None, mode: str, clients: str | None, kips: tuple[str, ...], claims: Path | None,
          expressions: tuple[str, ...]) -> None:
    """``run --plan``: the cells a run of this selection (and its -m/-k) would have, one id a line, then what
    they cover.

    The book and the selection go through a run's own checks (``checked_cells``: a bad claim is its
    ``file:line`` error, an unpublished release or a selection of nothing one line), so an author sees a new
    book load, and its cells, without a broker.
    """
    from ..matrix.claims import claims_dir, load_claim_book
    from ..matrix.plan import Selection
    from ..matrix.runner import checked_cells

    directory = claims_dir(claims)
    book = load_claim_book(directory)
    cells = checked_cells(Selection.of(brokers_, mode, clients, kips), book,
                          harness_config(click.get_current_context()), expressions)
    _say_derived()
    for cell in cells:
        click.echo(cell.cell.id)
    documents = [kip for kip in book.kips if any(c.claim.kip == kip for c in cells)]
    click.echo(f"{len(cells)} cells: {len({c.claim.id for c in cells})} claims of {', '.join(documents)} "
               f"({directory}) on {len({(c.version, c.mode) for c in cells})} broker(s), "
               f"{len({c.cluster_key for c in cells})} cluster(s) to boot; nothing booted")


def _say_derived() -> None:
    """One line for each release the run takes with an entry derived from its jars, not the catalog's."""
    from ..catalog import used_lines
    from ..derive import used_note

    for line in used_lines():
        note(used_note(line))


@contextlib.contextmanager
def _usage() -> Iterator[None]:
    """A mistake in what was typed, found before anything boots: a usage error (one line, exit 2)."""
    from ..errors import ConfigError, UnknownVersionError

    try:
        yield
    except (ConfigError, UnknownVersionError) as exc:
        raise click.UsageError(str(exc)) from None


def _record_line(label: str, record: Any) -> str:
    if record is None:
        return f"{label}: no record"
    side = f" (limited by {record.limited_by})" if record.limited_by else ""
    sent = f", sent v{record.request_version}" if record.request_version is not None else ""
    held = f" (intermittent, {record.held_text})" if record.intermittent else ""
    return f"{label}: {record.outcome}{held}{side}{sent}" + (f": {record.reason}" if record.reason else "")


@click.command("repro")
@click.argument("cell_id")
@click.option("--run", "run_dir", callback=_directory, metavar="DIR", help="The run that recorded the cell.")
@click.option("--out", callback=_directory, metavar="DIR", help="Where this run goes (default: under the run root).")
@click.option("--keep", is_flag=True, help="Leave the cluster up after the cell and print its address; Ctrl-C stops it.")
@CLAIMS_OPTION
@click.pass_context
def repro_command(ctx: click.Context, cell_id: str, run_dir: Path | None, out: Path | None, keep: bool,
                  claims: Path | None) -> None:
    """Run one cell again (same broker, mode, cluster, client) and compare with the recorded verdict.

    The cell is judged by --claims, else by the book the --run was judged by, else the installed one.
    """
    from ..matrix.repro import recorded, reproduced, resolve_cell, run_cell, run_claims

    config = harness_config(ctx)
    claims = checked_claims(claims)

    with _usage():  # the cell, and its record to compare with: before anything boots
        book = claims if claims is not None or run_dir is None else run_claims(run_dir)
        cell = resolve_cell(cell_id, run_dir, book)
        before = recorded(cell, run_dir) if run_dir is not None else None

    def work() -> int:
        target = (out or config.run_root / f"repro-{time.strftime('%Y%m%d-%H%M%S')}").absolute()
        reap_orphans(config, ("process", config.provider))
        now = run_cell(cell, config, target, keep=keep, echo=click.echo if keep else None, claims=book)
        if run_dir is not None:
            click.echo(_record_line(f"recorded ({run_dir})", before))
        click.echo(_record_line("now", now))
        if now is not None and now.differences:
            for difference in now.differences:
                click.echo(f"  {difference['key']}: documented {json.dumps(difference['documented'])}, "
                           f"observed {json.dumps(difference['observed'])}")
        click.echo(f"run directory: {target}")
        if before is not None and before.intermittent and now is not None and now.outcome != "deviation" \
                and reproduced(before, now):
            click.echo(f"the recorded cell was intermittent ({before.held_text}): it held this time")
        return 0 if reproduced(before, now) else 1

    ctx.exit(work())


@click.command("bisect")
@click.argument("claim_id")
@click.option("--client", required=True, help="Client reference, e.g. java:4.4.0 or wire.")
@click.option("--good", required=True, help="A release with the old behaviour (e.g. 2.3.1).")
@click.option("--bad", required=True, help="A release with the new behaviour (e.g. 2.4.1).")
@click.option("--mode", type=click.Choice(["default", "zk", "kraft"]), default="default", show_default=True)
@click.option("--out", type=click.Path(path_type=Path), help="Where the runs go (default: under the run root).")
@CLAIMS_OPTION
@click.pass_context
def bisect_command(ctx: click.Context, claim_id: str, client: str, good: str, bad: str, mode: str,
                   out: Path | None, claims: Path | None) -> None:
    """The first Kafka release (every published patch between the two) where a cell's verdict or observation changed."""
    from ..clients import ClientRef
    from ..matrix.repro import bisect, signature

    config = harness_config(ctx)
    claims = checked_claims(claims)

    def work() -> int:
        ref = ClientRef.parse(client).resolved()
        target = (out or config.run_root / f"bisect-{time.strftime('%Y%m%d-%H%M%S')}").absolute()
        reap_orphans(config, ("process", config.provider))
        first, steps, releases = bisect(claim_id, str(ref), good, bad, mode, config, target, click.echo, claims)
        click.echo(f"releases in range: {len(releases)} ({releases[0]} .. {releases[-1]}); booted: {len(steps)}")
        if first is None:
            click.echo(f"no change: {claim_id} through {ref} behaves the same on {good} and {bad}")
            return 0
        before = max((s for s in steps if s.release < first), key=lambda s: s.release)
        after = next(s for s in steps if s.release == first)
        click.echo(f"first release that differs: {first} (after {before.release})")
        click.echo(_record_line(f"  {before.release}", before.record))
        click.echo(_record_line(f"  {first}", after.record))
        for key, (old, new) in _changed(before.record, after.record).items():
            click.echo(f"  {key}: {old} -> {new}")
        click.echo(f"run directories: {target}")
        return 0 if signature(after.record) != signature(before.record) else 1

    ctx.exit(work())


def _changed(before: Any, after: Any) -> dict[str, tuple[str, str]]:
    if before is None or after is None:
        return {}
    keys = sorted(set(before.observed) | set(after.observed))
    return {k: (json.dumps(before.observed.get(k)), json.dumps(after.observed.get(k)))
            for k in keys if before.observed.get(k) != after.observed.get(k) and k != "error_message"}
