"""The history's pure parts: parsing run directories, the store checks, and the report's SQL and files.

The SQL runs here on DuckDB (no JVM); tests/integration/test_history.py runs the same on Spark.
"""

from __future__ import annotations

from kcompat.harness.records import SCHEMA_VERSION

import json
import re
from pathlib import Path

import pytest

from kcompat.harness.records import Cell, Record, parse_lines, read_records

from kcompat.reports.history import report as reporting
from kcompat.reports.history.errors import RunDirError, StoreError
from kcompat.reports.history.parse import ingest_sources, parse_file, parse_run_dir, read_run_info, records_path
from kcompat.reports.history.rows import quarantine_counts, utc_iso
from kcompat.reports.history.store import check_store, parse_as_of
from tests.history_builders import (ACL, BEFORE_BUMP, BUMPED, CONFLUENT, CONFLUENT_NEW, CONFLUENT_OLD, JAVA, OLD_JAVA,
                                   SERIES, WIRE, bumps, intermittent_nights, junit, malformed_run, nightly,
                                   observations, run_dir)

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def engine_over(tmp_path: Path, run_dirs: list[Path]) -> reporting.Engine:
    from kcompat.reports.history.engine import DuckDBEngine

    rows = [row for d in run_dirs for row in parse_run_dir(d).rows]
    path = tmp_path / "records.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return DuckDBEngine([str(path)])


def test_a_malformed_run_quarantines_every_kind_and_keeps_its_record(tmp_path: Path) -> None:
    parsed = parse_run_dir(malformed_run(tmp_path))
    assert [row["cell_id"] for row in parsed.rows] == [ACL]
    assert [(q["line"], q["kind"]) for q in parsed.quarantine] == [
        (2, "malformed"), (3, "unknown_schema"), (4, "torn_last_line")]
    assert quarantine_counts(parsed.quarantine) == {"malformed": 1, "unknown_schema": 1, "torn_last_line": 1}
    assert "schema_version 99" in parsed.quarantine[1]["reason"]
    assert parsed.rows[0]["run_started_at"] == "2025-01-07T01:00:00.000000Z"


def test_a_cells_last_line_is_its_verdict_and_a_run_without_run_json_starts_at_its_first_cell(tmp_path: Path) -> None:
    path = run_dir(tmp_path, "r", 3, {JAVA: "fail"})
    from kcompat.harness.records import append_record

    from tests.history_builders import record
    append_record(path / "records.jsonl", record("r", JAVA, "pass", day=3, attempt=2))
    (path / "run.json").unlink()
    parsed = parse_run_dir(path)
    assert [(r["outcome"], json.loads(r["record"])["attempt"]) for r in parsed.rows] == [("pass", 2)]
    assert parsed.rows[0]["run_started_at"] == "2025-01-03T02:00:00.000000Z"


def test_records_of_every_schema_version_are_rows(tmp_path: Path) -> None:
    """Version-1 (before ``broker_min_version``), version-2 (before ``observations``) and version-3 lines of the
    same run are all rows; only version 3 carries the observation columns."""
    path = run_dir(tmp_path, "r", 3, {JAVA: "pass", WIRE: "pass", CONFLUENT: "deviation"},
                   **{CONFLUENT: observations("deviation", "pass", "deviation")})
    lines = (path / "records.jsonl").read_text().splitlines()
    v1, v2 = json.loads(lines[0]), json.loads(lines[1])
    assert v1["schema_version"] == SCHEMA_VERSION and "broker_min_version" in v1 and "observations" in v2
    v1["schema_version"] = 1
    for key in ("broker_min_version", "observations", "intermittent"):
        del v1[key]
    v2["schema_version"] = 2
    del v2["observations"], v2["intermittent"]
    (path / "records.jsonl").write_text(json.dumps(v1) + "\n" + json.dumps(v2) + "\n" + lines[2] + "\n")
    parsed = parse_run_dir(path)
    assert parsed.quarantine == []
    rows = {r["cell_id"]: r for r in parsed.rows}
    assert sorted(rows) == sorted([JAVA, WIRE, CONFLUENT])
    assert {json.loads(r["record"])["schema_version"] for r in parsed.rows} == {1, 2, SCHEMA_VERSION}
    assert [(rows[c]["intermittent"], rows[c]["held_count"], rows[c]["observation_count"])
            for c in (JAVA, WIRE, CONFLUENT)] == [(False, None, None), (False, None, None), (True, 1, 3)]


