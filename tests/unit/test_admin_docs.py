"""DOCS-admin's documented side, on crafted javadoc and claims: what the extractor reads, what a cell expects."""

from __future__ import annotations

import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from kcompat.harness.errors import ArtifactError
from kcompat.harness.matrix.admin_docs import AdminDocs, bind, extract, parse_admin, read_statements
from kcompat.harness.matrix.claims import BOUND_QUOTE, REFUSED, Claim, load_claims_file
from kcompat.harness.matrix.verdict import Limits, judge
from kcompat.harness.versions import KafkaVersion

ADMIN = '''package org.apache.kafka.clients.admin;

public interface Admin extends AutoCloseable {

    /**
     * Create a new Admin with the given configuration.
     */
    static Admin create(Properties props) {
        return KafkaAdminClient.createInternal(new AdminClientConfig(props, true), null);
    }

    /**
     * Create a batch of new topics.
     * <p>
     * This operation is supported by brokers with version 0.10.1.0 or higher. The validateOnly option is supported
     * from version 0.10.2.0.
     *
     * @param newTopics The new topics to create.
     * @return The CreateTopicsResult.
     */
    CreateTopicsResult createTopics(Collection<NewTopic> newTopics, CreateTopicsOptions options);

    /**
     * When using topic IDs, this operation is supported by brokers with inter-broker protocol 2.8 or higher.
     * When using topic names, this operation is supported by brokers with version 0.10.1.0 or higher.
     */
    @Deprecated
    default DeleteTopicsResult deleteTopics(TopicCollection topics) {
        return deleteTopics(topics, new DeleteTopicsOptions());
    }

    /**
     * Elect a replica as leader.
     * <p>
     * This operation is supported by brokers with version 2.2.0 or later if preferred election is use;
     * otherwise the brokers most be 2.4.0 or higher.
     */
    ElectLeadersResult electLeaders(ElectionType electionType, Set<TopicPartition> partitions, ElectLeadersOptions o);

    /**
     * Describe producers.
     */
    DescribeProducersResult describeProducers(Collection<TopicPartition> partitions);

    /**
     * This is supported by brokers of the newest kind only, whatever that means.
     */
    FenceProducersResult fenceProducers(Collection<String> transactionalIds);
}
'''

OLD_ADMIN = '''public abstract class AdminClient implements AutoCloseable {
    /**
     * See the overload for more details.*
     *
     * This operation is supported by brokers with version 2.3.0 or higher.
     */
    public AlterConfigsResult incrementalAlterConfigs(Map<ConfigResource, Collection<AlterConfigOp>> configs) {
        return incrementalAlterConfigs(configs, new AlterConfigsOptions());
    }

    /**
     * Internal: not a public method.
     *
     * This operation is supported by brokers with version 9.9.9 or higher.
     */
    protected abstract void internal();
}
'''


def test_every_public_method_with_its_statements_verbatim() -> None:
    methods = parse_admin(ADMIN, "org/apache/kafka/clients/admin/Admin.java")
    assert list(methods) == ["create", "createTopics", "deleteTopics", "electLeaders", "describeProducers",
                             "fenceProducers"]
    assert methods["create"].static and not methods["create"].statements
    create = {s.selector: (s.minimum, s.sentence) for s in methods["createTopics"].statements}
    assert create == {"method": ("0.10.1.0", "This operation is supported by brokers with version 0.10.1.0 or "
                                             "higher."),
                      "validateOnly": ("0.10.2.0", "The validateOnly option is supported from version 0.10.2.0.")}
    assert methods["createTopics"].statement("method").line == 15  # type: ignore[union-attr]
    assert {s.selector: s.minimum for s in methods["deleteTopics"].statements} == {"topicIds": "2.8",
                                                                                   "topicNames": "0.10.1.0"}
    assert {s.selector: s.minimum for s in methods["electLeaders"].statements} == {"preferred": "2.2.0",
                                                                                   "unclean": "2.4.0"}
    assert methods["describeProducers"].statements == () and methods["describeProducers"].unparsed == ()
    # a sentence about broker support that no rule reads is kept, to be shown with that reason
    assert methods["fenceProducers"].unparsed == ("This is supported by brokers of the newest kind only, whatever "
                                                  "that means.",)


