"""API keys by name, known before any kafka-clients jar is cached.

A claim book names its APIs (``CreateTopics``) and must load offline, on a
fresh cache, before anything is fetched; so the names the catalog's
definitions give are kept beside the codec (``api_names.json``, written by
``scripts/api_names.py`` and checked against the definitions by the unit
tests).  A key the file lacks (a release newer than the file) is looked up in
the definitions themselves.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

NAMES_FILE = Path(__file__).with_name("api_names.json")


@functools.cache
def known_names() -> dict[int, str]:
    """API key -> Kafka's name, as the checked-in file has them."""
    return {int(key): name for key, name in json.loads(NAMES_FILE.read_text())["apis"].items()}
