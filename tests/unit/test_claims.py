"""The claims as data: every file loads, every quote is the KIP's own words, and bad files say where."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kcompat.harness.matrix.claims import (
    ClaimError,
    KipClaims,
    claim_files,
    claims_dir,
    iter_quotes,
    load_claim_book,
    load_claims_file,
    normalise_kip,
    source_path,
    sources_dir,
    verbatim_form,
)
from kcompat.harness.versions import KafkaVersion

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kcompat"


def _shared_kips() -> Path:
    """shared/kips beside the checkout, or beside the repository it was cloned from (CI clones main elsewhere)."""
    import subprocess

    origin = subprocess.run(["git", "-C", str(ROOT), "remote", "get-url", "origin"], capture_output=True,
                            text=True, check=False, timeout=30).stdout.strip()
    places = [ROOT.parent / "shared" / "kips"]
    if origin and "://" not in origin and ":" not in origin.split("/")[0]:
        places.append(Path(origin).resolve().parent / "shared" / "kips")
    return next((place for place in places if place.is_dir()), places[0])


KIPS = _shared_kips()


def _normal(text: str) -> str:
    return " ".join(text.split())


def _text_of(kip: KipClaims) -> Path:
    return source_path(kip)


def test_the_claims_directory_is_the_scenarios_one() -> None:
    assert claims_dir().resolve() == SRC / "scenarios" / "claims"
    assert sources_dir().resolve() == SRC / "scenarios" / "sources"


def test_every_kip_file_loads_with_claims_and_coverage() -> None:
    book = load_claim_book(claims_dir())
    assert {"KIP-525", "KIP-569", "DOCS-authorization"} <= set(book.kips)
    for kip in book.kips.values():
        assert kip.claims or kip.overrides, kip.kip  # a document may only decide others' older pairs
        assert _text_of(kip).parent == sources_dir(), f"{kip.kip}'s {kip.source} does not ship with kcompat"
    rows = book.coverage()
    assert all(row["claims"] or (not row["testable"] and row["reason"]) for row in rows)


def test_the_shipped_kip_texts_are_the_shared_ones() -> None:
    """src/kcompat/scenarios/sources carries the KIP texts so users' machines can check quotes; they must not drift."""
    assert KIPS.is_dir(), f"the KIP texts are expected at {KIPS} (shared/ beside the clone or its origin)"
    for original in KIPS.glob("KIP-*.md"):
        assert (sources_dir() / original.name).read_bytes() == original.read_bytes(), original.name


WHOLE_WITHOUT_A_FULL_STOP = {
    "throttle_time_ms duration in milliseconds for which the request was throttled",  # a schema table's cell
    "public KafkaFuture<Config> config(String topic) {",  # a line of code; the next line is the method's body
    "a new method will be added to AbstractConfig to return the documentation of the given Config",  # then code
}
"""Quotes the test's rule reads as cut, reviewed: they end a table cell, a code line, or a paragraph."""


def test_every_quote_is_a_whole_sentence_of_its_document() -> None:
    """A quote that stops mid-sentence shows the KIP saying less than it does (KIP-195's ``$\\leq$``)."""
    book = load_claim_book(claims_dir())
    cut = []
    for kip, where, quote in iter_quotes(book):
        if any(verbatim_form(quote).endswith(verbatim_form(whole)) for whole in WHOLE_WITHOUT_A_FULL_STOP):
            continue
        text = verbatim_form(_text_of(book.kips[kip]).read_text())
        form = verbatim_form(quote)
        after = text[text.index(form) + len(form):][:2]
        if form[-1] not in ".:;?!)|\"'}" and after[:1] == " " and after[1:2].isalpha() and after[1:2].islower():
            cut.append(f"{where}: ...{form[-50:]!r} goes on {text[text.index(form) + len(form):][:30]!r}")
    assert not cut, "quotes cut mid-sentence:\n" + "\n".join(cut)


SOURCE = "q. q2. fields are returned. not populated. throw."
"""The document GOOD's quotes rest on (written beside it as x.md)."""


def _write(path: Path, text: str) -> None:
    path.write_text(text)
    (path.parent / "x.md").write_text(SOURCE)

GOOD = '''kip = "KIP-1"
title = "t"
source = "x.md"

[[claim]]
id = "one"
section = "s"
api = "CreateTopics"
versions = "5+"
probe = "create_topic"

  [[claim.expect]]
  quote = "q"
  observe = { error = "NONE" }

  [[claim.fallback]]
  limited_by = ["broker", "client", "both"]
  quote = "q2"
  observe = { configs = { absent = true } }
'''