def test_an_abstract_class_before_2_4_lists_its_public_methods_only() -> None:
    methods = parse_admin(OLD_ADMIN, "org/apache/kafka/clients/admin/AdminClient.java")
    assert list(methods) == ["incrementalAlterConfigs"]  # the protected one is not the public interface
    (statement,) = methods["incrementalAlterConfigs"].statements
    # the source's own stray '*' after a full stop does not glue two sentences into one quote
    assert statement.sentence == "This operation is supported by brokers with version 2.3.0 or higher."


def test_a_sentence_without_broker_support_is_no_statement() -> None:
    assert read_statements("Create a batch of new topics.", 1) == ([], False)
    statements, about = read_statements("The following exceptions can be anticipated: X if the request is not "
                                        "supported.", 1)
    assert statements == [] and not about


def _jar(tmp_path: Path, files: dict[str, str]) -> Path:
    jar = tmp_path / "kafka-clients-9.9.9-sources.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return jar


def test_extract_reads_the_interface_and_the_schemas_valid_versions(tmp_path: Path) -> None:
    jar = _jar(tmp_path, {"org/apache/kafka/clients/admin/Admin.java": ADMIN,
                          "common/message/DescribeProducersRequest.json": '{\n  "apiKey": 61,\n'
                                                                          '  "validVersions": "0",\n}'})
    docs = extract(jar, "9.9.9")
    assert docs.source == "org/apache/kafka/clients/admin/Admin.java"
    assert docs.schemas == {"DescribeProducers": '"validVersions": "0"'}
    assert AdminDocs.from_json(docs.as_json()) == docs  # what the cache holds reads back the same


def test_a_jar_without_the_interface_or_not_a_jar_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match="has neither .*Admin.java"):
        extract(_jar(tmp_path, {"README": "x"}), "9.9.9")
    broken = tmp_path / "broken.jar"
    broken.write_bytes(b"not a zip")
    with pytest.raises(ArtifactError, match="can't be read"):
        extract(broken, "9.9.9")


BOOK = '''kip = "DOCS-admin"
source = "javadoc:Admin"

[[claim]]
id = "create-topics"
method = "createTopics"
section = "Admin.createTopics"
api = "CreateTopics"
versions = "0+"
probe = "create_topic"

  [[claim.expect]]
  observe = { error = "NONE", created = true }
'''


@pytest.fixture
def claim(tmp_path: Path) -> Claim:
    path = tmp_path / "DOCS-admin.toml"
    path.write_text(BOOK)
    (loaded,) = load_claims_file(path).claims
    return loaded


def _bound(claim: Claim, *, has_method: bool = True, since: str | None = "0.10.1.0") -> Claim:
    quote = "This operation is supported by brokers with version 0.10.1.0 or higher."
    documented = tuple(replace(d, quote=quote) for d in (*claim.expect, *claim.fallback))
    return replace(claim, expect=documented[:1], fallback=documented[1:],
                   brokers_since=KafkaVersion.parse(since) if since else None,
                   bound={"release": "4.3.1", "has_method": has_method, "statement": "method"})


def _limits(broker: str, *, broker_max: int | None = 7, client_min: int | None = None) -> Limits:
    return Limits(broker_max, 7, 0, KafkaVersion.parse(broker), client_min)


WORKED = {"error": "NONE", "created": True, "exception": None}
REFUSAL = {"error": "UNSUPPORTED_VERSION", "created": False, "exception": "UnsupportedVersionException"}


def test_a_javadoc_claim_needs_no_quote_or_fallback_and_documents_the_refusal(claim: Claim) -> None:
    assert claim.method == "createTopics" and claim.statement == "method"
    assert claim.expect[0].quote == BOUND_QUOTE
    (fallback,) = claim.fallback
    assert fallback.observe == {REFUSED: True} and set(fallback.limited_by) == {"broker", "client", "both"}


