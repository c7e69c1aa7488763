"""A library's own version setting, seen through the documented command: `kcompat clients limits --json` of a
release in its default configuration and pinned to an older Kafka release, measured against the stub broker
that offers every version (the adapter kinds' integration tests use it)."""

from __future__ import annotations

import json
from typing import Any

from tests.console import kcompat, ok


def measured(ref: str, setting: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The limits lines of ``ref`` and of ``ref@setting``, measured by one command."""
    lines = ok(kcompat("clients", "limits", "--json", ref, f"{ref}@{setting}", timeout=1200)).splitlines()
    default, pinned = (json.loads(line) for line in lines)
    key, _, value = setting.partition("=")
    assert "settings" not in default and pinned["settings"] == {key: value}, (default, pinned)
    return default, pinned


def assert_capped(default: dict[str, Any], pinned: dict[str, Any], api: str = "CreateTopics") -> None:
    """The pinned configuration sends no API the default doesn't, none newer, and ``api`` older."""
    assert set(pinned["newest"]) <= set(default["newest"]), (pinned["newest"], default["newest"])
    assert all(version <= default["newest"][name] for name, version in pinned["newest"].items()), \
        (pinned["newest"], default["newest"])
    assert pinned["newest"][api] < default["newest"][api], (pinned["newest"], default["newest"])
