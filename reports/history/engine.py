"""The two engines the report's SQL runs on: Spark (the job) and DuckDB (the benchmark's yardstick)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession


class SparkEngine:
    """Runs the report's SQL on a Spark session over the ``obs`` view; rows come back through Arrow."""

    def __init__(self, spark: SparkSession, records: DataFrame):
        self.spark = spark
        records.createOrReplaceTempView("obs")

    def rows(self, sql: str) -> list[dict[str, Any]]:
        table = self.spark.sql(sql).toArrow()
        result: list[dict[str, Any]] = table.to_pylist()
        return result


class DuckDBEngine:
    """The same SQL on DuckDB over the records table's Parquet files (Hive-style ``kip=`` folders)."""

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
        self.con.execute(f"CREATE VIEW obs AS {select} FROM {source}")

    def _series_function(self) -> None:
        """``Cell.series`` in SQL, for files written before the column (one definition: harness.records)."""
        from .parse import series_of

        self.con.create_function("kcompat_series", series_of, ["VARCHAR"], "VARCHAR", side_effects=False)

    def rows(self, sql: str) -> list[dict[str, Any]]:
        cursor = self.con.execute(sql)
        fetch = getattr(cursor, "to_arrow_table", None) or cursor.fetch_arrow_table  # renamed in DuckDB 1.4
        result: list[dict[str, Any]] = fetch().to_pylist()
        return result
