"""One frozen configuration object, resolved once.

Precedence: explicit argument (CLI option or pytest ``--kc-*``/ini ``kc_*``,
already merged by the caller) > environment variable > default.  This is the
only module that reads ``KCOMPAT_*`` variables (``java.py`` looks at
``JAVA_HOME`` only to find runtimes on the machine).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

from .errors import ConfigError

ENV_PREFIX = "KCOMPAT_"


@dataclass(frozen=True)
class HarnessConfig:
    cache_dir: Path
    """Maven repository, resolved classpaths and downloaded JDKs live here."""
    run_root: Path
    """Each run gets ``<run_root>/<run id>/`` for configs, data and logs."""
    offline: bool = False
    """Use only the cache; never run Maven against the network."""
    maven: str = "mvn"
    boot_timeout: float = 180.0
    """Seconds a cluster may take from launch to ready before it is an error."""
    keep_data: bool = False
    """Keep broker data directories after teardown (logs are always kept)."""
    provider: str = "process"
    """How brokers run: ``process`` (local JVMs) or ``container`` (Docker, via testcontainers)."""
    reuse: bool = False
    """Container provider: leave clusters running for the next run with an identical spec."""
    images: str = ""
    """Container provider: existing images per version, ``3.7.0=apache/kafka:3.7.0,...``."""
    image_base: str = "offline"
    """Base of built images: ``offline`` (a local JDK, no registry) or ``registry`` (eclipse-temurin)."""
    pull: bool = False
    """Container provider: allow pulling an image that is not local (never needed for built images)."""

    @classmethod
    def resolve(cls, **given: Any) -> HarnessConfig:
        values: dict[str, Any] = {}
        for item in fields(cls):
            value = given.get(item.name)
            if value is None:
                value = os.environ.get(ENV_PREFIX + item.name.upper())
            if value is None:
                continue
            values[item.name] = _coerce(item.name, value)
        values.setdefault("cache_dir", Path(platformdirs.user_cache_dir("kcompat")))
        values.setdefault("run_root", Path(tempfile.gettempdir()) / "kcompat-runs")
        return cls(**values)


def _coerce(name: str, value: Any) -> Any:
    if name in ("cache_dir", "run_root"):
        return Path(value).expanduser().absolute()
    if name in ("offline", "keep_data", "reuse", "pull"):
        if isinstance(value, str):
            return value.strip().lower() in ("1", "true", "yes", "on")
        return bool(value)
    if name == "boot_timeout":
        return float(value)
    if name == "image_base" and value not in ("offline", "registry"):
        raise ConfigError(f"image_base is 'offline' or 'registry', not {value!r}")
    return value


def image_overrides(text: str) -> dict[str, str]:
    """``3.7.0=apache/kafka:3.7.0,2.8=my/kafka:2.8`` as {version or line: image}."""
    overrides = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        version, sep, image = item.partition("=")
        if not sep or not version.strip() or not image.strip():
            raise ConfigError(f"image override {item!r} is not VERSION=IMAGE (e.g. 3.7.0=apache/kafka:3.7.0)")
        overrides[version.strip()] = image.strip()
    return overrides