def test_flakiness_within_a_run_is_reported_apart_from_verdicts_changing_across_runs(tmp_path: Path) -> None:
    result = reporting.compute(engine_over(tmp_path, intermittent_nights(tmp_path / "runs")))
    # across runs: WIRE flips deviation/pass, and both of its deviating runs disagreed within themselves
    assert [(f["cell_id"], f["flips"], f["runs"], f["intermittent_runs"]) for f in result.flaky] == [(WIRE, 3, 4, 2)]
    # within runs: CONFLUENT every night (never flipping across runs), WIRE twice; JAVA's steady deviation is neither
    assert [(i["cell_id"], i["intermittent_runs"], i["runs"], i["held"], i["observations"], i["last_outcome"])
            for i in result.intermittent] == [(CONFLUENT, 4, 4, 4, 12, "deviation"), (WIRE, 2, 4, 4, 6, "pass")]
    assert result.summary["intermittent"] == 2 and result.summary["flaky"] == 1
    wire = result.history[Cell.parse(WIRE).series]
    assert [(h["outcome"], h["intermittent"], h["held_count"], h["observation_count"]) for h in wire] == [
        ("deviation", True, 2, 3), ("pass", False, None, None), ("deviation", True, 2, 3), ("pass", False, None, None)]
    java = result.history[Cell.parse(JAVA).series][-1]
    assert (java["intermittent"], java["held_count"], java["observation_count"]) == (False, 0, 3)
    latest = {m["cell_id"]: m for m in result.matrix}
    assert len(latest[CONFLUENT]["observations"]) == 3 and latest[CONFLUENT]["intermittent"] is True
    written = reporting.write(result, tmp_path / "out")
    assert tmp_path / "out" / "intermittent.jsonl" in written
    assert len((tmp_path / "out" / "intermittent.jsonl").read_text().splitlines()) == 2


def test_a_store_written_before_schema_version_3_reads_with_null_observation_columns(tmp_path: Path) -> None:
    from kcompat.reports.history.engine import DuckDBEngine
    from kcompat.reports.history.rows import V3_COLUMNS

    rows = [{k: v for k, v in row.items() if k not in V3_COLUMNS}
            for d in nightly(tmp_path / "runs") for row in parse_run_dir(d).rows]
    path = tmp_path / "old.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    result = reporting.compute(DuckDBEngine([str(path)]))
    assert result.intermittent == [] and [f["intermittent_runs"] for f in result.flaky] == [0]
    assert all(not h["intermittent"] and h["held_count"] is None for runs in result.history.values() for h in runs)


def test_run_dirs_without_records_are_one_line_errors(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(RunDirError, match="holds no records"):
        records_path(tmp_path / "empty")
    with pytest.raises(RunDirError, match="is not a run directory"):
        records_path(tmp_path / "missing")


def test_a_path_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match=r"is not a history store \(it holds notes.txt\)"):
        check_store(tmp_path, create=True)
    with pytest.raises(StoreError, match="it is a file"):
        check_store(tmp_path / "notes.txt", create=True)
    with pytest.raises(StoreError, match="not a history store yet"):
        check_store(tmp_path / "new", create=False)
    check_store(tmp_path / "new", create=True)


def test_as_of_dates() -> None:
    assert parse_as_of("2025-01-03").isoformat() == "2025-01-03T23:59:59.999999+00:00"
    assert parse_as_of("2025-01-03T05:00:00+02:00").isoformat() == "2025-01-03T03:00:00+00:00"
    with pytest.raises(StoreError, match="is not a date"):
        parse_as_of("yesterday")
    assert utc_iso("2025-01-03T05:00:00Z") == "2025-01-03T05:00:00.000000Z"