@pytest.mark.parametrize(("change", "line", "reason"), [
    (('api = "CreateTopics"', 'api = "CreateTopix"'), 8, "unknown API 'CreateTopix'"),
    (('error = "NONE"', 'error = "NO_SUCH_ERROR"'), 14, "unknown Kafka error name 'NO_SUCH_ERROR'"),
    (('error = "NONE"', 'eror = "NONE"'), 14, "probe create_topic does not observe 'eror'"),
    (('{ absent = true }', '{ absnt = true }'), 19, "unknown matcher 'absnt'"),
    (('versions = "5+"', 'versions = "five"'), 9, "versions is 'N+' or 'N-M'"),
    (('limited_by = ["broker", "client", "both"]', 'limited_by = ["broker"]'), 5, "limited by client"),
    (('probe = "create_topic"', 'probe = "create_topic"\ncolour = "red"'), 11, "unknown key 'colour'"),
    (('probe = "create_topic"', 'probe = "create_topic"\ncluster = { plugins = ["quota_callback"] }'), 11,
     "unknown broker plug-in 'quota_callback'; known: create_topic_policy"),
    (('probe = "create_topic"', 'probe = "create_topic"\ncluster = { plugin = ["create_topic_policy"] }'), 11,
     "cluster is a table of nodes, users, acls, plugins"),
])
def test_a_bad_claims_file_names_file_line_and_reason(tmp_path: Path, change: tuple[str, str], line: int,
                                                       reason: str) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, GOOD.replace(*change))
    with pytest.raises(ClaimError) as caught:
        load_claims_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert reason in message
    assert "\n" not in message


def test_a_good_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, GOOD)
    kip = load_claims_file(path)
    assert [c.id for c in kip.claims] == ["KIP-1/one"]
    assert kip.claims[0].min_version == 5 and kip.claims[0].api_key == 19


def test_a_cluster_names_plugins_nodes_and_users(tmp_path: Path) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, GOOD.replace('probe = "create_topic"', 'probe = "create_topic"\n'
                                 'cluster = { nodes = 3, plugins = ["create_topic_policy"] }'))
    needs = load_claims_file(path).claims[0].cluster
    assert needs.plugins == ("create_topic_policy",) and needs.nodes == 3 and not needs.sasl
    assert needs.key == "3n-plaintext-create_topic_policy"


def test_every_error_key_is_checked_against_kafka_names(tmp_path: Path) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, GOOD.replace('probe = "create_topic"', 'probe = "create_topic_policy"')
                    .replace('error = "NONE"', 'error = "NONE", other_error = "NO_SUCH"')
                    .replace('configs = { absent = true }', 'created = false'))
    with pytest.raises(ClaimError, match=f"{re.escape(str(path))}:14: other_error: unknown Kafka error name 'NO_SUCH'"):
        load_claims_file(path)


def test_not_toml_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "KIP-1.toml"
    path.write_text("kip = \n")
    with pytest.raises(ClaimError, match=re.escape(str(path)) + ":1: not valid TOML"):
        load_claims_file(path)


def test_the_docs_excerpt_names_its_source_and_every_row_is_a_claim_or_untestable() -> None:
    book = load_claim_book(claims_dir())
    docs = book.kips["DOCS-authorization"]
    excerpt = _text_of(docs).read_text()
    assert "https://kafka.apache.org/documentation/#operations_resources_and_protocols" in excerpt
    assert "excerpt of the Apache Kafka documentation" in excerpt
    rows = [line for line in excerpt.splitlines() if re.match(r"^[A-Z_]+ \(\d+\) \|", line)]
    assert len(rows) == 7
    quoted = [_normal(q) for kip, _, q in iter_quotes(book) if kip == docs.kip]
    for row in rows:  # a claim or a not_testable line quotes the row from its start (its API, operation, resource)
        assert any(_normal(row).startswith(q) and q.count("|") >= 3 for q in quoted), row
    assert normalise_kip("docs-authorization") == "DOCS-authorization" and normalise_kip("kip525") == "KIP-525"
    bounded = book.claim("DOCS-authorization/create-topics-topic-create")
    assert bounded.brokers_since == KafkaVersion.parse("2.0")


