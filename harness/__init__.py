"""kcompat's harness: real Kafka brokers at many versions, and the clients that drive them.

The public surface is re-exported here; modules behind it are free to move.
This package imports nothing from ``fixtures``, ``scenarios`` or ``reports``.
"""

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
