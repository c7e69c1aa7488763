"""The catalog's codec: every stable version of every API the catalog's releases define, as one view.

The stub broker advertises and answers through it, and the wire client
speaks through it, so neither stops where a library's schemas stop; a new
catalog release brings its versions with its jar.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from ..catalog import load_catalog
from ..config import HarnessConfig
from ..versions import KafkaVersion
from .codec import Codec
from .releases import Definitions, merge, release_definitions
from .schema import Message


FIRST_DEFINED = KafkaVersion.parse("2.2")
"""The first kafka-clients release whose jar carries ``common/message/*.json``."""


@functools.cache
def catalog_codec() -> Codec:
    """The definitions of two releases merged, oldest first (``merge``), each API under its newest name
    (ListOffset, ElectPreferredLeaders, AlterIsr and ListClientMetricsResources were renamed, same key): the
    newest release before Kafka 4.0, whose definitions hold every version an older release defines (no version
    was removed before KIP-896), and the catalog's newest release, which holds every later one.  Two jars rather
    than every line's: a cold cache fetches two, not twenty."""
    config = HarnessConfig.resolve()
    catalog = list(load_catalog())
    before_removals = [line for line in catalog if line.newest < KafkaVersion.parse("4.0")][-1:]
    found: list[Definitions] = []
    for line in (*before_removals, catalog[-1]):
        if line.newest < FIRST_DEFINED:
            continue  # its jar carries no definitions
        found.append(release_definitions(str(line.newest), config))  # a broken jar is an error, never skipped
    newest = {m.api_key: m.api for definitions in found for m in definitions.values() if m.api_key is not None}
    return Codec("catalog", {entry: m for entry, m in merge(found).items() if _current(m, newest)})


def _current(message: Message, newest: Mapping[int, str]) -> bool:
    return message.api_key is None or newest[message.api_key] == message.api


@functools.cache
def codec_versions() -> dict[int, list[int]]:
    """API key -> the request versions the codec speaks (once per process: the stub asks it per request)."""
    codec = catalog_codec()
    return {key: codec.versions(key) for key in codec.apis().values()}
