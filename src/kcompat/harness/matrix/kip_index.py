"""The list of every KIP considered for the claim book (``scenarios/kips.toml``): its document, or why none.

A user asking "does kcompat know KIP-NNN?" needs a yes with the document or a no with the reason, never
silence; the run's coverage.json carries the list, so a KIP left out is as visible as a statement no
claim judges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..tomlfile import read_toml
from .claims import ClaimBook

_KIP = re.compile(r"KIP-\d+\Z")
_KEYS = {"kip", "title", "document", "reason"}


@dataclass(frozen=True)
class Considered:
    kip: str
    title: str
    document: str | None
    reason: str | None


def index_path(claims: Path) -> Path:
    """The list beside the book's claims directory (``scenarios/kips.toml``)."""
    return claims.parent / "kips.toml"


def load_index(path: Path) -> tuple[Considered, ...]:
    """Every entry, checked: a KIP id, a title, and exactly one of ``document`` and ``reason``."""
    text, data = read_toml(path, ConfigError, "a KIP list")
    lines = text.splitlines()
    headers = [i + 1 for i, line in enumerate(lines) if line.strip() == "[[kip]]"]
    entries = data.get("kip", [])
    if set(data) - {"kip"} or not isinstance(entries, list):
        raise ConfigError(f"{path}: a KIP list is [[kip]] tables only")
    found: dict[str, Considered] = {}
    for index, raw in enumerate(entries):
        where = f"{path}:{headers[index] if index < len(headers) else 1}"
        entry = _entry(raw, where)
        if entry.kip in found:
            raise ConfigError(f"{where}: {entry.kip} is listed twice")
        found[entry.kip] = entry
    return tuple(found.values())


def _entry(raw: Any, where: str) -> Considered:
    if not isinstance(raw, dict) or set(raw) - _KEYS:
        raise ConfigError(f"{where}: a [[kip]] has kip, title and document or reason")
    if not all(isinstance(raw.get(key), str) and raw[key].strip() for key in ("kip", "title")):
        raise ConfigError(f"{where}: a [[kip]] needs kip and title (strings)")
    if not _KIP.match(raw["kip"]):
        raise ConfigError(f"{where}: kip is \"KIP-<number>\", not {raw['kip']!r}")
    if ("document" in raw) == ("reason" in raw) or not all(
            isinstance(raw[key], str) and raw[key].strip() for key in ("document", "reason") if key in raw):
        raise ConfigError(f"{where}: {raw['kip']} has either its document (\"{raw['kip']}.toml\") or the reason "
                          "it has none")
    if "document" in raw and raw["document"] != f"{raw['kip']}.toml":
        raise ConfigError(f"{where}: {raw['kip']}'s document is {raw['kip']}.toml, not {raw['document']!r}")
    return Considered(raw["kip"], raw["title"], raw.get("document"), raw.get("reason"))


def coverage(book: ClaimBook, claims: Path) -> list[dict[str, Any]]:
    """coverage.json's rows for the KIPs considered and not taken (the book's own documents have theirs), or
    none when the book has no list beside it (a user's book)."""
    path = index_path(claims)
    if not path.is_file():
        return []
    return [{"kip": entry.kip, "section": "(no claim document)", "statement": entry.title, "claims": [],
             "testable": False, "reason": entry.reason} for entry in load_index(path)
            if entry.document is None and entry.kip not in book.kips]


__all__ = ["Considered", "coverage", "index_path", "load_index"]