def test_at_or_above_the_sentences_release_the_call_works_and_a_client_refusal_is_a_deviation(claim: Claim) -> None:
    bound = _bound(claim)
    assert judge(bound, "java", _limits("2.2.0"), WORKED).outcome == "pass"
    # kafka-clients 4.x refuses brokers older than 2.1 (its oldest versions are above theirs) though its
    # javadoc still says 0.10.1.0: the client's own documentation promised the pair
    refused = judge(bound, "java", _limits("0.10.2.2", broker_max=2, client_min=3), REFUSAL)
    assert refused.outcome == "deviation" and refused.limited_by is None
    assert {d["key"] for d in refused.differences} == {"error", "created"}


def test_below_the_sentences_release_the_refusal_is_unsupported_and_working_is_a_finding(claim: Claim) -> None:
    bound = _bound(claim, since="2.4.0")
    assert judge(bound, "java", _limits("2.2.0"), REFUSAL).outcome == "unsupported"
    worked = judge(bound, "java", _limits("2.2.0"), WORKED)
    assert worked.outcome == "deviation" and worked.limited_by == "broker"
    assert worked.differences == [{"key": REFUSED, "documented": True, "observed": False}]


def test_a_release_without_the_method_is_short_on_the_client_side(claim: Claim) -> None:
    bound = _bound(claim, has_method=False, since=None)
    absent = {"exception": "NoSuchMethodException"}
    verdict = judge(bound, "java", _limits("4.4.0"), absent)
    assert (verdict.outcome, verdict.limited_by) == ("unsupported", "client")
    assert verdict.documented["javadoc"]["has_method"] is False
    assert judge(bound, "confluent", _limits("4.4.0"), {"exception": "NotImplementedError"}).outcome == "unsupported"


def test_bind_leaves_a_claim_of_another_document_alone(claim: Claim) -> None:
    other = replace(claim, method=None)
    assert bind(other, "java", "4.4.0", None) is other  # type: ignore[arg-type]


def test_a_client_library_without_the_method_is_short_though_the_documenting_release_has_it(claim: Claim) -> None:
    """confluent-kafka lacks describeFeatures while kafka-clients documents it: asserted by the absence."""
    bound = _bound(claim)
    verdict = judge(bound, "confluent", _limits("3.9.0"), {"exception": "NotImplementedError"})
    assert (verdict.outcome, verdict.limited_by) == ("unsupported", "client")
    # a kafka-clients release documents itself: its own missing method where its javadoc has one is a finding
    assert judge(bound, "java", _limits("3.9.0"), {"exception": "NoSuchMethodException"}).outcome == "deviation"


def test_where_the_broker_refuses_the_clients_versions_a_missing_method_is_the_refusal_too(claim: Claim) -> None:
    """kafka-clients 2.3.1 has no abortTransaction and a 4.x broker refuses its old versions: either way the
    call is not made, as documented."""
    bound = _bound(claim, has_method=False, since=None)
    limits = Limits(7, 1, 2, KafkaVersion.parse("4.4.0"), 0)  # the broker's oldest is above the client's newest
    assert limits.refused
    assert judge(bound, "java", limits, {"exception": "NoSuchMethodException"}).outcome == "unsupported"


def test_a_claims_own_quote_is_looked_for_in_the_releases_javadoc_of_the_method() -> None:
    from kcompat.harness.matrix.admin_docs import _quoted
    from kcompat.harness.matrix.claims import Documented

    methods = parse_admin(ADMIN.replace("Describe producers.", "Describe producers. <ul><li>{@link org.apache.kafka."
                                        "common.errors.UnknownTopicOrPartitionException}\n     * If a given topic or "
                                        "partition does not exist.</li></ul>"), "org/apache/kafka/clients/admin/Admin.java")
    said = Documented("UnknownTopicOrPartitionException If a given topic or partition does not exist.", {"error": "X"})
    assert _quoted(said, methods["describeProducers"], "9.9.9") == said
    unsaid = _quoted(said, methods["createTopics"], "9.9.9")
    assert unsaid.quote.startswith("[not in kafka-clients 9.9.9's javadoc of createTopics] UnknownTopic")
    assert _quoted(said, None, "9.9.9").quote.startswith("[not in kafka-clients 9.9.9] ")


