"""Broker features (KIP-584): which feature gates which APIs, and each release's measured levels.

Kafka 4.x lists some APIs in ApiVersions while the feature that serves them is at level 0 (4.1 lists the share
group APIs and answers them UNSUPPORTED_VERSION), so a broker's default configuration is not all it can do.
A cluster profile names feature levels (``4.1@share.version=1``); the matrix runs a claim a feature gates on
both profiles where the release keeps the feature off.  The data lives in ``features.toml``: the gated APIs
with their source in Kafka, and per release what its ApiVersions v4 answered (``measure``), never typed.
"""

from __future__ import annotations

import re

import functools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .catalog import Mode
from .errors import ConfigError
from .protocol import WireConnection
from .versions import KafkaVersion

Levels = tuple[tuple[str, int], ...]
"""Feature levels of a cluster profile, sorted by name: one profile, one spelling."""
FEATURES_API_VERSIONS = 4
"""ApiVersions v4 (KIP-1022) lists every feature, also those whose levels start at 0 (v3 leaves them out)."""
UNLISTED = frozenset({"metadata.version", "kraft.version"})
"""Features that version the metadata log, not a group type: never a profile's, never in the table."""


@dataclass(frozen=True)
class Feature:
    name: str
    apis: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class ReleaseFeatures:
    """What one release's ApiVersions v4 answered in its default KRaft configuration."""

    version: KafkaVersion
    supported: Mapping[str, int]
    default: Mapping[str, int]
    lists: tuple[str, ...]
    """The gated APIs ApiVersions lists."""

    def off_by_default(self, feature: Feature) -> bool:
        """The release lists one of the feature's APIs and supports it, but finalizes it at level 0."""
        return (self.supported.get(feature.name, 0) > self.default.get(feature.name, 0) == 0
                and any(api in self.lists for api in feature.apis))


@dataclass(frozen=True)
class FeatureBook:
    features: tuple[Feature, ...]
    releases: Mapping[KafkaVersion, ReleaseFeatures]

    def gating(self, apis: Sequence[str]) -> tuple[Feature, ...]:
        """The features that gate any of ``apis``."""
        return tuple(f for f in self.features if set(apis) & set(f.apis))

    def release(self, version: KafkaVersion, mode: Mode, shown: str) -> ReleaseFeatures:
        """The measured entry of a release that can take feature levels; ConfigError naming what can."""
        if mode != "kraft":
            raise ConfigError(f"{shown}: Kafka {version} in {mode} mode has no feature levels (KRaft only); "
                              "leave out the @feature=level or choose --mode kraft")
        found = self.releases.get(version)
        if found is None:
            known = ", ".join(map(str, sorted(self.releases)))
            raise ConfigError(f"{shown}: Kafka {version} has no measured feature levels (features.toml has "
                              f"{known}); measure it with `kcompat brokers features {version}`")
        return found


@functools.cache
def load_features() -> FeatureBook:
    text = resources.files("kcompat.harness").joinpath("features.toml").read_text(encoding="utf-8")
    return book_from(tomllib.loads(text))


def book_from(data: Mapping[str, Any]) -> FeatureBook:
    features = tuple(Feature(raw["name"], tuple(raw["apis"]), raw["source"]) for raw in data.get("feature", ()))
    releases = {}
    for raw in data.get("release", ()):
        version = KafkaVersion.parse(raw["version"])
        releases[version] = ReleaseFeatures(version, dict(raw["supported"]), dict(raw["default"]),
                                            tuple(raw["lists"]))
    return FeatureBook(features, releases)


def split_ref(text: str) -> tuple[str, tuple[str, ...]]:
    """``4.1@share.version=1`` -> (``4.1``, (``share.version=1``,))."""
    version, *levels = text.split("@")
    return version.strip(), tuple(level.strip() for level in levels)


_LEVEL = re.compile(r"[0-9]{1,5}", re.ASCII)
"""A feature level as a reference writes it (Kafka's levels are int16)."""


def parse_levels(version: KafkaVersion, mode: Mode, items: Sequence[str], shown: str) -> Levels:
    """The levels a broker reference names, checked against the release's measured entry."""
    if not items:
        return ()
    entry = load_features().release(version, mode, shown)
    levels: dict[str, int] = {}
    for item in items:
        name, eq, level = item.partition("=")
        if not eq or not name:
            raise ConfigError(f"{shown}: @{item} is not a feature level like @share.version=1")
        allowed = ", ".join(f"{n} (0-{m})" for n, m in sorted(entry.supported.items()))
        if name not in entry.supported:
            raise ConfigError(f"{shown}: Kafka {version} has no feature {name!r}; it has: {allowed}")
        if not _LEVEL.fullmatch(level.strip()):
            raise ConfigError(f"{shown[:60]}: the level of {name} is a whole number (ASCII digits), not "
                              f"{level[:20]!r}")
        if int(level) > entry.supported[name]:
            raise ConfigError(f"{shown}: Kafka {version} supports {name} up to level {entry.supported[name]}, "
                              f"not {int(level)}")
        if int(level) < entry.default.get(name, 0):
            raise ConfigError(f"{shown[:60]}: Kafka {version} finalizes {name} at level {entry.default[name]} by "
                              f"default; a profile raises a level, never lowers it (not {int(level)})")
        if levels.setdefault(name, int(level)) != int(level):
            raise ConfigError(f"{shown}: {name} is given two levels")
    return tuple(sorted(levels.items()))


def profile_text(levels: Levels) -> str:
    """``@share.version=1`` (empty for the default profile): how cell ids and columns name a profile."""
    return "".join(f"@{name}={level}" for name, level in levels)


def measure(version: KafkaVersion, host: str, port: int, listed: Sequence[str]) -> ReleaseFeatures:
    """Ask a booted broker in its default configuration for its features (ApiVersions v4, KIP-1022: v3 leaves
    out features whose levels start at 0); ``listed``: the API names its ApiVersions lists."""
    with WireConnection(host, port, timeout=10.0) as conn:
        answer = conn.call("ApiVersions", FEATURES_API_VERSIONS, {"ClientSoftwareName": "kcompat",
                                                                  "ClientSoftwareVersion": "0"})
    return measured(version, answer, listed)


def measured(version: KafkaVersion, answer: Mapping[str, Any], listed: Sequence[str]) -> ReleaseFeatures:
    """A release's entry from its ApiVersions v4 answer (the catalog codec's field names) and listed APIs."""
    gated = {api for feature in load_features().features for api in feature.apis}
    supported = {f["Name"]: int(f["MaxVersion"]) for f in answer.get("SupportedFeatures") or ()
                 if f["Name"] not in UNLISTED}
    default = {f["Name"]: int(f["MaxVersionLevel"]) for f in answer.get("FinalizedFeatures") or ()
               if f["Name"] in supported}
    return ReleaseFeatures(version, dict(sorted(supported.items())), dict(sorted(default.items())),
                           tuple(sorted(gated & set(listed))))


def release_toml(entry: ReleaseFeatures) -> str:
    """One ``[[release]]`` entry as features.toml keeps it."""
    def table(levels: Mapping[str, int]) -> str:
        return "{ " + ", ".join(f'"{name}" = {level}' for name, level in levels.items()) + " }"

    lists = ", ".join(f'"{api}"' for api in entry.lists)
    return (f'[[release]]\nversion = "{entry.version}"\nsupported = {table(entry.supported)}\n'
            f"default = {table(entry.default)}\nlists = [{lists}]\n")