def test_regressions_say_what_changed_and_ignore_infra_errors(tmp_path: Path) -> None:
    result = reporting.compute(engine_over(tmp_path, nightly(tmp_path / "runs")))
    assert [(r["run_id"], r["cell_id"], r["from_outcome"], r["to_outcome"], r["changed"]) for r in result.regressions] == [
        ("run-2", WIRE, "pass", "deviation", {}),
        ("run-3", WIRE, "deviation", "pass", {}),
        ("run-4", JAVA, "pass", "deviation", {"java_version": {"from": "17.0.15", "to": "21.0.4"}}),
        ("run-4", WIRE, "pass", "deviation", {}),
        ("run-5", WIRE, "deviation", "pass", {}),
    ]
    assert result.regressions[2] == {
        "cell_id": JAVA, "series": "KIP-525/validate-only-returns-configs[2.4-zk|java:3.7]", "from_cell_id": JAVA,
        "claim_id": "KIP-525/validate-only-returns-configs", "broker_version": "2.4.1",
        "client_kind": "java", "client_version": "3.7.0", "from_outcome": "pass", "to_outcome": "deviation",
        "run_id": "run-4", "from_run_id": "run-3", "run_started_at": "2025-01-04T01:00:00.000000Z",
        "changed": {"java_version": {"from": "17.0.15", "to": "21.0.4"}}, "documented_changed": False}


@pytest.mark.parametrize(("window", "expected"), [(10, [(WIRE, 4, 6)]), (4, [(WIRE, 2, 4)]), (3, [])])
def test_flaky_cells_flip_with_nothing_changed(tmp_path: Path, window: int,
                                               expected: list[tuple[str, int, int]]) -> None:
    result = reporting.compute(engine_over(tmp_path, nightly(tmp_path / "runs")), flaky_window=window)
    assert [(f["cell_id"], f["flips"], f["runs"]) for f in result.flaky] == expected
    if expected:
        assert result.flaky[0]["last_outcome"] == "pass" and result.flaky[0]["last_run_id"] == "run-6"


def test_latest_matrix_kip_table_and_history(tmp_path: Path) -> None:
    result = reporting.compute(engine_over(tmp_path, nightly(tmp_path / "runs")), history_depth=2)
    assert [(m["cell_id"], m["outcome"], m["run_id"]) for m in result.matrix] == sorted([
        (ACL, "pass", "run-6"), (CONFLUENT, "unsupported", "run-6"), (JAVA, "deviation", "run-6"),
        (OLD_JAVA, "unsupported", "run-6"), (WIRE, "pass", "run-6")])
    claim = result.kips["KIP-525"]["claims"][0]
    assert claim["holds"] == [{"broker": "2.4.1-zk", "client": "wire 0.5.0"}]
    assert claim["deviates"] == [{"broker": "2.4.1-zk", "client": "java 3.7.0"}]
    assert claim["unsupported"] == [{"broker": "2.3.1-zk", "client": "java 3.7.0", "limited_by": "client"},
                                    {"broker": "2.4.1-zk", "client": "confluent 2.16.1", "limited_by": "client"}]
    assert claim["documented"]["supported"] == [{"broker": "2.4.1-zk", "client": "java 3.7.0"},
                                                {"broker": "2.4.1-zk", "client": "wire 0.5.0"}]
    java = [e for e in claim["entries"] if e["client_kind"] == "java" and e["broker_version"] == "2.4.1"][0]
    assert java["counts"] == {"pass": 3, "deviation": 3}
    markdown = reporting.kip_markdown(result.kips["KIP-525"])
    assert "| broker | confluent 2.16.1 | java 3.7.0 | wire 0.5.0 |" in markdown
    assert "| 2.3.1-zk |  | unsupported (client) / below |  |" in markdown
    assert "| 2.4.1-zk | unsupported (client) / below | DEVIATES / supported | holds / supported |" in markdown
    assert [h["run_id"] for h in result.history[Cell.parse(ACL).series]] == ["run-5", "run-6"]
    assert result.summary["runs"] == 6 and result.summary["cells"] == 5 and result.summary["records"] == 30


def test_written_files(tmp_path: Path) -> None:
    result = reporting.compute(engine_over(tmp_path, nightly(tmp_path / "runs")))
    written = reporting.write(result, tmp_path / "out")
    names = [p.relative_to(tmp_path / "out").as_posix() for p in written]
    assert names == ["matrix.jsonl", "regressions.jsonl", "flaky.jsonl", "intermittent.jsonl", "kips/KIP-140.json", "kips/KIP-140.md",
                     "kips/KIP-525.json", "kips/KIP-525.md", "history.json", "summary.json"]
    assert len((tmp_path / "out" / "regressions.jsonl").read_text().splitlines()) == 5
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["flaky"] == 1


