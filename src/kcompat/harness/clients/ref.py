"""Client references (``wire``, ``wire@v5``, ``confluent``, ``confluent:2.0.2``, ``java:4.4.0``), parsed in one place.

A reference names a point on the client axis.  It is checked before anything
boots: the kind must exist, a version must be a plain release (digits and
dots: it becomes part of cache paths, so nothing else may reach the file
system), and what the kind says of releases and pins (``kcompat.harness.clients.kinds``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import ConfigError
from .kinds import kind as client_kind
from .kinds import kind_names

# ASCII digits only: Python's \d and int() also take other scripts' digits (a fullwidth "４.4.0")
_REF = re.compile(r"^(?P<kind>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?::(?P<version>[^@]*))?(?:@v(?P<pin>\d+))?$", re.ASCII)
_RELEASE = re.compile(r"^\d+(?:\.\d+){1,3}$", re.ASCII)


@dataclass(frozen=True, order=True)
class ClientRef:
    kind: str
    version: str | None = None
    """kafka-clients release for java, confluent-kafka release for confluent (None: the installed one)."""
    pin: int | None = None
    """The wire client's request version, when pinned (``wire@v5``)."""

    @classmethod
    def parse(cls, text: str) -> ClientRef:
        raw = text.strip()
        match = _REF.match(raw)
        if match is None:
            raise ConfigError(f"client {text!r} is not KIND[:RELEASE] (wire, wire@v5, confluent, "
                              "confluent:2.0.2, java:4.4.0)")
        kind, version, pin = match["kind"], match["version"], match["pin"]
        if kind not in kind_names():
            raise ConfigError(f"unknown client kind {kind!r} in {text!r}; known: {', '.join(kind_names())}")
        declared = client_kind(kind)
        if version is not None and not _RELEASE.match(version):
            raise ConfigError(f"client {text!r}: {version!r} is not a release (digits and dots, e.g. 3.7.0)")
        if (declared.release == "none" and version is not None) or (declared.release == "required" and version is None):
            raise ConfigError(f"client {text!r}: {declared.release_note}")
        if pin is not None and not declared.pinnable:
            pinnable = ", ".join(k for k in kind_names() if client_kind(k).pinnable)
            raise ConfigError(f"client {text!r}: only {pinnable} can be pinned to a request version")
        return cls(kind, version, None if pin is None else int(pin))

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
        return text if self.pin is None else f"{text}@v{self.pin}"


def parse_clients(texts: str | list[str] | tuple[str, ...]) -> tuple[ClientRef, ...]:
    """A comma-separated list (or a sequence) of references, deduplicated, in the order given."""
    items = texts.split(",") if isinstance(texts, str) else [t for item in texts for t in item.split(",")]
    refs = [ClientRef.parse(item) for item in items if item.strip()]
    if not refs:
        raise ConfigError("no client named (e.g. --clients wire,confluent,java:3.7.0)")
    return tuple(dict.fromkeys(refs))
