"""The two engines the report's SQL runs on: Spark (the job) and DuckDB (the benchmark's yardstick)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession


class SparkEngine:
    """Runs the report's SQL on a Spark session; rows come back through Arrow.

    ``obs`` is read from the table once: the queries' columns only, spread over the shuffle partitions
    by ``series``, sorted by series then newest first (``NEWEST_FIRST``) within them, and cached.  Every window partitions by
    ``series`` first, so no query shuffles or scans the table again; only the latest rows' ``record``
    is read from the table (``obs_lines``).  ``close`` drops the cache.
    """

    def __init__(self, spark: SparkSession, records: DataFrame):
        from pyspark.sql import functions as F

        from .report import NEWEST_FIRST, OBS_COLUMNS

        self.spark = spark
        partitions = int(spark.conf.get("spark.sql.shuffle.partitions") or "4")
        self.obs = (records.select(*OBS_COLUMNS).repartition(partitions, "series")
                    .sortWithinPartitions("series", *(F.desc(name) for name in NEWEST_FIRST)).cache())
        self.obs.createOrReplaceTempView("obs")
        records.select("run_id", "cell_id", "record").createOrReplaceTempView("obs_lines")

    def rows(self, sql: str) -> list[dict[str, Any]]:
        table = self.spark.sql(sql).toArrow()
        result: list[dict[str, Any]] = table.to_pylist()
        return result

    def close(self) -> None:
        self.obs.unpersist()


class DuckDBEngine:
    """The same SQL on DuckDB over the records table's Parquet files (Hive-style ``kip=`` folders), with
    the same two views as SparkEngine's."""

    def __init__(self, files: Sequence[str], threads: int | None = None):
        import duckdb

        self.con = duckdb.connect()
        if threads:
            self.con.execute(f"SET threads = {int(threads)}")
        listed = ", ".join("'" + path.replace("'", "''") + "'" for path in files)
        source = f"read_parquet([{listed}], hive_partitioning = true, union_by_name = true)"
        columns = {row[0] for row in self.con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
        if "series" in columns:  # rows of a store written before ``series`` have it null
            self._series_function()
            select = ("SELECT * REPLACE (CASE WHEN series IS NULL THEN kcompat_series(cell_id) ELSE series END "
                      "AS series)")
        else:
            self._series_function()
            select = "SELECT *, kcompat_series(cell_id) AS series"
        from .rows import V3_COLUMNS

        missing = [f"CAST(NULL AS {kind}) AS {name}" for name, kind in V3_COLUMNS.items() if name not in columns]
        select = ", ".join([select, *missing])  # a store written before them: null, as store.with_v3_columns
        # obs has the columns Spark's has (OBS_COLUMNS), so a query reading another fails here too
        from .report import OBS_COLUMNS

        self.con.execute(f"CREATE VIEW records AS {select} FROM {source}")
        self.con.execute(f"CREATE VIEW obs AS SELECT {', '.join(OBS_COLUMNS)} FROM records")
        self.con.execute("CREATE VIEW obs_lines AS SELECT run_id, cell_id, record FROM records")

    def _series_function(self) -> None:
        """``Cell.series`` in SQL, for files written before the column (one definition: kcompat.harness.records)."""
        from .rows import series_of

        self.con.create_function("kcompat_series", series_of, ["VARCHAR"], "VARCHAR", side_effects=False)

    def rows(self, sql: str) -> list[dict[str, Any]]:
        cursor = self.con.execute(sql)
        fetch = getattr(cursor, "to_arrow_table", None) or cursor.fetch_arrow_table  # renamed in DuckDB 1.4
        result: list[dict[str, Any]] = fetch().to_pylist()
        return result
