"""The sarama adapter (``adapter/``: its ClusterAdmin) built for one sarama release.

The module is ``github.com/IBM/sarama`` from 1.40; the releases before are the
module ``github.com/Shopify/sarama``, the same library under its old path.  The
adapter's sources import the new path; a Shopify-path release is built with a
go.mod ``replace`` of the new path by the old one at that release (one program,
no rewritten sources; the binary's build info names the replacement's release).
ClusterAdmin's API grew at compile time: before ``API_SINCE`` the build sets the
``sarama_pre160`` tag, which swaps ``adapter/modern.go`` (what 1.60 added, and
the three calls older releases lack) for ``adapter/legacy.go``, written against
1.38.1, the oldest release the adapter builds with (``OLDEST``).  The Kafka version sarama assumes
(``Config.Version``) is chosen in the program once per release and reported in
its ready line (``adapter/main.go`` says why: ``sarama.MaxVersion`` from 1.46.0,
whose requests follow each broker's ApiVersions, ``sarama.DefaultVersion``
before).
"""

from __future__ import annotations

from pathlib import Path

from ....config import HarnessConfig
from ....errors import ConfigError
from ... import gomodule

LIBRARY = "sarama"
MODULE = "github.com/IBM/sarama"
OLD_MODULE = "github.com/Shopify/sarama"
MOVED = (1, 40, 0)
"""The first release under ``MODULE``; the ones before are ``OLD_MODULE``'s."""
API_SINCE = (1, 60, 0)
"""The first release with DescribeConfigs' options, the API ``adapter/modern.go`` is written against."""
OLDEST = "1.38.1"
"""The oldest release ``adapter/legacy.go`` builds with: an older one is refused before anything boots."""
LEGACY_TAG = "sarama_pre160"
SOURCES = Path(__file__).resolve().parent / "adapter"
SHARED_SOURCES = (gomodule.KIT,)
"""What the program shares with the other Go adapters: its digest is part of the program's."""


def module_of(release: str) -> str:
    """The module path ``release`` is published under."""
    return MODULE if gomodule.release_key(release) >= MOVED else OLD_MODULE


def published(config: HarnessConfig) -> tuple[str, ...]:
    """The sarama releases the Go module proxy publishes under either path (cached under ``config.cache_dir``)."""
    return tuple(sorted({*gomodule.published(OLD_MODULE, config), *gomodule.published(MODULE, config)},
                        key=gomodule.release_key))


def check_release(release: str, config: HarnessConfig) -> str:
    """``release`` if published (under its module path) and the adapter builds with it; else one line saying
    which to name."""
    if gomodule.release_key(release) < gomodule.release_key(OLDEST):
        raise ConfigError(f"the sarama adapter builds with sarama {OLDEST} or newer; {release} is older "
                          f"(its ClusterAdmin lacks calls the adapter makes): name {OLDEST} or newer")
    return gomodule.check_release(LIBRARY, module_of(release), release, config)


def install(release: str, config: HarnessConfig) -> tuple[list[str], dict[str, str]]:
    """The argv and extra environment that start the adapter for sarama ``release``, built once into
    ``config.cache_dir / "adapters" / "sarama-<release>"``."""
    check_release(release, config)
    key = gomodule.release_key(release)
    moved = {} if key >= MOVED else {MODULE: f"{OLD_MODULE} v{release}"}
    tags = () if key >= API_SINCE else (LEGACY_TAG,)
    binary = gomodule.build(LIBRARY, release, {MODULE: f"v{release}"}, SOURCES, config, replace=moved, tags=tags)
    return [str(binary)], {}
