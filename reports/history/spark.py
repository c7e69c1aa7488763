"""The Spark session: embedded (``local[*]``, small-data settings, no UI) or the one spark-submit made.

Delta's jars come from Maven Central through Spark's ivy, cached under the kcompat cache
(``~/.cache/kcompat/spark-ivy``) so CI and every engineer resolve them once.  Every failure to
start becomes one ``SparkStartError`` line naming the cause.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import SparkStartError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

SCALA_BINARY = "2.13"
"""Spark 4 is built for Scala 2.13, and so is the delta-spark jar that goes with it."""

LOCAL_CONF: dict[str, str] = {
    "spark.master": "local[*]",
    "spark.app.name": "kcompat-history",
    "spark.ui.enabled": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.default.parallelism": "4",
    "spark.driver.memory": "2g",
    # Throughput collector: G1's concurrent threads compete for the few cores (the year's report: 95 s
    # against 103 s and 115 s with G1, docs/PERFORMANCE.md)
    "spark.driver.extraJavaOptions": "-XX:+UseParallelGC",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.databricks.delta.snapshotPartitions": "2",
    "spark.ui.showConsoleProgress": "false",
}
"""Small data on a small machine: a handful of shuffle partitions, modest memory, loopback only."""

DELTA_CONF: dict[str, str] = {
    "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
    "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
}


def cache_dir() -> Path:
    """The kcompat cache, resolved as kcompat.harness.config does: KCOMPAT_CACHE_DIR, else the user cache."""
    explicit = os.environ.get("KCOMPAT_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kcompat"


def ivy_dir() -> Path:
    return cache_dir() / "spark-ivy"


def delta_package() -> str:
    """The Maven coordinate of the Delta jar matching the installed ``delta-spark`` and ``pyspark``.

    Delta 4.1+ names its artifact after the Spark line it was built for (``delta-spark_4.2_2.13``).
    """
    try:
        release, spark_release = version("delta-spark"), version("pyspark")
    except PackageNotFoundError as exc:
        raise SparkStartError(f"{exc.name} is not installed", hint="pip install 'kcompat[history]'") from exc
    spark_line = ".".join(spark_release.split(".")[:2])
    return f"io.delta:delta-spark_{spark_line}_{SCALA_BINARY}:{release}"


_IVY_SETTINGS = """<ivysettings>
  <settings defaultResolver="central"/>
  <resolvers>
    <ibiblio name="central" m2compatible="true" root="https://repo1.maven.org/maven2/"/>
  </resolvers>
</ivysettings>
"""
"""Maven Central only: Spark's default chain also asks spark-packages, which this project never uses."""


def _jar_list() -> Path:
    return ivy_dir() / (delta_package().replace(":", "_") + ".jars")


def jar_conf() -> dict[str, str]:
    """Delta's jars: the cached list once resolved (no ivy at all), else ivy against Maven Central."""
    listed = _jar_list()
    if listed.is_file():
        jars = listed.read_text(encoding="utf-8").split()
        if jars and all(Path(jar).is_file() for jar in jars):
            return {"spark.jars": ",".join(jars)}
    settings = ivy_dir() / "ivysettings.xml"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(_IVY_SETTINGS, encoding="utf-8")
    return {"spark.jars.packages": delta_package(), "spark.jars.ivy": str(ivy_dir()),
            "spark.jars.ivySettings": str(settings)}


def _remember_jars(conf: Mapping[str, str]) -> None:
    """After ivy resolved the jars once, list them so later sessions skip resolution (seconds each)."""
    jars = ["/" + j.removeprefix("file:").lstrip("/") for j in conf.get("spark.jars", "").split(",") if j]
    if jars and all(Path(jar).is_file() for jar in jars):
        tmp = _jar_list().with_suffix(f".tmp{os.getpid()}")
        tmp.write_text("\n".join(jars) + "\n", encoding="utf-8")
        tmp.replace(_jar_list())


_JAR_KEYS = frozenset({"spark.jars", "spark.jars.packages"})
"""Settings a ``--conf`` adds to rather than replaces; the cached list stays Delta's own jars."""


def session_conf(extra: Mapping[str, str] | None = None, *, submitted: bool = False) -> dict[str, str]:
    """The settings a session starts with; under spark-submit the master and jars are the submitter's."""
    conf = dict(DELTA_CONF)
    if not submitted:
        conf.update(LOCAL_CONF)
        # Python workers: this interpreter, and this checkout first on their path (they import the parser).
        conf["spark.pyspark.python"] = sys.executable
        import kcompat

        root = str(Path(kcompat.__file__).parent.parent)  # what holds kcompat/: the checkout, or site-packages
        conf["spark.executorEnv.PYTHONPATH"] = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
        conf.update(jar_conf())
    for key, value in (extra or {}).items():
        if key in _JAR_KEYS and conf.get(key):
            value = f"{conf[key]},{value}"  # more jars (an object store's connector) beside Delta's, never instead
        conf[key] = value
    return conf


def start(extra: Mapping[str, str] | None = None, *, submitted: bool = False) -> SparkSession:
    """A session with Delta, or one line saying why there is none (no Java, a port taken, no jars)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError as exc:
        raise SparkStartError("pyspark is not installed", hint="pip install 'kcompat[history]'") from exc
    conf = session_conf(extra, submitted=submitted)
    if not submitted:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers: this interpreter
        # The JVM picks its own address before reading any conf: without this it resolves the host name
        # and binds the block manager and its file server to the first non-loopback interface.
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = SparkSession.builder
    for key, value in conf.items():
        builder = builder.config(key, value)
    try:
        spark = builder.getOrCreate()
    except Exception as exc:  # py4j, PySparkRuntimeError, RuntimeError: all mean "no session"
        raise SparkStartError(f"Spark could not start: {_first_line(exc)}",
                              hint="needs Java 17+ on PATH or JAVA_HOME and free loopback ports; "
                                   "Delta's jars from Maven Central or " + str(ivy_dir())) from exc
    spark.sparkContext.setLogLevel("FATAL")  # failures reach the user as one line, not as logged stack traces
    if not submitted and "spark.jars.packages" in conf and not _JAR_KEYS & set(extra or {}):
        _remember_jars(dict(spark.sparkContext.getConf().getAll()))
    return spark


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].startswith("An error occurred while calling"):
        lines = [lines[1].removeprefix(": ")]  # py4j's wrapper line: the JVM's exception is the next one
    return lines[0][:300] if lines else text[:300]
