"""``kcompat history``: ingest run directories into the store, and report from it.

Registered as the ``history`` command of ``kcompat`` through the ``kcompat.commands`` entry-point
group; also ``python -m kcompat.reports.history`` and, on a cluster, ``spark-submit src/kcompat/reports/history/job.py``.
Every failure is one ``kcompat: error: ...`` line and exit code 1; nothing in the store changes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kcompat.harness.errors import HarnessError
from kcompat.harness.records import RECORDS_FILE, read_records

from . import report as reporting
from . import spark as sparking
from . import store as storing
from .errors import HistoryError, RunDirError
from .parse import ingest_sources, read_run_info

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

T = TypeVar("T")


def _conf(values: tuple[str, ...]) -> dict[str, str]:
    conf: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--conf")
        conf[key.strip()] = value
    return conf


REPORT_FAILED = 3
"""``ingest --report``'s exit code when the runs were stored but the report failed (1: nothing was stored)."""


def _fail(message: str, code: int = 1) -> None:
    click.echo(f"kcompat: error: {message}", err=True)
    sys.exit(code)


def guarded(action: Callable[[], T], code: int = 1) -> T:
    """One line for every failure: ours as they are, Spark's and Delta's by their first line."""
    try:
        return action()
    except HarnessError as exc:
        _fail(str(exc), code)
    except Exception as exc:
        origin = type(exc).__module__.split(".")[0]
        if origin not in ("pyspark", "py4j", "delta"):
            raise
        _fail(f"the Spark job failed: {sparking._first_line(exc)}", code)
    raise AssertionError("unreachable")


