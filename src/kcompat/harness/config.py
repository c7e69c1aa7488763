"""One frozen configuration object, resolved once, its settings declared once.

Each ``HarnessConfig`` field carries its ``Setting`` (field metadata): help,
choices, and from its name the environment variable (``KCOMPAT_BOOT_TIMEOUT``),
the CLI option (``--boot-timeout``), the pytest option (``--kc-boot-timeout``)
and ini key (``kc_boot_timeout``).  The CLI and the pytest plugin generate
their options from ``SETTINGS``; values are coerced by the field's type in one
place, so ``KCOMPAT_OFFLINE=false`` is off, ``maybe`` is an error naming the
variable, and a duration is a finite number of seconds above zero.

Precedence: explicit argument > option layers given by the caller (CLI option;
pytest ``--kc-*`` then ini ``kc_*``) > environment variable > default.  This is
the only module that reads ``KCOMPAT_*`` variables (``java.py`` looks at
``JAVA_HOME`` only to find runtimes on the machine).
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import Field, dataclass, field, fields
from pathlib import Path
from typing import Any, get_type_hints

from .errors import ConfigError

ENV_PREFIX = "KCOMPAT_"
MAX_OBSERVATIONS = 10
"""Most observations of one cell: every one re-runs the probe on the cell's cluster, so the bound is the cost."""
TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class Setting:
    """How one ``HarnessConfig`` field is named, documented and read from text."""

    name: str
    type: type
    help: str
    make_default: Callable[[], Any]
    """Made when asked: the cache directory's default imports platformdirs, which the pytest plugin, declaring
    the settings in every session of the environment, must not pay for."""
    choices: tuple[str, ...] = ()
    check: Callable[[Any], object] | None = None
    """Extra validation of the coerced value; raises ``ConfigError``."""

    @property
    def default(self) -> Any:
        return self.make_default()

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name.upper()

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def pytest_option(self) -> str:
        return "--kc-" + self.name.replace("_", "-")

    @property
    def ini(self) -> str:
        return "kc_" + self.name

    @property
    def is_flag(self) -> bool:
        return self.type is bool

    def coerce(self, value: Any, origin: str) -> Any:
        """``value`` (text from a variable, option or ini key, or a typed value) as this field's type."""
        coerced = _COERCE[self.type](self, value, origin)
        if self.choices and coerced not in self.choices:
            raise ConfigError(f"{origin}={value!r} is not one of {', '.join(self.choices)}")
        if self.check is not None:
            try:
                self.check(coerced)
            except ConfigError as exc:
                raise ConfigError(f"{origin}={value!r}: {exc}") from None
        return coerced


