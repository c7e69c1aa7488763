"""`kcompat clients admin-docs` as a user types it: each release's Admin javadoc, read from its sources jar on
Maven Central, with the claims judging each method or why none; bad releases are one line."""

from __future__ import annotations

import json

from tests.console import kcompat
from tests.console import ok as _ok


def _rows(*releases: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in _ok(kcompat("clients", "admin-docs", *releases, "--json",
                                                     timeout=600)).splitlines()]


def test_every_public_method_of_a_release_with_its_sentences_and_claims() -> None:
    rows = _rows("2.3.1", "3.9.1")
    old = [r for r in rows if r["release"] == "2.3.1"]
    assert old[0]["source"] == "org/apache/kafka/clients/admin/AdminClient.java"  # Admin came in 2.4
    methods = {r["method"] for r in old}
    assert {"createTopics", "incrementalAlterConfigs", "electPreferredLeaders", "describeLogDirs"} <= methods
    assert "electLeaders" not in methods and "listOffsets" not in methods  # 2.5's, not 2.3.1's
    incremental = next(r for r in old if r["method"] == "incrementalAlterConfigs")
    assert incremental["statement"] == "This operation is supported by brokers with version 2.3.0 or higher."
    assert incremental["minimum"] == "2.3.0" and isinstance(incremental["line"], int)
    create = [r for r in old if r["method"] == "createTopics"]
    assert {r["selector"]: r["claims"] for r in create} == {
        "method": ["DOCS-admin/create-topics"], "validateOnly": ["DOCS-admin/create-topics-validate-only"]}
    close = next(r for r in old if r["method"] == "close")
    assert not close["testable"] and "no admin request" in str(close["reason"])
    new = {(r["method"], r["selector"]): r for r in rows if r["release"] == "3.9.1"}
    assert new[("deleteTopics", "topicIds")]["minimum"] == "2.8"
    assert {new[("electLeaders", s)]["minimum"] for s in ("preferred", "unclean")} == {"2.2.0", "2.4.0"}
    # a method whose javadoc names no broker release: its claims' API schema line, or none without a claim
    assert new[("describeProducers", "method")]["statement"] == '"validVersions": "0"'
    assert new[("unregisterBroker", "method")]["statement"] == '"validVersions": "0"'
    assert new[("unregisterBroker", "method")]["claims"] == ["DOCS-admin/unregister-broker"]
    # and without a claim (nor an API): no sentence, and the reason why none judges it
    assert str(new[("metrics", "method")]["statement"]).startswith("(no broker sentence")
    assert "no request is sent" in str(new[("metrics", "method")]["reason"])
    # a method whose only sentences are its options' has no schema row of its own (electLeaders)
    assert ("electLeaders", "method") not in new
    table = _ok(kcompat("clients", "admin-docs", "3.9.1", timeout=600))
    assert "kafka-clients 3.9.1: Admin" in table and "incrementalAlterConfigs" in table
    lines = table.splitlines()  # piped: tab-separated rows as long as their cells, none padded to the widest
    assert lines[1] == "method\tstatement\tbrokers\tclaims" and all(line.count("\t") == 3 for line in lines[2:])
    assert not any(line != line.rstrip() for line in lines)
    widest = max(len(row["method"]) + len(row["statement"]) + len(", ".join(row["claims"]) or str(row["reason"]))
                 for row in new.values())
    assert max(map(len, lines)) <= widest + len("\t0.10.1.0+\t\tnone: ")


def test_a_release_whose_sources_do_not_resolve_is_documented_by_an_older_one_and_says_so() -> None:
    rows = _rows("4.4.0")
    notes = {r["note"] for r in rows}
    assert len(notes) == 1
    (note,) = notes
    # Maven Central here serves no sources jar of 4.4.0; where it does, the release documents itself
    assert note is None or ("4.4.0's sources jar did not resolve" in str(note) and "javadoc" in str(note))


def test_bad_releases_are_one_line() -> None:
    for release, words in (("../x", "not a plain release"), ("3.7.9", "publishes no kafka-clients 3.7.9")):
        done = kcompat("clients", "admin-docs", release, timeout=300)
        assert done.returncode != 0 and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    # a release before the AdminClient existed is a coverage row with the reason, not a traceback
    (row,) = _rows("0.10.2.2")
    assert row["method"] == "*" and "has no AdminClient" in str(row["reason"])


def test_sentences_of_the_interface_options_and_result_classes_are_listed_with_their_claims() -> None:
    rows = _rows("2.3.1", "4.4.0")
    by = {(r["release"], r["method"], r["selector"]): r for r in rows if ":" in str(r.get("selector"))}
    old, new = {k[1:]: r for k, r in by.items() if k[0] == "2.3.1"}, {k[1:]: r for k, r in by.items() if k[0] != "2.3.1"}
    # the interface's own minimum, under its name (AdminClient before 2.4), which 4.x still says
    assert old[("AdminClient", "interface:minimum")]["minimum"] == "0.10.0.0"
    assert new[("Admin", "interface:minimum")]["claims"] == ["DOCS-admin/admin-minimum-broker"]
    cluster_id = old[("describeCluster", "result:clusterId")]
    assert cluster_id["minimum"] == "0.10.1.0" and str(cluster_id["source"]).endswith("DescribeClusterResult.java")
    assert ("describeCluster", "result:clusterId") not in new  # kafka-clients 4.x no longer says it
    older = new[("describeCluster", "older-brokers:includeAuthorizedOperations")]
    assert "older brokers cannot" in str(older["statement"]) and older["minimum"] is None
    assert str(older["source"]).endswith("DescribeClusterOptions.java") and isinstance(older["line"], int)
    assert "fenced broker" in str(new[("describeCluster", "older-brokers:includeFencedBrokers")]["reason"])
    group_type = new[("listGroups", "result:type")]
    assert group_type["minimum"] == "2.6.0" and group_type["claims"] == ["DOCS-admin/list-groups-type"]
    assert str(group_type["source"]).endswith("GroupListing.java")
