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
    if name in ("offline", "keep_data"):
        if isinstance(value, str):
            return value.strip().lower() in ("1", "true", "yes", "on")
        return bool(value)
    if name == "boot_timeout":
        return float(value)
    return value