@pytest.mark.parametrize(("cell_id", "series"), [
    ("KIP-108/x[0.11.0.3-zk|confluent:2.16.1]", "KIP-108/x[0.11.0-zk|confluent:2.16]"),
    ("KIP-525/a[2.4.1-zk|java:2.3.1]", "KIP-525/a[2.4-zk|java:2.3]"),
    ("KIP-525/a[0.10.2.1-kraft|java:0.10.2.1]", "KIP-525/a[0.10.2-kraft|java:0.10.2]"),
    ("KIP-525/a[4.4.0-kraft|wire@v5]", "KIP-525/a[4.4-kraft|wire@v5]"),
    ("KIP-525/a[2.4-zk|wire]", "KIP-525/a[2.4-zk|wire]"),
    ("KIP-525/a[3.9.1-zk|confluent]", "KIP-525/a[3.9-zk|confluent]"),
])
def test_a_cells_series_is_its_release_lines(cell_id: str, series: str) -> None:
    assert Cell.parse(cell_id).series == series
    assert Cell.parse(series).series == series


def _regressions(result: reporting.Report) -> list[tuple[str, str, str, str, str, dict[str, object], bool]]:
    return [(r["run_id"], r["from_cell_id"], r["cell_id"], r["from_outcome"], r["to_outcome"], r["changed"],
             r["documented_changed"]) for r in result.regressions]


def test_patch_bumps_continue_a_series_and_are_what_changed(tmp_path: Path) -> None:
    result = reporting.compute(engine_over(tmp_path, bumps(tmp_path / "runs")))
    client = {"client_version": {"from": "2.16.0", "to": "2.16.1"},
              "librdkafka_version": {"from": "2.16.0", "to": "2.16.1"}}
    assert _regressions(result) == [
        ("run-2", CONFLUENT_OLD, CONFLUENT_OLD, "pass", "deviation", {}, False),
        ("run-2", WIRE, WIRE, "pass", "deviation", {}, False),
        ("run-3", CONFLUENT_OLD, CONFLUENT_NEW, "deviation", "pass", client, False),
        ("run-3", BEFORE_BUMP, BUMPED, "pass", "deviation", {"broker_version": {"from": "2.4.0", "to": "2.4.1"}},
         False),
        ("run-3", WIRE, WIRE, "deviation", "pass", {}, False),
        ("run-4", ACL, ACL, "pass", "deviation", {}, True),
        ("run-4", CONFLUENT_NEW, CONFLUENT_NEW, "pass", "deviation", {}, False),
        ("run-4", WIRE, WIRE, "pass", "deviation", {}, False),
    ]
    assert result.regressions[3]["series"] == SERIES.format("java:3.7")
    assert result.regressions[3]["broker_version"] == "2.4.1"
    # WIRE flipped with nothing changed; the confluent cell flipped as often across a client release
    assert [(f["cell_id"], f["series"], f["flips"], f["runs"]) for f in result.flaky] == [
        (WIRE, SERIES.format("wire"), 3, 4)]
    history = result.history[SERIES.format("java:3.7")]
    assert [(h["cell_id"], h["outcome"], h["changed"], h["documented_changed"]) for h in history] == [
        (BEFORE_BUMP, "pass", {}, False), (BEFORE_BUMP, "pass", {}, False),
        (BUMPED, "deviation", {"broker_version": {"from": "2.4.0", "to": "2.4.1"}}, False),
        (BUMPED, "deviation", {}, False)]
    assert [h["documented_changed"] for h in result.history[Cell.parse(ACL).series]] == [False, False, False, True]
    assert result.summary["cells"] == 6


