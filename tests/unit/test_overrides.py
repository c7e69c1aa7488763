"""A KIP's words about other documents' older pairs: which one decides a cell, and the books that can't load."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from kcompat.harness.matrix.claims import Claim, ClaimError, Documented, claims_dir, load_claim_book
from kcompat.harness.matrix.overrides import Override, attach
from kcompat.harness.matrix.verdict import Limits, documented_for, judge, refusal_documented
from kcompat.harness.versions import KafkaVersion
from tests.console import kcompat

TEXT = "The topic is created. Older brokers return no configs. Old versions are gone."
CLAIM = '''
[[claim]]
id = "created"
section = "Public Interfaces"
api = "CreateTopics"
versions = "5+"
probe = "create_topic"

  [[claim.expect]]
  quote = "The topic is created."
  observe = { error = "NONE" }

  [[claim.fallback]]
  quote = "Older brokers return no configs."
  observe = { configs = { absent = true } }
'''


def _provenance(text: str) -> str:
    digest = hashlib.sha256(text.encode()).hexdigest()
    return (f'source_url = "https://cwiki.apache.org/confluence/display/KAFKA/KIP"\nretrieved = "2026-11-28"\n'
            f'source_sha256 = "{digest}"\n')


def _book(tmp_path: Path, **documents: str) -> Path:
    """A claim book of ``KIP-N = body`` files, each with the one text beside it and its true sha256."""
    book = tmp_path / "book"
    book.mkdir(parents=True)
    (book / "kip.md").write_text(TEXT)
    for kip, body in documents.items():
        kip = kip.replace("_", "-")
        (book / f"{kip}.toml").write_text(f'kip = "{kip}"\nsource = "kip.md"\n{_provenance(TEXT)}{body}')
    return book


def _override(claims: str = '["KIP-1/created"]', observe: str = "{ configs = { null = true } }",
              extra: str = "") -> str:
    return (f'\n[[overrides]]\nclaims = {claims}\nlimited_by = ["broker"]\nsection = "Compatibility"\n'
            f'quote = "Older brokers return no configs."\nobserve = {observe}\n{extra}')


def _plan(book: Path) -> tuple[int, str]:
    done = kcompat("run", "--plan", "--claims", str(book), "--brokers", "2.3", "--clients", "wire")
    return done.returncode, (done.stderr or done.stdout).strip()


def test_a_statement_about_a_claim_that_documents_its_own_older_pairs_is_one_line(tmp_path: Path) -> None:
    """A KIP claim's own fallback speaks for its older pairs; another KIP's word would never decide them."""
    code, said = _plan(_book(tmp_path, KIP_1=CLAIM, KIP_2=_override(observe="{ configs = { absent = true } }")))
    assert code == 2 and len(said.splitlines()) == 1, said
    assert "KIP-2.toml:" in said and "KIP-1/created says what its own older pairs observe" in said


def test_two_documents_of_one_rank_that_disagree_on_a_javadoc_cell_are_one_error_naming_both() -> None:
    claim = SimpleNamespace(id="DOCS-admin/created", kip="DOCS-admin", probe="create_topic", method="createTopics")
    errors: list[str] = []

    def error(text: str) -> ClaimError:
        errors.append(text)
        return ClaimError(text)

    first, second = _statement(), dataclasses.replace(_statement(), document="KIP-8", where="KIP-8.toml:9",
                                                       observe={"configs": {"null": True}})
    with pytest.raises(ClaimError):
        attach([claim], [first, second], error)
    assert len(errors) == 1 and errors[0].startswith("KIP-8.toml:9: KIP-8 and KIP-7 (KIP-7.toml:3) document "
                                                     "DOCS-admin/created differently"), errors
    assert "configs" in errors[0] and "limited by broker" in errors[0]
    other_client = dataclasses.replace(second, clients=("java",))
    only_java = dataclasses.replace(first, clients=("confluent",))
    assert attach([claim], [only_java, other_client], error) == {"DOCS-admin/created": (only_java, other_client)}
    agreeing = dataclasses.replace(second, observe=first.observe)
    said = attach([claim], [first, agreeing], error)["DOCS-admin/created"]
    documented = documented_for(_javadoc_claim(*said), "wire", "broker", KafkaVersion.parse("2.3.1"))
    assert documented["decided_by"] == "KIP-7, KIP-8"  # both documents say it: both are named


def test_case_of_the_wrong_type_is_one_line(tmp_path: Path) -> None:
    code, said = _plan(_book(tmp_path, KIP_1=CLAIM, KIP_2=_override(extra='case = ["short"]\n')))
    assert code == 2 and "case is \"short\"" in said and len(said.splitlines()) == 1, said


def test_a_text_changed_after_its_claims_were_written_is_refused_naming_file_and_digest(tmp_path: Path) -> None:
    book = _book(tmp_path, KIP_1=CLAIM)
    (book / "kip.md").write_text(TEXT + " Added later.")
    code, said = _plan(book)
    assert code == 2 and len(said.splitlines()) == 1, said
    assert "KIP-1.toml:" in said and "kip.md" in said and "sha256" in said


def test_provenance_is_all_three_keys_or_none(tmp_path: Path) -> None:
    book = _book(tmp_path, KIP_1=CLAIM)
    path = book / "KIP-1.toml"
    path.write_text("\n".join(line for line in path.read_text().splitlines() if not line.startswith("retrieved")))
    code, said = _plan(book)
    assert code == 2 and "without retrieved" in said, said


def test_an_override_naming_no_claim_or_a_key_its_probe_lacks_is_one_line(tmp_path: Path) -> None:
    code, said = _plan(_book(tmp_path, KIP_1=CLAIM, KIP_2=_override(claims='["KIP-9/*"]')))
    assert code == 2 and "names no claim of another document: KIP-9/*" in said, said
    claim = SimpleNamespace(id="DOCS-admin/created", kip="DOCS-admin", probe="create_topic", method="createTopics")
    with pytest.raises(ClaimError, match="DOCS-admin/created's probe create_topic does not observe 'voters'"):
        attach([claim], [dataclasses.replace(_statement(), observe={"voters": 3})], ClaimError)
    code, said = _plan(_book(tmp_path / "c", KIP_1=CLAIM, KIP_2=_override(extra='case = "removed"\n')))
    assert code == 2 and "observe = { refused = true }" in said, said


def test_a_quote_the_overriding_document_does_not_say_is_refused(tmp_path: Path) -> None:
    body = _override(observe="{ configs = { absent = true } }").replace("Older brokers return no configs.",
                                                                       "Older brokers return every config.")
    code, said = _plan(_book(tmp_path, KIP_1=CLAIM, KIP_2=body))
    assert code == 2 and "quote not found" in said and "KIP-2.toml:" in said, said


def _javadoc_claim(*overrides: Override) -> Claim:
    refused = Documented("This operation is supported by brokers with version 2.4.0 or higher.", {"refused": True},
                         (), ("broker", "client", "both"))
    return Claim("DOCS-admin/created", "DOCS-admin", "Admin.createTopics", "CreateTopics", 5, None, "create_topic",
                 {}, (Documented("s", {"error": "NONE"}),), (refused,), method="createTopics",
                 bound={"release": "3.9.1", "has_method": True}, overrides=overrides)


def _statement(case: str = "short", since: str | None = None, clients: tuple[str, ...] = ()) -> Override:
    observe = {"refused": True} if case == "removed" else {"configs": {"absent": True}}
    return Override("KIP-7", "KIP-7.toml:3", ("DOCS-admin/*",), case, ("broker",), clients,  # type: ignore[arg-type]
                    "Compatibility", f"KIP-7 says ({case}).", observe,
                    KafkaVersion.parse(since) if since else None)


def test_the_introducing_kip_decides_a_short_cell_before_the_javadoc_minimum() -> None:
    claim = _javadoc_claim(_statement())
    documented = documented_for(claim, "confluent", "broker", KafkaVersion.parse("2.3.1"))
    assert (documented["decided_by"], documented["precedence"]) == ("KIP-7", "introduced")
    assert documented["expect"] == {"configs": {"absent": True}} and documented["quotes"] == ["KIP-7 says (short)."]
    plain = documented_for(_javadoc_claim(), "confluent", "broker", KafkaVersion.parse("2.3.1"))
    assert (plain["decided_by"], plain["precedence"], plain["expect"]) == ("DOCS-admin", "javadoc",
                                                                           {"refused": True})


def test_a_statement_for_other_clients_or_brokers_leaves_the_javadoc_to_decide() -> None:
    for statement in (_statement(clients=("java",)), _statement(since="3.0")):
        documented = documented_for(_javadoc_claim(statement), "confluent", "broker", KafkaVersion.parse("2.3.1"))
        assert documented["precedence"] == "javadoc", statement
    in_range = documented_for(_javadoc_claim(_statement()), "confluent", None, KafkaVersion.parse("3.9.1"))
    assert (in_range["decided_by"], in_range["precedence"]) == ("DOCS-admin", "claim")


def test_kip_896_decides_a_removed_version_before_the_generated_refusal() -> None:
    limits = Limits(broker_max=7, client_max=4, broker_min=5, broker_version=KafkaVersion.parse("4.0.0"))
    claim = _javadoc_claim(_statement("removed", since="4.0"))
    documented = refusal_documented(claim, limits, "java")
    assert (documented["decided_by"], documented["precedence"], documented["expect"]) == (
        "KIP-7", "removal", {"refused": True})
    assert documented["quotes"] == ["KIP-7 says (removed)."] and documented["broker_versions"] == {"min": 5, "max": 7}
    older = dataclasses.replace(limits, broker_version=KafkaVersion.parse("3.9.0"))
    assert refusal_documented(claim, older, "java")["precedence"] == "generated"
    verdict = judge(claim, "java", limits, {"exception": "UnsupportedVersionException"})
    assert verdict.outcome == "unsupported" and verdict.documented["decided_by"] == "KIP-7"


def test_a_client_that_refuses_where_a_kip_says_older_brokers_answer_deviates() -> None:
    """The generated refusal would call it ``unsupported``; the KIP's word makes the refusal a finding."""
    claim = _javadoc_claim(_statement())
    limits = Limits(broker_max=4, client_max=7, broker_version=KafkaVersion.parse("2.3.1"))
    verdict = judge(claim, "java", limits, {"exception": "UnsupportedVersionException", "configs": {"a": 1}})
    assert verdict.outcome == "deviation" and verdict.documented["decided_by"] == "KIP-7"
    assert judge(_javadoc_claim(), "java", limits, {"exception": "UnsupportedVersionException"}).outcome == (
        "unsupported")


