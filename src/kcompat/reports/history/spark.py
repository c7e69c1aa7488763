"""The Spark session: embedded (``local[*]``, small-data settings, no UI) or the one spark-submit made.

Delta's jars come from Maven Central through Spark's ivy, cached under the kcompat cache
(``~/.cache/kcompat/spark-ivy``) so CI and every engineer resolve them once: one process at a time per
cache (ivy's cache is not safe for two), with ivy's output in a log and one progress line on the
terminal.  Every failure to start becomes one ``SparkStartError`` line naming the cause.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator, Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def _listed_jars() -> list[str] | None:
    """Delta's jars as a first resolution listed them, when every one is still there."""
    listed = _jar_list()
    if listed.is_file():
        jars = listed.read_text(encoding="utf-8").split()
        if jars and all(Path(jar).is_file() for jar in jars):
            return jars
    return None


def jar_conf() -> dict[str, str]:
    """Delta's jars: the cached list once resolved (no ivy at all), else ivy against Maven Central."""
    jars = _listed_jars()
    if jars:
        return {"spark.jars": ",".join(jars)}
    settings = ivy_dir() / "ivysettings.xml"
    settings.parent.mkdir(parents=True, exist_ok=True)
    partial = settings.with_name(f"ivysettings.{os.getpid()}.tmp")
    partial.write_text(_IVY_SETTINGS, encoding="utf-8")
    partial.replace(settings)  # a JVM reading it meanwhile reads a whole file, never a truncated one
    return {"spark.jars.packages": delta_package(), "spark.jars.ivy": str(ivy_dir()),
            "spark.jars.ivySettings": str(settings)}


def _remember_jars(jars: list[str]) -> None:
    """After ivy resolved the jars once, list them so later sessions skip resolution (seconds each)."""
    if jars and all(Path(jar).is_file() for jar in jars):
        tmp = _jar_list().with_suffix(f".tmp{os.getpid()}")
        tmp.write_text("\n".join(jars) + "\n", encoding="utf-8")
        tmp.replace(_jar_list())


RESOLVE_TIMEOUT = 900.0
"""The longest a command waits for another kcompat process resolving Delta's jars into the same cache."""


def resolve_log() -> Path:
    """Where ivy's output goes (a few hundred lines on a first use), rather than the command's own output."""
    return ivy_dir() / "resolve.log"


def resolve_jars() -> None:
    """Have ivy put Delta's jars in the cache and list them, unless they are listed: one process per cache at a
    time (two ivys in one cache truncate each other's downloads), shown as one step naming ivy's log."""
    if _listed_jars() is not None:
        return
    from kcompat.harness.locking import exclusive  # here, not above: the job archive spark-submit ships has no locking
    from kcompat.harness.progress import report, step

    ivy_dir().mkdir(parents=True, exist_ok=True)
    with step("Delta's jars via ivy (first use)"):
        report("waiting for another kcompat process resolving them", log=resolve_log())
        with exclusive(ivy_dir() / "resolve", timeout=RESOLVE_TIMEOUT, waiting_for="resolving Delta's jars"):
            if _listed_jars() is None:
                _remember_jars(_resolved(jar_conf(), resolve_log()))


def _resolved(packages: Mapping[str, str], log: Path) -> list[str]:
    """Delta's jars as ivy resolves them, in a Spark JVM started for that alone with its output in ``log``."""
    from pyspark import SparkConf
    from pyspark.java_gateway import launch_gateway

    from kcompat.harness.progress import report

    report("resolving")
    with log.open("wb") as out, _counting(log):
        try:
            gateway = launch_gateway(  # type: ignore[no-untyped-call]
                SparkConf(loadDefaults=False).setAll(list(packages.items())),
                popen_kwargs={"stdout": out, "stderr": subprocess.STDOUT})
        except Exception as exc:  # PySparkRuntimeError: the JVM exited, ivy's reason is in the log
            raise SparkStartError(f"Spark could not start to resolve Delta's jars: {_first_line(exc)}",
                                  hint=f"ivy's and Java's output: {log}") from exc
        try:
            jars = str(gateway.jvm.System.getProperty("spark.jars") or "")
        finally:
            _end_jvm(gateway, timeout=60.0)
    return ["/" + jar.removeprefix("file:").lstrip("/") for jar in jars.split(",") if jar]


@contextlib.contextmanager
def _counting(log: Path) -> Iterator[None]:
    """Keep the step's "how far" on what ivy has logged: modules found, jars downloaded."""
    from kcompat.harness.progress import report

    done = threading.Event()

    def count() -> None:
        while not done.wait(1.0):
            with contextlib.suppress(OSError):
                text = log.read_text(encoding="utf-8", errors="replace")
                found, got = text.count("\tfound "), text.count("[SUCCESSFUL ]")
                if found:
                    report(f"found {found} modules, got {got} jars")

    counter = threading.Thread(target=contextvars.copy_context().run, args=(count,), daemon=True)
    counter.start()
    try:
        yield
    finally:
        done.set()
        counter.join()