def test_every_window_partitions_by_series_first_and_its_keys_belong_to_one_series(tmp_path: Path) -> None:
    """Spark spreads ``obs`` by series once (engine.SparkEngine): a window partitioned otherwise would
    shuffle the table again, and partitioning by series first must not change a window's rows."""
    queries = (reporting.LATEST_SQL, reporting.REGRESSIONS_SQL, reporting.FLAKY_SQL, reporting.KIP_CELLS_SQL,
               reporting.HISTORY_SQL)
    partitions = [keys for sql in queries for keys in re.findall(r"PARTITION BY ([\w, ]+?)(?: ORDER BY|\))", sql)]
    assert len(partitions) == 8 and all(keys.split(", ")[0] == "series" for keys in partitions), partitions
    rows = [row for d in bumps(tmp_path / "runs") for row in parse_run_dir(d).rows]
    kip_key = ("claim_id", "broker_version", "broker_mode", "client_kind", "client_version", "client")
    for key in (("cell_id",), kip_key):
        series: dict[tuple[str, ...], set[str]] = {}
        for row in rows:
            series.setdefault(tuple(row[k] for k in key), set()).add(row["series"])
        assert all(len(names) == 1 for names in series.values()), key
    assert len({row["series"] for row in rows}) < len({row["cell_id"] for row in rows})  # bumps share a series


def test_a_store_written_before_series_derives_it_at_read(tmp_path: Path) -> None:
    from kcompat.reports.history.engine import DuckDBEngine

    runs = bumps(tmp_path / "runs")
    rows = [{k: v for k, v in row.items() if k not in ("series", "origin")}
            for d in runs for row in parse_run_dir(d).rows]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "old.parquet")
    old = reporting.compute(DuckDBEngine([str(tmp_path / "old.parquet")]))
    new = reporting.compute(engine_over(tmp_path, runs))
    assert old == new and len(old.regressions) == 8


def _records_of(run: Path) -> list[Record]:
    return read_records(run / "records.jsonl").records


def test_kcompat_junit_rebuilds_the_same_rows_as_records(tmp_path: Path) -> None:
    run = nightly(tmp_path / "runs")[0]
    path = junit(run / "junit-main.xml", _records_of(run), others=2)  # beside run.json, as `kcompat run` writes it
    parsed = parse_file(path.read_bytes(), str(path), read_run_info(path.parent))
    expected = parse_run_dir(run).rows
    assert [dict(row, origin="records") for row in parsed.rows] == expected
    assert {row["origin"] for row in parsed.rows} == {"junit"}
    assert [(s["line"], s["reason"], s["text"]) for s in parsed.skipped] == [
        (6, "no kcompat_cell_id property", "tests.test_other::test_0"),
        (7, "no kcompat_cell_id property", "tests.test_other::test_1")]
    assert parsed.quarantine == []


def test_junit_of_another_job_maps_cells_by_their_properties(tmp_path: Path) -> None:
    run = nightly(tmp_path / "runs")[0]
    path = junit(tmp_path / "ci" / "junit-shard.xml", _records_of(run), full=False)
    rows = parse_file(path.read_bytes(), str(path), read_run_info(path.parent)).rows
    java = next(row for row in rows if row["cell_id"] == JAVA)
    assert {k: java[k] for k in ("run_id", "outcome", "client_kind", "client_version", "series", "run_started_at",
                                  "limited_by", "origin")} == {
        "run_id": "run-1", "outcome": "pass", "client_kind": "java", "client_version": "3.7.0",
        "series": "KIP-525/validate-only-returns-configs[2.4-zk|java:3.7]",
        "run_started_at": "2025-01-01T02:00:00.000000Z", "limited_by": None, "origin": "junit"}
    assert len(rows) == 5


def test_malformed_junit_is_quarantined_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "junit-broken.xml"
    path.write_text('<testsuites><testsuite><testcase name="x">\n<properties>')
    parsed = parse_file(path.read_bytes(), str(path), read_run_info(tmp_path))
    assert parsed.rows == [] and len(parsed.quarantine) == 1
    bad = parsed.quarantine[0]
    assert (bad["kind"], bad["line"], bad["run_id"]) == ("malformed", 2, tmp_path.name)
    assert bad["reason"].startswith("not JUnit XML: ")
    bad_case = tmp_path / "junit-badcase.xml"
    bad_case.write_text('<testsuite><testcase classname="c" name="t"><properties>'
                        '<property name="kcompat_cell_id" value="not a cell"/></properties></testcase></testsuite>')
    parsed = parse_file(bad_case.read_bytes(), str(bad_case), read_run_info(tmp_path))
    assert [(q["kind"], q["line"]) for q in parsed.quarantine] == [("malformed", 1)]
    assert "'not a cell' is not a cell id" in parsed.quarantine[0]["reason"]
    laughs = tmp_path / "junit-laughs.xml"  # another job's file is not trusted: entities are never expanded
    laughs.write_text('<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa">'
                      + "".join(f'<!ENTITY {n} "{("&" + p + ";") * 10}">' for p, n in zip("abcdefg", "bcdefgh", strict=True))
                      + ']>\n<testsuite><testcase name="&h;"/></testsuite>')
    parsed = parse_file(laughs.read_bytes(), str(laughs), read_run_info(tmp_path))
    assert parsed.rows == [] and [(q["kind"], q["line"]) for q in parsed.quarantine] == [("malformed", 1)]
    assert parsed.quarantine[0]["reason"].startswith("JUnit XML that declares entities is refused, never expanded")