@contextmanager
def session(ctx: click.Context, conf: tuple[str, ...]) -> Iterator[SparkSession]:
    """The CLI's session: started here and stopped here, unless one is already active (tests, spark-submit)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        _fail("pyspark is not installed; hint: pip install 'kcompat[history]'")
    # Under spark-submit, job.py passes {"submitted": True}; under ``kcompat`` the object is the HarnessConfig.
    submitted = isinstance(ctx.obj, dict) and bool(ctx.obj.get("submitted"))
    existing = SparkSession.getActiveSession()
    spark = existing or guarded(lambda: sparking.start(_conf(conf), submitted=submitted, record_classes=True))
    try:
        yield spark
    finally:
        if existing is None and not submitted:
            sparking.stop(spark)


if TYPE_CHECKING:
    _ParamType = click.ParamType[storing.Location, Any]
else:  # generic only from click 8.2 (pyproject allows 8.1)
    _ParamType = click.ParamType


class StoreType(_ParamType):
    """``--store``: a local directory or an object-store URI (``s3a://bucket/prefix``), as ``storing.location``."""

    name = "STORE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> storing.Location:
        if isinstance(value, Path):
            return value
        try:
            return storing.location(str(value))
        except HistoryError as exc:
            self.fail(str(exc), param, ctx)


STORE = StoreType()

_CONF = click.option("--conf", "conf", multiple=True, metavar="KEY=VALUE",
                     help="Extra Spark setting for the embedded session (repeatable).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def history() -> None:
    """The nightly history: regressions, flaky cells, each KIP's table as observed (docs/HISTORY.md)."""


@history.command("ingest")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--store", required=True, type=STORE,
              help="The history store: a directory, or an object-store URI such as s3a://bucket/prefix.")
@click.option("--report", "report_dir", type=click.Path(path_type=Path), metavar="DIR",
              help="Then write the store's report to DIR (as `history report --out DIR`) in the same Spark "
                   "session; exit 3 if the runs were stored but the report failed.")
@_CONF
@click.pass_context
def ingest(ctx: click.Context, run_dirs: tuple[Path, ...], store: storing.Location, report_dir: Path | None,
           conf: tuple[str, ...]) -> None:
    """Add run directories (or JUnit XML files, or directories of junit-*.xml) to STORE; re-ingesting a run
    changes nothing, and a run's records.jsonl wins over its JUnit XML."""
    def check() -> None:  # before Spark starts: bad input costs no JVM
        storing.check_store(store, create=True)
        for run_dir in run_dirs:
            ingest_sources(run_dir)

        if report_dir is not None:
            _check_out(report_dir)

    guarded(check)
    with session(ctx, conf) as spark:
        result = guarded(lambda: storing.ingest(spark, store, run_dirs))
        _say_ingested(result, store)
        if report_dir is not None:  # one JVM for the nightly's two steps: the report runs warm (seconds, not a start)
            made = guarded(lambda: run_report(spark, store, None, reporting.DEFAULT_FLAKY_WINDOW,
                                              reporting.DEFAULT_HISTORY_DEPTH), REPORT_FAILED)
            guarded(lambda: _write(made, report_dir), REPORT_FAILED)
            _say_reported(made, report_dir)


def _check_out(out_dir: Path) -> None:
    """Before Spark starts: an --out that can't be a directory costs no JVM."""
    if out_dir.exists() and not out_dir.is_dir():
        raise HistoryError(f"--out {out_dir} is not a directory")


def _write(made: reporting.Report, out_dir: Path) -> None:
    try:
        reporting.write(made, out_dir)
    except OSError as exc:
        raise HistoryError(f"can't write the report to {out_dir}: {exc.strerror or exc}") from exc


def _say_ingested(result: storing.IngestResult, store: storing.Location) -> None:
    for run_id, run in sorted(result.runs.items()):
        skipped = ", ".join(f"{kind} {n}" for kind, n in sorted(run["quarantined"].items()))
        click.echo(f"run {run_id}: {run['records']} records, {sum(run['quarantined'].values())} quarantined"
                   + (f" ({skipped})" if skipped else ""))
    for source, reasons in sorted(result.skipped.items()):
        click.echo(f"junit {source}: {sum(reasons.values())} test cases skipped ("
                   + ", ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items())) + ")")
    click.echo(f"store {store}: {result.inserted} rows added, {result.updated} changed, "
               f"{result.quarantined} lines quarantined")


@history.command("report")
@click.option("--store", required=True, type=STORE, help="The history store (a directory or a URI).")
@click.option("--out", "out_dir", required=True, type=click.Path(path_type=Path), help="Where the files go.")
@click.option("--as-of", "as_of", metavar="DATE", help="Answer from the store as it was then (YYYY-MM-DD, UTC).")
@click.option("--flaky-window", default=reporting.DEFAULT_FLAKY_WINDOW, show_default=True,
              type=click.IntRange(2, None), help="Runs per cell in which flips count.")
@click.option("--history-depth", default=reporting.DEFAULT_HISTORY_DEPTH, show_default=True,
              type=click.IntRange(1, None), help="Runs per cell in history.json.")
@_CONF
@click.pass_context
def report(ctx: click.Context, store: storing.Location, out_dir: Path, as_of: str | None, flaky_window: int,
           history_depth: int, conf: tuple[str, ...]) -> None:
    """Write the latest matrix, regressions, flaky and intermittent cells, KIP tables and cell histories to OUT."""
    guarded(lambda: _check_out(out_dir))
    result = report_from_store(ctx, store, as_of=as_of, flaky_window=flaky_window, history_depth=history_depth,
                               conf=conf)
    guarded(lambda: _write(result, out_dir))
    _say_reported(result, out_dir)


def _say_reported(result: reporting.Report, out_dir: Path) -> None:
    s = result.summary
    click.echo(f"report: {s['runs']} runs, {s['cells']} cells, {s['regressions']} regressions, {s['flaky']} flaky "
               f"across runs, {s['intermittent']} intermittent within runs, {s['quarantined']} lines quarantined "
               f"-> {out_dir}")


@history.command("gate")
@click.argument("out_dir", metavar="REPORT_DIR", type=click.Path(path_type=Path))
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
def gate(out_dir: Path, run_dirs: tuple[Path, ...]) -> None:
    """Exit 1 naming every regression REPORT_DIR lists in RUN_DIR... (tonight's runs); no Spark.

    REPORT_DIR is a `kcompat history report --out` of a store the runs were ingested into.
    """
    def regressed() -> list[dict[str, Any]]:
        for run_dir in run_dirs:
            if not run_dir.is_dir():
                raise RunDirError(f"{run_dir} is not a run directory")
        # the records' own run ids too: a run.json a killed shard left torn reads as the directory's name
        run_ids = {read_run_info(run_dir).run_id for run_dir in run_dirs}
        run_ids |= {record.run_id for run_dir in run_dirs if (run_dir / RECORDS_FILE).is_file()
                    for record in read_records(run_dir / RECORDS_FILE).records}
        return reporting.regressions_in(out_dir, run_ids)

    changes = guarded(regressed)
    found = [row for row in changes if not reporting.improved(row)]
    for row in changes:
        click.echo(f"{'improved' if reporting.improved(row) else 'regression'}: {reporting.regression_line(row)}")
    if found:
        _fail(f"{len(found)} regression(s) in {len(run_dirs)} run(s); see {out_dir / reporting.REGRESSIONS_FILE}")
    click.echo(f"no regression in {len(run_dirs)} run(s)")


def report_from_store(ctx: click.Context, store: storing.Location, *, as_of: str | None = None,
                      flaky_window: int = reporting.DEFAULT_FLAKY_WINDOW,
                      history_depth: int = reporting.DEFAULT_HISTORY_DEPTH, conf: tuple[str, ...] = ()) -> reporting.Report:
    """The report of a store, in the CLI's session: ``history report`` and the matrix page's ``--store``."""
    moment = guarded(lambda: storing.parse_as_of(as_of) if as_of else None)
    guarded(lambda: storing.check_store(store, create=False))
    with session(ctx, conf) as spark:
        return guarded(lambda: run_report(spark, store, moment, flaky_window, history_depth))


def run_report(spark: SparkSession, store: storing.Location, as_of: Any, flaky_window: int,
               history_depth: int) -> reporting.Report:
    from .engine import SparkEngine

    records, quarantine = storing.load(spark, store, as_of)
    engine = SparkEngine(spark, records)
    try:
        return reporting.compute(engine, flaky_window=flaky_window, history_depth=history_depth,
                                 quarantined=quarantine.count(), as_of=as_of.isoformat() if as_of else None)
    finally:
        engine.close()  # a session the CLI did not start (tests, the matrix page) keeps no cached table


__all__ = ["HistoryError", "history", "report_from_store"]