@pytest.mark.parametrize(("change", "reason"), [
    (('probe = "create_topic"', 'probe = "create_topic"\nbrokers = "2.0+"'), 'brokers is a release bound like ">=2.0"'),
    (('probe = "create_topic"', 'probe = "create_topic"\ncluster = { users = ["mallory"] }'),
     "unknown SASL user 'mallory'; every SASL cluster has alice, bob, carol, dave, erin"),
    (('probe = "create_topic"', 'probe = "list_groups"\nargs = { states = ["Empty", 3] }'),
     "argument states of probe list_groups is a list of one kind of value"),
    (('probe = "create_topic"', 'probe = "list_groups"\nargs = { states = [{ name = "Empty" }] }'),
     "argument states of probe list_groups is a list of one kind of value"),
])
def test_a_bad_release_bound_or_user_is_one_line(tmp_path: Path, change: tuple[str, str], reason: str) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, GOOD.replace(*change))
    with pytest.raises(ClaimError, match=re.escape(reason)):
        load_claims_file(path)


def test_a_docs_claims_file_is_named_by_its_id(tmp_path: Path) -> None:
    path = tmp_path / "DOCS-security.toml"
    _write(path, GOOD.replace('kip = "KIP-1"', 'kip = "DOCS-security"').replace(
        'probe = "create_topic"', 'probe = "create_topic"\nbrokers = ">=2.0"'))
    loaded = load_claims_file(path)
    assert loaded.is_docs and loaded.claims[0].id == "DOCS-security/one"
    assert loaded.claims[0].brokers_since == KafkaVersion.parse("2.0")