def _end_jvm(gateway: Any, *, timeout: float) -> int | None:
    """End the JVM behind ``gateway`` as when Python exits (its stdin closed) and wait for it: its exit code,
    or None when it had to be killed."""
    proc = getattr(gateway, "proc", None)
    with contextlib.suppress(Exception):
        gateway.shutdown()
    if proc is None:
        return None
    with contextlib.suppress(OSError):
        proc.stdin.close()
    try:
        return int(proc.wait(timeout=timeout))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


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


ARCHIVE_FORMAT = 1
"""Bumped when how the driver's class archive is made changes: every key changes with it."""
ARCHIVE_DUMP_TIMEOUT = 120.0
"""The longest a stopping driver may take to write its class archive (a few seconds here)."""
_QUIET_SHARING = "-Xlog:cds=off,cds+dynamic=off"
"""The JVM's own class-sharing notes go to stdout, which is the command's; an unusable archive is just not used."""
_recording: Path | None = None
"""Where the driver this process started writes its class archive at exit (``stop`` keeps it), if it records."""


def _driver_java() -> Path | None:
    """The java Spark's launcher runs: JAVA_HOME's, else the one on PATH (as ``spark-class`` picks it)."""
    home = os.environ.get("JAVA_HOME")
    found = Path(home) / "bin" / "java" if home else Path(shutil.which("java") or "/nonexistent")
    return found.resolve() if found.is_file() else None


def driver_archive() -> Path | None:
    """The driver's class-data sharing archive for this Java and these Spark jars (None: nothing to key it by).

    The key hashes the Java binary and every jar of Spark's (path, size, mtime): a changed Java or Spark is a
    new key, so a stale archive is never mapped (the JVM checks the jars too, and ``-Xshare:auto`` falls back
    to loading classes).  Delta's jars are loaded by Spark's own class loader, which archives do not cover.
    """
    import pyspark

    from kcompat.harness.cds import files_key

    java = _driver_java()
    jars = Path(os.environ.get("SPARK_HOME") or Path(pyspark.__file__).parent) / "jars"
    if java is None or not jars.is_dir():
        return None
    key = files_key(f"spark-driver\0{ARCHIVE_FORMAT}\0", [java, *sorted(jars.glob("*.jar"))])
    return None if key is None else cache_dir() / "cds" / f"spark-driver-{key}" / "driver.jsa"


def sharing_flags(archive: Path | None, *, record: bool) -> tuple[list[str], Path | None]:
    """(the driver's JVM flags, where it writes an archive as it exits): map the archive when there is one;
    else, if ``record``, have this JVM write one (``-XX:ArchiveClassesAtExit``) to a name of its own."""
    if archive is None:
        return [], None
    if archive.is_file() and not _whole(archive):
        with _archive_lock(archive):
            if not _whole(archive):
                _discard(archive)  # truncated (a full disk, a copy cut short): mapping it would crash the JVM
    if archive.is_file():
        # a JVM that crashes while mapping leaves its report beside the archive, not in the user's directory
        return [f"-XX:SharedArchiveFile={archive}", "-Xshare:auto", _QUIET_SHARING,
                f"-XX:ErrorFile={archive.parent / 'hs_err_pid%p.log'}"], None
    if not record:
        return [], None
    archive.parent.mkdir(parents=True, exist_ok=True)
    pending = archive.with_name(f"driver-{os.getpid()}-{uuid.uuid4().hex[:8]}.jsa.tmp")
    return [f"-XX:ArchiveClassesAtExit={pending}", _QUIET_SHARING], pending


def _size_file(archive: Path) -> Path:
    return archive.with_name(archive.name + ".size")


def _whole(archive: Path) -> bool:
    """The archive is as long as it was when its JVM finished writing it."""
    try:
        return int(_size_file(archive).read_text(encoding="ascii")) == archive.stat().st_size
    except (OSError, ValueError):
        return False


def _discard(archive: Path) -> None:
    for path in (archive, _size_file(archive)):
        path.unlink(missing_ok=True)


def _class_sharing() -> bool:
    from kcompat.harness.config import HarnessConfig

    return HarnessConfig.resolve().class_sharing


