"""docs/ADAPTERS.md tells adapter authors each operation's arguments: its list is the code's.

The operations section is generated from ``kcompat.harness.operations`` (each operation's first sample call,
as ``protocol_args`` writes it); after adding or changing an operation, write it again with
``.venv/bin/python tests/unit/test_adapters_doc.py`` (run from the repository's root).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from kcompat.harness.clients.adapter import PROTOCOL, protocol_args
from kcompat.harness.operations import operations

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ADAPTERS.md"
BEGIN = "<!-- operations: generated from src/kcompat/harness/operations/ by tests/unit/test_adapters_doc.py -->"
END = "<!-- /operations -->"


def operations_section() -> str:
    """Every operation: its API, what it does, and an example of its `args`."""
    lines = [BEGIN, ""]
    for name, operation in sorted(operations().items()):
        samples = operation.samples("t1")
        lines += [f"#### `{name}`", "", f"{operation.about[:1].upper()}{operation.about[1:]}".rstrip(".") + ".",
                  f"Request: {operation.api}.", ""]
        if samples:
            lines += ["```json", json.dumps(protocol_args(samples[0]), sort_keys=True), "```", ""]
    return "\n".join([*lines, END])


def test_the_operation_list_is_the_codes() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text, f"{DOC} has lost its generated operations section"
    shown = text[text.index(BEGIN):text.index(END) + len(END)]
    assert shown == operations_section(), (f"{DOC}'s operation list differs from src/kcompat/harness/operations/; write it "
                                           "again: .venv/bin/python tests/unit/test_adapters_doc.py")


def test_the_page_states_the_protocol_it_documents() -> None:
    assert f"(protocol {PROTOCOL})" in DOC.read_text(encoding="utf-8").splitlines()[0]


if __name__ == "__main__":
    page = DOC.read_text(encoding="utf-8")
    DOC.write_text(page[:page.index(BEGIN)] + operations_section() + page[page.index(END) + len(END):],
                   encoding="utf-8")
    sys.stdout.write(f"wrote {DOC.relative_to(ROOT)}'s operation list\n")
