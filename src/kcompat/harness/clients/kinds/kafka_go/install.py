"""The kafka-go adapter (``adapter/``: its ``kafka.Client``) built for one kafka-go release.

The module is ``github.com/segmentio/kafka-go``; its releases are 0.x, and the
reference names one as the proxy does without its ``v`` (``0.4.51``).  The
build is ``gomodule.build``'s: the installed Go, the module proxy, go.sum and
the checksum database, once per release into the cache.
"""

from __future__ import annotations

from pathlib import Path

from ....config import HarnessConfig
from ... import gomodule

LIBRARY = "kafka-go"
MODULE = "github.com/segmentio/kafka-go"
SOURCES = Path(__file__).resolve().parent / "adapter"
SHARED_SOURCES = (gomodule.KIT,)
"""What the program shares with the other Go adapters: its digest is part of the program's."""


def published(config: HarnessConfig) -> tuple[str, ...]:
    """The kafka-go releases the Go module proxy publishes (cached under ``config.cache_dir``)."""
    return gomodule.published(MODULE, config)


def check_release(release: str, config: HarnessConfig) -> str:
    """``release`` if published; else one line naming the nearest published releases."""
    return gomodule.check_release(LIBRARY, MODULE, release, config)


def install(release: str, config: HarnessConfig) -> tuple[list[str], dict[str, str]]:
    """The argv and extra environment that start the adapter for kafka-go ``release``, built once into
    ``config.cache_dir / "adapters" / "kafka-go-<release>"``."""
    check_release(release, config)
    binary = gomodule.build(LIBRARY, release, {MODULE: f"v{release}"}, SOURCES, config)
    return [str(binary)], {}
