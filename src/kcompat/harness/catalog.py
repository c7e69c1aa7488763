"""The catalog of supported broker lines, loaded from ``catalog.toml``.

The data file is the single source of which versions exist for the harness;
``pytest_generate_tests``, the CLI and the docs all read it through here.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, cast

from .errors import UnknownVersionError
from .versions import KafkaVersion

Mode = Literal["zk", "kraft"]
MODES: tuple[Mode, ...] = ("zk", "kraft")


@dataclass(frozen=True)
class Exclusion:
    group: str
    artifact: str
    reason: str


@dataclass(frozen=True)
class Addition:
    coordinate: str
    reason: str


@dataclass(frozen=True)
class BrokerLine:
    """One release line (``3.9``) and how the harness runs it."""

    line: KafkaVersion
    newest: KafkaVersion
    scala: str
    modes: tuple[Mode, ...]
    java: tuple[int, ...]
    exclude: tuple[Exclusion, ...] = ()
    add: tuple[Addition, ...] = ()

    @property
    def default_mode(self) -> Mode:
        return "kraft" if "kraft" in self.modes else "zk"


@dataclass(frozen=True)
class BrokerRelease:
    """An exact broker version together with the line it belongs to."""

    version: KafkaVersion
    line: BrokerLine

    @property
    def maven_coordinate(self) -> str:
        return f"org.apache.kafka:kafka_{self.line.scala}:{self.version}"

    def __str__(self) -> str:
        return str(self.version)


@dataclass(frozen=True)
class JavaClientRelease:
    """A kafka-clients release on the client axis, and why it is there."""

    version: KafkaVersion
    reason: str


class Catalog:
    def __init__(self, lines: list[BrokerLine], java_clients: list[JavaClientRelease] | None = None):
        self.lines: tuple[BrokerLine, ...] = tuple(sorted(lines, key=lambda entry: entry.line))
        self.java_clients: tuple[JavaClientRelease, ...] = tuple(sorted(java_clients or [],
                                                                        key=lambda c: c.version))
        self._by_line = {entry.line.line: entry for entry in self.lines}

    def __iter__(self) -> Iterator[BrokerLine]:
        return iter(self.lines)

    def known(self) -> str:
        return ", ".join(entry.line.line for entry in self.lines)

    def release(self, text: str | KafkaVersion) -> BrokerRelease:
        """``"2.4"`` means the newest 2.4.x; ``"2.4.0"`` means exactly that patch."""
        try:
            version = KafkaVersion.parse(text)
        except UnknownVersionError as exc:
            raise UnknownVersionError(f"{exc}; known lines: {self.known()}") from None
        entry = self._by_line.get(version.line)
        if entry is None:
            raise UnknownVersionError(
                f"Kafka {version} is not in the catalog; known lines: {self.known()}"
            )
        exact = entry.newest if version.is_line else version
        if exact > entry.newest:
            raise UnknownVersionError(
                f"Kafka {version} is newer than the catalog's newest {entry.line.line} "
                f"release ({entry.newest}); known lines: {self.known()}"
            )
        return BrokerRelease(exact, entry)

    def newest(self) -> BrokerRelease:
        return BrokerRelease(self.lines[-1].newest, self.lines[-1])


def _line_from_toml(raw: dict[str, Any]) -> BrokerLine:
    modes = tuple(raw["modes"])
    for mode in modes:
        if mode not in MODES:
            raise ValueError(f"catalog line {raw['line']}: unknown mode {mode!r}")
    exclusions = []
    for item in raw.get("exclude", ()):
        group, artifact = item["artifact"].split(":")
        exclusions.append(Exclusion(group, artifact, item["reason"]))
    return BrokerLine(
        line=KafkaVersion.parse(raw["line"]),
        newest=KafkaVersion.parse(raw["newest"]),
        scala=raw["scala"],
        modes=cast(tuple[Mode, ...], modes),
        java=tuple(int(major) for major in raw["java"]),
        exclude=tuple(exclusions),
        add=tuple(Addition(item["artifact"], item["reason"]) for item in raw.get("add", ())),
    )


DERIVED_FILE = "derived-lines.toml"
"""In a run directory: the entries derived from the jars of releases the catalog lacks that the run uses
(``derive.py``), which each of its test processes reads (``read_lines``, ``use_lines``)."""
_derived: dict[KafkaVersion, BrokerLine] = {}


@functools.cache
def load_catalog() -> Catalog:
    """catalog.toml, with the lines this process uses beside it (``use_lines``) in place of their own."""
    text = resources.files("kcompat.harness").joinpath("catalog.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    clients = [JavaClientRelease(KafkaVersion.parse(raw["version"]), raw["reason"]) for raw in data.get("java_client", ())]
    lines = {entry.line: entry for entry in map(_line_from_toml, data["line"])}
    return Catalog(list({**lines, **_derived}.values()), clients)


def use_lines(lines: list[BrokerLine]) -> None:
    """Run with ``lines`` (derived entries) in this process, beside the catalog's or in place of their line's."""
    _derived.update((line.line, line) for line in lines)
    load_catalog.cache_clear()


def used_lines() -> list[BrokerLine]:
    """The derived entries this process runs with (``use_lines``)."""
    return list(_derived.values())


def read_lines(path: Path) -> list[BrokerLine]:
    """The ``[[line]]`` entries of a TOML file (``DERIVED_FILE``); none when there is no such file."""
    try:
        with path.open("rb") as file:
            return [_line_from_toml(raw) for raw in tomllib.load(file).get("line", ())]
    except FileNotFoundError:
        return []


def line_toml(line: BrokerLine) -> str:
    """One ``[[line]]`` entry as catalog.toml writes it."""
    def strings(items: list[str]) -> str:
        return "[" + ", ".join(f'"{item}"' for item in items) + "]"

    rows = [f'line = "{line.line.line}"', f'newest = "{line.newest}"', f'scala = "{line.scala}"',
            f"modes = {strings(list(line.modes))}", f"java = [{', '.join(map(str, line.java))}]"]
    if line.exclude:
        rows.append("exclude = [" + ", ".join(f'{{ artifact = "{e.group}:{e.artifact}", reason = "{e.reason}" }}'
                                              for e in line.exclude) + "]")
    if line.add:
        rows.append("add = [" + ", ".join(f'{{ artifact = "{a.coordinate}", reason = "{a.reason}" }}'
                                          for a in line.add) + "]")
    return "[[line]]\n" + "".join(row + "\n" for row in rows)