def start(extra: Mapping[str, str] | None = None, *, submitted: bool = False,
          record_classes: bool = False) -> SparkSession:
    """A session with Delta, or one line saying why there is none (no Java, a port taken, no jars).

    The embedded driver maps its class archive when the cache has one (about 2 s of a start, and as much of
    the first jobs); ``record_classes`` lets a driver without one write it as it exits, which ``stop`` waits
    for: the CLI records, a session that outlives its caller (tests) never does.
    """
    global _recording
    try:
        from pyspark.sql import SparkSession
    except ImportError as exc:
        raise SparkStartError("pyspark is not installed", hint="pip install 'kcompat[history]'") from exc
    if not submitted:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers: this interpreter
        # The JVM picks its own address before reading any conf: without this it resolves the host name
        # and binds the block manager and its file server to the first non-loopback interface.
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        resolve_jars()
    conf = session_conf(extra, submitted=submitted)
    pending = archive = None
    plain = conf.get("spark.driver.extraJavaOptions", "")
    if not submitted and "spark.driver.extraJavaOptions" not in (extra or {}) and _class_sharing():
        archive = driver_archive()
        flags, pending = sharing_flags(archive, record=record_classes)
        conf["spark.driver.extraJavaOptions"] = " ".join([plain, *flags])
    crashes = _crash_reports(archive)
    try:
        try:
            spark = _get_or_create(SparkSession, conf)
        except Exception:
            if archive is None or pending is not None or not archive.is_file() or _crash_reports(archive) <= crashes:
                raise
            # A damaged archive the size check can't see makes the JVM die while mapping it (its crash report
            # is the sign): drop it, and start once more without it.
            _discard(archive)
            print(f"kcompat: Spark's JVM died mapping its class archive (its report: {archive.parent}); "
                  "the archive is dropped and Spark starts without it", file=sys.stderr)
            conf["spark.driver.extraJavaOptions"] = plain
            spark = _get_or_create(SparkSession, conf)
    except Exception as exc:  # py4j, PySparkRuntimeError, RuntimeError: all mean "no session"
        raise SparkStartError(f"Spark could not start: {_first_line(exc)}",
                              hint="needs Java 17+ on PATH or JAVA_HOME and free loopback ports; "
                                   "Delta's jars from Maven Central or " + str(ivy_dir())) from exc
    _recording = pending
    spark.sparkContext.setLogLevel("FATAL")  # failures reach the user as one line, not as logged stack traces
    return spark


def _crash_reports(archive: Path | None) -> set[Path]:
    """The JVM crash reports beside the archive (``-XX:ErrorFile`` sends a mapping driver's there)."""
    return set(archive.parent.glob("hs_err_pid*.log")) if archive is not None else set()


def _get_or_create(session: type[SparkSession], conf: Mapping[str, str]) -> SparkSession:
    builder = session.builder
    for key, value in conf.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def stop(spark: SparkSession) -> None:
    """Stop a session ``start`` made.  A driver that records its class archive is ended here (its stdin
    closed, as when Python exits) and waited for, so that the archive it writes at exit is complete before it
    becomes the cache's; nothing of it runs on after the command."""
    global _recording
    spark.stop()
    pending, _recording = _recording, None
    if pending is None:
        return
    from pyspark import SparkContext

    gateway = SparkContext._gateway
    SparkContext._gateway = SparkContext._jvm = None  # a later start launches a new JVM
    code = _end_jvm(gateway, timeout=ARCHIVE_DUMP_TIMEOUT)
    archive = pending.with_name("driver.jsa")
    if code == 0 and pending.is_file() and pending.stat().st_size > 0:
        with _archive_lock(archive):
            if not _whole(archive):  # two drivers recorded at once: the first whole archive stays
                size = pending.with_name(pending.name + ".size")
                size.write_text(str(pending.stat().st_size), encoding="ascii")
                os.replace(size, _size_file(archive))
                os.replace(pending, archive)  # atomic: a concurrent start maps the old file or the whole new one
                _prune(archive.parent)
    pending.unlink(missing_ok=True)


ARCHIVE_LOCK_TIMEOUT = 60.0
"""The longest a command waits for another to finish replacing the class archive (two renames)."""


@contextlib.contextmanager
def _archive_lock(archive: Path) -> Iterator[None]:
    """One command at a time replaces or drops the archive and its size file, so the two always agree."""
    from kcompat.harness.locking import exclusive

    with exclusive(archive.parent / "archive", timeout=ARCHIVE_LOCK_TIMEOUT,
                   waiting_for="replacing Spark's class archive"):
        yield


KEEP_OTHER_ARCHIVES = 2
"""Archives of other Spark installs kept beside a new one (200 MB each; every venv is its own key, since the
JVM checks the jars' paths): the most recently written stay, a venv whose archive went records it again."""


def _prune(kept: Path) -> None:
    others = sorted((d for d in kept.parent.glob("spark-driver-*") if d.is_dir() and d != kept),
                    key=lambda d: d.stat().st_mtime, reverse=True)
    for stale in others[KEEP_OTHER_ARCHIVES:]:
        shutil.rmtree(stale, ignore_errors=True)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].startswith("An error occurred while calling"):
        lines = [lines[1].removeprefix(": ")]  # py4j's wrapper line: the JVM's exception is the next one
    return lines[0][:300] if lines else text[:300]