def test_a_claims_directory_from_elsewhere_is_checked_and_hashed(tmp_path: Path) -> None:
    from kcompat.harness.errors import ConfigError
    from kcompat.harness.matrix.claims import claims_digest

    with pytest.raises(ConfigError, match=r"claims directory .*nowhere does not exist"):
        claims_dir(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("no claims here")
    with pytest.raises(ConfigError, match=r"claims directory .*empty holds no claims files \(KIP-\*\.toml, DOCS-\*\.toml\)"):
        claims_dir(tmp_path / "empty")
    book = tmp_path / "book"
    book.mkdir()
    _write(book / "KIP-1.toml", GOOD)
    assert claims_dir(book) == book
    assert set(load_claim_book(claims_dir(book)).kips) == {"KIP-1"}
    before = claims_digest(book)
    assert claims_digest(book) == before and len(before) == 64
    (book / "KIP-1.toml").write_text(GOOD.replace('quote = "q2"', 'quote = "q3"'))
    assert claims_digest(book) != before  # one revised quote is another book
    revised = claims_digest(book)
    (book / "DOCS-security.toml").write_text(GOOD.replace('kip = "KIP-1"', 'kip = "DOCS-security"'))
    assert claims_digest(book) != revised  # a documentation file is part of the book too
    assert [p.name for p in claim_files(book)] == ["KIP-1.toml", "DOCS-security.toml"]


def test_a_repro_judges_by_the_book_its_run_was_judged_by(tmp_path: Path) -> None:
    import json

    from kcompat.harness.errors import ConfigError
    from kcompat.harness.matrix.repro import run_claims

    run = tmp_path / "run"
    run.mkdir()
    assert run_claims(run) is None  # no run.json: the installed book
    (run / "run.json").write_text(json.dumps({"claims": {"dir": str(claims_dir())}}))
    assert run_claims(run) is None
    book = tmp_path / "book"
    book.mkdir()
    _write(book / "KIP-1.toml", GOOD)
    (run / "run.json").write_text(json.dumps({"claims": {"dir": str(book)}}))
    assert run_claims(run) == book
    (book / "KIP-1.toml").unlink()
    with pytest.raises(ConfigError, match=r"claims directory .*book holds no claims files"):
        run_claims(run)


def test_a_run_notes_the_claim_book_it_judged_by(tmp_path: Path) -> None:
    import json
    import shutil

    from kcompat.harness.config import HarnessConfig
    from kcompat.harness.errors import ConfigError
    from kcompat.harness.matrix.claims import claims_digest
    from kcompat.harness.matrix.plan import Selection
    from kcompat.harness.matrix.runner import RunOptions, prepare

    book = tmp_path / "book"
    book.mkdir()
    shutil.copy(claims_dir() / "KIP-525.toml", book)
    config = HarnessConfig.resolve(cache_dir=tmp_path / "cache")
    selection = Selection.of("2.4", "default", "wire", ("KIP-525",))
    _, cells, run = prepare(RunOptions(tmp_path / "run", selection, claims=book), config)
    assert cells and {c.claim.kip for c in cells} == {"KIP-525"}
    written = json.loads((tmp_path / "run" / "run.json").read_text())
    assert written["claims"] == {"dir": str(book), "files": ["KIP-525.toml"], "sha256": claims_digest(book)}
    (book / "KIP-525.toml").write_text((book / "KIP-525.toml").read_text().replace("num_partitions = 3", "num_partitions = 4"))
    with pytest.raises(ConfigError, match="the claims in .* changed since the run started"):
        prepare(RunOptions(tmp_path / "run", resume=True), config)
    draft = tmp_path / "draft"  # a claim book (loaded once per directory) for a document no module names
    draft.mkdir()
    _write(draft / "KIP-1.toml", GOOD)
    _, cells, _ = prepare(RunOptions(tmp_path / "other", Selection.of("2.4", "default", "wire", ("KIP-1",)),
                                     claims=draft), config)
    assert {c.cell.id for c in cells} == {"KIP-1/one[2.4.1-zk|wire]", "KIP-1/one[2.4.1-zk|wire@v4]",
                                          "KIP-1/one[2.4.1-zk|wire@v5]"}


def _collected(tmp_path: Path, *args: str) -> list[str]:
    """The cell ids ``pytest scenarios`` collects (nothing boots: --collect-only)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("KCOMPAT_")}
    done = subprocess.run([sys.executable, "-m", "pytest", str(SRC / "scenarios"), "--collect-only", "-q",
                           "-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:xdist", "--import-mode=importlib",
                           "--kc-run-dir", str(tmp_path / "run"), "--kc-cache-dir", str(tmp_path / "cache"), *args],
                          capture_output=True, text=True, timeout=300, check=False, cwd=ROOT, env=env)
    assert done.returncode in (0, 5), done.stdout + done.stderr
    return [line.split("::test_cell[", 1)[1][:-1] for line in done.stdout.splitlines() if "::test_cell[" in line]


def test_pytest_scenarios_collects_every_document_of_the_book(tmp_path: Path) -> None:
    """No document needs a module of its own: a book's new document gets its cells, and -m selects it."""
    import shutil

    book = tmp_path / "book"
    book.mkdir()
    shutil.copy(claims_dir() / "KIP-525.toml", book)
    _write(book / "KIP-1.toml", GOOD)
    selection = ("--kc-claims", str(book), "--kc-brokers", "2.6", "--kc-clients", "wire")
    cells = _collected(tmp_path, *selection)
    assert {cell.split("/")[0] for cell in cells} == {"KIP-1", "KIP-525"}
    assert "KIP-1/one[2.6.3-zk|wire@v5]" in cells
    assert _collected(tmp_path, *selection, "-m", "kip1") == [c for c in cells if c.startswith("KIP-1/")]


SHARED = '''kip = "KIP-1"
title = "t"
source = "x.md"

[fallbacks.not-populated]
quote = "not populated."
observe = { configs = { absent = true } }

[[claim]]
id = "one"
section = "s"
api = "CreateTopics"
versions = "5+"
probe = "create_topic"

  [[claim.expect]]
  quote = "q"
  observe = { error = "NONE" }

  [[claim.fallback]]
  use = "not-populated"

[[claim]]
id = "two"
section = "s"
api = "CreateTopics"
versions = "5+"
probe = "create_topic"

  [[claim.expect]]
  quote = "q2"
  observe = { error = "NONE" }

  [[claim.fallback]]
  use = "not-populated"

  [[claim.fallback]]
  limited_by = ["broker"]
  clients = ["java"]
  quote = "throw."
  observe = { configs = { raises = "UnsupportedVersionException" } }
'''
"""Two claims sharing one named fallback; the second adds one of its own."""


def test_a_shared_fallback_loads_as_if_written_in_each_claim(tmp_path: Path) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, SHARED)
    one, two = load_claims_file(path).claims
    inline = tmp_path / "inline"
    inline.mkdir()
    copy = ('  limited_by = ["broker", "client", "both"]\n  quote = "not populated."\n'
            '  observe = { configs = { absent = true } }')
    _write(inline / "KIP-1.toml", SHARED.replace('  use = "not-populated"', copy)
                                        .replace('[fallbacks.not-populated]\nquote = "not populated."\n'
                                                 'observe = { configs = { absent = true } }\n', ''))
    copied = load_claims_file(inline / "KIP-1.toml").claims
    assert (one.fallback, two.fallback) == (copied[0].fallback, copied[1].fallback)
    assert one.fallback[0].limited_by == ("broker", "client", "both")  # no limited_by: every short side
    assert [f.limited_by for f in two.fallback] == [("broker", "client", "both"), ("broker",)]


