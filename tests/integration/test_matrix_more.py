"""`kcompat run` over KIP-195, KIP-108 and KIP-142 on real brokers: the verdicts the KIPs imply.

One run straddles each boundary: 0.11 (no CreatePartitions), 1.1 (CreatePartitions v0 only), 2.8 in
ZooKeeper, 3.9 in KRaft and 4.4 (CreateTopics v0-v1 gone); the wire client (also pinned at CreateTopics
v0/v1 and Metadata v1/v2), the installed confluent-kafka, kafka-clients 2.3.1 and 4.4.0.  The claims are a
`-k` slice that keeps the run to a few minutes at -n 2: every 1-node claim on every broker; the 3-node
and SASL claims on 2.8 (ZooKeeper) and 3.9 (KRaft) only, where the controller rule splits.  The same run
judges DOCS-authorization on 1.1, 2.8, 3.9 and 4.4, whose SASL clusters on 2.8 and 3.9 are the slice's.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kcompat.harness.matrix.claims import claims_dir, load_claim_book
from kcompat.harness.records import RECORDS_FILE, Record, read_records

pytestmark = pytest.mark.timeout(1200)  # one run (a fixture) boots 16 clusters: ~3 minutes at -n 2

from tests.console import KCOMPAT as CONSOLE_SCRIPT  # noqa: E402
from tests.console import run_workers  # noqa: E402

KCOMPAT = [CONSOLE_SCRIPT]  # the installed console script, as users type it

BROKERS = "0.11,1.1,2.8,3.9,4.4"
CLIENTS = "wire,confluent,java:2.3.1,java:4.4.0"
SLICE = ("count-rises or validate-only-changes or unknown-topic or assignment-list-length or violation-returns"
         " or violation-message or validate-only-creates or policy-receives-the-request or no-policy"
         " or list-topics-request or list-falls-back or metadata-carries or internal-topics-hidden"
         " or ((sent-to-the-controller or no-alter-permission or undescribable-topics) and (2.8.2-zk or 3.9.2-kraft))")
JAVA = ("java:2.3.1", "java:4.4.0")


AUTHZ_BROKERS = ("1.1.1-zk", "2.8.2-zk", "3.9.2-kraft", "4.4.0-kraft")
"""DOCS-authorization (the ACL each request needs, per Kafka's "Operations and Resources on Protocols" table)
on one SASL cluster per broker; 2.8's and 3.9's are the ones the KIP slice's SASL claims use."""
AUTHZ = "(DOCS-authorization and (" + " or ".join(AUTHZ_BROKERS) + "))"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    """One run for the KIP slice and DOCS-authorization: the SASL clusters they share boot once."""
    out = tmp_path_factory.mktemp("matrix-more") / "run"
    done = subprocess.run([*KCOMPAT, "run", "--brokers", BROKERS, "--clients", CLIENTS, "--kip", "KIP-195",
                           "--kip", "KIP-108", "--kip", "KIP-142", "--kip", "DOCS-authorization", "-k",
                           f"({SLICE}) or {AUTHZ}", "-n", run_workers(), "--quiet", "--out", str(out)],
                          capture_output=True, text=True, timeout=1100, check=False)
    return done.returncode, done.stdout + done.stderr, out


@pytest.fixture(scope="module")
def everything(run: tuple[int, str, Path]) -> dict[str, Record]:
    return {r.cell_id: r for r in read_records(run[2] / RECORDS_FILE).records}


@pytest.fixture(scope="module")
def cells(everything: dict[str, Record]) -> dict[str, Record]:
    """The KIP slice's cells."""
    return {cell_id: r for cell_id, r in everything.items() if r.kip != "DOCS-authorization"}


@pytest.fixture(scope="module")
def authz(everything: dict[str, Record]) -> dict[str, Record]:
    return {cell_id: r for cell_id, r in everything.items() if r.kip == "DOCS-authorization"}


def _confluent(cells: dict[str, Record]) -> str:
    """The installed confluent-kafka's client reference, as the cell ids spell it (``confluent:2.16.1``)."""
    return next(r.client for r in cells.values() if r.client_kind == "confluent")


def _cell(cells: dict[str, Record], cell_id: str) -> Record:
    assert cell_id in cells, f"no record for {cell_id}"
    return cells[cell_id]


def test_every_selected_cell_is_judged_and_each_cluster_booted_once(run: tuple[int, str, Path],
                                                                     cells: dict[str, Record]) -> None:
    code, output, out = run
    assert code == 0, output[-3000:]
    assert len(cells) > 250
    assert {r.outcome for r in cells.values()} <= {"pass", "unsupported", "deviation"}
    book = load_claim_book(claims_dir())
    configs = {(r.broker_version, r.broker_mode, book.claim(r.claim_id).cluster.key) for r in cells.values()}
    assert len(configs) == 14
    everything = {(r.broker_version, r.broker_mode, book.claim(r.claim_id).cluster.key)
                  for r in read_records(out / RECORDS_FILE).records}
    booted = [d for d in (out / "logs").glob("*/kafka-*") if d.is_dir()]
    assert len(booted) == len(everything) == 16, sorted(d.name for d in booted)  # + SASL on 1.1 and 4.4
    coverage = json.loads((out / "coverage.json").read_text())
    assert any(row["kip"] == "KIP-195" and "REASSIGNMENT_IN_PROGRESS" in row["statement"] and row["reason"]
               for row in coverage)


@pytest.mark.parametrize("client", ["wire", "confluent", *JAVA])
def test_create_partitions_before_1_0_is_unsupported_by_the_broker_and_changes_nothing(
        cells: dict[str, Record], client: str) -> None:
    name = _confluent(cells) if client == "confluent" else client
    record = _cell(cells, f"KIP-195/count-rises-when-the-call-returns[0.11.0.3-zk|{name}]")
    assert (record.outcome, record.limited_by) == ("unsupported", "broker")
    assert record.observed["changed"] is False and record.observed["exception"]  # each client says so its way


@pytest.mark.parametrize("broker", ["1.1.1-zk", "2.8.2-zk", "3.9.2-kraft", "4.4.0-kraft"])
def test_create_partitions_from_1_0(cells: dict[str, Record], broker: str) -> None:
    for client in ("wire", *JAVA):
        assert _cell(cells, f"KIP-195/validate-only-changes-nothing[{broker}|{client}]").outcome == "pass"
        # brokers answer UNKNOWN_TOPIC_OR_PARTITION where the KIP says INVALID_TOPIC_EXCEPTION, and
        # INVALID_REPLICA_ASSIGNMENT where it says INVALID_REQUEST: deviations with both sides recorded
        unknown = _cell(cells, f"KIP-195/unknown-topic[{broker}|{client}]")
        assert unknown.outcome == "deviation" and unknown.observed["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
        assert unknown.documented["expect"]["error"] == "INVALID_TOPIC_EXCEPTION"
        short = _cell(cells, f"KIP-195/assignment-list-length-not-new-partitions[{broker}|{client}]")
        assert (short.outcome, short.observed["error"]) == ("deviation", "INVALID_REPLICA_ASSIGNMENT")
    assert _cell(cells, f"KIP-195/count-rises-when-the-call-returns[{broker}|wire]").observed["changed"] is True


def test_create_partitions_goes_to_the_controller_in_zookeeper_mode_only(cells: dict[str, Record]) -> None:
    zk = _cell(cells, "KIP-195/sent-to-the-controller[2.8.2-zk|wire]")
    assert (zk.outcome, zk.observed["error"]) == ("pass", "NOT_CONTROLLER")
    kraft = _cell(cells, "KIP-195/sent-to-the-controller[3.9.2-kraft|wire]")  # brokers forward (KIP-590)
    assert (kraft.outcome, kraft.observed["error"], kraft.observed["changed"]) == ("deviation", "NONE", True)
    for broker in ("2.8.2-zk", "3.9.2-kraft"):
        for client in ("wire", *JAVA):
            denied = _cell(cells, f"KIP-195/no-alter-permission[{broker}|{client}]")
            assert (denied.outcome, denied.observed["error"]) == ("pass", "TOPIC_AUTHORIZATION_FAILED")


@pytest.mark.parametrize("broker", ["0.11.0.3-zk", "1.1.1-zk", "2.8.2-zk", "3.9.2-kraft"])
def test_policy_message_absent_at_create_topics_v0_and_present_from_v1(cells: dict[str, Record], broker: str) -> None:
    v0 = _cell(cells, f"KIP-108/violation-message-from-v1[{broker}|wire@v0]")
    assert (v0.outcome, v0.limited_by, v0.request_version) == ("unsupported", "client", 0)
    assert v0.observed["error"] == "POLICY_VIOLATION" and v0.observed["error_message"] is None
    v1 = _cell(cells, f"KIP-108/violation-message-from-v1[{broker}|wire@v1]")
    assert (v1.outcome, v1.request_version) == ("pass", 1)
    assert v1.observed["error_message"] == "kcompat policy: topic names may not start with 'forbidden-'"
    nothing_sent = _cell(cells, f"KIP-108/validate-only-creates-nothing[{broker}|wire@v0]")
    assert nothing_sent.outcome == "unsupported" and nothing_sent.observed["exception"] == "UnsupportedOption"


@pytest.mark.parametrize("broker", ["0.11.0.3-zk", "1.1.1-zk", "2.8.2-zk", "3.9.2-kraft", "4.4.0-kraft"])
def test_the_policy_on_every_broker(cells: dict[str, Record], broker: str) -> None:
    for client in ("wire", _confluent(cells), *JAVA):
        for claim in ("violation-returns-policy-violation", "policy-receives-the-request", "no-policy-no-change"):
            assert _cell(cells, f"KIP-108/{claim}[{broker}|{client}]").outcome == "pass", (claim, client)
    received = _cell(cells, f"KIP-108/policy-receives-the-request[{broker}|java:4.4.0]").observed
    assert received["policy.configs"] == ["retention.ms=3600000"] and received["policy.num_partitions"] == 3


def test_create_topics_v0_and_v1_are_gone_from_4_x(cells: dict[str, Record]) -> None:
    for claim in ("violation-message-from-v1", "validate-only-creates-nothing"):
        refused = _cell(cells, f"KIP-108/{claim}[4.4.0-kraft|wire@v1]")  # KIP-896: below the broker's minimum
        assert (refused.outcome, refused.limited_by, refused.observed["exception"]) == (
            "unsupported", "broker", "UnsupportedVersion")
        assert refused.broker_min_version == 2 and refused.documented["case"] == "refused"


@pytest.mark.parametrize("broker", ["0.11.0.3-zk", "1.1.1-zk", "2.8.2-zk", "3.9.2-kraft", "4.4.0-kraft"])
def test_list_topics_is_metadata_on_every_broker(cells: dict[str, Record], broker: str) -> None:
    never = _cell(cells, f"KIP-142/list-topics-request[{broker}|wire]")
    assert never.outcome == "deviation" and never.observed["list_topics_api"] is False
    assert "Metadata" in never.observed["api_names"]
    for client in ("wire", *JAVA):
        listed = _cell(cells, f"KIP-142/list-falls-back-to-metadata[{broker}|{client}]")
        assert isinstance(listed.request_version, int)
        if broker.endswith("-kraft") and listed.outcome == "deviation":
            # KRaft: CreateTopics returns once the controller committed; the broker answering Metadata may not
            # have the topic yet (seen on 3.3, 4.4): "all the topics" misses it, sometimes. Only that may differ.
            assert [d["key"] for d in listed.differences] == ["created_listed"], listed.reason
        else:
            assert listed.outcome == "pass", listed.reason
        more = _cell(cells, f"KIP-142/metadata-carries-more-than-names[{broker}|{client}]")
        assert more.outcome == "pass" and more.observed["response_bytes"] > 0
    for client in JAVA:
        assert _cell(cells, f"KIP-142/internal-topics-hidden-unless-asked[{broker}|{client}]").outcome == "pass"
    below = _cell(cells, f"KIP-142/metadata-carries-more-than-names[{broker}|wire@v1]")  # no cluster id before v2
    assert (below.outcome, below.limited_by) == ("unsupported", "client")
    assert "cluster_id" not in below.observed["response_fields"]


@pytest.mark.parametrize("broker", ["2.8.2-zk", "3.9.2-kraft"])
def test_topics_the_user_may_not_describe_are_not_listed(cells: dict[str, Record], broker: str) -> None:
    for client in ("wire", *JAVA):
        record = _cell(cells, f"KIP-142/undescribable-topics-not-listed[{broker}|{client}]")
        assert record.outcome == "pass" and record.observed["hidden_listed"] is False


def test_sasl_cells_record_no_credentials(run: tuple[int, str, Path], cells: dict[str, Record]) -> None:
    assert any(r.security == "sasl" for r in cells.values())
    for path in (run[2] / RECORDS_FILE, run[2] / "run.json"):
        assert "password" not in path.read_text().lower()


# -- DOCS-authorization: the ACL each request needs, per Kafka's "Operations and Resources on Protocols" table --
FROM_2_0 = ("2.8.2-zk", "3.9.2-kraft", "4.4.0-kraft")


def _clients(cells: dict[str, Record]) -> tuple[str, ...]:
    return ("wire", _confluent(cells), *JAVA)


def test_authz_every_cell_is_judged_on_one_sasl_cluster_per_broker(run: tuple[int, str, Path],
                                                                   authz: dict[str, Record]) -> None:
    code, output, out = run
    assert code == 0, output[-3000:]
    assert len(authz) == 160 and {r.outcome for r in authz.values()} <= {"pass", "unsupported", "deviation"}
    assert {r.security for r in authz.values()} == {"sasl"}
    assert {r.broker_version + "-" + r.broker_mode for r in authz.values()} == set(AUTHZ_BROKERS)
    assert len([d for d in (out / "logs").glob("*/kafka-*-sasl-*") if d.is_dir()]) == 4
    for path in (out / RECORDS_FILE, out / "run.json"):
        assert "password" not in path.read_text().lower()
    coverage = json.loads((out / "coverage.json").read_text())
    rows = [row for row in coverage if row["kip"] == "DOCS-authorization"]
    assert rows and all(row["claims"] for row in rows)


@pytest.mark.parametrize("broker", FROM_2_0)
def test_authz_create_topics_from_2_0_cluster_or_topic_create_and_topic_error_without(
        authz: dict[str, Record], broker: str) -> None:
    for client in _clients(authz):
        for claim in ("create-topics-cluster-create", "create-topics-topic-create"):
            record = _cell(authz, f"DOCS-authorization/{claim}[{broker}|{client}]")
            assert (record.outcome, record.observed["created"]) == ("pass", True), (claim, client)
        denied = _cell(authz, f"DOCS-authorization/create-topics-no-create[{broker}|{client}]")
        assert (denied.outcome, denied.observed["error"]) == ("pass", "TOPIC_AUTHORIZATION_FAILED")


def test_authz_create_topics_before_2_0_checks_the_cluster_only(authz: dict[str, Record]) -> None:
    for client in _clients(authz):
        assert _cell(authz, f"DOCS-authorization/create-topics-cluster-create[1.1.1-zk|{client}]").outcome == "pass"
        topic_only = _cell(authz, f"DOCS-authorization/create-topics-topic-create[1.1.1-zk|{client}]")
        assert (topic_only.outcome, topic_only.limited_by) == ("unsupported", "broker")
        assert (topic_only.observed["error"], topic_only.observed["created"]) == ("CLUSTER_AUTHORIZATION_FAILED", False)
        # the table's note says a broker without cluster-level Create won't answer CLUSTER_AUTHORIZATION_FAILED;
        # 1.1 does (topic-level Create came with 2.0): a deviation with both sides
        denied = _cell(authz, f"DOCS-authorization/create-topics-no-create[1.1.1-zk|{client}]")
        assert (denied.outcome, denied.observed["error"]) == ("deviation", "CLUSTER_AUTHORIZATION_FAILED")
        assert denied.documented["expect"]["error"] == "TOPIC_AUTHORIZATION_FAILED"


@pytest.mark.parametrize("broker", ["1.1.1-zk", *FROM_2_0])
def test_authz_create_acls_describe_configs_create_partitions(authz: dict[str, Record], broker: str) -> None:
    for client in _clients(authz):
        cells = {claim: _cell(authz, f"DOCS-authorization/{claim}[{broker}|{client}]") for claim in (
            "create-acls-without-cluster-alter", "create-acls-with-cluster-alter",
            "describe-configs-without-topic-permission", "describe-configs-with-topic-permission",
            "create-partitions-without-alter", "create-partitions-with-topic-alter")}
        if broker == "1.1.1-zk" and client == "java:4.4.0":  # 1.1 offers CreateAcls v0; kafka-clients 4.x sends v2+
            for claim in ("create-acls-without-cluster-alter", "create-acls-with-cluster-alter"):
                refused = cells.pop(claim)
                assert (refused.outcome, refused.limited_by, refused.documented["case"]) == (
                    "unsupported", "client", "refused")
                assert refused.observed["created"] is False
        assert {claim: r.outcome for claim, r in cells.items()} == dict.fromkeys(cells, "pass"), client
        if "create-acls-with-cluster-alter" in cells:
            assert cells["create-acls-with-cluster-alter"].observed["created"] is True
            assert cells["create-acls-without-cluster-alter"].observed["error"] == "CLUSTER_AUTHORIZATION_FAILED"


def test_authz_describe_topic_partitions_lists_what_metadata_lists(authz: dict[str, Record]) -> None:
    for broker in ("3.9.2-kraft", "4.4.0-kraft"):
        for client in ("wire", "java:4.4.0"):
            record = _cell(authz, f"DOCS-authorization/describe-topic-partitions-lists-what-metadata-lists[{broker}|{client}]")
            assert (record.outcome, record.request_version) == ("pass", 0)
            assert record.observed["described"] == record.observed["metadata_listed"] == ["shown"]
        for client in (_confluent(authz), "java:2.3.1"):  # no DescribeTopicPartitions: Metadata instead
            record = _cell(authz, f"DOCS-authorization/describe-topic-partitions-lists-what-metadata-lists[{broker}|{client}]")
            assert (record.outcome, record.limited_by, record.request_version) == ("unsupported", "client", None)
            assert record.observed["described"] == ["shown"]
    for broker in ("1.1.1-zk", "2.8.2-zk"):
        for client in ("wire", "java:4.4.0"):
            record = _cell(authz, f"DOCS-authorization/describe-topic-partitions-lists-what-metadata-lists[{broker}|{client}]")
            assert (record.outcome, record.limited_by) == ("unsupported", "broker")
            assert record.observed["metadata_listed"] == ["shown"]
