"""docs/CLAIMS.md is the claim book's schema for authors: its probe list is the code's, its worked example loads.

The probe section is generated from ``kcompat.harness.matrix.observables.PROBES``; after changing a probe, write it
again with ``.venv/bin/python tests/unit/test_claims_doc.py`` (run from the repository's root).  The keys,
matchers and types the page lists are read from the loader's own refusals, so a key the schema gains or
loses fails here until the page says so.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from kcompat.harness.matrix.claims import ClaimError, claims_dir, load_claim_book, load_claims_file, source_path
from kcompat.harness.matrix.observables import CONFIG_ATTRIBUTES, PROBES, check_matcher

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kcompat"
DOC = ROOT / "docs" / "CLAIMS.md"
BEGIN = "<!-- probes: generated from src/kcompat/harness/matrix/probes/ by tests/unit/test_claims_doc.py -->"
END = "<!-- /probes -->"


def _type(value: type | tuple[type, ...]) -> str:
    names = {"str": "string", "int": "integer", "bool": "boolean", "dict": "table", "list": "array"}
    kinds = value if isinstance(value, tuple) else (value,)
    return " or ".join(names.get(kind.__name__, kind.__name__) for kind in kinds)


def probes_section() -> str:
    """The page's list of probes: each one's name, what it does (``about``), what it observes and takes."""
    lines = [BEGIN, ""]
    for spec in PROBES.values():
        about = spec.about[:1].upper() + spec.about[1:]
        lines += [f"#### `{spec.name}`", "", about + ("" if about.endswith(".") else "."), ""]
        keys = [f"`{key}`" for key in sorted(spec.keys)]
        if spec.config_keys:
            keys.append("`config.<name>.<attribute>` (attribute: " + ", ".join(CONFIG_ATTRIBUTES) + ")")
        lines.append("- observes: " + ", ".join(keys))
        lines.append("- args: " + (", ".join(f"`{name}` ({_type(kind)})" for name, kind in spec.args.items())
                                   or "none"))
        if not spec.sends_request:
            lines.append("- sends no request (it inspects the client library): no side can refuse it; `versions` "
                         "still says which pairs are in range")
        lines.append("")
    return "\n".join([*lines, END])


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def test_the_probe_list_is_the_codes() -> None:
    text = _text()
    assert BEGIN in text and END in text, f"{DOC} has lost its generated probe section"
    shown = text[text.index(BEGIN):text.index(END) + len(END)]
    assert shown == probes_section(), (f"{DOC}'s probe list differs from src/kcompat/harness/matrix/probes/; write it "
                                       "again: .venv/bin/python tests/unit/test_claims_doc.py")


def _known(message: str) -> list[str]:
    """The names a refusal lists (``...; known: a, b`` or ``(known: a, b)`` or ``one of a, b, not``)."""
    found = re.search(r"(?:known: |one of )([^;()]*?)(?:\)|, not |;|$)", message)
    assert found, message
    return [word.strip() for word in found.group(1).replace(", or use alone", "").split(",")]


GOOD = '''kip = "KIP-1"
source = "x.md"

[[claim]]
id = "one"
section = "s"
api = "CreateTopics"
versions = "5+"
probe = "create_topic"

  [[claim.expect]]
  quote = "q."
  observe = { error = "NONE" }

  [[claim.fallback]]
  quote = "q."
  observe = { error = "NONE" }
'''


def _refusal(tmp_path: Path, text: str) -> str:
    (tmp_path / "x.md").write_text("q.")
    (tmp_path / "KIP-1.toml").write_text(text)
    with pytest.raises(ClaimError) as caught:
        load_claims_file(tmp_path / "KIP-1.toml")
    return str(caught.value)


def test_every_key_matcher_and_type_the_loader_knows_is_on_the_page(tmp_path: Path) -> None:
    text = _text()
    claim_keys = _known(_refusal(tmp_path, GOOD.replace('probe = "create_topic"', 'probe = "create_topic"\nzz = 1')))
    table_keys = _known(_refusal(tmp_path, GOOD.replace('  quote = "q."\n  observe = { error = "NONE" }\n\n  [[claim.f',
                                                         '  zz = 1\n\n  [[claim.f')))
    header = re.search(r'\{"kip", "title", "source", "fallbacks", "claim", "not_testable", "overrides",\s*\*_PROVENANCE\}',
                       (SRC / "harness" / "matrix" / "claims.py").read_text())
    assert header, "claims.py's top-level keys changed: say so on the page and here"
    matchers = _known(check_matcher({"zz": True}) or "")
    types = _known(check_matcher({"type": "zz"}) or "")
    for word in [*claim_keys, *table_keys, "kip", "title", "source", "fallbacks", "use", "not_testable",
                 "nodes", "users", "acls", "plugins", "statement", "reason", *matchers, *types,
                 "overrides", "source_url", "retrieved", "source_sha256", "case", "claims", "brokers"]:
        assert re.search(rf"`[\[{{ ]*{re.escape(word)}\b", text), f"{DOC} does not name `{word}`"


def _example() -> str:
    section = _text().split("## A worked example", 1)[1]
    found = re.search(r"```toml\n(.*?)```", section, re.S)
    assert found, "docs/CLAIMS.md's worked example has no ```toml block"
    return found.group(1)


def _example_book(tmp_path: Path) -> Path:
    """The worked example as its author saves it: the claims file, and the document's text beside it."""
    book = tmp_path / "my-claims"
    book.mkdir()
    text = _example()
    kip = re.search(r'^kip = "([^"]+)"', text, re.M)
    assert kip, "the worked example names no kip"
    (book / f"{kip.group(1)}.toml").write_text(text)
    shipped = load_claims_file(claims_dir() / f"{kip.group(1)}.toml")
    shutil.copy(source_path(shipped), book)
    return book


