"""Claim books, profiles and known-deviations files a user hands to ``kcompat``, as the user types it.

Every bad file is one ``kcompat: error: FILE[:LINE]: reason`` line and exit 1 before anything boots; the
installed console script runs (a subprocess), never the click group behind it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kcompat.harness.matrix.claims import claims_dir

KCOMPAT = str(Path(sys.executable).parent / "kcompat")
KIP525 = (claims_dir() / "KIP-525.toml").read_text()
QUOTE = 'quote = "Add the configs and their metadata to CreateTopicsResponse as they are provided by the DescribeConfigs.'


def _kcompat(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCOMPAT_")}
    return subprocess.run([KCOMPAT, *args], capture_output=True, text=True, timeout=120, check=False, cwd=cwd,
                          env=env)


def _refused(done: subprocess.CompletedProcess[str], *said: str) -> str:
    assert done.returncode in (1, 2), (done.returncode, done.stdout, done.stderr)  # 2: a bad --claims is a usage error
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kcompat: error: "), done.stderr
    for words in said:
        assert words in lines[0], lines[0]
    return lines[0]


def _run_with(book: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return _kcompat("run", "--claims", str(book), "--kip", "KIP-525", "--brokers", "2.6", "--clients", "wire",
                    "--out", str(tmp_path / "run"))


def _book(tmp_path: Path, text: str | bytes) -> Path:
    book = tmp_path / "book"
    book.mkdir(exist_ok=True)
    (book / "KIP-525.toml").write_bytes(text if isinstance(text, bytes) else text.encode())
    return book


def test_a_quote_the_kip_does_not_say_is_refused_with_its_line(tmp_path: Path) -> None:
    first = next(line for line in KIP525.splitlines() if line.strip().startswith("quote = "))
    invented = KIP525.replace(first, '  quote = "CreateTopics v5 returns every config, always, on every broker."', 1)
    book = _book(tmp_path, invented)
    line = invented.splitlines().index('  quote = "CreateTopics v5 returns every config, always, on every broker."') + 1
    _refused(_run_with(book, tmp_path), f"{book / 'KIP-525.toml'}:{line}: ", "quote not found in",
             "returns every config")
    assert not (tmp_path / "run").exists()


def test_a_user_book_may_bring_its_own_source_beside_it(tmp_path: Path) -> None:
    book = _book(tmp_path, KIP525.replace('source = "KIP-525-createtopics-returns-configs.md"', 'source = "mine.md"'))
    _refused(_run_with(book, tmp_path), "source 'mine.md' is neither beside the claims")
    shutil.copy(claims_dir().parent / "sources" / "KIP-525-createtopics-returns-configs.md", book / "mine.md")
    done = _kcompat("run", "--claims", str(book), "--kip", "KIP-525", "--brokers", "9.9", "--clients", "wire",
                    "--out", str(tmp_path / "run"))
    _refused(done, "9.9")  # the book loaded; the unknown broker is what stops this run


HEAD = 'kip = "KIP-525"\ntitle = "t"\nsource = "KIP-525-createtopics-returns-configs.md"\n'
CLAIM = '[[claim]]\nid = "x"\nsection = "s"\napi = "CreateTopics"\nversions = "5+"\nprobe = "create_topic"\n'


@pytest.mark.parametrize("text, said", [
    (KIP525.replace('id = "create-returns-configs"', 'id = "create-returns-configs\\n"', 1),
     "is lower-case words joined by '-'"),
    (HEAD + "claim = 5\n", "claim is a list of tables"),
    (HEAD + CLAIM + "expect = 5\n", "expect is a list of tables"),
    (HEAD + CLAIM + "fallback = \"x\"\n", "fallback is a list of tables"),
    (HEAD + "not_testable = [{ section = 1, statement = 2, reason = 3 }]\n", "[[not_testable]] has section"),
], ids=["id-with-newline", "claim-int", "expect-int", "fallback-string", "not-testable-ints"])
def test_a_malformed_book_is_one_line(tmp_path: Path, text: str, said: str) -> None:
    _refused(_run_with(_book(tmp_path, text), tmp_path), said)


def test_unreadable_books_are_one_line(tmp_path: Path) -> None:
    _refused(_run_with(_book(tmp_path, b"kip = \"KIP-525\"\n\xff\xfe"), tmp_path), "not UTF-8")
    deep = _book(tmp_path, "x = " + "[" * 20_000 + "]" * 20_000 + "\n")
    _refused(_run_with(deep, tmp_path), "nested too deeply")
    shutil.rmtree(tmp_path / "book")
    (tmp_path / "book" / "KIP-525.toml").mkdir(parents=True)
    _refused(_run_with(tmp_path / "book", tmp_path), "cannot read", "Is a directory")
    (tmp_path / "book" / "KIP-525.toml").rmdir()
    os.symlink("KIP-525.toml", tmp_path / "book" / "KIP-525.toml")
    _refused(_run_with(tmp_path / "book", tmp_path), "cannot read", "symbolic links")



@pytest.mark.parametrize("source", ["/dev/zero", "../../../etc/passwd", "sub/KIP-525.md", ".hidden.md", "KIP.toml"])
def test_a_source_is_a_file_name_never_a_path_or_a_device(tmp_path: Path, source: str) -> None:
    """A book's `source` names its text beside it or in the installed sources: nothing climbs out, and a
    device (which would never end) is never read."""
    original = (claims_dir() / "KIP-525.toml").read_text()
    named = re.search(r'^source = "([^"]+)"$', original, re.M)
    assert named is not None
    book = _book(tmp_path, original.replace(named.group(0), f"source = {json.dumps(source)}"))
    _refused(_run_with(book, tmp_path), "source is the file name of the document's text")


def test_a_book_file_that_is_a_device_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "book").mkdir()
    os.symlink("/dev/zero", tmp_path / "book" / "KIP-525.toml")
    _refused(_run_with(tmp_path / "book", tmp_path), "not a regular file")

PROFILE = '''[profiles.p]
brokers = ["9.9"]
clients = ["wire"]
kips = ["KIP-525"]
'''


def test_qualify_runs_the_installed_kcompat_whatever_the_working_directory(tmp_path: Path) -> None:
    hostile = tmp_path / "cwd" / "kcompat"
    hostile.mkdir(parents=True)
    (hostile / "__init__.py").write_text("open(__file__ + '.ran', 'w').write('ran')\nraise SystemExit('hostile')\n")
    (hostile / "cli.py").write_text("def run():\n    raise SystemExit('hostile cli')\n")
    (tmp_path / "p.toml").write_text(PROFILE.replace('["9.9"]', '["2.6"]'))
    done = _kcompat("qualify", "--profile", str(tmp_path / "p.toml"), "--out", str(tmp_path / "q"), "-n", "0",
                    "--resume", cwd=tmp_path / "cwd")
    assert done.returncode == 1
    assert not (hostile / "__init__.py.ran").exists() and "hostile" not in done.stderr
    assert "has no run.json" in done.stderr  # the child kcompat run's own refusal: there is nothing to resume


@pytest.mark.parametrize("text, said", [
    (b"[profiles.p]\nbrokers = [\"3.9\"]\xff\n", "not UTF-8"),
    ("x = " + "[" * 20_000 + "]" * 20_000 + "\n", "nested too deeply"),
    (PROFILE.replace('["9.9"]', '["3.9\\n"]'), "is not a Kafka version"),
    (PROFILE.replace('["wire"]', '["wire\\n"]'), "is not a client"),
    (PROFILE.replace('["KIP-525"]', '["KIP-525\\n"]'), "is not a KIP"),
    (PROFILE, "p.toml:1: profile p: Kafka 9.9 is not in the catalog"),  # planned before anything runs
])
def test_a_bad_profile_is_one_line(tmp_path: Path, text: str | bytes, said: str) -> None:
    (tmp_path / "p.toml").write_bytes(text if isinstance(text, bytes) else text.encode())
    _refused(_kcompat("qualify", "--profile", str(tmp_path / "p.toml"), "--out", str(tmp_path / "q")), said)


def test_known_deviations_lines_are_right_and_bad_files_are_one_line(tmp_path: Path) -> None:
    from kcompat.reports.qualify import parse_known_deviations

    known = tmp_path / "known.toml"
    known.write_text('[[deviation]]\ncell = "KIP-525/a[2.4.1-zk|*]"\nreason = """one\n[[deviation]]\nstill one"""\n'
                     'reviewed_by = "a"\n\n[[deviation]]\ncell = "KIP-525/b[*]"\nreason = "r"\nreviewed_by = "b"\n')
    assert [e.line for e in parse_known_deviations(known)] == [1, 8]
    (tmp_path / "p.toml").write_text(PROFILE + 'known_deviations = "known.toml"\n')
    known.write_bytes(b'[[deviation]]\ncell = "\xff"\n')
    _refused(_kcompat("qualify", "--profile", str(tmp_path / "p.toml"), "--out", str(tmp_path / "q")),
             str(known), "not UTF-8")


def test_a_known_deviation_accepting_several_claims_is_reported(tmp_path: Path) -> None:
    from kcompat.harness.records import Record
    from kcompat.reports.qualify import classify, parse_known_deviations

    known = tmp_path / "known.toml"
    known.write_text('[[deviation]]\ncell = "*"\nreason = "all fine"\nreviewed_by = "nobody"\n')
    records = [Record(run_id="r", cell_id=f"KIP-525/{claim}[2.4.1-zk|wire]", kip="KIP-525",
                      claim_id=f"KIP-525/{claim}", api="CreateTopics", broker_version="2.4.1", broker_mode="zk",
                      provider="process", client_kind="wire", client_version="0.5.0", outcome="deviation")
               for claim in ("a", "b")]
    lines = classify(records, parse_known_deviations(known)).lines()
    assert any(line.startswith(f"broad known deviation {known}:1: * accepted deviations of 2 claims and matches "
                               "every cell") for line in lines), lines
    assert json.dumps(lines)  # plain text, one line each
