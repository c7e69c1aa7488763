"""The store: three Delta tables under one directory, written only by transactions.

``records`` (one row per run x cell, partitioned by KIP), ``quarantine`` (lines that are not
records, with the reason) and ``runs`` (one row per run).  Ingest is a MERGE keyed by
(run_id, cell_id): re-ingesting a run changes no row, two ingests of different runs at the same
time both land (Delta's optimistic concurrency; the loser of a commit race re-runs its MERGE).
Layout and the partitioning choice: docs/HISTORY.md.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import unquote, urlparse

from kcompat.harness.waiting import retry

from .errors import StoreError
from .parse import ingest_sources, parse_records, read_run_info
from .rows import QUARANTINE_COLUMNS, RECORD_COLUMNS, V3_COLUMNS, RunInfo

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import DataFrame, SparkSession

TABLES = ("records", "quarantine", "runs")
PARTITION_COLUMN = "kip"
COMMIT_RETRIES = 12
T = TypeVar("T")

_INT_COLUMNS = {"schema_version", "line"}


def _type(name: str) -> str:
    return V3_COLUMNS.get(name) or ("INT" if name in _INT_COLUMNS else "STRING")
_PARSED_COLUMNS = ("kind", "source", "line", "text", *RECORD_COLUMNS)


def _ddl(columns: Sequence[str]) -> str:
    return ", ".join(f"{name} {_type(name)}" for name in columns)


RECORDS_DDL = _ddl(RECORD_COLUMNS) + ", ingested_at TIMESTAMP"
QUARANTINE_DDL = _ddl(QUARANTINE_COLUMNS) + ", ingested_at TIMESTAMP"
RUNS_DDL = "run_id STRING, run_started_at STRING, source STRING, run_json STRING, records BIGINT, " \
           "quarantined BIGINT, ingested_at TIMESTAMP"
PARSED_DDL = _ddl(_PARSED_COLUMNS)


Location = Path | str
"""A store: a local directory (``Path``), or an object-store URI (``str``, ``s3a://bucket/prefix``) that Delta
Lake reads and writes through Hadoop's file systems; every function here takes either (docs/HISTORY.md)."""

_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def location(text: str) -> Location:
    """``--store``'s value: a URI stays text (``Path`` folds its ``//``), anything else is a local directory."""
    scheme = _URI.match(text)
    if scheme is None:
        return Path(text)
    if not text[scheme.end():].strip("/"):
        raise StoreError(f"--store {text!r} names no bucket or path")
    return text.rstrip("/")


def table(store: Location, name: str) -> str:
    """Where Delta finds one of the store's tables: the same string for every call, local or remote."""
    return f"{store}/{name}" if isinstance(store, str) else str(store.absolute() / name)


def _is_table(spark: SparkSession, store: Location, name: str) -> bool:
    """A table with a commit: read from the disk for a directory (no transaction, no Spark job), else by Delta."""
    if isinstance(store, Path):
        return any((store / name / "_delta_log").glob("*.json"))
    from delta.tables import DeltaTable

    try:
        return bool(DeltaTable.isDeltaTable(spark, table(store, name)))
    except Exception as exc:  # py4j's error: the JVM's UnsupportedFileSystemException
        signs = ("No FileSystem for scheme", "ClassNotFoundException: Class org.apache.hadoop.fs.")
        if not any(sign in str(exc) for sign in signs):
            raise
        raise StoreError(f"Spark has no file system for {store.partition('://')[0]}:// (--store {store})",
                         hint="add the connector's jars with --conf spark.jars.packages=... (docs/HISTORY.md, "
                              "\"A store on object storage\")") from exc


def check_store(path: Location, *, create: bool) -> None:
    """A store, an empty place for one (when ingesting), or one line saying what the path is instead.

    An object store is checked once Spark runs (``load``; ingest creates what is missing), not here.
    """
    if isinstance(path, str):
        return
    if path.exists() and not path.is_dir():
        raise StoreError(f"{path} is not a history store (it is a file)")
    entries = {p.name for p in path.iterdir()} if path.is_dir() else set()
    stray = sorted(entries - set(TABLES))
    if stray:
        raise StoreError(f"{path} is not a history store (it holds {', '.join(stray[:3])}"
                         f"{', ...' if len(stray) > 3 else ''})", hint="a store holds only records/, quarantine/, runs/")
    if not create and not (path / "records" / "_delta_log").is_dir():
        raise StoreError(f"{path} is not a history store yet (no records/_delta_log)",
                         hint="kcompat history ingest RUN_DIR --store " + str(path))


_NOT_YET = "DELTA_TABLE_NOT_FOUND"
"""A table another ingest is creating right now: its first commit was not yet readable when this
ingest looked (seen under load in tests/integration/test_history.py's concurrent ingests)."""


def _is_conflict(exc: BaseException) -> bool:
    text = f"{type(exc).__name__} {exc}"
    return any(word in text for word in ("Concurrent", "CONCURRENT", "ProtocolChanged", "MetadataChanged",
                                         "already exists", "DELTA_TABLE_ALREADY_EXISTS", "FileAlreadyExists",
                                         # another ingest is creating the table right now
                                         "not empty and also not a Delta table", _NOT_YET))


def with_retry(action: Callable[[], T], retries: int = COMMIT_RETRIES, spark: SparkSession | None = None) -> T:
    """Run a Delta transaction, re-running it when a concurrent writer won the commit.

    With ``spark``, a table found missing makes this JVM forget the Delta logs it read, so the retry
    reads the other ingest's first commit from disk instead of the snapshot cached before it existed.
    """
    def forget(attempt: int, exc: Exception) -> None:
        if spark is not None and _NOT_YET in str(exc):
            _forget_delta_logs(spark)

    return retry(action, times=retries, when=_is_conflict, on_retry=forget,
                 delay=lambda attempt: min(0.2 * 2 ** (attempt - 1), 5.0) * random.uniform(0.5, 1.5))


def _forget_delta_logs(spark: SparkSession) -> None:
    """Delta keeps one log per table path per JVM; ``DeltaLog.clearCache`` is its own way to drop them."""
    jvm = getattr(spark.sparkContext, "_jvm", None)
    if jvm is not None:
        jvm.org.apache.spark.sql.delta.DeltaLog.clearCache()


def _create_tables(spark: SparkSession, store: Location) -> None:
    from delta.tables import DeltaTable

    for name, ddl, partition in (("records", RECORDS_DDL, PARTITION_COLUMN), ("quarantine", QUARANTINE_DDL, None),
                                 ("runs", RUNS_DDL, None)):
        if _is_table(spark, store, name):
            continue  # no transaction at all for a store that has its tables
        # (a _delta_log with no commit yet is another ingest creating the table: create races it, and
        # the loser's "already exists" is retried; skipping it made the MERGE find no table)

        def create(name: str = name, ddl: str = ddl, partition: str | None = partition) -> None:
            builder = DeltaTable.createIfNotExists(spark).location(table(store, name))
            builder = builder.addColumns(spark.createDataFrame([], ddl).schema)
            if partition:
                builder = builder.partitionedBy(partition)
            builder.execute()

        with_retry(create, spark=spark)


def _parser(runs: dict[str, RunInfo]) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """The executor side: each records file (binaryFile rows) -> record and quarantine rows."""

    def parse(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        from kcompat.reports.history.parse import parse_file

        for batch in batches:
            out: list[dict[str, Any]] = []
            for uri, content in zip(batch.column("path").to_pylist(), batch.column("content").to_pylist(), strict=True):
                source = unquote(urlparse(uri).path)
                run = runs.get(str(Path(source).parent)) or RunInfo(Path(source).parent.name, None)
                parsed = parse_file(content, source, run)
                out += [dict(row, kind="record", source=source, line=None, text=None) for row in parsed.rows]
                out += [dict(row, source=source) for row in parsed.quarantine]
                out += [dict(row, kind="skipped") for row in parsed.skipped]
            yield pa.RecordBatch.from_pylist(out, schema=_arrow_schema())

    return parse


def _arrow_schema() -> pa.Schema:
    import pyarrow as pa

    kinds = {"INT": pa.int32(), "BOOLEAN": pa.bool_(), "STRING": pa.string()}
    return pa.schema([(name, kinds[_type(name)]) for name in _PARSED_COLUMNS])


@dataclass
class IngestResult:
    """What one ingest did, per run: records read, rows new or changed, lines quarantined by kind."""

    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    inserted: int = 0
    updated: int = 0
    skipped: dict[str, dict[str, int]] = field(default_factory=dict)
    """JUnit sources -> reason -> test cases that map to no cell (not stored, but never silent)."""

    @property
    def quarantined(self) -> int:
        return sum(sum(run["quarantined"].values()) for run in self.runs.values())


def ingest(spark: SparkSession, store: Location, run_dirs: Sequence[Path]) -> IngestResult:
    """Add run directories (or JUnit XML) to the store; every check that can fail runs before anything is
    written.  A run's records.jsonl wins over its JUnit XML, in one ingest and across ingests."""
    check_store(store, create=True)
    files = [path for run_dir in run_dirs for path in ingest_sources(run_dir)]
    infos = {str(path.parent.resolve()): read_run_info(path.parent) for path in files}
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    raw = spark.read.format("binaryFile").load([str(path.resolve()) for path in files])
    parsed = raw.select("path", "content").mapInArrow(_parser(infos), PARSED_DDL).persist()
    try:
        records = (parsed.filter("kind = 'record'")
                   .withColumn("_rn", F.row_number().over(Window.partitionBy("run_id", "cell_id").orderBy(
                       F.col("origin") != "records", F.desc("started_at"), F.desc("source"))))
                   .filter("_rn = 1").select(*RECORD_COLUMNS).withColumn("ingested_at", F.current_timestamp()))
        quarantine = (parsed.filter("kind NOT IN ('record', 'skipped')")
                      .select(*QUARANTINE_COLUMNS).withColumn("ingested_at", F.current_timestamp()))
        result = _summarise(records, quarantine, infos)
        for row in parsed.filter("kind = 'skipped'").groupBy("source", "reason").count().collect():
            result.skipped.setdefault(row["source"], {})[row["reason"]] = int(row["count"])
        if isinstance(store, Path):
            store.mkdir(parents=True, exist_ok=True)
        _create_tables(spark, store)
        result.inserted, result.updated = with_retry(lambda: _merge(spark, table(store, "records"), records,
                                                                    "t.run_id = s.run_id AND t.cell_id = s.cell_id",
                                                                    _records_changed(spark, store)), spark=spark)
        with_retry(lambda: _merge(spark, table(store, "quarantine"), quarantine,
                                  "t.run_id = s.run_id AND t.source = s.source AND t.line = s.line", None),
                   spark=spark)
        with_retry(lambda: _merge(spark, table(store, "runs"), _runs_frame(spark, result),
                                  "t.run_id = s.run_id",
                                  "t.records <> s.records OR t.quarantined <> s.quarantined"), spark=spark)
    finally:
        parsed.unpersist()
    return result


def _summarise(records: DataFrame, quarantine: DataFrame, infos: dict[str, RunInfo]) -> IngestResult:
    result = IngestResult()
    by_id = {info.run_id: (source, info) for source, info in infos.items()}
    starts = {row["run_id"]: (row["n"], row["start"])
              for row in records.groupBy("run_id").agg({"*": "count", "run_started_at": "min"})
              .withColumnsRenamed({"count(1)": "n", "min(run_started_at)": "start"}).collect()}
    for run_id, (count, start) in sorted(starts.items()):
        source, info = by_id.get(run_id, ("", RunInfo(run_id, None)))
        result.runs[run_id] = {"records": int(count), "run_started_at": start, "source": source,
                               "run_json": info.run_json, "quarantined": {}}
    for row in quarantine.groupBy("run_id", "kind").count().collect():
        run = result.runs.setdefault(row["run_id"], {"records": 0, "run_started_at": None, "source": "",
                                                     "run_json": None, "quarantined": {}})
        run["quarantined"][row["kind"]] = int(row["count"])
    return result


def _runs_frame(spark: SparkSession, result: IngestResult) -> DataFrame:
    from pyspark.sql import functions as F

    rows = [(run_id, run["run_started_at"], run["source"], run["run_json"], run["records"],
             sum(run["quarantined"].values())) for run_id, run in sorted(result.runs.items())]
    frame = spark.createDataFrame(rows, "run_id STRING, run_started_at STRING, source STRING, run_json STRING, "
                                        "records BIGINT, quarantined BIGINT")
    return frame.withColumn("ingested_at", F.current_timestamp())


def _records_changed(spark: SparkSession, store: Location) -> str:
    """When a stored row is replaced: its record changed, and a JUnit row never replaces a records.jsonl
    row (rows of stores written before ``origin`` all came from records.jsonl)."""
    columns = spark.read.format("delta").load(table(store, "records")).columns
    if "origin" not in columns:
        return "t.record <> s.record AND s.origin = 'records'"
    return "t.record <> s.record AND (s.origin = 'records' OR t.origin = 'junit')"


def _merge(spark: SparkSession, where: str, source: DataFrame, on: str, changed: str | None) -> tuple[int, int]:
    """A MERGE that adds columns the table lacks (``series``, ``origin`` on stores written before them).

    A MERGE that would insert and update nothing is not run: Delta commits a version even then, and a
    re-ingest must leave the store's history as it was.
    """
    from delta.tables import DeltaTable

    target = DeltaTable.forPath(spark, where)
    keys = [part.split("=")[0].strip().removeprefix("t.") for part in on.split(" AND ")]
    runs = [row[0] for row in source.select("run_id").distinct().collect()]
    current = target.toDF().filter(target.toDF()["run_id"].isin(runs)) if runs else target.toDF().limit(0)
    pending = source.alias("s").join(current.alias("t"), keys, "left_anti")
    if changed and not pending.limit(1).count():
        pending = source.alias("s").join(current.alias("t"), keys, "inner").filter(changed)
    if not pending.limit(1).count():
        return 0, 0
    # The runs' own ids as literals on the target side: Delta skips every file whose run_id range misses
    # them (a nightly reads its own night's files, not the year's) and checks concurrent commits against
    # those files only.
    from pyspark.sql import functions as F

    condition = F.expr(on) & F.col("t.run_id").isin(runs)
    merge = target.alias("t").merge(source.alias("s"), condition).withSchemaEvolution()
    if changed:
        merge = merge.whenMatchedUpdateAll(condition=changed)
    metrics = merge.whenNotMatchedInsertAll().execute()
    if metrics is None:
        return 0, 0
    row = metrics.collect()[0].asDict()
    return int(row.get("num_inserted_rows", 0)), int(row.get("num_updated_rows", 0))


def parse_as_of(text: str) -> datetime:
    """``2025-06-01`` means the end of that day (UTC); a full ISO time is taken as given (UTC if naive)."""
    try:
        if len(text) == 10:
            moment = datetime.fromisoformat(text).replace(hour=23, minute=59, second=59, microsecond=999999)
        else:
            moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise StoreError(f"--as-of {text!r} is not a date (YYYY-MM-DD) or an ISO time") from exc
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def _version_as_of(spark: SparkSession, where: str, moment: datetime) -> int | None:
    from delta.tables import DeltaTable

    stamp = moment.strftime("%Y-%m-%d %H:%M:%S.%f")
    rows = (DeltaTable.forPath(spark, where).history().filter(f"timestamp <= timestamp'{stamp}'")
            .agg({"version": "max"}).collect())
    value = rows[0][0] if rows else None
    return None if value is None else int(value)


def load(spark: SparkSession, store: Location, as_of: datetime | None = None) -> tuple[DataFrame, DataFrame]:
    """The records and quarantine tables, now or as the store was at ``as_of`` (Delta time travel)."""
    check_store(store, create=False)
    if not _is_table(spark, store, "records"):
        raise StoreError(f"{store} is not a history store yet (no records table)",
                         hint=f"kcompat history ingest RUN_DIR --store {store}")
    frames = []
    for name in ("records", "quarantine"):
        reader = spark.read.format("delta")
        if as_of is not None:
            version = _version_as_of(spark, table(store, name), as_of)
            if version is None:
                raise StoreError(f"the store {store} has no {name} as of {as_of.isoformat()} "
                                 "(its first ingest is later)")
            reader = reader.option("versionAsOf", version)
        frames.append(reader.load(table(store, name)))
    return with_v3_columns(with_series(frames[0])), frames[1]


def with_v3_columns(records: DataFrame) -> DataFrame:
    """The observation columns on a store written before them: null (a record observed once, as far as known)."""
    from pyspark.sql import functions as F

    for name, kind in V3_COLUMNS.items():
        if name not in records.columns:
            records = records.withColumn(name, F.lit(None).cast(kind))
    return records


def with_series(records: DataFrame) -> DataFrame:
    """``series`` on every row: stored since it was added, derived by ``Cell.series`` for older rows.

    On a store written since, the null branch reads no file (Delta skips files by null counts).
    """
    from pyspark.sql import functions as F

    from .rows import series_of

    derive = F.udf(lambda cell_id: series_of(cell_id), "string")  # untyped: a plain row UDF, nothing inferred
    if "series" not in records.columns:
        return records.withColumn("series", derive("cell_id"))
    return records.filter("series IS NOT NULL").unionByName(
        records.filter("series IS NULL").withColumn("series", derive("cell_id")))


def snapshot_files(spark: SparkSession, store: Location) -> list[str]:
    """The Parquet files of the records table's current version (what DuckDB reads in the benchmark)."""
    return sorted(unquote(urlparse(uri).path) for uri in spark.read.format("delta").load(table(store, "records"))
                  .inputFiles())


__all__ = ["IngestResult", "Location", "check_store", "location", "table", "ingest", "load", "parse_as_of", "parse_records", "snapshot_files",
           "with_retry"]
