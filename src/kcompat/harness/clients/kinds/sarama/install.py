"""The sarama adapter (``adapter/``: its ClusterAdmin) built for one sarama release.

The module is ``github.com/IBM/sarama`` (the ``Shopify/sarama`` path before
1.40 is another module, not served here).  The Kafka version sarama assumes
(``Config.Version``) is chosen in the program once per release and reported in
its ready line (``adapter/main.go`` says why: ``sarama.MaxVersion`` from 1.46.0,
whose requests follow each broker's ApiVersions, ``sarama.DefaultVersion``
before).
"""

from __future__ import annotations

from pathlib import Path

from ....config import HarnessConfig
from ... import gomodule

LIBRARY = "sarama"
MODULE = "github.com/IBM/sarama"
SOURCES = Path(__file__).resolve().parent / "adapter"
SHARED_SOURCES = (gomodule.KIT,)
"""What the program shares with the other Go adapters: its digest is part of the program's."""


def published(config: HarnessConfig) -> tuple[str, ...]:
    """The sarama releases the Go module proxy publishes (cached under ``config.cache_dir``)."""
    return gomodule.published(MODULE, config)


def check_release(release: str, config: HarnessConfig) -> str:
    """``release`` if published; else one line naming the nearest published releases."""
    return gomodule.check_release(LIBRARY, MODULE, release, config)


def install(release: str, config: HarnessConfig) -> tuple[list[str], dict[str, str]]:
    """The argv and extra environment that start the adapter for sarama ``release``, built once into
    ``config.cache_dir / "adapters" / "sarama-<release>"``."""
    check_release(release, config)
    binary = gomodule.build(LIBRARY, release, {MODULE: f"v{release}"}, SOURCES, config)
    return [str(binary)], {}
