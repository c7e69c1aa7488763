"""The verdict classifier and the cell planner: pure logic, on crafted claims and observations."""

from __future__ import annotations

from kcompat.harness.records import SCHEMA_VERSION

import json
from pathlib import Path

import pytest

from kcompat.harness.catalog import load_catalog
from kcompat.harness.errors import HarnessError
from kcompat.harness.matrix.claims import BROKER_PLUGINS, BrokerPlugin, claims_dir, load_claim_book, load_claims_file
from kcompat.harness.matrix.observables import ABSENT, match
from kcompat.harness.matrix.plan import ClusterSpecs, Selection, plan, plugin_sources
from kcompat.harness.matrix.verdict import Limits, Verdict, judge, limited_by, observe_again, settle
from kcompat.harness.matrix.limits import stale_measurement
from kcompat.harness.clients.ref import ClientRef
from kcompat.harness.versions import KafkaVersion
from kcompat.harness.records import Cell, Record, RecordError, append_record, read_records

CLAIM = '''kip = "KIP-7"
title = "t"
source = "x.md"

[[claim]]
id = "fields"
section = "s"
api = "CreateTopics"
versions = "5+"
probe = "create_topic"

  [[claim.expect]]
  quote = "fields are returned"
  observe = { error = "NONE", configs = { present = true }, num_partitions = 3 }

  [[claim.fallback]]
  limited_by = ["broker", "client", "both"]
  quote = "not populated"
  observe = { configs = { absent = true } }

  [[claim.fallback]]
  limited_by = ["broker"]
  clients = ["java"]
  quote = "throw"
  observe = { configs = { raises = "UnsupportedVersionException" } }
'''


def _write(path: Path, text: str) -> None:
    path.write_text(text)
    (path.parent / "x.md").write_text("fields are returned. not populated. throw.")