@pytest.mark.parametrize("part, words", [
    ('kip = "DOCS-admin"\n', "holds [[claim]] and [fallbacks.NAME] only, not 'kip'"),
    (BOOK.split("\n", 3)[3].replace('method = "createTopics"\n', ""), "names its Admin method"),
    (BOOK.split("\n", 3)[3].replace('method = "createTopics"', 'method = "../x"'), "names its Admin method"),
    (BOOK.split("\n", 3)[3].replace('versions = "0+"', 'versions = "0+"\nbrokers = ">=2.0"'),
     "release bound is its release's sentence"),
    ("[[claim]\nbroken", "bad.toml:1: not valid TOML"),
])
def test_a_bad_part_file_is_one_line_naming_it(tmp_path: Path, part: str, words: str) -> None:
    from kcompat.harness.matrix.claims import ClaimError

    (tmp_path / "DOCS-admin.toml").write_text(BOOK.replace("create-topics", "first"))
    (tmp_path / "DOCS-admin").mkdir()
    (tmp_path / "DOCS-admin" / "bad.toml").write_text(part)
    with pytest.raises(ClaimError) as raised:
        load_claims_file(tmp_path / "DOCS-admin.toml")
    message = str(raised.value)
    assert "\n" not in message and words in message, message
    assert "DOCS-admin/bad.toml" in message or "DOCS-admin.toml" in message


def test_a_claim_id_twice_across_parts_is_refused(tmp_path: Path) -> None:
    from kcompat.harness.matrix.claims import ClaimError

    (tmp_path / "DOCS-admin.toml").write_text(BOOK)
    (tmp_path / "DOCS-admin").mkdir()
    (tmp_path / "DOCS-admin" / "again.toml").write_text(BOOK.split("\n", 3)[3])
    with pytest.raises(ClaimError, match="again.toml:.*used twice"):
        load_claims_file(tmp_path / "DOCS-admin.toml")


OPTIONS = '''package org.apache.kafka.clients.admin;

public class CreateTopicsOptions extends AbstractOptions<CreateTopicsOptions> {

    /**
     * If states is set, only groups in these states will be returned.
     * This operation is supported by brokers with version 2.6.0 or later.
     */
    public CreateTopicsOptions inStates(Set<String> states) {
        return this;
    }

    /**
     * Only the 4.0 name of the same filter.
     * This operation is supported by brokers with version 2.6.0 or later.
     */
    public CreateTopicsOptions inGroupStates(Set<String> states) {
        return this;
    }

    /**
     * Specify if authorized operations should be included in the response.  Note that some
     * older brokers cannot not supply this information even if it is requested.
     */
    public boolean includeAuthorizedOperations() {
        return includeAuthorizedOperations;
    }
}
'''


def test_an_options_class_adds_its_setters_sentences_under_their_names(tmp_path: Path) -> None:
    options = "org/apache/kafka/clients/admin/CreateTopicsOptions.java"
    jar = _jar(tmp_path, {"org/apache/kafka/clients/admin/Admin.java": ADMIN, options: OPTIONS})
    method = extract(jar, "9.9.9").methods["createTopics"]
    states = method.statement("inStates")
    assert states is not None and states.minimum == "2.6.0" and states.source == options and states.line == 7
    assert method.statement("inGroupStates") is not None and method.statement("includeAuthorizedOperations") is None
    assert "older brokers cannot not supply" in method.text  # a claim may quote it
    assert method.statement("method") is not None and method.statement("method").source == ""  # Admin's own


