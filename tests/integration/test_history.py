"""The history job on Spark: the store's transactions, the CLI's one-line errors, and the same job on a
real standalone cluster.  One local session serves the whole module (the CLI reuses an active one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.history_builders import (BUMPED, JAVA, WIRE, bumps, intermittent_nights, junit, malformed_run, nightly,
                                   run_dir)

pytest.importorskip("pyspark")
pytest.importorskip("delta")
pytestmark = pytest.mark.timeout(1200)  # Spark jobs on 2 cores shared with the brokers of other test files

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    from kcompat.reports.history import spark as sparking

    session = sparking.start()
    yield session
    session.stop()


def cli(*args: str) -> Result:
    from kcompat.reports.history.cli import history

    return CliRunner().invoke(history, list(args))


def files(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): p.read_text() for p in sorted(out.rglob("*")) if p.is_file()}


def log_files(store: Path) -> list[str]:
    return sorted(p.relative_to(store).as_posix() for p in store.rglob("*") if p.is_file())


@pytest.mark.nightly  # four ingests (~60 s); CI keeps the documented commands
def test_out_of_order_ingests_and_quarantine(spark: Any, tmp_path: Path) -> None:
    runs = nightly(tmp_path / "runs")
    store = tmp_path / "store"
    late = cli("ingest", *map(str, runs[3:]), "--store", str(store))
    assert late.exit_code == 0, late.output
    early = cli("ingest", *map(str, runs[:3]), str(malformed_run(tmp_path / "runs")), "--store", str(store))
    assert early.exit_code == 0, early.output
    assert "run run-bad: 1 records, 3 quarantined (malformed 1, torn_last_line 1, unknown_schema 1)" in early.output
    assert early.output.strip().endswith("16 rows added, 0 changed, 3 lines quarantined")
    out = tmp_path / "out"
    result = cli("report", "--store", str(store), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(f"report: 7 runs, 5 cells, 5 regressions, 1 flaky across runs, 0 intermittent within runs, "
                                          f"3 lines quarantined -> {out}")
    regressions = [__import__("json").loads(line) for line in (out / "regressions.jsonl").read_text().splitlines()]
    assert [(r["run_id"], r["cell_id"], r["to_outcome"]) for r in regressions] == [
        ("run-2", WIRE, "deviation"), ("run-3", WIRE, "pass"), ("run-4", JAVA, "deviation"),
        ("run-4", WIRE, "deviation"), ("run-5", WIRE, "pass")]
    assert '"flips":4' in (out / "flaky.jsonl").read_text()


def test_reingest_changes_nothing_and_spark_equals_duckdb(spark: Any, tmp_path: Path) -> None:
    from kcompat.reports.history import report as reporting
    from kcompat.reports.history.engine import DuckDBEngine
    from kcompat.reports.history.store import snapshot_files

    runs = nightly(tmp_path / "runs")
    store = tmp_path / "store"
    assert cli("ingest", *map(str, runs), "--store", str(store)).exit_code == 0
    before = spark.read.format("delta").load(str(store / "records")).orderBy("run_id", "cell_id").collect()
    versions = log_files(store)
    again = cli("ingest", *map(str, runs), "--store", str(store))
    assert log_files(store) == versions  # a no-op ingest commits no (empty) Delta version
    assert again.output.strip().endswith("0 rows added, 0 changed, 0 lines quarantined"), again.output
    after = spark.read.format("delta").load(str(store / "records")).orderBy("run_id", "cell_id").collect()
    assert before == after and len(after) == 30
    assert cli("report", "--store", str(store), "--out", str(tmp_path / "spark")).exit_code == 0
    reporting.write(reporting.compute(DuckDBEngine(snapshot_files(spark, store))), tmp_path / "duck")
    assert files(tmp_path / "spark") == files(tmp_path / "duck")


def test_as_of_answers_from_the_store_as_it_was(spark: Any, tmp_path: Path) -> None:
    runs = nightly(tmp_path / "runs")
    store = tmp_path / "store"
    early = datetime.now(timezone.utc).isoformat()
    assert cli("report", "--store", str(store), "--out", str(tmp_path / "x")).exit_code == 1
    assert cli("ingest", *map(str, runs[:3]), "--store", str(store)).exit_code == 0
    time.sleep(1.5)
    middle = datetime.now(timezone.utc).isoformat()
    time.sleep(1.5)
    assert cli("ingest", *map(str, runs[3:]), "--store", str(store)).exit_code == 0
    then = cli("report", "--store", str(store), "--out", str(tmp_path / "then"), "--as-of", middle)
    assert "report: 3 runs, 5 cells, 2 regressions, 1 flaky across runs" in then.output, then.output
    too_early = cli("report", "--store", str(store), "--out", str(tmp_path / "e"), "--as-of", early)
    assert too_early.exit_code == 1
    assert too_early.output.strip().splitlines()[-1].startswith("kcompat: error: the store ")
    assert "its first ingest is later" in too_early.output


def test_bad_input_is_one_line_and_leaves_the_store_alone(spark: Any, tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert cli("ingest", str(run_dir(tmp_path / "runs", "good", 1, {JAVA: "pass"})), "--store", str(store)).exit_code == 0
    kept = log_files(store)
    (tmp_path / "empty").mkdir()
    (tmp_path / "a-file").write_text("")
    cases = [
        (("ingest", str(tmp_path / "empty"), "--store", str(store)), "holds no records"),
        (("ingest", str(tmp_path / "runs" / "good"), "--store", str(store), "--report", str(tmp_path / "a-file")),
         "--out " + str(tmp_path / "a-file") + " is not a directory"),
        (("report", "--store", str(store), "--out", str(tmp_path / "a-file")), "is not a directory"),
        (("ingest", str(tmp_path / "nowhere"), "--store", str(store)), "is not a run directory"),
        (("ingest", str(tmp_path / "runs" / "good"), "--store", str(tmp_path / "runs")), "is not a history store"),
        (("report", "--store", str(tmp_path / "runs"), "--out", str(tmp_path / "o")), "is not a history store"),
        (("report", "--store", str(store), "--out", str(tmp_path / "o"), "--as-of", "soon"), "is not a date"),
    ]
    for args, message in cases:
        result = cli(*args)
        lines = result.output.strip().splitlines()
        assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("kcompat: error: "), result.output
        assert message in lines[0]
    assert log_files(store) == kept
    # stored (here: nothing new), then the report can't be written: exit 3, the ingest's lines, one error line
    stored = cli("ingest", str(tmp_path / "runs" / "good"), "--store", str(store), "--report",
                 str(tmp_path / "a-file" / "report"))
    lines = stored.output.strip().splitlines()
    assert stored.exit_code == 3 and lines[-2].endswith("0 rows added, 0 changed, 0 lines quarantined"), stored.output
    assert lines[-1].startswith(f"kcompat: error: can't write the report to {tmp_path / 'a-file' / 'report'}: ")
    assert log_files(store) == kept


def test_junit_ingest_records_win_and_nothing_doubles(spark: Any, tmp_path: Path) -> None:
    from kcompat.harness.records import read_records

    runs = nightly(tmp_path / "runs")[:2]
    store = tmp_path / "store"
    shard = junit(tmp_path / "ci" / "junit-a.xml", read_records(runs[0] / "records.jsonl").records, full=False,
                  others=2)
    (tmp_path / "ci" / "junit-broken.xml").write_text("<testsuites><testcase")
    first = cli("ingest", str(tmp_path / "ci"), "--store", str(store))
    assert first.exit_code == 0, first.output
    assert f"junit {shard}: 2 test cases skipped (no kcompat_cell_id property: 2)" in first.output
    assert first.output.strip().endswith("5 rows added, 0 changed, 1 lines quarantined"), first.output
    again = cli("ingest", str(shard), "--store", str(store))
    assert again.output.strip().endswith("0 rows added, 0 changed, 0 lines quarantined"), again.output
    # the run's records.jsonl replaces the rows its JUnit gave; a JUnit never replaces records.jsonl's
    both = cli("ingest", *map(str, runs), "--store", str(store))
    assert both.output.strip().endswith("5 rows added, 5 changed, 0 lines quarantined"), both.output
    junit(tmp_path / "ci2" / "junit-b.xml", read_records(runs[1] / "records.jsonl").records, full=False)
    late = cli("ingest", str(tmp_path / "ci2"), "--store", str(store))
    assert late.output.strip().endswith("0 rows added, 0 changed, 0 lines quarantined"), late.output
    rows = spark.read.format("delta").load(str(store / "records")).groupBy("run_id", "origin").count()
    assert sorted((r["run_id"], r["origin"], r["count"]) for r in rows.collect()) == [
        ("run-1", "records", 5), ("run-2", "records", 5)]


def test_a_store_written_before_series_still_reads_and_ingests(spark: Any, tmp_path: Path) -> None:
    from delta.tables import DeltaTable
    from pyspark.sql import functions as F

    from kcompat.reports.history.parse import parse_run_dir
    from kcompat.reports.history.rows import RECORD_COLUMNS, V3_COLUMNS
    from kcompat.reports.history.store import QUARANTINE_DDL, RUNS_DDL

    runs = bumps(tmp_path / "runs")
    store = tmp_path / "store"
    old_columns = [c for c in RECORD_COLUMNS if c not in ("series", "origin", *V3_COLUMNS)]
    old_ddl = ", ".join(f"{c} {'INT' if c == 'schema_version' else 'STRING'}" for c in old_columns)
    rows = [tuple(row[c] for c in old_columns) for d in runs[:2] for row in parse_run_dir(d).rows]
    (spark.createDataFrame(rows, old_ddl).withColumn("ingested_at", F.current_timestamp())
     .write.format("delta").partitionBy("kip").save(str(store / "records")))
    for name, ddl in (("quarantine", QUARANTINE_DDL), ("runs", RUNS_DDL)):
        DeltaTable.create(spark).location(str(store / name)).addColumns(spark.createDataFrame([], ddl).schema).execute()
    assert cli("report", "--store", str(store), "--out", str(tmp_path / "before")).exit_code == 0
    added = cli("ingest", *map(str, runs[2:]), "--store", str(store))
    assert added.output.strip().endswith("8 rows added, 0 changed, 0 lines quarantined"), added.output
    old = cli("report", "--store", str(store), "--out", str(tmp_path / "old"))
    assert old.exit_code == 0, old.output
    new_store = tmp_path / "new"
    assert cli("ingest", *map(str, runs), "--store", str(new_store)).exit_code == 0
    assert cli("report", "--store", str(new_store), "--out", str(tmp_path / "new-out")).exit_code == 0
    assert files(tmp_path / "old") == files(tmp_path / "new-out")
    assert '"from_cell_id":"KIP-525/validate-only-returns-configs[2.4.0-zk|java:3.7.0]"' in (
        tmp_path / "old" / "regressions.jsonl").read_text()


def test_intermittent_cells_through_spark_are_duckdbs(spark: Any, tmp_path: Path) -> None:
    """Records of schema_version 3 (observations, intermittent) next to version-2 lines: Spark's store and
    report give the files DuckDB gives, intermittent.jsonl apart from flaky.jsonl."""
    from kcompat.reports.history import report as reporting
    from kcompat.reports.history.engine import DuckDBEngine
    from kcompat.reports.history.store import snapshot_files

    runs = intermittent_nights(tmp_path / "runs")
    lines = (runs[1] / "records.jsonl").read_text().splitlines()
    old = json.loads(lines[0])
    old["schema_version"] = 2
    del old["observations"], old["intermittent"]
    (runs[1] / "records.jsonl").write_text("\n".join([json.dumps(old), *lines[1:]]) + "\n")
    store = tmp_path / "store"
    assert cli("ingest", *map(str, runs), "--store", str(store)).exit_code == 0
    result = cli("report", "--store", str(store), "--out", str(tmp_path / "spark"))
    assert "1 flaky across runs, 2 intermittent within runs" in result.output, result.output
    reporting.write(reporting.compute(DuckDBEngine(snapshot_files(spark, store))), tmp_path / "duck")
    assert files(tmp_path / "spark") == files(tmp_path / "duck")
    assert len((tmp_path / "spark" / "intermittent.jsonl").read_text().splitlines()) == 2


def test_the_matrix_page_reads_the_store(spark: Any, tmp_path: Path) -> None:
    import json
    import re

    from kcompat.reports.page.cli import matrix

    runs = bumps(tmp_path / "runs")
    store = tmp_path / "store"
    assert cli("ingest", *map(str, runs), "--store", str(store)).exit_code == 0
    done = CliRunner().invoke(matrix, [*map(str, runs), "--out", str(tmp_path / "page"), "--store", str(store)])
    assert done.exit_code == 0, done.output
    html = (tmp_path / "page" / "index.html").read_text()
    blob = json.loads(re.search(r'id="data">(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    series = blob["series"][BUMPED]
    assert series == "KIP-525/validate-only-returns-configs[2.4-zk|java:3.7]"
    ids = [f"{blob['claims'][c[0]]}[{'-'.join(blob['columns'][c[1]][:2])}|{blob['clients'][c[2]]}]" for c in blob["cells"]]
    entries = blob["cells"][ids.index(BUMPED)][17]
    assert [(e[1], e[3], e[4]) for e in entries] == [
        ("run-1", "", 0), ("run-2", "", 0), ("run-3", "verdict pass -> deviation, broker_version 2.4.0 -> 2.4.1", 1),
        ("run-4", "", 0)]


def _ingest_process(run: Path, store: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "kcompat.reports.history", "ingest", str(run), "--store", str(store),
                             "--conf", "spark.driver.memory=512m"], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@pytest.mark.nightly  # two Spark drivers at once, 80 s on 2 cores; CI keeps the retry's unit test (test_history.py)
def test_two_concurrent_ingests_neither_lose_nor_duplicate(spark: Any, tmp_path: Path) -> None:
    runs = nightly(tmp_path / "runs")[:2]
    store = tmp_path / "store"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [_ingest_process(run, store, env) for run in runs]
    try:
        outputs = [proc.communicate(timeout=300)[0] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert [proc.returncode for proc in procs] == [0, 0], [out.strip().splitlines()[-3:] for out in outputs]
    rows = spark.read.format("delta").load(str(store / "records")).groupBy("run_id").count().orderBy("run_id").collect()
    assert [(r["run_id"], r["count"]) for r in rows] == [("run-1", 5), ("run-2", 5)]


@pytest.fixture(scope="module")
def two_at_once(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[subprocess.CompletedProcess[str]]]:
    """Two ``kcompat history ingest`` into one small store at once, in a cache of their own where neither Delta's
    jar list nor the driver's class archive exists yet (ivy's module cache copied in, so nothing downloads)."""
    from kcompat.reports.history import spark as sparking
    from tests.console import KCOMPAT

    work = tmp_path_factory.mktemp("two-at-once")
    (work / "cache" / "spark-ivy").mkdir(parents=True)
    if (sparking.ivy_dir() / "cache").is_dir():
        shutil.copytree(sparking.ivy_dir() / "cache", work / "cache" / "spark-ivy" / "cache")
    runs = nightly(work / "runs")[:2]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK")} | {"KCOMPAT_CACHE_DIR": str(work / "cache")}
    procs = [subprocess.Popen([KCOMPAT, "history", "ingest", str(run), "--store", "store", "--conf",
                               "spark.driver.memory=512m"], cwd=work, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for run in runs]
    try:
        outputs = [proc.communicate(timeout=900) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return work, [subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
                  for proc, (out, err) in zip(procs, outputs, strict=True)]


@pytest.mark.nightly  # two Spark drivers on a fresh cache, 110 s on 2 cores; CI keeps the lock's unit test (test_history.py)
def test_two_commands_at_once_in_a_fresh_cache_both_succeed_and_resolve_once(
        spark: Any, two_at_once: tuple[Path, list[subprocess.CompletedProcess[str]]]) -> None:
    """They share ivy's cache and the class archive: ivy runs in one of them (the other waits for its jar list),
    both runs are stored, and the archive left is whole."""
    from kcompat.reports.history import spark as sparking

    work, done = two_at_once
    assert [d.returncode for d in done] == [0, 0], [d.stderr[-2000:] for d in done]
    resolutions = [text.count(":: resolving dependencies") for text in (
        *(d.stderr + d.stdout for d in done), (work / "cache" / "spark-ivy" / "resolve.log").read_text())]
    assert sum(resolutions) == 1, resolutions
    rows = spark.read.format("delta").load(str(work / "store" / "records")).groupBy("run_id").count().collect()
    assert sorted((r["run_id"], r["count"]) for r in rows) == [("run-1", 5), ("run-2", 5)]
    [archive] = (work / "cache").glob("cds/spark-driver-*/driver.jsa")
    assert sparking._whole(archive) and not list(archive.parent.glob("*.tmp"))


@pytest.mark.nightly  # shares the two Spark drivers above; CI checks the same lines through the lock's unit test
def test_ivys_output_goes_to_a_log_that_one_line_names(
        two_at_once: tuple[Path, list[subprocess.CompletedProcess[str]]]) -> None:
    """A first use resolves Delta's jars: not ivy's few hundred lines, but a start and an end line (off a
    terminal) naming the log that holds them."""
    work, done = two_at_once
    log = work / "cache" / "spark-ivy" / "resolve.log"
    for command in done:
        assert "found io.delta#" not in command.stderr + command.stdout and ":: retrieving" not in command.stderr
        [end] = [line for line in command.stderr.splitlines() if line.startswith("✓ Delta's jars")]
        assert end.endswith(f"; log: {log})"), command.stderr
    assert "found io.delta#delta-spark" in log.read_text()


def test_spark_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    run = run_dir(tmp_path / "runs", "r", 1, {JAVA: "pass"})
    env = dict(os.environ, PYTHONPATH=str(ROOT), JAVA_HOME=str(tmp_path / "no-java"))
    result = subprocess.run([sys.executable, "-m", "kcompat.reports.history", "ingest", str(run), "--store",
                             str(tmp_path / "store")], cwd=ROOT, env=env, text=True, capture_output=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("kcompat: error: Spark could not start: ")
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "store").exists()


class StandaloneCluster:
    """A Spark master and one worker from the pyspark installation, on 127.0.0.1, stopped on every exit."""

    def __init__(self, work: Path):
        from kcompat.reports.history.submit import spark_home

        self.home = spark_home()
        self.work = work
        self.procs: list[subprocess.Popen[bytes]] = []
        self.env = dict(os.environ, SPARK_HOME=str(self.home), SPARK_LOCAL_IP="127.0.0.1",
                        SPARK_NO_DAEMONIZE="1", PYSPARK_PYTHON=sys.executable)

    def _spawn(self, name: str, *args: str) -> Path:
        log = self.work / f"{name}.log"
        with log.open("wb") as out:
            self.procs.append(subprocess.Popen([str(self.home / "bin" / "spark-class"), *args], env=self.env,
                                               stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
        return log

    def _wait(self, log: Path, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in log.read_text(errors="replace"):
                return
            if any(proc.poll() is not None for proc in self.procs):
                break
            time.sleep(0.5)
        raise AssertionError(f"waited {timeout:.0f} s for {text!r}; log: {log}")

    def start(self, port: int) -> str:
        master = self._spawn("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                             "--port", str(port), "--webui-port", "0")
        self._wait(master, "I have been elected leader", 90)
        url = f"spark://127.0.0.1:{port}"
        self._spawn("worker", "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1", "--cores", "1",
                    "--memory", "1g", "--webui-port", "0", "--work-dir", str(self.work / "work"))
        self._wait(master, "Registering worker", 90)
        return url

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, 15)
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.nightly  # a standalone master and worker, 190 s; CI runs the same job on the embedded driver
def test_the_same_job_on_a_standalone_cluster(spark: Any, tmp_path: Path) -> None:
    from kcompat.reports.history.submit import build_archive, command

    runs = nightly(tmp_path / "runs")
    local_store, cluster_store = tmp_path / "local", tmp_path / "cluster"
    assert cli("ingest", *map(str, runs), "--store", str(local_store)).exit_code == 0
    assert cli("report", "--store", str(local_store), "--out", str(tmp_path / "local-out")).exit_code == 0
    archive = build_archive(tmp_path / "kcompat-history.zip")
    cluster = StandaloneCluster(tmp_path)
    try:
        url = cluster.start(_free_port())
        env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYTHONPATH="")
        for args in (["ingest", *map(str, runs), "--store", str(cluster_store)],
                     ["report", "--store", str(cluster_store), "--out", str(tmp_path / "cluster-out")]):
            with (tmp_path / "submit.log").open("w") as log:
                done = subprocess.run(command(url, args, archive), cwd=tmp_path, env=env, text=True,
                                      stdout=log, stderr=subprocess.STDOUT, timeout=600)
            assert done.returncode == 0, (tmp_path / "submit.log").read_text()[-3000:]
    finally:
        cluster.stop()
    assert all(proc.poll() is not None for proc in cluster.procs)
    assert files(tmp_path / "cluster-out") == files(tmp_path / "local-out")
    shutil.rmtree(tmp_path / "work", ignore_errors=True)


def test_the_documented_commands_as_typed_on_a_relative_store_with_hostile_lines(tmp_path: Path) -> None:
    """``kcompat history ingest RUN --store S --report DIR`` and ``report`` through the console script (each its
    own Spark), from a working directory with a relative store; one run's hostile lines are quarantined by
    digest and the rest of the run is stored; the report writes only under --out."""
    import json

    kcompat = str(Path(sys.executable).parent / "kcompat")
    runs = tmp_path / "runs"
    good = run_dir(runs, "good", 1, {JAVA: "pass", WIRE: "pass"})
    line = json.loads((good / "records.jsonl").read_text().splitlines()[0])
    with (good / "records.jsonl").open("a") as out:
        out.write(json.dumps({**line, "cell_id": line["cell_id"].replace("2.4", "2.5"), "kip": "../x"}) + "\n")
        out.write(json.dumps({**line, "documented": "hostile"}) + "\n")
        out.write(json.dumps({**line, "api": 123}) + "\n")
        out.write("[" * 50_000 + "\n")
        out.write("-----BEGIN PRIVATE KEY-----\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK")}

    def kc(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([kcompat, "history", *args], cwd=tmp_path, capture_output=True, text=True,
                              timeout=600, check=False, env=env)

    # the nightly's form (ingest, then the report in the same session), then `report` alone; a re-ingest
    # changing nothing is test_reingest_changes_nothing_and_spark_equals_duckdb's, in the module's session
    first = kc("ingest", "runs/good", "--store", "store", "--report", "night")
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stderr
    assert "run good: 2 records, 5 quarantined (malformed 5)" in first.stdout, first.stdout
    assert first.stdout.strip().splitlines()[-1].endswith("5 lines quarantined -> night"), first.stdout
    from kcompat.reports.history import spark as sparking

    archive = sparking.driver_archive()  # recorded by a first command on this machine, mapped from then on
    assert archive is not None and sparking._whole(archive), archive
    report = kc("report", "--store", "store", "--out", "out")
    assert report.returncode == 0, report.stderr
    assert files(tmp_path / "night") == files(tmp_path / "out")
    written = [p for p in tmp_path.rglob("*") if p.is_file() and not p.is_relative_to(tmp_path / "store")
               and not p.is_relative_to(runs)]
    assert written and all(p.is_relative_to(tmp_path / "out") or p.is_relative_to(tmp_path / "night")
                           for p in written), written
    import pyarrow.parquet as pq

    stored = [row for p in (tmp_path / "store" / "quarantine").rglob("*.parquet")
              for row in pq.read_table(p).to_pylist()]
    assert len(stored) == 5 and not any("PRIVATE" in json.dumps(row, default=str) for row in stored)
    assert all(row["text"].startswith("sha256:") for row in stored)


@pytest.mark.nightly
def test_the_drivers_class_archive_is_recorded_then_mapped_and_a_damaged_one_never_fails_a_command(
        tmp_path: Path) -> None:
    """In a cache of its own: the first command records the archive (complete, nothing left running), the
    second maps it unchanged, and one damaged in place (same size) still ends in a stored run."""
    from kcompat.reports.history import spark as sparking

    cache = tmp_path / "cache"
    (cache / "spark-ivy").mkdir(parents=True)
    for listed in sparking.ivy_dir().glob("*.jars"):  # Delta's jars as resolved: no ivy here
        shutil.copy(listed, cache / "spark-ivy")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK")} | {"KCOMPAT_CACHE_DIR": str(cache)}
    kcompat = str(Path(sys.executable).parent / "kcompat")
    run_dir(tmp_path / "runs", "good", 1, {JAVA: "pass"})

    def ingest(store: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([kcompat, "history", "ingest", "runs/good", "--store", store], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600, check=False, env=env)
        assert done.returncode == 0 and done.stdout.strip().endswith("1 rows added, 0 changed, 0 lines quarantined"), (
            done.stdout + done.stderr[-2000:])
        return done

    ingest("s1")
    [archive] = cache.glob("cds/spark-driver-*/driver.jsa")
    assert sparking._whole(archive) and not list(archive.parent.glob("*.tmp"))
    recorded = archive.stat()
    ingest("s2")
    assert (archive.stat().st_ino, archive.stat().st_mtime_ns) == (recorded.st_ino, recorded.st_mtime_ns)

    archive.chmod(0o644)
    with archive.open("r+b") as damaged:  # the size check can't see this: only the JVM can
        damaged.seek(400 * 1024)
        damaged.write(b"\0" * 256 * 1024)
    third = ingest("s3")
    if "died mapping its class archive" in third.stderr:  # the JVM crashed on it: dropped, Spark started without
        assert not archive.exists() and list(archive.parent.glob("hs_err_pid*.log"))
    assert not list(tmp_path.glob("hs_err*"))  # a crash report never lands in the user's directory