@pytest.fixture(scope="module")
def claim(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("claims") / "KIP-7.toml"
    _write(path, CLAIM)
    return load_claims_file(path).claims[0]


@pytest.mark.parametrize(("broker", "client", "side"), [
    (7, 7, None), (5, 5, None), (4, 7, "broker"), (7, 4, "client"), (4, 4, "both"), (None, 7, "broker"),
    (7, None, "client"),
])
def test_limited_by_names_the_short_side(broker: int | None, client: int | None, side: str | None) -> None:
    assert limited_by(5, Limits(broker, client)) == side


def test_pass_when_observed_equals_documented(claim) -> None:  # type: ignore[no-untyped-def]
    verdict = judge(claim, "wire", Limits(7, 7), {"error": "NONE", "configs": 30, "num_partitions": 3})
    assert (verdict.outcome, verdict.limited_by, verdict.differences) == ("pass", None, [])
    assert verdict.documented["quotes"] == ["fields are returned"]


def test_deviation_records_both_sides(claim) -> None:  # type: ignore[no-untyped-def]
    verdict = judge(claim, "wire", Limits(7, 7), {"error": "NONE", "num_partitions": 1})
    assert verdict.outcome == "deviation"
    assert verdict.differences == [{"key": "configs", "documented": {"present": True}, "observed": {"absent": True}},
                                   {"key": "num_partitions", "documented": 3, "observed": 1}]
    assert "num_partitions: documented 3, observed 1" in (verdict.reason or "")


def test_unsupported_is_asserted_against_the_documented_fallback(claim) -> None:  # type: ignore[no-untyped-def]
    assert judge(claim, "wire", Limits(4, 7), {"error": "NONE"}).outcome == "unsupported"
    # the fallback not observed is a deviation, never a quiet unsupported
    wrong = judge(claim, "wire", Limits(4, 7), {"error": "NONE", "configs": 3})
    assert (wrong.outcome, wrong.limited_by) == ("deviation", "broker")


def test_a_field_the_clients_api_lacks_is_the_client_short_not_a_deviation(claim) -> None:  # type: ignore[no-untyped-def]
    lacking = {"unsupported_fields": {"configs": "kafka.CreateTopicsResponse"}}
    short = judge(claim, "kafka-go", Limits(7, 7), {"error": "NONE", **lacking})
    assert (short.outcome, short.limited_by) == ("unsupported", "client")
    assert short.reason == "the client's API can't carry it: kafka.CreateTopicsResponse has no configs"
    assert judge(claim, "kafka-go", Limits(4, 7), {"error": "NONE", **lacking}).limited_by == "both"
    # a declared field the claim does not observe changes nothing; a value where the fallback has none deviates
    assert judge(claim, "kafka-go", Limits(7, 7), {"error": "NONE", "configs": 1, "num_partitions": 3,
                                                   "unsupported_fields": {"configs.type": "x"}}).outcome == "pass"
    assert judge(claim, "kafka-go", Limits(7, 7), {"configs": 1, **lacking}).outcome == "deviation"


def test_a_call_that_returned_only_at_its_deadline_deviates(claim) -> None:  # type: ignore[no-untyped-def]
    held = {"error": "NONE", "configs": 30, "num_partitions": 3}
    blocked = judge(claim, "kafka-go", Limits(7, 7), {**held, "deadline_reached": 30.0})
    assert (blocked.outcome, blocked.limited_by) == ("deviation", None)
    assert blocked.differences == [{"key": "deadline_reached", "documented": {"absent": True}, "observed": 30.0}]
    assert blocked.reason == "the call returned only when its 30 s deadline expired"
    assert judge(claim, "kafka-go", Limits(4, 7), {"deadline_reached": 30.0}).outcome == "deviation"
    assert judge(claim, "kafka-go", Limits(7, 4), {"deadline_reached": 30.0}).outcome == "unsupported"  # client short
    assert not observe_again([blocked], 3)  # each time would wait the deadline out again


def test_client_specific_fallback_overrides_the_generic_one(claim) -> None:  # type: ignore[no-untyped-def]
    java = judge(claim, "java", Limits(4, 7), {"configs": {"raised": "org.x.UnsupportedVersionException"}})
    assert java.outcome == "unsupported"
    assert java.documented["quotes"] == ["not populated", "throw"]
    assert judge(claim, "java", Limits(7, 4), {}).documented["expect"] == {"configs": {"absent": True}}


def test_a_version_below_the_brokers_minimum_is_unsupported_by_the_broker_and_asserts_the_refusal(
        claim) -> None:  # type: ignore[no-untyped-def]
    # a 4.x broker advertises CreateTopics v2-v7: the wire client pinned at v1 is refused, whatever the claim says
    limits = Limits(7, 1, broker_min=2)
    assert limits.refused and limited_by(5, limits) == "broker"
    refused = judge(claim, "wire", limits, {"exception": "UnsupportedVersion"})
    assert (refused.outcome, refused.limited_by) == ("unsupported", "broker")
    assert refused.documented["case"] == "refused" and refused.documented["quotes"] == []
    assert refused.documented["broker_versions"] == {"min": 2, "max": 7}
    java = judge(claim, "java", Limits(7, 1, broker_min=2), {"exception": "UnsupportedVersionException"})
    assert java.outcome == "unsupported"
    # anything but the refusal is a deviation, with both sides
    answered = judge(claim, "wire", limits, {"exception": None, "error": "NONE"})
    assert (answered.outcome, answered.limited_by) == ("deviation", "broker")
    assert answered.differences[0]["key"] == "refused" and answered.differences[0]["observed"] is False
    # librdkafka says it as an error name
    assert judge(claim, "confluent", limits, {"exception": "KafkaException", "error": "_UNSUPPORTED_FEATURE"}
                 ).outcome == "unsupported"


def test_a_broker_without_the_api_refuses_it_and_a_probe_sending_nothing_is_judged_by_the_claim(
        claim) -> None:  # type: ignore[no-untyped-def]
    # 0.10.2 offers no DescribeConfigs at all: the client refusing is one documented course...
    absent = Limits(None, 7)
    assert absent.absent and not absent.refused and limited_by(0, absent) == "broker"
    verdict = judge(claim, "java", absent, {"exception": "UnsupportedVersionException"})
    assert (verdict.outcome, verdict.limited_by, verdict.documented["case"]) == ("unsupported", "broker", "refused")
    # ...the claim's fallback the other (a client sending another request instead); anything else deviates
    fallback = judge(claim, "wire", absent, {})
    assert (fallback.outcome, fallback.documented["case"]) == ("unsupported", "below")
    other = judge(claim, "wire", absent, {"configs": {"x": 1}, "exception": None})
    assert (other.outcome, other.documented["case"]) == ("deviation", "below")
    # neither side has it (no refusal to see): the claim's fallback, as before
    assert not Limits(None, None).absent and judge(claim, "java", Limits(None, None), {}).documented["case"] == "below"
    from dataclasses import replace
    inspecting = replace(claim, probe="client_methods")  # no request: the client's own classes
    assert limited_by(5, Limits(1, 7, client_min=2), sends_request=False) == "broker"
    assert judge(inspecting, "java", Limits(1, 7, client_min=2), {}).documented["case"] == "below"


@pytest.mark.parametrize(("limits", "refused"), [
    (Limits(7, 7, 2), False), (Limits(7, 2, 2), False), (Limits(12, 3, 4), True), (Limits(None, 1, None), False),
    (Limits(None, None), False),
    (Limits(7, None, 2), False), (Limits(7, 1), False),
])
def test_refused_only_below_a_known_minimum(limits: Limits, refused: bool) -> None:
    assert limits.refused is refused


def test_a_broker_below_the_clients_oldest_version_is_unsupported_by_the_client(claim) -> None:  # type: ignore[no-untyped-def]
    # kafka-clients 4.x sends CreateAcls v2+ only; a 1.1 broker offers v0
    limits = Limits(0, 3, 0, None, 2)
    assert limits.client_refuses and not limits.refused and limited_by(0, limits) == "client"
    refused = judge(claim, "java", limits, {"exception": "UnsupportedVersionException", "error": "UNSUPPORTED_VERSION"})
    assert (refused.outcome, refused.limited_by, refused.documented["case"]) == ("unsupported", "client", "refused")
    assert refused.documented["client_versions"] == {"min": 2, "max": 3}
    assert not Limits(3, 3, 0, None, 2).client_refuses and not Limits(None, 3, None, None, 2).client_refuses


def test_a_client_within_the_brokers_range_keeps_the_claims_own_verdict(claim) -> None:  # type: ignore[no-untyped-def]
    assert judge(claim, "wire", Limits(7, 7, 2), {"error": "NONE", "configs": 3, "num_partitions": 3}).outcome == "pass"
    below = judge(claim, "wire", Limits(7, 4, 2), {"error": "NONE"})  # v4: accepted by the broker, below the claim
    assert (below.outcome, below.limited_by, below.documented["case"]) == ("unsupported", "client", "below")


def test_a_client_measured_at_least_at_the_stubs_ceiling_is_not_short_of_newer_versions(claim) -> None:  # type: ignore[no-untyped-def]
    """A measurement that reached the stub's ceiling (kio's v4, say) only says the client sends at least v4:
    a claim of v5+ is judged by what the client then sends, never as the client short of it."""
    at_least = Limits(7, 4, 2, client_at_least=True)
    assert limited_by(5, at_least) is None and limited_by(5, Limits(7, 4, 2)) == "client"
    assert limited_by(5, Limits(4, 4, client_at_least=True)) == "broker"  # the broker still is
    assert judge(claim, "sarama", at_least, {"error": "NONE", "configs": 3, "num_partitions": 3}).outcome == "pass"
    sent_less = judge(claim, "sarama", at_least, {"error": "NONE"})
    assert (sent_less.outcome, sent_less.limited_by) == ("deviation", None)
    assert not Limits(7, 1, broker_min=2, client_at_least=True).refused and Limits(7, 1, broker_min=2).refused


def test_a_version_sent_above_an_at_least_measurement_is_not_stale() -> None:
    ref = ClientRef("sarama", "1.61.1")
    assert stale_measurement(ref, "1.61.1", "DescribeCluster", 2, 1) is not None
    assert stale_measurement(ref, "1.61.1", "DescribeCluster", 2, 1, at_least=True) is None


def test_a_release_bound_makes_older_brokers_short_whatever_their_request_versions(
        tmp_path: Path) -> None:
    path = tmp_path / "DOCS-x.toml"
    _write(path, CLAIM.replace('kip = "KIP-7"', 'kip = "DOCS-x"').replace('versions = "5+"',
                                                                              'versions = "0+"\nbrokers = ">=2.0"'))
    bounded = load_claims_file(path).claims[0]
    old, new = KafkaVersion.parse("1.1.1"), KafkaVersion.parse("2.0.1")
    assert limited_by(0, Limits(2, 7, 0, old), bounded.brokers_since) == "broker"
    assert limited_by(0, Limits(2, 7, 0, new), bounded.brokers_since) is None
    assert limited_by(0, Limits(2, 7, 0, None), bounded.brokers_since) is None  # release unknown: no bound
    fallback = judge(bounded, "wire", Limits(2, 7, 0, old), {"configs": {"absent": True}})
    assert (fallback.outcome, fallback.limited_by, fallback.documented["case"]) == ("deviation", "broker", "below")
    assert judge(bounded, "wire", Limits(2, 7, 0, old), {}).outcome == "unsupported"
    assert judge(bounded, "wire", Limits(2, 7, 0, new), {"error": "NONE", "configs": 1,
                                                          "num_partitions": 3}).outcome == "pass"


@pytest.mark.parametrize(("documented", "observed", "expected"), [
    ({"absent": True}, ABSENT, True), ({"absent": True}, None, False), ({"null": True}, None, True),
    ({"missing": True}, ABSENT, True), ({"missing": True}, None, True), ({"missing": True}, "", False),
    ({"present": True}, 0, True), ({"present": True}, {"raised": "E"}, False), ({"type": "int"}, True, False),
    ({"in": ["A", "B"]}, "B", True), ({"contains": ["a"]}, ["a", "b"], True), ({"contains": ["c"]}, ["a"], False),
    (3, 3, True), (3, ABSENT, False), ({"raises": "E"}, {"raised": "x.y.E"}, True),
])
def test_matchers(documented: object, observed: object, expected: bool) -> None:
    assert match(documented, observed) is expected


def test_plan_expands_wire_around_the_bound_and_groups_by_cluster() -> None:
    cells = plan(Selection.of("2.3,4.4", "default", "wire,java:4.4.0", "KIP-525"), load_claim_book(claims_dir()),
                 load_catalog())
    ids = {c.cell.id for c in cells}
    assert "KIP-525/create-returns-configs[2.3.1-zk|wire@v4]" in ids
    assert "KIP-525/create-returns-configs[4.4.0-kraft|wire@v5]" in ids
    assert "KIP-525/admin-topic-config-method[2.3.1-zk|java:4.4.0]" in ids
    assert not any("admin-topic-config-method" in i and "wire" in i for i in ids)  # java-only claim
    keys = [c.cluster_key for c in cells]
    assert keys == sorted(keys, key=keys.index)  # each cluster's cells are contiguous
    # KIP-525 names no log dirs: its plain cells run on the release's shared cluster, which has two (DOCS-admin's
    # log-dir claims ask for them), so a run of every KIP boots it once
    assert {c.cluster_key for c in cells} == {"2.3.1-zk-1n-plaintext-2dirs", "2.3.1-zk-1n-sasl",
                                             "4.4.0-kraft-1n-plaintext-2dirs", "4.4.0-kraft-1n-sasl"}


def test_clusters_differ_by_plugins_and_nodes_and_wire_pins_around_v1() -> None:
    cells = plan(Selection.of("2.8", "default", "wire", "KIP-108,KIP-195"), load_claim_book(claims_dir()),
                 load_catalog())
    ids = {c.cell.id for c in cells}
    assert {"KIP-108/violation-message-from-v1[2.8.2-zk|wire@v0]",
            "KIP-108/violation-message-from-v1[2.8.2-zk|wire@v1]"} <= ids
    assert not any("violation-returns-policy-violation" in i and "@v" in i for i in ids)  # 0+: no bound to pin
    assert {c.cluster_key for c in cells} == {"2.8.2-zk-1n-plaintext-2dirs", "2.8.2-zk-1n-plaintext-create_topic_policy",
                                             "2.8.2-zk-1n-sasl", "2.8.2-zk-3n-plaintext"}


def test_cluster_specs_compile_plugins_once_per_broker_and_name_the_class(tmp_path: Path) -> None:
    cells = [c for c in plan(Selection.of("2.8", "default", "wire", "KIP-108"), load_claim_book(claims_dir()),
                             load_catalog()) if c.claim.cluster.plugins]
    compiled: list[tuple[str, str]] = []

    def compile_for(plugin: BrokerPlugin, version: KafkaVersion) -> Path:
        compiled.append((plugin.name, str(version)))
        return tmp_path

    specs = ClusterSpecs(compile_for)
    first, again = specs.spec(cells[0]), specs.spec(cells[-1])
    assert first == again and compiled == [("create_topic_policy", "2.8.2")]
    assert dict(first.server_properties) == {"create.topic.policy.class.name": "kcompat.plugins.RejectPrefixPolicy"}
    assert first.extra_classpath == (tmp_path,)
    assert (plugin_sources(BROKER_PLUGINS["create_topic_policy"]) / "kcompat" / "plugins"
            / "RejectPrefixPolicy.java").is_file()
    with pytest.raises(HarnessError, match="needs broker plug-in create_topic_policy"):
        ClusterSpecs().spec(cells[0])


@pytest.mark.parametrize(("selection", "message"), [
    (Selection.of("9.9"), "not in the catalog"), (Selection.of(None, None, "jav:1"), "unknown client kind"),
    (Selection.of(None, None, None, "KIP-1"), "unknown KIP KIP-1"), (Selection.of("4.4", "zk"), "has no zk mode"),
    (Selection.of(None, None, "java:../../x"), "is not a release"),
])
def test_bad_selection_is_one_line(selection: Selection, message: str) -> None:
    with pytest.raises(HarnessError, match=message):
        plan(selection, load_claim_book(claims_dir()), load_catalog())


def _record(cell_id: str, outcome: str = "pass") -> Record:
    cell = Cell.parse(cell_id)
    return Record(run_id="r", cell_id=cell_id, kip=cell.kip, claim_id=cell.claim_id, api="CreateTopics",
                  broker_version=cell.broker_version, broker_mode=cell.broker_mode, provider="process",
                  client_kind=cell.client.split(":")[0].split("@")[0], client_version="1.0.0",
                  outcome=outcome)  # type: ignore[arg-type]


def test_records_round_trip_and_a_torn_line_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    first = _record("KIP-525/x[2.4.1-zk|java:3.7.0]")
    append_record(path, first)
    append_record(path, _record("KIP-525/x[2.4.1-zk|wire@v5]", "deviation"))
    with path.open("a") as out:
        out.write('{"schema_version": 99, "x": 1}\nnot json\n{"schema_version": 1, "cell_id": "KIP-5')
    report = read_records(path)
    assert [r.cell_id for r in report.records] == ["KIP-525/x[2.4.1-zk|java:3.7.0]", "KIP-525/x[2.4.1-zk|wire@v5]"]
    assert report.records[0] == first
    assert report.torn_last_line and len(report.unknown_schema) == 1 and len(report.malformed) == 1
    assert json.loads(first.line())["schema_version"] == SCHEMA_VERSION


@pytest.mark.parametrize("bad", ["KIP-525/x", "KIP-525/x[2.4.1|wire]", "KIP-525/x[2.4.1-zk|java:../x]", "x[1.0-zk|wire]"])
def test_a_malformed_cell_id_is_refused(bad: str) -> None:
    with pytest.raises(RecordError):
        Cell.parse(bad)



def test_a_schema_version_1_record_is_still_read() -> None:
    """Version 2 added broker_min_version and the refused case; a version-1 line reads with the field null."""
    data = json.loads(_record("KIP-525/x[2.4.1-zk|wire]").line())
    assert data["schema_version"] == SCHEMA_VERSION
    for key in ("broker_min_version", "observations", "intermittent"):
        data.pop(key)
    old = Record.from_json({**data, "schema_version": 1})
    assert old.schema_version == 1 and old.broker_min_version is None


def _verdict(outcome: str) -> Verdict:
    differences = [{"key": "k", "documented": 1, "observed": 2}] if outcome == "deviation" else []
    reason = "k differs" if differences else None
    return Verdict(outcome, None, {"case": "supported"}, differences, reason)  # type: ignore[arg-type]


@pytest.mark.parametrize(("outcomes", "limit", "again"), [
    (["pass"], 3, False), (["unsupported"], 3, False),  # what held is never repeated
    (["deviation"], 3, True), (["deviation", "pass"], 3, True), (["deviation", "deviation", "pass"], 3, False),
    (["deviation"], 1, False),  # --kc-observations 1: observe once, as records before schema 3 were
    (["deviation", "fail"], 3, False),  # a re-observation that could not be judged ends the series
    ([], 3, False),
])
def test_observe_again_only_after_a_first_deviation_and_within_the_limit(outcomes: list[str], limit: int,
                                                                        again: bool) -> None:
    assert observe_again([_verdict(o) for o in outcomes], limit) is again


@pytest.mark.parametrize(("outcomes", "outcome", "intermittent"), [
    (["pass"], "pass", False),
    (["unsupported"], "unsupported", False),
    (["deviation"], "deviation", False),
    (["deviation", "deviation", "deviation"], "deviation", False),  # steady
    (["deviation", "pass", "pass"], "deviation", True),  # held 2 of 3: still a deviation
    (["deviation", "deviation", "unsupported"], "deviation", True),  # a fallback that held once
    (["deviation", "fail"], "deviation", False),  # an unjudged observation counts for neither side
    (["deviation", "pass", "fail"], "deviation", True),
])
def test_settle_keeps_the_first_deviation_and_says_intermittent_when_one_held(outcomes: list[str], outcome: str,
                                                                             intermittent: bool) -> None:
    verdicts = [_verdict(o) for o in outcomes]
    settled = settle(verdicts)
    assert settled.verdict.outcome == outcome and settled.intermittent is intermittent
    assert settled.verdict is verdicts[0]  # the record's differences are the first deviation's


def test_settle_needs_an_observation() -> None:
    with pytest.raises(ValueError):
        settle([])


def test_the_run_summary_counts_intermittent_deviations() -> None:
    from kcompat.harness.matrix.summary import summary_lines
    from tests.unit.page.records import INTERMITTENT, records

    lines = summary_lines(records())
    assert lines[-1].startswith("all: 80 cells, 24 pass, 51 unsupported, 3 deviation (1 intermittent), 1 fail")
    assert any(line.startswith("KIP-525: ") and "(1 intermittent)" in line for line in lines)
    steady = [r for r in records() if r.cell_id != INTERMITTENT]
    assert "intermittent" not in summary_lines(steady)[-1].split("  (")[0]


def test_a_key_named_apart_from_the_field_it_reads_is_short_where_the_client_lacks_the_field() -> None:
    """describeCluster's ``cluster_id_matches`` reads the result's ``cluster_id``; kafka-go's Conn surface can't
    carry a cluster id, so its cells are short on the client, not a deviation "observed absent"."""
    book = load_claim_book(claims_dir())
    claim = next(c for c in book.claims if c.id == "DOCS-admin/describe-cluster-cluster-id")
    observed = {"error": "NONE", "nodes_match": True, "controller_known": True,
                "unsupported_fields": {"cluster_id": "kafka.Conn"}}
    from kcompat.harness.matrix.verdict import lacked_fields

    assert lacked_fields(claim, "kafka-go", observed) == {"cluster_id_matches": "kafka.Conn"}