def test_the_worked_example_loads(tmp_path: Path) -> None:
    book = load_claim_book(_example_book(tmp_path))
    (document,) = book.kips.values()
    assert document.claims and document.not_testable
    shared = [c for c in document.claims if any(f.limited_by == ("broker", "client", "both") for f in c.fallback)]
    assert len(shared) >= 2, "the example shows a fallback shared by claims"


def test_the_worked_example_plans_through_the_console_script(tmp_path: Path) -> None:
    """``kcompat run --plan --claims DIR``, as the page tells an author to type it: the book loads, its cells
    are listed, nothing boots."""
    import os
    import subprocess

    book = _example_book(tmp_path)
    kcompat = str(Path(sys.executable).parent / "kcompat")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCOMPAT_")}
    done = subprocess.run([kcompat, "run", "--plan", "--claims", str(book), "--kip", "KIP-525", "--brokers", "2.3,2.6",
                           "--clients", "wire,java:3.7.0"], capture_output=True, text=True, timeout=120,
                          check=False, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert "KIP-525/create-returns-partitions[2.6.3-zk|java:3.7.0]" in lines
    assert "KIP-525/create-returns-partitions[2.3.1-zk|wire@v4]" in lines
    assert lines[-1].startswith(f"{len(lines) - 1} cells: ") and str(book) in lines[-1]
    refused = subprocess.run([kcompat, "run", "--plan", "--claims", str(book), "--out", str(tmp_path / "run")],
                             capture_output=True, text=True, timeout=120, check=False, env=env)
    assert refused.returncode == 2 and "--plan lists the cells of a selection" in refused.stderr
    assert not (tmp_path / "run").exists()
    broken = book / "KIP-525.toml"
    broken.write_text(broken.read_text().replace('use = "not-populated"', 'use = "not-populatd"', 1))
    done = subprocess.run([kcompat, "run", "--plan", "--claims", str(book), "--kip", "KIP-525"], capture_output=True,
                          text=True, timeout=120, check=False, env=env)
    assert done.returncode == 2 and "unknown fallback 'not-populatd'" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and f"{broken}:" in done.stderr
    shown = re.search(r"KIP-525\.toml:(\d+): unknown fallback 'not-populatd'; this file names\s+([^`]*)`", _text())
    assert shown, "the page no longer shows the mistake it tells an author --plan reports"
    said = " ".join(shown.group(2).split())
    assert f"{broken}:{shown.group(1)}: unknown fallback 'not-populatd'; this file names {said}" in done.stderr


if __name__ == "__main__":  # write the generated section again
    page = _text()
    if BEGIN not in page or END not in page:
        sys.exit(f"{DOC} has no {BEGIN} ... {END} section to write")
    DOC.write_text(page[:page.index(BEGIN)] + probes_section() + page[page.index(END) + len(END):], encoding="utf-8")
    print(f"wrote the probe list of {DOC}")