@pytest.mark.parametrize(("change", "line", "reason"), [
    (('  [[claim.fallback]]\n  use = "not-populated"\n\n[[claim]]',
      '  [[claim.fallback]]\n  use = "not-populatd"\n\n[[claim]]'),
     21, "unknown fallback 'not-populatd'; this file names not-populated"),
    (('  [[claim.fallback]]\n  use = "not-populated"\n\n[[claim]]',
      '  [[claim.fallback]]\n  use = "not-populated"\n  quote = "q"\n\n[[claim]]'),
     21, "a [[claim.fallback]] with use = 'not-populated' takes fallbacks.not-populated as written; quote belong"),
    (('observe = { configs = { absent = true } }\n\n[[claim]]',
      'observe = { configs = { absent = true } }\n\n[fallbacks.unused]\nquote = "q"\n'
      'observe = { error = "NONE" }\n\n[[claim]]'),
     9, "fallbacks.unused is used by no claim"),
    (('[fallbacks.not-populated]', '[fallbacks.Not_Populated]'), 5,
     "fallback name 'Not_Populated' is lower-case words"),
    (('observe = { configs = { absent = true } }\n\n[[claim]]',
      'observe = { methods = { absent = true } }\n\n[[claim]]'),
     7, "[fallbacks.not-populated] (used by KIP-1/one): probe create_topic does not observe 'methods'"),
    (('quote = "not populated."\n', 'quote = "not populated."\ncolour = "red"\n'), 7,
     "unknown key 'colour' in [fallbacks.not-populated] (used by KIP-1/one)"),
    (('quote = "not populated."\n', 'quote = "not populated."\nlimited_by = []\n'), 7,
     "limited_by names the short side(s) (broker, client, both); leave it out for every side"),
    (('quote = "not populated."', 'quote = "not said anywhere."'), 6,
     "KIP-1/one: quote not found in x.md: 'not said anywhere.'"),
    (('[fallbacks.not-populated]\nquote = "not populated."\nobserve = { configs = { absent = true } }',
      'fallbacks = 3'), 5,
     "fallbacks is a table of named fallbacks ([fallbacks.NAME])"),
])
def test_a_bad_shared_fallback_names_file_line_and_reason(tmp_path: Path, change: tuple[str, str], line: int,
                                                          reason: str) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, SHARED.replace(*change))
    with pytest.raises(ClaimError) as caught:
        load_claims_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert reason in message, message
    assert "\n" not in message


def test_a_fallback_for_every_side_may_leave_limited_by_out(tmp_path: Path) -> None:
    path = tmp_path / "KIP-1.toml"
    _write(path, GOOD.replace('  limited_by = ["broker", "client", "both"]\n', ""))
    assert load_claims_file(path).claims[0].fallback[0].limited_by == ("broker", "client", "both")


def _expanded(text: str) -> str:
    """A claims file with every ``use = "NAME"`` replaced by its ``[fallbacks.NAME]`` table's lines."""
    tables: dict[str, list[str]] = {}
    kept: list[str] = []
    name = None
    for line in text.splitlines():
        header = re.match(r"\[fallbacks\.([a-z0-9-]+)\]$", line)
        if header:
            name = header.group(1)
            tables[name] = []
        elif name is not None and (line.startswith("[") or line.startswith("# ")):
            name = None
        if name is not None:
            if not header and line.strip():
                tables[name].append("  " + line)
            continue
        kept.append(line)
    expanded = []
    for line in kept:
        use = re.match(r'\s*use = "([a-z0-9-]+)"$', line)
        expanded += tables[use.group(1)] if use else [line]
    return "\n".join(expanded) + "\n"


def test_every_shared_fallback_of_the_book_loads_as_its_copies_would(tmp_path: Path) -> None:
    """The installed book's ``use`` lines, written out as the tables they name, load as the same claims."""
    shared = 0
    for path in claim_files(claims_dir()):
        text = path.read_text()
        shared += len(re.findall(r"^\s*use = ", text, re.M))
        (tmp_path / path.name).write_text(_expanded(text))  # its source: the installed one, found by name
        if (parts := path.with_suffix("")).is_dir():  # a document split into DOCS-x/*.toml parts: them too
            (tmp_path / parts.name).mkdir(exist_ok=True)
            for part in parts.glob("*.toml"):
                shared += len(re.findall(r"^\s*use = ", part.read_text(), re.M))
                (tmp_path / parts.name / part.name).write_text(_expanded(part.read_text()))
        loaded, copied = load_claims_file(path), load_claims_file(tmp_path / path.name)
        assert not re.search(r"^\s*use = ", (tmp_path / path.name).read_text(), re.M)
        assert [(c.id, c.expect, c.fallback) for c in loaded.claims] == \
               [(c.id, c.expect, c.fallback) for c in copied.claims], path.name
    assert shared >= 30
