"""kcompat's harness: real Kafka brokers at many versions, and the clients that drive them.

The public surface is re-exported here (imported on first use); modules behind it are free to move.
This package imports nothing from ``fixtures``, ``scenarios`` or ``reports``.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalog import BrokerLine, BrokerRelease, Catalog, load_catalog
    from .config import HarnessConfig
    from .errors import (
        ArtifactError,
        BootError,
        ConfigError,
        HarnessError,
        JavaError,
        PortError,
        UnknownVersionError,
        WireError,
    )
    from .spec import ClusterSpec, SaslSpec
    from .versions import KafkaVersion

_HOMES = {"BrokerLine": ".catalog", "BrokerRelease": ".catalog", "Catalog": ".catalog", "load_catalog": ".catalog",
          "HarnessConfig": ".config", "ClusterSpec": ".spec", "SaslSpec": ".spec", "KafkaVersion": ".versions",
          **dict.fromkeys(["ArtifactError", "BootError", "ConfigError", "HarnessError", "JavaError", "PortError",
                           "UnknownVersionError", "WireError"], ".errors")}


def __getattr__(name: str) -> Any:
    """Imported when first asked: importing one module (``kcompat.harness.config`` for the pytest plugin's options)
    must not load the catalog, the versions and what they import."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_HOMES[name], __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "ArtifactError",
    "BootError",
    "BrokerLine",
    "BrokerRelease",
    "Catalog",
    "ClusterSpec",
    "ConfigError",
    "HarnessConfig",
    "HarnessError",
    "JavaError",
    "KafkaVersion",
    "PortError",
    "SaslSpec",
    "UnknownVersionError",
    "WireError",
    "load_catalog",
]
