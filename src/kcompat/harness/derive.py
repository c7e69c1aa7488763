"""A catalog entry derived from a Kafka release's own jars, for a release the catalog lacks.

``kcompat brokers check-catalog --derive`` prints one for each new release on
Maven Central, and ``kcompat run --brokers X.Y.Z`` runs such a release with
one.  The derivation reads only jars (a list, or a directory holding them), so
a local build's jars derive the same way as Maven Central's:

* the version: ``kafka/kafka-version.properties`` of the kafka-clients jar;
* the Scala suffix: the broker jar's name (``kafka_2.13-4.5.0.jar``);
* the Java: the newest class-file version among the jars' classes (what the
  release needs at least), as the catalog's convention lists it
  (``JAVA_CONVENTION``); a new patch of a line the catalog has keeps the
  line's Java unless its classes need a newer one;
* the modes: from the version (KRaft only from 4.0, both from 3.3);
* what is added to or left out of the classpath: the line's own, if the
  catalog has the line; a new line has neither.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from .catalog import BrokerLine, Catalog, Mode
from .central import download_file, fetch_metadata, published_scala
from .config import HarnessConfig
from .errors import ArtifactError, UnknownVersionError
from .versions import KafkaVersion

CLASS_JAVA = {52: 8, 53: 9, 54: 10, 55: 11, 61: 17, 65: 21}
"""A class file's major version -> the Java feature release that compiled it."""
JAVA_CONVENTION: dict[int, tuple[int, ...]] = {8: (17, 11), 11: (17, 11), 17: (17, 21), 21: (21,)}
"""The Java a release needs at least -> the catalog's ``java`` for it, preferred first: the 3.x lines (built for
8) run on 17 or 11, the 4.x lines (brokers built for 17) on 17 or 21."""
VERSION_FILE = "kafka/kafka-version.properties"
_BROKER_JAR = re.compile(r"kafka_(\d+\.\d+)-.+\.jar")
_CLIENTS_JAR = re.compile(r"kafka-clients-.+\.jar")
_PLAIN = re.compile(r"\d+(\.\d+){2,3}")


def jars_in(paths: Sequence[Path]) -> list[Path]:
    """The jars named, a directory standing for the jars directly in it."""
    found: list[Path] = []
    for path in paths:
        found += sorted(path.glob("*.jar")) if path.is_dir() else [path]
    return found


def class_major(jar: Path) -> int:
    """The newest class-file major version among a jar's classes (its multi-release variants left out)."""
    newest = 0
    with _open(jar) as archive:
        for name in archive.namelist():
            if name.endswith(".class") and not name.startswith("META-INF/") and name != "module-info.class":
                with archive.open(name) as member:
                    head = member.read(8)
                if head[:4] == b"\xca\xfe\xba\xbe":
                    newest = max(newest, int.from_bytes(head[6:8], "big"))
    if not newest:
        raise ArtifactError(f"{jar}: holds no class file")
    return newest


def jar_version(jar: Path) -> KafkaVersion:
    """The release a kafka-clients jar says it is (``version=`` in its kafka-version.properties)."""
    with _open(jar) as archive:
        try:
            text = archive.read(VERSION_FILE).decode("utf-8", "replace")
        except KeyError:
            raise ArtifactError(f"{jar}: has no version ({VERSION_FILE} is missing)") from None
    found = re.search(r"^version=(.+)$", text, re.MULTILINE)
    if found is None:
        raise ArtifactError(f"{jar}: has no version (no version= in {VERSION_FILE})")
    try:
        return KafkaVersion.parse(found[1].strip())
    except UnknownVersionError as exc:
        raise ArtifactError(f"{jar}: version {found[1].strip()!r} is not a release ({exc})") from None