def test_a_claim_naming_options_in_order_binds_the_first_the_release_documents(claim: Claim, tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from kcompat.harness.config import HarnessConfig
    from kcompat.harness.matrix import admin_docs

    options = "org/apache/kafka/clients/admin/CreateTopicsOptions.java"
    newer = extract(_jar(tmp_path, {"org/apache/kafka/clients/admin/Admin.java": ADMIN, options: OPTIONS}), "9.9.9")
    older = replace(newer, release="2.5.0", methods={**newer.methods, "createTopics": replace(
        newer.methods["createTopics"], statements=tuple(s for s in newer.methods["createTopics"].statements
                                                        if s.selector == "method"))})
    config = HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs")
    for docs in (newer, older):
        monkeypatch.setattr(admin_docs, "docs_or_older", lambda release, config, d=docs: (d, None))
        bound = bind(replace(claim, statement="inGroupStates|inStates"), "java", docs.release, config)
        assert bound.bound is not None
        if docs is newer:
            assert bound.bound["statement"] == "inGroupStates" and bound.bound["source"] == options
            assert bound.brokers_since == KafkaVersion.parse("2.6.0") and bound.bound["has_method"]
        else:  # a release without either setter can't express the option: the client is short
            assert bound.bound["has_method"] is False
            assert bound.expect[0].quote == "kafka-clients 2.5.0's createTopics says nothing of inGroupStates or inStates"


def test_a_client_that_drops_the_option_the_claim_asks_for_is_short_like_one_without_the_method(claim: Claim) -> None:
    """kafkajs can't ask for authorized operations: it describes the cluster without them and says so."""
    bound = replace(_bound(claim), args={"include_authorized_operations": True})
    dropped = {**WORKED, "unsupported_options": ["include_authorized_operations"]}
    verdict = judge(bound, "confluent", _limits("3.9.0"), dropped)
    assert (verdict.outcome, verdict.limited_by) == ("unsupported", "client")
    other = {**WORKED, "unsupported_options": ["include_documentation"]}  # an option the claim does not ask for
    assert judge(bound, "confluent", _limits("3.9.0"), other).outcome == "pass"
    filtered = replace(_bound(claim), args={"states": ["Empty"]})  # sarama lists groups without a states filter
    unfiltered = {**WORKED, "unsupported_options": ["states"]}
    assert judge(filtered, "confluent", _limits("3.9.0"), unfiltered).limited_by == "client"
    unasked = replace(_bound(claim), args={"states": [], "include_authorized_operations": False})
    assert judge(unasked, "confluent", _limits("3.9.0"), {**WORKED, "unsupported_options": ["states"]}).outcome \
        == "pass"


def test_on_a_broker_without_what_the_claim_requires_the_call_must_not_succeed(claim: Claim) -> None:
    from kcompat.harness.matrix.verdict import judge_without

    missing = ["ShareGroupDescribe"]
    found = judge_without(claim, missing, {"error": "GROUP_ID_NOT_FOUND", "exception": "GroupIdNotFoundException"})
    assert (found.outcome, found.limited_by) == ("unsupported", "broker")
    assert found.documented == {"case": "requires", "requires": missing, "expect": {"succeeded": False},
                                "decided_by": claim.kip, "precedence": "claim"}
    assert judge_without(claim, missing, {"exception": "NotImplementedError"}).limited_by == "both"
    succeeded = judge_without(claim, missing, {"error": "NONE", "exception": None})
    assert succeeded.outcome == "deviation" and succeeded.differences[0]["key"] == "succeeded"


def test_requires_names_apis(tmp_path: Path) -> None:
    from kcompat.harness.matrix.claims import ClaimError

    path = tmp_path / "DOCS-admin.toml"
    path.write_text(BOOK.replace('probe = "create_topic"', 'probe = "create_topic"\nrequires = ["ShareGroupDescribe"]'))
    assert load_claims_file(path).claims[0].requires == ("ShareGroupDescribe",)
    path.write_text(BOOK.replace('probe = "create_topic"', 'probe = "create_topic"\nrequires = ["ShareGroups"]'))
    with pytest.raises(ClaimError, match="unknown API 'ShareGroups' in requires"):
        load_claims_file(path)


def _offline_cache(tmp_path: Path, old_only: str = "") -> dict[str, str]:
    """The environment of a ``kcompat`` that reads the crafted ``ADMIN`` as every catalog release's javadoc from
    its cache, offline (``old_only``: a method the oldest release has and the newer ones have lost)."""
    import json
    import os

    from kcompat.harness.catalog import load_catalog
    from kcompat.harness.matrix.admin_docs import ADMIN_SOURCES

    cache = tmp_path / "cache"
    (cache / "admin-docs").mkdir(parents=True)
    releases = [str(c.version) for c in load_catalog().java_clients]
    for release in releases:
        text = ADMIN.replace("}\n'''", "")
        if old_only and release == releases[0]:
            text = ADMIN.replace("\n}\n", f"\n    /** Gone later. */\n    X {old_only}(Y y);\n}}\n")
        docs = AdminDocs(release, ADMIN_SOURCES[0], parse_admin(text, ADMIN_SOURCES[0]), {})
        (cache / "admin-docs" / f"kafka-clients-{release}.json").write_text(json.dumps(docs.as_json()))
    return {**{k: v for k, v in os.environ.items() if not k.startswith("KCOMPAT_")},
            "KCOMPAT_CACHE_DIR": str(cache), "KCOMPAT_OFFLINE": "1"}


@pytest.mark.parametrize("typo, key, said", [
    ('method = "createTopic"', "method", "method 'createTopic' is in no Admin javadoc it binds to; nearest: "
                                         "createTopics, create, deleteTopics (kafka-clients 0.11.0.3, 2.3.1, "),
    ('method = "createTopics"\nstatement = "validateOnli"', "statement",
     "statement 'validateOnli' is in no javadoc of createTopics it binds to; nearest: validateOnly (kafka-clients "
     "0.11.0.3, 2.3.1, "),
])
def test_a_name_no_release_has_is_a_load_error_with_the_nearest_names(tmp_path: Path, typo: str, key: str,
                                                                       said: str) -> None:
    from tests.console import kcompat

    env = _offline_cache(tmp_path)
    book = tmp_path / "book"
    book.mkdir()
    text = BOOK.replace('method = "createTopics"', typo)
    (book / "DOCS-admin.toml").write_text(text)
    line = next(i for i, raw in enumerate(text.splitlines(), 1) if raw.startswith(f"{key} = "))
    for args in (("run", "--plan", "--claims", str(book), "--clients", "wire,java:2.3.1"),
                 ("run", "--claims", str(book), "--clients", "wire", "--out", str(tmp_path / "run")),
                 ("clients", "admin-docs", "2.3.1", "--claims", str(book))):
        done = kcompat(*args, env=env, timeout=120)
        assert done.returncode in ((2,) if args[0] == "run" else (1, 2)), (done.returncode, done.stderr)
        assert "Traceback" not in done.stderr, done.stderr
        (message,) = done.stderr.strip().splitlines()
        assert f"{book / 'DOCS-admin.toml'}:{line}: DOCS-admin/create-topics: " in message, message
        assert said in message, message
    assert not (tmp_path / "run").exists()  # refused before the run directory, or anything else, is made
    ok = kcompat("run", "--plan", "--claims", str(book), env={**env, "KCOMPAT_CACHE_DIR": str(tmp_path / "none")})
    assert ok.returncode == 0, ok.stderr  # offline with nothing cached: no release read, nothing to judge by


def test_a_method_only_an_older_release_has_is_no_error(tmp_path: Path) -> None:
    """The newest release (every non-Java cell's) lost it; the oldest catalog release's cells still call it."""
    from tests.console import kcompat

    env = _offline_cache(tmp_path, old_only="electPreferredLeaders")
    book = tmp_path / "book"
    book.mkdir()
    (book / "DOCS-admin.toml").write_text(BOOK.replace('method = "createTopics"', 'method = "electPreferredLeaders"'))
    done = kcompat("run", "--plan", "--claims", str(book), "--clients", "wire", env=env, timeout=120)
    assert done.returncode == 0 and "DOCS-admin/create-topics[" in done.stdout, done.stderr
    (book / "DOCS-admin.toml").write_text(BOOK.replace('method = "createTopics"', 'method = "electPreferedLeaders"'))
    done = kcompat("run", "--plan", "--claims", str(book), "--clients", "wire", env=env, timeout=120)
    assert done.returncode == 2, done.stderr  # in no release: nearest names for each
    assert "nearest: electPreferredLeaders, electLeaders (kafka-clients 0.11.0.3); electLeaders (kafka-clients 2.3.1, " \
           in done.stderr, done.stderr


@pytest.mark.parametrize("offline, age, stands_in", [(True, 10 * 24 * 3600, True), (False, 60, True),
                                                     (True, None, False)])
def test_an_older_release_that_stood_in_lately_stands_in_without_asking_maven(tmp_path: Path, offline: bool,
                                                                               age: float | None, stands_in: bool
                                                                               ) -> None:
    """Offline for good, online for ``OLDER_FOR``: a release whose sources jar did not resolve is not asked of
    Maven again by every process (nor is a ``run --plan``'s check of names left without it offline)."""
    import json
    import time

    from kcompat.harness.config import HarnessConfig
    from kcompat.harness.errors import ArtifactError
    from kcompat.harness.matrix.admin_docs import ADMIN_SOURCES, docs_or_older

    (tmp_path / "admin-docs").mkdir()
    docs = AdminDocs("9.8.1", ADMIN_SOURCES[0], parse_admin(ADMIN, ADMIN_SOURCES[0]), {})
    (tmp_path / "admin-docs" / "kafka-clients-9.8.1.json").write_text(json.dumps(docs.as_json()))
    if age is not None:
        (tmp_path / "admin-docs" / "kafka-clients-9.9.0.older.json").write_text(json.dumps(
            {"older": "9.8.1", "note": "documented by 9.8.1's javadoc", "at": time.time() - age}))
    config = HarnessConfig(cache_dir=tmp_path, offline=True) if offline else HarnessConfig(cache_dir=tmp_path)
    if not stands_in:
        with pytest.raises(ArtifactError):
            docs_or_older("9.9.0", config)
        return
    found, note = docs_or_older("9.9.0", config)
    assert found.release == "9.8.1" and "createTopics" in found.methods and note == "documented by 9.8.1's javadoc"


RESULT = '''package org.apache.kafka.clients.admin;

public class DescribeProducersResult {
    /**
     * Returns a future which yields the current cluster id. The future value will be non-null if the
     * broker version is 0.10.1.0 or higher and null otherwise.
     */
    public KafkaFuture<String> clusterId() {
        return clusterId;
    }

    public KafkaFuture<Collection<GroupListing>> all() {
        return all;
    }
}
'''

LISTING = '''public class GroupListing {
    /**
     * If the broker returns a group type which is not recognised, as might happen when talking to a broker
     * with a later version, the type will be UNKNOWN. If the broker is earlier than version 2.6.0,
     * the group type will not be available, and the type will be <code>Optional.empty()</code>.
     */
    public Optional<GroupType> type() {
        return type;
    }
}
'''

INTERFACE = '''/**
 * The administrative client for Kafka.
 * <h3>Broker Compatibility</h3>
 * <p>
 * The minimum broker version required is 0.10.0.0. Methods with stricter requirements will specify the minimum broker
 * version required.
 */
@InterfaceStability.Evolving
public interface Admin extends AutoCloseable {
'''


def test_the_interface_result_classes_and_options_by_parameter_are_read_as_sentence_kinds(tmp_path: Path) -> None:
    admin = "org/apache/kafka/clients/admin/"
    text = ADMIN.replace("public interface Admin extends AutoCloseable {\n", INTERFACE).replace(
        "ElectLeadersOptions o)", "CreateTopicsOptions o)")
    docs = extract(_jar(tmp_path, {f"{admin}Admin.java": text, f"{admin}CreateTopicsOptions.java": OPTIONS,
                                   f"{admin}DescribeProducersResult.java": RESULT,
                                   f"{admin}GroupListing.java": LISTING}), "9.9.9")
    (minimum,) = docs.interface
    assert (minimum.selector, minimum.sentence, minimum.minimum) == (
        "interface:minimum", "The minimum broker version required is 0.10.0.0.", "0.10.0.0")
    assert text.splitlines()[minimum.line - 1].strip().startswith("* The minimum broker version")
    # an options class found by the overload's parameter, not by the method's name (electLeaders here)
    older = docs.methods["electLeaders"].statement("older-brokers:includeAuthorizedOperations")
    assert older is not None and older.minimum == "" and older.source == f"{admin}CreateTopicsOptions.java"
    producers = docs.methods["describeProducers"]
    cluster_id, group_type = producers.statement("result:clusterId"), producers.statement("result:type")
    assert cluster_id is not None and cluster_id.minimum == "0.10.1.0"
    # a class the result's getters return is read too, and its sentence about newer brokers is not a statement
    assert group_type is not None and group_type.minimum == "2.6.0" and group_type.source == f"{admin}GroupListing.java"
    assert group_type.sentence.startswith("If the broker is earlier than version 2.6.0")
    assert docs.statement(producers, "interface:minimum") is minimum
    assert AdminDocs.from_json(docs.as_json()) == docs


def test_a_release_silent_on_a_sentence_kind_leaves_the_claim_standing(claim: Claim, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """kafka-clients 4.x dropped clusterId's sentence: its client still has the method, and is not short."""
    from kcompat.harness.config import HarnessConfig
    from kcompat.harness.matrix import admin_docs

    docs = extract(_jar(tmp_path, {"org/apache/kafka/clients/admin/Admin.java": ADMIN}), "9.9.9")
    monkeypatch.setattr(admin_docs, "docs_or_older", lambda release, config: (docs, None))
    config = HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs")
    bound = bind(replace(claim, statement="result:clusterId"), "java", "9.9.9", config)
    assert bound.bound is not None and bound.bound["has_method"] is True and bound.brokers_since is None
    assert bound.expect[0].quote == "kafka-clients 9.9.9's createTopics says nothing of result:clusterId"
    assert judge(bound, "java", _limits("2.2.0"), WORKED).outcome == "pass"


def test_a_javadoc_claims_own_fallback_for_older_brokers_replaces_the_generated_refusal(tmp_path: Path) -> None:
    path = tmp_path / "DOCS-admin.toml"
    path.write_text(BOOK.replace('probe = "create_topic"', 'probe = "create_topic"\nstatement = "older-brokers:x"')
                    .replace('versions = "0+"', 'versions = "1+"')
                    + '\n  [[claim.fallback]]\n  limited_by = ["broker"]\n  quote = "Some older brokers cannot."\n'
                      '  observe = { error = "NONE", created = false }\n')
    (loaded,) = load_claims_file(path).claims
    assert loaded.statement == "older-brokers:x"
    own, generated = loaded.fallback
    assert own.limited_by == ("broker",) and generated.observe == {REFUSED: True}
    assert set(generated.limited_by) == {"client", "both"}
    below = judge(_bound(loaded, since=None), "java", _limits("2.2.0", broker_max=0),
                  {"error": "NONE", "created": False, "exception": None})
    assert (below.outcome, below.limited_by) == ("unsupported", "broker")


def test_a_not_testable_sentence_of_a_method_is_named_by_its_statement(tmp_path: Path) -> None:
    path = tmp_path / "DOCS-admin.toml"
    path.write_text(BOOK + '\n[[not_testable]]\nmethod = "createTopics"\nstatement = "result:topicId"\n'
                           'reason = "the probe does not read it"\n')
    (statement,) = load_claims_file(path).not_testable
    assert statement.statement == "createTopics result:topicId"