def test_every_document_of_the_installed_book_says_where_its_text_came_from() -> None:
    book = load_claim_book(claims_dir())
    for document in book.kips.values():
        if not document.is_javadoc:
            assert document.provenance is not None, f"{document.kip} has no source_url/retrieved/source_sha256"


@pytest.mark.parametrize(("line", "said"), [
    ('retrieved = "２０２６-11-28"', "retrieved is the day the text was read"),
    ('retrieved = "2026-13-45"', "retrieved is the day the text was read"),
    ('source_url = "javascript:alert(1)"', "source_url is the http(s) address"),
    ('source_sha256 = "X"', "64 lower-case hex digits"),
])
def test_provenance_that_is_not_a_day_an_address_or_a_digest_is_one_line(tmp_path: Path, line: str,
                                                                          said: str) -> None:
    book = _book(tmp_path, KIP_1=CLAIM)
    path = book / "KIP-1.toml"
    key = line.split(" = ")[0]
    path.write_text("\n".join(line if row.startswith(key + " ") else row for row in path.read_text().splitlines()))
    code, out = _plan(book)
    assert code == 2 and said in out and "KIP-1.toml:" in out and len(out.splitlines()) == 1, out


def test_a_release_bound_in_look_alike_digits_is_one_line_naming_the_file(tmp_path: Path) -> None:
    code, said = _plan(_book(tmp_path, KIP_1=CLAIM, KIP_2=_override(
        observe="{ configs = { absent = true } }", extra='brokers = ">=４.0"\n')))
    assert code == 2 and "KIP-2.toml:" in said and "release bound" in said, said
