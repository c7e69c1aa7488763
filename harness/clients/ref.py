"""Client references (``wire``, ``wire@v5``, ``confluent``, ``confluent:2.0.2``, ``java:4.4.0``), parsed in one place.

A reference names a point on the client axis.  It is checked before anything
boots: the kind must exist, a version must be a plain release (digits and
dots: it becomes part of cache paths, so nothing else may reach the file
system), and only the wire probe can be pinned to a request version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version

from ..errors import ConfigError

KINDS = ("wire", "confluent", "java")
_REF = re.compile(r"^(?P<kind>[a-z]+)(?::(?P<version>[^@]*))?(?:@v(?P<pin>\d+))?$")
_RELEASE = re.compile(r"^\d+(?:\.\d+){1,3}$")


@dataclass(frozen=True, order=True)
class ClientRef:
    kind: str
    version: str | None = None
    """kafka-clients release for java, confluent-kafka release for confluent (None: the installed one)."""
    pin: int | None = None
    """The wire probe's request version, when pinned (``wire@v5``)."""

    @classmethod
    def parse(cls, text: str) -> ClientRef:
        raw = text.strip()
        match = _REF.match(raw)
        if match is None:
            raise ConfigError(f"client {text!r} is not KIND[:RELEASE] (wire, wire@v5, confluent, "
                              "confluent:2.0.2, java:4.4.0)")
        kind, version, pin = match["kind"], match["version"], match["pin"]
        if kind not in KINDS:
            raise ConfigError(f"unknown client kind {kind!r} in {text!r}; known: {', '.join(KINDS)}")
        if version is not None and not _RELEASE.match(version):
            raise ConfigError(f"client {text!r}: {version!r} is not a release (digits and dots, e.g. 3.7.0)")
        if kind == "wire" and version is not None:
            raise ConfigError(f"client {text!r}: the wire probe has no release to choose (its schemas are kio's); "
                              "pin a request version with wire@vN instead")
        if kind == "java" and version is None:
            raise ConfigError(f"client {text!r}: the java client needs a kafka-clients release, e.g. java:4.4.0")
        if pin is not None and kind != "wire":
            raise ConfigError(f"client {text!r}: only the wire probe can be pinned to a request version")
        return cls(kind, version, None if pin is None else int(pin))

    def resolved(self) -> ClientRef:
        """``confluent`` as the installed release (``confluent:2.16.1``), so a cell id names what ran."""
        if self.kind == "confluent" and self.version is None:
            return replace(self, version=installed_confluent())
        return self

    def pinned(self, version: int) -> ClientRef:
        return replace(self, pin=version)

    def __str__(self) -> str:
        text = self.kind if self.version is None else f"{self.kind}:{self.version}"
        return text if self.pin is None else f"{text}@v{self.pin}"


def installed_confluent() -> str:
    try:
        return dist_version("confluent-kafka")
    except PackageNotFoundError:
        raise ConfigError("confluent-kafka is not installed here; install it (pip install confluent-kafka) "
                          "or name a release (confluent:2.16.1) for kcompat to install") from None


def parse_clients(texts: str | list[str] | tuple[str, ...]) -> tuple[ClientRef, ...]:
    """A comma-separated list (or a sequence) of references, deduplicated, in the order given."""
    items = texts.split(",") if isinstance(texts, str) else [t for item in texts for t in item.split(",")]
    refs = [ClientRef.parse(item) for item in items if item.strip()]
    if not refs:
        raise ConfigError("no client named (e.g. --clients wire,confluent,java:3.7.0)")
    return tuple(dict.fromkeys(refs))
