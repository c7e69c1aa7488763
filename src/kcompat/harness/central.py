"""What Maven Central publishes: to keep the catalog's "newest" honest, and to check a client release.

Reads ``maven-metadata.xml`` of ``org.apache.kafka:kafka_<scala>`` for
``kcompat brokers check-catalog`` (nightly, never on a boot path), and of
``org.apache.kafka:kafka-clients`` for ``check_client_release``, which runs
before anything boots so that a release nobody publishes is one line, not a
Maven run and cache entries.  That list is kept in the cache and read again
only when it lacks the release asked for (never with ``--offline``).
"""

from __future__ import annotations

import os
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from .artifacts import ArtifactStore
from .catalog import Catalog
from .config import HarnessConfig
from .errors import ArtifactError, ConfigError, UnknownVersionError
from .versions import KafkaVersion

METADATA_URL = "https://repo.maven.apache.org/maven2/org/apache/kafka/kafka_{scala}/maven-metadata.xml"
CLIENTS_METADATA_URL = "https://repo.maven.apache.org/maven2/org/apache/kafka/kafka-clients/maven-metadata.xml"


def parse_metadata(xml_text: str) -> list[KafkaVersion]:
    """Plain releases listed in a maven-metadata.xml (betas and RCs are left out)."""
    versions = []
    for node in ET.fromstring(xml_text).iter("version"):
        try:
            versions.append(KafkaVersion.parse(node.text or ""))
        except UnknownVersionError:
            continue
    return sorted(versions)


def fetch_metadata(scala: str) -> str:
    return _read(METADATA_URL.format(scala=scala))


def _read(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            text: str = response.read().decode()
            return text
    except OSError as exc:
        raise ArtifactError(f"can't read {url}: {exc}") from exc


def catalog_drift(catalog: Catalog, fetch: Callable[[str], str] = fetch_metadata) -> list[str]:
    """One line per catalog entry that Maven Central has moved past."""
    published: dict[str, list[KafkaVersion]] = {}
    for scala in sorted({line.scala for line in catalog} | {catalog.lines[-1].scala}):
        published[scala] = parse_metadata(fetch(scala))
    drift = []
    for line in catalog:
        patches = [v for v in published[line.scala] if v.line == line.line.line]
        if not patches:
            drift.append(f"{line.line.line}: Maven Central has no kafka_{line.scala} release of this line")
        elif patches[-1] > line.newest:
            drift.append(f"{line.line.line}: newest is {patches[-1]}, the catalog says {line.newest}")
    known = {line.line.line for line in catalog}
    newest_scala = catalog.lines[-1].scala
    for version in published[newest_scala]:
        if version > catalog.lines[-1].newest and version.line not in known:
            drift.append(f"{version.line}: a new line on Maven Central ({version}), not in the catalog")
            known.add(version.line)
    return drift


def new_releases(catalog: Catalog, fetch: Callable[[str], str] = fetch_metadata) -> list[KafkaVersion]:
    """The newest release of each line that Maven Central has and the catalog lacks: a newer patch of a line,
    or a line past the catalog's newest."""
    published = {v for scala in sorted({line.scala for line in catalog}) for v in parse_metadata(fetch(scala))}
    newest: dict[str, KafkaVersion] = {}
    for version in sorted(published):
        newest[version.line] = version
    known = {line.line.line: line.newest for line in catalog}
    past = catalog.lines[-1].line
    return [v for line, v in sorted(newest.items(), key=lambda item: item[1])
            if (line in known and v > known[line]) or (line not in known and v > past)]


def published_scala(version: KafkaVersion, catalog: Catalog,
                    fetch: Callable[[str], str] = fetch_metadata) -> str | None:
    """The Scala suffix of the broker jar Maven Central publishes ``version`` under (the newest of the
    catalog's suffixes that has it), or None when no suffix has it."""
    for scala in sorted({line.scala for line in catalog}, key=KafkaVersion.parse, reverse=True):
        if version in parse_metadata(fetch(scala)):
            return scala
    return None


def download_file(url: str, path: Path) -> None:
    """The file at ``url`` written to ``path``."""
    try:
        with urllib.request.urlopen(url, timeout=120) as response, path.open("wb") as out:
            while chunk := response.read(1 << 20):
                out.write(chunk)
    except OSError as exc:
        raise ArtifactError(f"can't read {url}: {exc}") from exc


def _clients_metadata_path(config: HarnessConfig) -> Path:
    return config.cache_dir / "central" / "kafka-clients-maven-metadata.xml"


def _published_clients(config: HarnessConfig, fetch: Callable[[str], str], *, refresh: bool) -> list[KafkaVersion] | None:
    """kafka-clients releases on Maven Central: the cached list, or (``refresh``, online) a fresh one, cached."""
    cached = _clients_metadata_path(config)
    if refresh and not config.offline:
        text = fetch(CLIENTS_METADATA_URL)
        parse_metadata(text)  # refuse to cache what isn't a metadata file
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        partial.write_text(text)
        partial.replace(cached)
        return parse_metadata(text)
    try:
        return parse_metadata(cached.read_text())
    except (OSError, ET.ParseError):
        return None


def published_clients(config: HarnessConfig) -> list[KafkaVersion]:
    """The kafka-clients releases Maven Central publishes, as last cached (empty when never fetched)."""
    return _published_clients(config, _read, refresh=False) or []


def nearest_releases(version: str, published: list[KafkaVersion], count: int = 2) -> list[KafkaVersion]:
    """Up to ``count`` published releases either side of ``version``, nearest first on each side."""
    wanted = KafkaVersion.parse(version)
    below = [v for v in published if v < wanted][-count:]
    above = [v for v in published if v > wanted][:count]
    return [*below, *above]


def check_client_release(version: str, config: HarnessConfig, fetch: Callable[[str], str] = _read) -> str:
    """``version`` if Maven Central publishes kafka-clients at it; else a one-line ``ConfigError``.

    A release already in the artifact cache needs no look-up.  Offline, the
    cached list decides; without one, the release passes here and the artifact
    cache says whether it holds it.
    """
    if ArtifactStore(config).has_client(version):  # also refuses what is not a plain release
        return version
    for refresh in (False, True):
        published = _published_clients(config, fetch, refresh=refresh)
        if published is not None and KafkaVersion.parse(version) in published:
            return version
        if config.offline:
            break
    if published is None:
        return version
    near = ", ".join(map(str, nearest_releases(version, published))) or "none"
    raise ConfigError(f"Maven Central publishes no kafka-clients {version}; nearest releases: {near}")
