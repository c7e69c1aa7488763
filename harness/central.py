"""What Maven Central publishes, to keep the catalog's "newest" honest.

Reads ``maven-metadata.xml`` of ``org.apache.kafka:kafka_<scala>``; used by
``kcompat brokers check-catalog`` (nightly), never on a boot path.
"""

from __future__ import annotations

import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable

from .catalog import Catalog
from .errors import ArtifactError, UnknownVersionError
from .versions import KafkaVersion

METADATA_URL = "https://repo.maven.apache.org/maven2/org/apache/kafka/kafka_{scala}/maven-metadata.xml"


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
    url = METADATA_URL.format(scala=scala)
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
