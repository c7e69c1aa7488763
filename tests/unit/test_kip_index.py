"""The list of KIPs considered: every document of the book is on it, every entry is well formed."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.errors import ConfigError
from kcompat.harness.matrix.claims import claims_dir, load_claim_book
from kcompat.harness.matrix.kip_index import coverage, index_path, load_index


def test_every_kip_document_of_the_book_is_listed_and_every_listed_document_exists() -> None:
    entries = {e.kip: e for e in load_index(index_path(claims_dir()))}
    book = load_claim_book(claims_dir())
    for kip in book.kips:
        if kip.startswith("KIP-"):
            assert kip in entries and entries[kip].document == f"{kip}.toml", f"{kip} is not in kips.toml"
    for entry in entries.values():
        if entry.document is not None:
            assert entry.kip in book.kips, f"kips.toml names {entry.document}, which the book lacks"
    assert sum(1 for e in entries.values() if e.document) >= 12
    rows = coverage(book, claims_dir())
    assert rows and all(r["reason"] and not r["claims"] and r["kip"] not in book.kips for r in rows)


@pytest.mark.parametrize(("body", "said"), [
    ('[[kip]]\nkip = "KIP-1"\ntitle = "t"\n', "either its document"),
    ('[[kip]]\nkip = "KIP-1"\ntitle = "t"\ndocument = "KIP-1.toml"\nreason = "r"\n', "either its document"),
    ('[[kip]]\nkip = "kip 1"\ntitle = "t"\nreason = "r"\n', "kip is \"KIP-<number>\""),
    ('[[kip]]\nkip = "KIP-1"\ntitle = "t"\ndocument = "../x.toml"\n', "document is KIP-1.toml"),
    ('[[kip]]\nkip = "KIP-1"\ntitle = "t"\nreason = "r"\n\n[[kip]]\nkip = "KIP-1"\ntitle = "t"\nreason = "r"\n',
     ":6: KIP-1 is listed twice"),
])
def test_a_bad_entry_is_one_line_naming_its_line(tmp_path: Path, body: str, said: str) -> None:
    path = tmp_path / "kips.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=None) as caught:
        load_index(path)
    assert said in str(caught.value) and str(path) in str(caught.value) and "\n" not in str(caught.value)
