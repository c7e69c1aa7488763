"""Client references (``wire``, ``wire@v5``, ``confluent``, ``java:4.4.0``, ``sarama:1.38.1@version=broker``,
``kafka-go:0.4.47@surface=conn``), parsed in one place: ``KIND[:RELEASE][@vN][@key=value...]``.

A reference names a point on the client axis.  It is checked before anything
boots: the kind must exist, a version must be a plain release (digits and
dots: it becomes part of cache paths, so nothing else may reach the file
system), and what the kind says of releases, pins, settings and surfaces
(``kcompat.harness.clients.kinds``).  Settings are written sorted by key and a
kind's default surface never, so one configuration has one spelling (and one
cell id); ``broker`` stays ``broker`` in the reference, one column across
brokers, and is resolved per cell (``settings_for``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..catalog import load_catalog
from ..errors import ConfigError
from .kinds import ClientKind, kind_names
from .kinds import kind as client_kind

# ASCII digits only: Python's \d and int() also take other scripts' digits (a fullwidth "４.4.0")
_REF = re.compile(r"^(?P<kind>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?::(?P<version>[^@]*))?$", re.ASCII)
_PIN = re.compile(r"v(\d+)", re.ASCII)
MAX_REF = 200
"""Characters a reference may have: a kind, a release and a few settings fit many times over."""
_RELEASE = re.compile(r"^\d+(?:\.\d+){1,3}$", re.ASCII)
SURFACE = "surface"
"""The reserved setting key that selects a kind's admin surface (``@surface=conn``)."""
BROKER = "broker"
"""A setting's value meaning the cell's broker release (for a setting that declares ``broker``)."""


@dataclass(frozen=True, order=True)
class ClientRef:
    kind: str
    version: str | None = None
    """kafka-clients release for java, confluent-kafka release for confluent (None: the installed one)."""
    pin: int | None = None
    """The wire client's request version, when pinned (``wire@v5``)."""
    settings: tuple[tuple[str, str], ...] = ()
    """The library's settings as written (``(("version", "broker"),)``), sorted by key; ``surface`` only when
    not the kind's default."""

    @classmethod
    def parse(cls, text: str) -> ClientRef:
        if len(text.strip()) > MAX_REF:
            raise ConfigError(f"client {text.strip()[:40]!r}... is {len(text.strip())} characters long; a client "
                              f"reference has at most {MAX_REF}")
        head, *parts = text.strip().split("@")
        match = _REF.match(head)
        pins = [_PIN.fullmatch(part) for part in parts if "=" not in part]
        if match is None or len(pins) > 1 or None in pins:
            raise ConfigError(f"client {text!r} is not KIND[:RELEASE][@vN][@key=value...] (wire, wire@v5, "
                              "confluent:2.0.2, java:4.4.0, sarama:1.38.1@version=broker)")
        kind, version = match["kind"], match["version"]
        if kind not in kind_names():
            raise ConfigError(f"unknown client kind {kind!r} in {text!r}; known: {', '.join(kind_names())}")
        declared = client_kind(kind)
        if version is not None and not _RELEASE.match(version):
            raise ConfigError(f"client {text!r}: {version!r} is not a release (digits and dots, e.g. 3.7.0)")
        settings = _settings(text, declared, [part for part in parts if "=" in part])
        if (declared.release == "none" and version is not None) or (declared.release == "required" and version is None):
            raise ConfigError(f"client {text!r}: {declared.release_note}")
        pin = next((int(found[1]) for found in pins if found is not None), None)
        if pin is not None and not declared.pinnable:
            pinnable = ", ".join(k for k in kind_names() if client_kind(k).pinnable)
            raise ConfigError(f"client {text!r}: only {pinnable} can be pinned to a request version")
        return cls(kind, version, pin, settings)

    @property
    def surface(self) -> str:
        """The admin surface it drives: the one named, else its kind's default."""
        return dict(self.settings).get(SURFACE) or client_kind(self.kind).surfaces[0]

    def settings_for(self, broker: str | None) -> dict[str, str]:
        """The settings as one cell runs them (its record's ``client_settings``): ``broker`` becomes the cell's
        broker release; with no broker (the stub broker measuring limits) the catalog's newest release, since
        the stub advertises every version as no real broker does."""
        declared = client_kind(self.kind).settings
        release = broker or str(load_catalog().newest())
        return {key: release if value == BROKER and key in declared and declared[key].broker else value
                for key, value in self.settings}

    def make_settings(self, broker: str | None) -> dict[str, object]:
        """What the kind's ``make`` receives: each setting typed (``settings_for``'s values) and ``surface``."""
        declared = client_kind(self.kind).settings
        typed: dict[str, object] = {key: declared[key].value(value)
                                    for key, value in self.settings_for(broker).items() if key != SURFACE}
        return {**typed, SURFACE: self.surface}

    def resolved(self) -> ClientRef:
        """A reference naming no release as the installed one (``confluent:2.16.1``), so a cell id names what ran."""
        installed = client_kind(self.kind).installed
        if self.version is None and installed is not None:
            return replace(self, version=installed())
        return self

    def pinned(self, version: int) -> ClientRef:
        return replace(self, pin=version)

    def __str__(self) -> str:
        text = self.kind if self.version is None else f"{self.kind}:{self.version}"
        text = text if self.pin is None else f"{text}@v{self.pin}"
        return text + "".join(f"@{key}={value}" for key, value in self.settings)


def _settings(text: str, declared: ClientKind, parts: list[str]) -> tuple[tuple[str, str], ...]:
    """A reference's ``key=value`` parts, checked against its kind's declarations, sorted, the default surface
    left out; each wrong one is one line naming what the kind takes."""
    found: dict[str, str] = {}
    for part in parts:
        key, _, value = part.partition("=")
        if not key or not value:
            raise ConfigError(f"client {text!r}: {part!r} is not key=value (neither may be empty)")
        _check_setting(text, declared, key, value)
        if found.setdefault(key, value) != value:
            raise ConfigError(f"client {text!r} sets {key} twice ({found[key]} and {value}): name one value")
    if found.get(SURFACE) == declared.surfaces[0]:
        del found[SURFACE]
    return tuple(sorted(found.items()))


def _check_setting(text: str, declared: ClientKind, key: str, value: str) -> None:
    if key == SURFACE:
        if value not in declared.surfaces:
            raise ConfigError(f"client {text!r}: {declared.name} has no surface {value!r}; its surfaces: "
                              f"{', '.join(declared.surfaces)}")
        return
    setting = declared.settings.get(key)
    if setting is None:
        names = f"; its settings: {', '.join(declared.settings)} (and" if declared.settings else \
            ": it has no settings (only"
        raise ConfigError(f"client {text!r}: {declared.name} has no setting {key!r}{names} @surface=, one of "
                          f"{', '.join(declared.surfaces)})")
    try:
        setting.value(value)
    except ConfigError as exc:
        raise ConfigError(f"client {text!r}: {exc}") from None


def parse_clients(texts: str | list[str] | tuple[str, ...]) -> tuple[ClientRef, ...]:
    """A comma-separated list (or a sequence) of references, deduplicated, in the order given."""
    items = texts.split(",") if isinstance(texts, str) else [t for item in texts for t in item.split(",")]
    refs = [ClientRef.parse(item) for item in items if item.strip()]
    if not refs:
        raise ConfigError("no client named (e.g. --clients wire,confluent,java:3.7.0)")
    return tuple(dict.fromkeys(refs))