def test_ingest_sources(tmp_path: Path) -> None:
    run = nightly(tmp_path / "runs")[0]
    junit(run / "junit-main.xml", _records_of(run))
    assert ingest_sources(run) == [run / "records.jsonl"]  # a run directory: its records.jsonl says it all
    shards = tmp_path / "ci"
    for name in ("junit-a.xml", "junit-b.xml"):
        junit(shards / name, _records_of(run))
    assert ingest_sources(shards) == [shards / "junit-a.xml", shards / "junit-b.xml"]
    assert ingest_sources(shards / "junit-a.xml") == [shards / "junit-a.xml"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(RunDirError, match="holds no records"):
        ingest_sources(tmp_path / "empty")


def test_one_tolerant_reader_for_records(tmp_path: Path) -> None:
    path = malformed_run(tmp_path) / "records.jsonl"
    records, bad = parse_lines(path.read_bytes())
    assert [(n, r.cell_id) for n, r in records] == [(1, ACL)]
    assert [(b.line, b.kind) for b in bad] == [(2, "malformed"), (3, "unknown_schema"), (4, "torn_last_line")]
    report = read_records(path)
    assert [r.cell_id for r in report.records] == [ACL] and report.torn_last_line
    assert [n for n, _ in report.malformed] == [2] and [n for n, _ in report.unknown_schema] == [3]
    assert report.skipped == 3


def test_rows_are_ordered_by_their_query_key_nulls_first() -> None:
    rows = [{"cell_id": "b"}, {"cell_id": None}, {"cell_id": "a\u00e9"}, {"cell_id": "aZ"}, {"cell_id": "a"}]
    assert [row["cell_id"] for row in reporting.ordered(rows, "latest")] == [None, "a", "aZ", "a\u00e9", "b"]
    assert all(query in reporting.ORDERS for query in ("latest", "regressions", "flaky", "kips", "history"))


def test_a_table_another_ingest_is_still_creating_is_retried_and_other_errors_are_not() -> None:
    from kcompat.reports.history.store import with_retry

    attempts: list[int] = []

    def merge() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise RuntimeError("[DELTA_TABLE_NOT_FOUND] Delta table `/s/records` doesn't exist.")
        return "merged"

    assert with_retry(merge) == "merged" and len(attempts) == 3

    def broken() -> None:
        attempts.append(1)
        raise RuntimeError("[PARSE_SYNTAX_ERROR] not a conflict")

    attempts.clear()
    with pytest.raises(RuntimeError, match="PARSE_SYNTAX_ERROR"):
        with_retry(broken)
    assert len(attempts) == 1


def test_hostile_lines_are_quarantined_by_digest_never_by_their_bytes(tmp_path: Path) -> None:
    path = run_dir(tmp_path, "r", 3, {JAVA: "pass", WIRE: "pass"})
    secret = b"-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"
    good = json.loads((path / "records.jsonl").read_text().splitlines()[0])
    with (path / "records.jsonl").open("ab") as out:
        out.write(secret + b"\n" + json.dumps({**good, "kip": "../x"}).encode() + b"\n"
                  + json.dumps({**good, "documented": "hostile"}).encode() + b"\n"
                  + json.dumps({**good, "api": 123}).encode() + b"\n" + b"[" * 100_000 + b"\n")
    parsed = parse_run_dir(path)
    assert len(parsed.rows) == len((path / "records.jsonl").read_text().splitlines()) - 5
    assert [q["kind"] for q in parsed.quarantine] == ["malformed"] * 5
    assert all(re.fullmatch(r"sha256:[0-9a-f]{16} \(\d+ bytes\)", q["text"]) for q in parsed.quarantine)
    assert "PRIVATE" not in json.dumps(parsed.quarantine)
    reasons = [q["reason"] for q in parsed.quarantine]
    assert "kip" in reasons[1] and "documented" in reasons[2] and "api is 123" in reasons[3]
    assert "nested" in reasons[4]


def test_a_records_file_linked_from_outside_its_run_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "secret.jsonl"
    outside.write_text("id_rsa\n")
    run = tmp_path / "run"
    run.mkdir()
    (run / "records.jsonl").symlink_to(outside)
    with pytest.raises(RunDirError, match="is a link to .*secret.jsonl, outside its directory; not followed"):
        ingest_sources(run)
    junit_dir = tmp_path / "junit"
    junit_dir.mkdir()
    (junit_dir / "junit-x.xml").symlink_to(outside)
    with pytest.raises(RunDirError, match="outside its directory"):
        ingest_sources(junit_dir)
    inside = run_dir(tmp_path, "ok", 1, {JAVA: "pass"})
    (inside / "records.jsonl").rename(inside / "kept.jsonl")
    (inside / "records.jsonl").symlink_to(inside / "kept.jsonl")  # a link inside the run is the run's own file
    assert ingest_sources(inside) == [inside / "records.jsonl"]


def test_a_report_over_poisoned_rows_writes_nothing_outside_and_does_not_die(tmp_path: Path) -> None:
    """Rows a store took before ingest validated records: a kip that climbs out, unreadable JSON."""
    from kcompat.reports.history.engine import DuckDBEngine

    rows = [row for d in nightly(tmp_path / "runs") for row in parse_run_dir(d).rows]
    rows[0] = {**rows[0], "kip": "../../escaped", "documented": "hostile"}
    rows[1] = {**rows[1], "kip": str(tmp_path / "abs"), "record": "{not json"}
    rows[2] = {**rows[2], "documented": "[1, 2]"}
    path = tmp_path / "poisoned.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    result = reporting.compute(DuckDBEngine([str(path)]))
    out = tmp_path / "deep" / "out"
    written = reporting.write(result, out)
    assert all(p.resolve().is_relative_to(out.resolve()) for p in written)
    assert not list(tmp_path.glob("escaped*")) and not list(tmp_path.glob("abs*"))
    assert not list((tmp_path / "deep").glob("escaped*"))
    assert set(result.kips) <= {"KIP-140", "KIP-525"}


def test_the_cluster_archive_alone_carries_what_the_job_imports(tmp_path: Path) -> None:
    """CI's slice of the standalone-cluster test (marked nightly): spark-submit's --py-files archive, first on
    a fresh Python's path, serves every module the job and its executors import, with no checkout beside it."""
    import subprocess
    import sys

    from kcompat.reports.history.submit import build_archive

    archive = build_archive(tmp_path / "kcompat-history.zip")
    probe = ("import kcompat.reports.history.job, kcompat.reports.history.parse, kcompat.reports.history.store, kcompat.harness.records, click, sys;"
             "print(sorted({m.__file__.split('.zip')[0] for n, m in sys.modules.items()"
             " if n.split('.')[0] in ('kcompat', 'click') and getattr(m, '__file__', None)}))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(archive), "PATH": "/usr/bin:/bin"}, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == repr([str(archive.with_suffix(""))]), done.stdout


def _spark_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Java and a Spark of two jars, both fake files: what the driver's archive is keyed by."""
    java = tmp_path / "jdk" / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text("")
    (tmp_path / "spark" / "jars").mkdir(parents=True)
    for name in ("spark-core.jar", "scala-library.jar"):
        (tmp_path / "spark" / "jars" / name).write_text(name)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    monkeypatch.setenv("SPARK_HOME", str(tmp_path / "spark"))
    monkeypatch.setenv("KCOMPAT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "spark" / "jars"


def test_the_drivers_class_archive_is_keyed_by_java_and_every_spark_jar(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    pytest.importorskip("pyspark")
    from kcompat.reports.history.spark import driver_archive

    jars = _spark_home(tmp_path, monkeypatch)
    first = driver_archive()
    assert first is not None and first.is_relative_to(tmp_path / "cache" / "cds") and first == driver_archive()
    os.utime(jars / "spark-core.jar", ns=(1, 1))  # the same jar, another mtime: another Spark
    assert driver_archive() not in (None, first)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "nowhere"))
    assert driver_archive() is None  # no Java to key by: no archive, never a guess


def test_a_driver_records_an_archive_and_maps_it_only_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kcompat.reports.history.spark import sharing_flags

    archive = tmp_path / "cds" / "spark-driver-k" / "driver.jsa"
    assert sharing_flags(archive, record=False) == ([], None)  # a test's session never records
    flags, pending = sharing_flags(archive, record=True)
    assert pending is not None and pending.parent == archive.parent and pending.name.endswith(".jsa.tmp")
    assert f"-XX:ArchiveClassesAtExit={pending}" in flags and not any("SharedArchiveFile" in f for f in flags)

    archive.write_bytes(b"x" * 10)
    (archive.parent / "driver.jsa.size").write_text("10")
    flags, pending = sharing_flags(archive, record=True)
    assert pending is None and f"-XX:SharedArchiveFile={archive}" in flags and "-Xshare:auto" in flags
    assert any(f.startswith("-XX:ErrorFile=" + str(archive.parent)) for f in flags)  # a crash report stays here

    archive.write_bytes(b"x" * 4)  # cut short: never mapped, removed, recorded again
    flags, pending = sharing_flags(archive, record=True)
    assert pending is not None and not archive.exists() and not (archive.parent / "driver.jsa.size").exists()


def test_a_new_archive_keeps_the_two_newest_of_other_installs(tmp_path: Path) -> None:
    import os

    from kcompat.reports.history.spark import _prune

    others = [tmp_path / f"spark-driver-{n}" for n in range(4)]
    for age, directory in enumerate(others):
        directory.mkdir()
        (directory / "driver.jsa").write_text("x")
        os.utime(directory, (1000 - age, 1000 - age))  # spark-driver-0 is the newest
    kept = tmp_path / "spark-driver-new"
    kept.mkdir()
    (tmp_path / "broker-archive").mkdir()  # not the driver's: never touched
    _prune(kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broker-archive", "spark-driver-0", "spark-driver-1",
                                                         "spark-driver-new"]


_RESOLVE_ONCE = """
import os, sys, time
from pathlib import Path
from kcompat.reports.history import spark

def resolved(packages, log):
    with open(sys.argv[1], "a") as calls:
        calls.write(f"{os.getpid()}\\n")
    log.write_text("found io.delta#delta-spark;4.0.0 in central\\n")  # ivy's own lines go to the log
    time.sleep(3)  # the other process arrives while this one resolves
    jar = spark.ivy_dir() / "delta.jar"
    jar.write_text("jar")
    return [str(jar)]

spark._resolved = resolved
spark.resolve_jars()
print(spark.jar_conf()["spark.jars"])
"""


def test_two_processes_on_one_fresh_cache_resolve_delta_once_and_both_get_the_jars(tmp_path: Path) -> None:
    """The ivy lock, without Spark: two commands starting at once on a fresh cache (the nightly runs it with real
    Spark drivers, 110 s on 2 cores): one resolves, the other waits and reads its list."""
    import os
    import subprocess
    import sys

    calls = tmp_path / "calls"
    env = {**os.environ, "KCOMPAT_CACHE_DIR": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "-c", _RESOLVE_ONCE, str(calls)], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outputs
    assert len(calls.read_text().split()) == 1  # ivy ran in one process only
    jar = str(tmp_path / "cache" / "spark-ivy" / "delta.jar")
    assert [out.strip() for out, _ in outputs] == [jar, jar]
    log = tmp_path / "cache" / "spark-ivy" / "resolve.log"
    for _, err in outputs:  # off a terminal: a start and an end line naming ivy's log, never ivy's lines
        assert "found io.delta#" not in err
        [end] = [line for line in err.splitlines() if line.startswith("✓ Delta's jars")]
        assert end.endswith(f"; log: {log})"), err
