"""Broker jars from Maven Central, resolved by Maven itself and cached.

Maven honours each broker POM (scopes, exclusions, version mediation) and, with
``--strict-checksums``, refuses a download whose checksum does not match.  The
resolved classpath is written to a manifest with each jar's SHA-256 and size,
so a warm run reads one JSON file and starts no Maven at all.  Manifests name
jars relative to the cache directory, so a cache can be copied, moved or
mounted read-only elsewhere; a manifest naming a jar outside the cache (an
older one, from a cache that lived elsewhere) is stale and resolved again.
Every name that becomes a path is checked first: nothing is written outside
the cache directory.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from .catalog import BrokerRelease
from .config import HarnessConfig
from .errors import ArtifactError, ConfigError
from .locking import exclusive
from .reaper import kill_tree, spawn
from .waiting import poll

DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
MAVEN_TIMEOUT = 1200.0
_DOWNLOADED = re.compile(r"Downloaded from \S+: (?P<url>\S+) \((?P<size>[\d.]+) (?P<unit>[kMG]?B)")
_UNITS = {"B": 1, "kB": 1000, "MB": 1000**2, "GB": 1000**3}

# The Java sidecar's own needs next to kafka-clients: JSON, and SLF4J routed to
# java.util.logging so it can read NetworkClient's request-header lines.
SIDECAR_DEPENDENCIES = ("com.google.code.gson:gson:2.10.1", "org.slf4j:slf4j-jdk14:1.7.36")

_PLAIN_RELEASE = re.compile(r"\d+\.\d+\.\d+(?:\.\d+)?")

DownloadProgress = Callable[[int, int], None]
"""Called with (files downloaded so far, bytes downloaded so far)."""


def check_release_name(version: str, what: str = "kafka-clients") -> str:
    """``version`` if it is a plain release (``3.7.0``, ``0.11.0.3``); it becomes a path, so nothing else is."""
    if not isinstance(version, str) or _PLAIN_RELEASE.fullmatch(version) is None:
        raise ConfigError(f"{what} release {version!r} is not a plain release like 3.7.0 or 0.11.0.3")
    return version


@dataclass(frozen=True)
class LoggingBackend:
    """The SLF4J binding added to a broker's classpath (Kafka's POMs ship none)."""

    name: str
    dependencies: tuple[str, ...]
    excludes: tuple[str, ...]


LOG4J1 = LoggingBackend(
    "log4j1",
    ("org.slf4j:slf4j-reload4j:1.7.36",),
    # 0.10/0.11 POMs bring slf4j-log4j12 + log4j 1.2.17; reload4j replaces both.
    ("org.slf4j:slf4j-log4j12", "log4j:log4j"),
)
LOG4J2 = LoggingBackend("log4j2", ("org.apache.logging.log4j:log4j-slf4j-impl:2.24.3",), ())


def logging_backend(release: BrokerRelease) -> LoggingBackend:
    return LOG4J2 if release.version.supports("log4j2") else LOG4J1


@dataclass(frozen=True)
class BrokerArtifacts:
    release: BrokerRelease
    classpath: tuple[Path, ...]
    logging: str

    @property
    def classpath_string(self) -> str:
        return ":".join(str(path) for path in self.classpath)


def _dependency_xml(coordinate: str, excludes: tuple[str, ...], classifier: str | None = None) -> str:
    group, artifact, version = coordinate.split(":")
    exclusions = "".join(
        f"<exclusion><groupId>{escape(g)}</groupId><artifactId>{escape(a)}</artifactId></exclusion>"
        for g, a in (item.split(":") for item in excludes)
    )
    wrapped = f"<exclusions>{exclusions}</exclusions>" if exclusions else ""
    return (
        f"<dependency><groupId>{escape(group)}</groupId><artifactId>{escape(artifact)}</artifactId>"
        f"<version>{escape(version)}</version>"
        + (f"<classifier>{escape(classifier)}</classifier>" if classifier else "")
        + f"{wrapped}</dependency>"
    )


def _render_pom(artifact_id: str, dependencies: list[str]) -> str:
    body = "\n    ".join(dependencies)
    return (
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "  <modelVersion>4.0.0</modelVersion>\n"
        f"  <groupId>kcompat.resolve</groupId><artifactId>{escape(artifact_id)}</artifactId>\n"
        "  <version>1</version><packaging>pom</packaging>\n"
        f"  <dependencies>\n    {body}\n  </dependencies>\n"
        "</project>\n"
    )


def _broker_dependencies(release: BrokerRelease) -> list[str]:
    backend = logging_backend(release)
    excludes = tuple(f"{e.group}:{e.artifact}" for e in release.line.exclude) + backend.excludes
    deps = [_dependency_xml(release.maven_coordinate, excludes)]
    additions = backend.dependencies + tuple(a.coordinate for a in release.line.add)
    return deps + [_dependency_xml(coordinate, ()) for coordinate in additions]


def render_pom(release: BrokerRelease) -> str:
    """A throwaway POM whose runtime classpath is exactly what the broker needs."""
    return _render_pom(f"kafka-{release.version}", _broker_dependencies(release))


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass(frozen=True)
class _Resolution:
    """One thing to resolve: where it is cached, the POM that names it, how to call it."""

    workdir: Path
    pom: str
    label: str
    manifest_extra: dict[str, str]
    fetch_hint: str | None = None


class ArtifactStore:
    """Resolves and caches broker classpaths under ``<cache>/brokers/<version>``."""

    def __init__(self, config: HarnessConfig):
        self.config = config
        self.maven_repo = config.cache_dir / "m2"

    def _dir(self, release: BrokerRelease) -> Path:
        return self.config.cache_dir / "brokers" / str(release.version)

    def manifest_path(self, release: BrokerRelease) -> Path:
        return self._dir(release) / "manifest.json"

    def client_dir(self, version: str) -> Path:
        """``<cache>/clients/kafka-clients-<version>``, for a plain release only."""
        return self.config.cache_dir / "clients" / f"kafka-clients-{check_release_name(version)}"

    def has_client(self, version: str) -> bool:
        """Maven resolved this kafka-clients release once (so Maven Central publishes it)."""
        return (self.client_dir(version) / "manifest.json").is_file()

    def resolve_client(self, version: str, *, progress: DownloadProgress | None = None) -> tuple[Path, ...]:
        """kafka-clients at ``version`` plus what the Java sidecar needs (gson, an SLF4J->JUL binding)."""
        coordinates = (f"org.apache.kafka:kafka-clients:{version}", *SIDECAR_DEPENDENCIES)
        return self._cached(
            _Resolution(self.client_dir(version),
                        _render_pom(f"kafka-clients-{version}", [_dependency_xml(c, ()) for c in coordinates]),
                        f"kafka-clients {version}", {"coordinate": coordinates[0]}),
            verify_hashes=False, progress=progress)

    def resolve_client_sources(self, version: str) -> Path:
        """kafka-clients' sources jar at ``version`` alone (the Admin javadoc is read from it)."""
        coordinate = f"org.apache.kafka:kafka-clients:{check_release_name(version)}"
        jars = self._cached(
            _Resolution(self.client_dir(version) / "sources",
                        _render_pom(f"kafka-clients-{version}-sources",
                                    [_dependency_xml(coordinate, ("*:*",), "sources")]),
                        f"kafka-clients {version}'s sources", {"coordinate": f"{coordinate}:sources"}),
            verify_hashes=False, progress=None)
        if len(jars) != 1:
            raise ArtifactError(f"Maven resolved {len(jars)} jars for kafka-clients {version}'s sources, not one")
        return jars[0]

    def resolve_tools(self, release: BrokerRelease, *, progress: DownloadProgress | None = None
                      ) -> tuple[Path, ...]:
        """The broker's classpath plus ``kafka-tools`` of the same release (the admin commands moved
        there from the core jar in 3.x/4.0), resolved together so Maven mediates one set of versions."""
        tools = f"org.apache.kafka:kafka-tools:{release.version}"
        return self._cached(
            _Resolution(self._dir(release) / "tools",
                        _render_pom(f"kafka-tools-{release.version}",
                                    [*_broker_dependencies(release), _dependency_xml(tools, ())]),
                        f"Kafka {release.version}'s tools", {"coordinate": tools}),
            verify_hashes=False, progress=progress)

    def is_cached(self, release: BrokerRelease) -> bool:
        try:
            self._load(release, verify_hashes=False)
        except ArtifactError:
            return False
        return True

    def resolve(
        self,
        release: BrokerRelease,
        *,
        verify_hashes: bool = False,
        progress: DownloadProgress | None = None,
    ) -> BrokerArtifacts:
        """The broker's classpath, from the cache when it is there and intact."""
        self._cached(self._broker_resolution(release), verify_hashes=verify_hashes, progress=progress)
        return self._load(release, verify_hashes=False)

    def _broker_resolution(self, release: BrokerRelease) -> _Resolution:
        return _Resolution(self._dir(release), render_pom(release), f"Kafka {release.version}",
                           {"coordinate": release.maven_coordinate, "logging": logging_backend(release).name},
                           f"kcompat brokers fetch {release.version}")

    def _cached(self, job: _Resolution, *, verify_hashes: bool, progress: DownloadProgress | None
                ) -> tuple[Path, ...]:
        """Jars from the manifest when intact; else Maven once (one worker at a time), then the manifest."""
        manifest = job.workdir / "manifest.json"
        if not job.workdir.resolve().is_relative_to(self.config.cache_dir.resolve()):
            raise ConfigError(f"{job.label} would be cached at {job.workdir}, outside the cache directory "
                              f"{self.config.cache_dir}")
        if manifest.is_file() or self.config.offline:
            try:
                return self._jars(manifest, job.label, verify_hashes=verify_hashes, fetch_hint=job.fetch_hint)
            except ArtifactError:
                if self.config.offline:
                    raise
        job.workdir.mkdir(parents=True, exist_ok=True)
        with exclusive(manifest, timeout=MAVEN_TIMEOUT + 60, waiting_for=f"to resolve {job.label}"):
            if manifest.is_file():  # another worker resolved it while we waited
                try:
                    return self._jars(manifest, job.label, verify_hashes=verify_hashes)
                except ArtifactError:
                    _purge_damaged(manifest, self.config.cache_dir, self.maven_repo)
            self._maven(job, progress)
            return self._jars(manifest, job.label, verify_hashes=False)

    def _load(self, release: BrokerRelease, *, verify_hashes: bool) -> BrokerArtifacts:
        job = self._broker_resolution(release)
        manifest = job.workdir / "manifest.json"
        jars = self._jars(manifest, job.label, verify_hashes=verify_hashes, fetch_hint=job.fetch_hint)
        return BrokerArtifacts(release, jars, json.loads(manifest.read_text())["logging"])

    def _jars(self, manifest: Path, label: str, *, verify_hashes: bool, fetch_hint: str | None = None
              ) -> tuple[Path, ...]:
        try:
            data = json.loads(manifest.read_text())
        except (OSError, ValueError) as exc:
            raise ArtifactError(
                f"{label} is not in the cache ({manifest.parent})"
                + (" and offline mode is on" if self.config.offline else ""),
                hint=f"run {fetch_hint!r} with network access to Maven Central" if fetch_hint
                else "run once with network access to Maven Central",
            ) from exc
        jars = []
        for entry in data["jars"]:
            path = _jar_path(entry["path"], self.config.cache_dir)
            if path is None:
                raise ArtifactError(f"the manifest of {label} names {entry['path']}, outside the cache "
                                    f"{self.config.cache_dir} (a cache moved from elsewhere)",
                                    hint=f"run {fetch_hint!r} once online" if fetch_hint else "run once online")
            if not path.is_file() or path.stat().st_size != entry["size"]:
                raise ArtifactError(f"cached jar {path} of {label} is missing or truncated")
            if verify_hashes and sha256_of(path) != entry["sha256"]:
                raise ArtifactError(f"cached jar {path} of {label} fails its SHA-256 check")
            jars.append(path)
        return tuple(jars)

    def _run_bounded(self, command: list[str], workdir: Path, log_path: Path, label: str,
                     progress: DownloadProgress | None) -> int:
        """Run Maven into ``log_path``, following its downloads; killed at the deadline or on any exit."""
        files = size = 0
        try:
            with log_path.open("w") as log, log_path.open() as follow:
                proc = spawn(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=workdir)

                def exited() -> int | None:
                    """Report the downloads logged since the last look; Maven's exit code once it has one."""
                    nonlocal files, size
                    for line in iter(follow.readline, ""):
                        if (found := _DOWNLOADED.search(line)) and progress is not None:
                            files += 1
                            size += int(float(found["size"]) * _UNITS[found["unit"]])
                            progress(files, size)
                    return proc.poll()

                try:
                    rc = poll(exited, timeout=MAVEN_TIMEOUT, interval=0.1)
                    if rc is None:
                        raise ArtifactError(f"Maven did not finish resolving {label} in {MAVEN_TIMEOUT:.0f}s",
                                            log=log_path)
                    return rc
                finally:
                    if proc.poll() is None:
                        kill_tree(proc.pid)
        except OSError as exc:
            raise ArtifactError(f"Maven failed to run for {label}: {exc}", log=log_path) from exc

    def _maven(self, job: _Resolution, progress: DownloadProgress | None) -> None:
        workdir, label = job.workdir, job.label
        maven = shutil.which(self.config.maven)
        if maven is None:
            raise ArtifactError(f"Maven ({self.config.maven!r}) is not on PATH; it resolves Kafka's jars",
                                hint="install Maven (apt-get install -y maven) or set KCOMPAT_MAVEN")
        (workdir / "pom.xml").write_text(job.pom)
        outfile = workdir / "classpath.txt"
        outfile.unlink(missing_ok=True)
        log_path = workdir / "maven.log"
        command = [
            maven, "-B", "--strict-checksums", "-f", str(workdir / "pom.xml"),
            f"-Dmaven.repo.local={self.maven_repo}",
            f"{DEPENDENCY_PLUGIN}:build-classpath",
            f"-Dmdep.outputFile={outfile}", "-Dmdep.includeScope=runtime",
        ]
        rc = self._run_bounded(command, workdir, log_path, label, progress)
        if rc != 0 or not outfile.is_file():
            raise ArtifactError(f"Maven could not resolve {label}: {_maven_error(log_path)}", log=log_path)
        jars = [Path(p) for p in outfile.read_text().strip().split(":") if p]
        cache = self.config.cache_dir.resolve()
        outside = [p for p in jars if not p.resolve().is_relative_to(cache)]
        if outside:
            raise ArtifactError(f"Maven resolved {label} to {outside[0]}, outside the cache {cache}", log=log_path)
        manifest = {
            **job.manifest_extra,
            "jars": [{"path": str(p.resolve().relative_to(cache)), "size": p.stat().st_size, "sha256": sha256_of(p)}
                     for p in jars],
        }
        tmp = workdir / "manifest.tmp"
        tmp.write_text(json.dumps(manifest, indent=1))
        tmp.replace(workdir / "manifest.json")