def _bool(setting: Setting, value: Any, origin: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE | FALSE:
        return text in TRUE
    raise ConfigError(f"{origin}={value!r} is not a boolean (true/false, 1/0, yes/no, on/off)")


def _seconds(setting: Setting, value: Any, origin: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{origin}={value!r} is not a number of seconds") from None
    if not math.isfinite(number) or number <= 0:
        raise ConfigError(f"{origin}={value!r}: a duration is a finite number of seconds above 0")
    return number


def _count(setting: Setting, value: Any, origin: str) -> int:
    """A whole number from 1 to ``MAX_OBSERVATIONS`` (text such as ``3``, or an int; never a bool)."""
    text = str(value).strip() if type(value) is not int else str(value)
    if type(value) is bool or not re.fullmatch(r"[0-9]{1,4}", text) or not 1 <= int(text) <= MAX_OBSERVATIONS:
        raise ConfigError(f"{origin}={value!r} is not a whole number from 1 to {MAX_OBSERVATIONS}")
    return int(text)


def _path(setting: Setting, value: Any, origin: str) -> Path:
    if not str(value).strip():
        raise ConfigError(f"{origin} is empty; it names a directory")
    return Path(value).expanduser().absolute()


def _str(setting: Setting, value: Any, origin: str) -> str:
    return str(value).strip()


_COERCE: dict[type, Callable[[Setting, Any, str], Any]] = {bool: _bool, float: _seconds, int: _count, Path: _path,
                                                          str: _str}


def setting(default: Any = None, *, help: str, choices: Sequence[str] = (),
            default_factory: Callable[[], Any] | None = None, check: Callable[[Any], object] | None = None) -> Any:
    """A dataclass field that carries what the CLI and the plugin need to offer it as a setting."""
    meta = {"help": help, "choices": tuple(choices), "check": check}
    if default_factory is not None:
        return field(default_factory=default_factory, metadata=meta)
    return field(default=default, metadata=meta)


def image_overrides(text: str) -> dict[str, str]:
    """``3.7.0=apache/kafka:3.7.0,2.8=my/kafka:2.8`` as {version or line: image}."""
    overrides = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        version, sep, image = item.partition("=")
        if not sep or not version.strip() or not image.strip():
            raise ConfigError(f"image override {item!r} is not VERSION=IMAGE (e.g. 3.7.0=apache/kafka:3.7.0)")
        overrides[version.strip()] = image.strip()
    return overrides


def _user_cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("kcompat"))


Layer = tuple[Callable[[Setting], str], Mapping[str, Any]]
"""Values given by the caller for some settings, and how to name a setting's origin in an error."""


@dataclass(frozen=True)
class HarnessConfig:
    cache_dir: Path = setting(help="Maven repository, resolved classpaths, JDKs and compiled plug-ins",
                              default_factory=_user_cache_dir)
    run_root: Path = setting(help="where run directories (configs, broker logs) go",
                             default_factory=lambda: Path(tempfile.gettempdir()) / "kcompat-runs")
    offline: bool = setting(False, help="use only the cache; never run Maven against the network")
    maven: str = setting("mvn", help="the Maven executable that resolves broker jars")
    boot_timeout: float = setting(180.0, help="seconds a cluster may take from launch to ready")
    adapter_deadline: float = setting(30.0, help="seconds an adapter gives one library call before it gives up "
                                                 "waiting (docs/ADAPTERS.md); a call that returns only then is "
                                                 "recorded as having reached it")
    stop_grace: float = setting(30.0, help="seconds a stopping broker gets for its controlled shutdown "
                                           "before it is killed")
    keep_data: bool = setting(False, help="keep broker data directories after teardown (logs are always kept)")
    class_sharing: bool = setting(True, help="start broker JVMs from class-data sharing archives kept in the "
                                             "cache, one per release, Java and main class (src/kcompat/harness/cds.py)")
    jit: str = setting("c1", choices=("c1", "tiered"),
                       help="the JIT of kcompat's JVMs (brokers, ZooKeeper, tools, Java sidecars): c1 compiles at "
                            "once, all a test broker's short, light life repays; tiered is the JVM's default "
                            "(C1, then C2 for hot code), for long-lived or loaded brokers")
    observations: int = setting(3, help="observations of a cell whose first observation deviates, in all "
                                        "(1: observe once); more than one tells a steady deviation from an "
                                        "intermittent one")
    provider: str = setting("process", help="how brokers run: process (local JVMs) or container (Docker)")
    reuse: bool = setting(False, help="containers: leave clusters running for the next run with an identical spec")
    images: str = setting("", help="containers: existing images per version, e.g. 3.7.0=apache/kafka:3.7.0",
                          check=image_overrides)
    image_base: str = setting("offline", choices=("offline", "registry"),
                              help="containers: base of built images, a local JDK (offline) or eclipse-temurin")
    pull: bool = setting(False, help="containers: allow pulling an image that is not on the engine")

    @classmethod
    def resolve(cls, layers: Sequence[Layer] = (), /, **given: Any) -> HarnessConfig:
        """Each setting from ``given``, else the first layer that has it, else its variable, else its default.

        ``None`` means "not given".  Every value is coerced by its setting, and
        an error names where the bad value came from.
        """
        ordered: list[Layer] = [(lambda s: s.name, given), *layers, (lambda s: s.env, os.environ)]
        values: dict[str, Any] = {}
        for item in SETTINGS:
            for origin, found in ordered:
                key = item.env if found is os.environ else item.name
                if (value := found.get(key)) is not None:
                    values[item.name] = item.coerce(value, origin(item))
                    break
        return cls(**values)


def _settings() -> tuple[Setting, ...]:
    hints = get_type_hints(HarnessConfig)
    found = []
    for item in fields(HarnessConfig):
        found.append(Setting(item.name, hints[item.name], item.metadata["help"], _default(item),
                             item.metadata["choices"], item.metadata["check"]))
    return tuple(found)


def _default(item: Field[Any]) -> Callable[[], Any]:
    if callable(item.default_factory):
        return item.default_factory
    return lambda: item.default



SETTINGS: tuple[Setting, ...] = _settings()
"""Every setting, in declaration order: what the CLI and the pytest plugin offer."""


def setting_named(name: str) -> Setting:
    """The setting of a ``HarnessConfig`` field: a command's own option for it coerces through it."""
    return next(item for item in SETTINGS if item.name == name)
