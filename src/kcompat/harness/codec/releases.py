"""Each kafka-clients release's message definitions, keyed by release.

The definitions ship inside the kafka-clients jar (``common/message/*.json``,
since 2.2), the same jar the Java sidecar runs, so a catalog release brings
its versions with it.  A version a release marks ``latestVersionUnstable`` may
change before it ships: it belongs to that release alone, and ``merge`` never
takes it into another release's view.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from ..artifacts import ArtifactStore
from ..config import HarnessConfig
from .schema import Message, parse_message
from .wire import CodecError

DEFINITION = re.compile(r"common/message/(\w+)\.json")

Definitions = Mapping[str, Message]
"""A release's definitions by file name (``CreateTopicsRequest``)."""


def read_jar(jar: Path, release: str) -> dict[str, Message]:
    """Every definition file of a kafka-clients jar (binary or sources: both carry them)."""
    try:
        with zipfile.ZipFile(jar) as archive:
            found = {m.group(1): parse_message(archive.read(name).decode(), release, name)
                     for name in sorted(archive.namelist()) if (m := DEFINITION.fullmatch(name))}
    except (OSError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        raise CodecError(f"kafka-clients {release}: can't read {jar}: {exc}") from exc
    if not found:
        raise CodecError(f"kafka-clients {release}'s jar {jar.name} carries no message definitions "
                         "(common/message/*.json arrived in 2.2)")
    return found


@lru_cache(maxsize=None)
def _jar_definitions(jar: Path, release: str) -> Mapping[str, Message]:
    return read_jar(jar, release)


def release_definitions(release: str, config: HarnessConfig) -> Mapping[str, Message]:
    """``release``'s definitions, from its kafka-clients jar in the artifact cache (Maven Central on first use)."""
    jars = ArtifactStore(config).resolve_client(release)
    jar = next((j for j in jars if j.name == f"kafka-clients-{release}.jar"), None)
    if jar is None:
        raise CodecError(f"Maven resolved no kafka-clients-{release}.jar")
    return _jar_definitions(jar, release)


def merge(releases: Iterable[Mapping[str, Message]]) -> dict[tuple[str, int], Message]:
    """(file name, version) -> the definition to use: the newest release that ships that version as stable.

    ``releases`` go oldest first.  A version some release marks unstable is left
    out unless a later release ships it stable: the unstable one is reached only
    through that release's own ``Codec``.
    """
    chosen: dict[tuple[str, int], Message] = {}
    for definitions in releases:
        for name, message in definitions.items():
            for version in message.versions():
                if version not in message.unstable():
                    chosen[(name, version)] = message
    return chosen
