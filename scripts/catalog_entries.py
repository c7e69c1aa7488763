"""Adds the entries ``kcompat brokers check-catalog --derive`` printed to the repository, for the nightly's
pull request.

``python scripts/catalog_entries.py DERIVED.toml`` edits src/kcompat/harness/catalog.toml in place (a new
patch of a line replaces what the line's entry says of its newest release, its Java, modes and jar, keeping
its comments and classpath notes; a new line is appended) and adds each new line to the nightly's shard list
(.github/workflows/matrix-nightly.yml, which a unit test keeps in step with the catalog).  It prints the
releases, comma-separated: what ``kcompat run --brokers`` takes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from kcompat.harness.catalog import BrokerLine, line_toml, read_lines

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "src" / "kcompat" / "harness" / "catalog.toml"
WORKFLOW = ROOT / ".github" / "workflows" / "matrix-nightly.yml"
_FIELDS = ("newest", "scala", "modes", "java")
_SHARD = re.compile(r'^(\s+)- "\d+(?:\.\d+)+"$', re.MULTILINE)


def _block(text: str, line: str) -> tuple[int, int] | None:
    """Where the catalog's entry of ``line`` starts and ends in its text."""
    found = re.search(rf'^\[\[line\]\]\nline = "{re.escape(line)}"\n', text, re.MULTILINE)
    if found is None:
        return None
    end = text.find("\n[[", found.end())
    return found.start(), len(text) if end < 0 else end + 1


def with_entries(text: str, lines: Sequence[BrokerLine]) -> str:
    """catalog.toml's text with ``lines`` in it: each known line's fields replaced, each new one appended."""
    for line in lines:
        entry = line_toml(line)
        where = _block(text, line.line.line)
        if where is None:
            text = text.rstrip("\n") + "\n\n" + entry
            continue
        block = text[where[0]:where[1]]
        for field in _FIELDS:
            row = next(r for r in entry.splitlines() if r.startswith(f"{field} = "))
            block = re.sub(rf"^{field} = .*$", lambda _, row=row: row, block, count=1, flags=re.MULTILINE)
        text = text[:where[0]] + block + text[where[1]:]
    return text


def with_shards(text: str, lines: Sequence[BrokerLine]) -> str:
    """The nightly workflow's text with a shard for each of ``lines`` it has none for, after the last one."""
    for line in lines:
        shards = list(_SHARD.finditer(text))
        if f'- "{line.line.line}"' in (shard[0].strip() for shard in shards):
            continue
        last = shards[-1]
        text = text[:last.end()] + f'\n{last[1]}- "{line.line.line}"' + text[last.end():]
    return text


def main(derived: str) -> int:
    lines = read_lines(Path(derived))
    CATALOG.write_text(with_entries(CATALOG.read_text(), lines))
    WORKFLOW.write_text(with_shards(WORKFLOW.read_text(), lines))
    print(",".join(str(line.newest) for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