def _jar_path(recorded: str, cache_dir: Path) -> Path | None:
    """Where a manifest's jar is: relative paths are under the cache; an absolute one only if still inside it."""
    path = Path(recorded)
    if not path.is_absolute():
        return None if ".." in path.parts else cache_dir / path
    return path if path.is_relative_to(cache_dir) else None


def _purge_damaged(manifest: Path, cache_dir: Path, maven_repo: Path) -> None:
    """Delete jars whose size or SHA-256 no longer match, so Maven downloads them again.

    Maven trusts what is in its local repository; a damaged jar left there
    would be re-recorded as good.
    """
    try:
        entries = json.loads(manifest.read_text())["jars"]
    except (OSError, ValueError, KeyError):
        return
    for entry in entries:
        path = _jar_path(entry["path"], cache_dir)
        if path is None or not path.is_relative_to(maven_repo):
            continue
        if path.is_file() and path.stat().st_size == entry["size"] and sha256_of(path) == entry["sha256"]:
            continue
        for sibling in (path, path.with_name(path.name + ".sha1"), path.with_name("_remote.repositories")):
            sibling.unlink(missing_ok=True)


def _maven_error(log_path: Path) -> str:
    errors = [line.strip() for line in log_path.read_text(errors="replace").splitlines()
              if line.startswith("[ERROR]") and len(line.strip()) > len("[ERROR]")]
    if not errors:
        return "no [ERROR] line in Maven's output"
    first = errors[0].removeprefix("[ERROR]").strip()
    return first[:300]
