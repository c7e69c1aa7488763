"""docs/GLOSSARY.md stays current: every client kind the registry finds is in its table of kinds."""

from __future__ import annotations

import re
from pathlib import Path

from kcompat.harness.clients.kinds import kind_names

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "GLOSSARY.md"


def listed_kinds(text: str) -> list[str]:
    """The first column of the "Client kinds" table: one `kind` a row."""
    section = text.split("## Client kinds", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE)


def test_every_client_kind_in_the_registry_is_in_the_glossary() -> None:
    listed = listed_kinds(GLOSSARY.read_text(encoding="utf-8"))
    assert sorted(listed) == sorted(kind_names()), f"missing: {sorted(set(kind_names()) - set(listed))}; " \
                                                  f"not a kind: {sorted(set(listed) - set(kind_names()))}"


def test_the_reader_takes_the_kinds_table_only() -> None:
    text = "| `claim` | a |\n## Client kinds\n\n| kind | x |\n|---|---|\n| `wire` | w |\n| `java` | j |\n## Next\n| `x` | y |\n"
    assert listed_kinds(text) == ["wire", "java"]