def _open(jar: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(jar)
    except (OSError, zipfile.BadZipFile) as exc:
        raise ArtifactError(f"{jar}: can't be read as a jar ({exc})") from None


def modes_of(version: KafkaVersion) -> tuple[Mode, ...]:
    """The metadata modes the harness boots a release in (see catalog.toml)."""
    if not version.supports("zookeeper"):
        return ("kraft",)
    return ("zk", "kraft") if version.supports("kraft") else ("zk",)


def java_needed(jar: Path) -> int:
    """The Java feature release a jar's newest class file was compiled for."""
    major = class_major(jar)
    return CLASS_JAVA.get(major, major - 44)


def java_of(needed: int, jar: Path) -> tuple[int, ...]:
    """The catalog's ``java`` for a release that needs Java ``needed`` (``jar`` the one that needs it)."""
    for floor in sorted(JAVA_CONVENTION):  # a release built for 9 runs as one built for 11 does
        if floor >= needed:
            return JAVA_CONVENTION[floor]
    runs = sorted({java for listed in JAVA_CONVENTION.values() for java in listed})
    raise ArtifactError(f"{jar}: its classes need Java {needed}; kcompat runs brokers on "
                        f"{', '.join(map(str, runs))}")


def derive_line(paths: Sequence[Path], catalog: Catalog) -> BrokerLine:
    """The catalog entry of the release whose kafka-clients and broker jars are among ``paths``."""
    jars = jars_in(paths)
    clients = _one(jars, _CLIENTS_JAR, "kafka-clients", paths)
    broker = _one(jars, _BROKER_JAR, "broker (kafka_<scala>)", paths)
    version = jar_version(clients)
    needed = {jar: java_needed(jar) for jar in (clients, broker)}
    newest = max(needed, key=lambda jar: needed[jar])
    known = next((line for line in catalog if line.line.line == version.line), None)
    java = known.java if known and needed[newest] <= max(known.java) else java_of(needed[newest], newest)
    return BrokerLine(line=KafkaVersion.parse(version.line), newest=version,
                      scala=broker.name.removeprefix("kafka_").split("-", 1)[0], modes=modes_of(version),
                      java=java, exclude=known.exclude if known else (), add=known.add if known else ())


def _one(jars: Sequence[Path], pattern: re.Pattern[str], what: str, paths: Sequence[Path]) -> Path:
    matching = [jar for jar in jars if pattern.fullmatch(jar.name)]
    if not matching:
        raise ArtifactError(f"no {what} jar among {', '.join(map(str, paths))}")
    return matching[0]


Download = Callable[[str, Path], None]
"""Writes the file at a URL to a path (ArtifactError when it can't)."""
JAR_URL = "https://repo.maven.apache.org/maven2/org/apache/kafka/{artifact}/{version}/{artifact}-{version}.jar"


def central_jars(version: KafkaVersion, scala: str, directory: Path, download: Download) -> list[Path]:
    """The kafka-clients and ``kafka_<scala>`` jars of a release from Maven Central, kept in ``directory``."""
    jars = []
    for artifact in ("kafka-clients", f"kafka_{scala}"):
        jar = directory / f"{artifact}-{version}.jar"
        if not jar.is_file():
            directory.mkdir(parents=True, exist_ok=True)
            partial = jar.with_name(jar.name + ".part")
            download(JAR_URL.format(artifact=artifact, version=version), partial)
            partial.replace(jar)
        jars.append(jar)
    return jars


def derive_published(version: KafkaVersion, catalog: Catalog, cache_dir: Path, fetch: Callable[[str], str],
                     download: Download) -> BrokerLine | None:
    """The entry of a release Maven Central publishes (its jars kept in the cache); None when it has none."""
    try:
        scala = published_scala(version, catalog, fetch)
    except ArtifactError:  # Maven Central can't be asked: the release stays one the catalog lacks
        return None
    if scala is None:
        return None
    directory = cache_dir / "central" / "releases" / str(version)
    try:
        line = derive_line(central_jars(version, scala, directory, download), catalog)
        if line.newest != version:
            raise ArtifactError(f"Maven Central's kafka-clients {version} says it is {line.newest} "
                                f"({directory / f'kafka-clients-{version}.jar'})")
    except ArtifactError:
        shutil.rmtree(directory, ignore_errors=True)  # a download gone wrong is not kept for the next try
        raise
    return line


def derived_for(texts: Sequence[str], catalog: Catalog, config: HarnessConfig,
                fetch: Callable[[str], str] = fetch_metadata, download: Download = download_file) -> list[BrokerLine]:
    """An entry for each exact release in ``texts`` the catalog lacks and Maven Central publishes.

    Any other name (a line, a release nobody publishes, any name offline) is left to ``Catalog.release``
    and its one-line error.
    """
    lines = []
    for text in texts:
        try:
            catalog.release(text)
            continue
        except UnknownVersionError:
            pass
        version = KafkaVersion.parse(text) if _PLAIN.fullmatch(text) else None
        if version is None or version.is_line or config.offline:
            continue
        line = derive_published(version, catalog, config.cache_dir, fetch, download)
        if line is not None:
            lines.append(line)
    return lines


def used_note(line: BrokerLine) -> str:
    """What a run says of a release it runs with a derived entry."""
    return (f"Kafka {line.newest} is not in the catalog: this run uses the entry derived from its jars "
            f"(kafka_{line.scala}, modes {','.join(line.modes)}, Java {' or '.join(map(str, line.java))})")
