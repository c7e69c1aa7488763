"""Requests outside the broker's range: what the recorder's traffic shows, and how a cell with one is judged."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.matrix.claims import Claim, load_claims_file
from kcompat.harness.matrix.observables import OUT_OF_RANGE
from kcompat.harness.matrix.verdict import Limits, Verdict, judge, judge_without, observe_again
from kcompat.harness.protocol import API_VERSIONS, METADATA, ApiVersionRange
from kcompat.harness.recorder import SentRequest, out_of_range

CREATE_TOPICS, DESCRIBE_CONFIGS = 19, 32
BROKER = [ApiVersionRange(API_VERSIONS, 0, 4), ApiVersionRange(METADATA, 4, 13), ApiVersionRange(CREATE_TOPICS, 2, 7)]
"""A 4.x broker's ranges: old Metadata and CreateTopics versions removed (KIP-896), no DescribeConfigs here."""

CLAIM = '''kip = "KIP-7"
source = "x.md"

[[claim]]
id = "fields"
section = "s"
api = "CreateTopics"
versions = "5+"
probe = "create_topic"

  [[claim.expect]]
  quote = "fields are returned"
  observe = { error = "NONE", num_partitions = 3 }

  [[claim.fallback]]
  quote = "not populated"
  observe = { num_partitions = { absent = true } }
'''
DOCUMENTED = CLAIM + '''
  [[claim.expect]]
  clients = ["sarama"]
  quote = "old versions are sent"
  observe = { out_of_range = { type = "list" } }
'''


def _sent(api_key: int, version: int) -> SentRequest:
    return SentRequest(1, "localhost:9092", api_key, version, 1, "c", 0.0)


def _claim(tmp_path: Path, text: str) -> Claim:
    (tmp_path / "KIP-7.toml").write_text(text)
    (tmp_path / "x.md").write_text("fields are returned. not populated. old versions are sent.")
    return load_claims_file(tmp_path / "KIP-7.toml").claims[0]


@pytest.fixture
def claim(tmp_path: Path) -> Claim:
    return _claim(tmp_path, CLAIM)


METADATA_V0 = {"api": "Metadata", "version": 0, "broker_min": 4, "broker_max": 13}
HELD = {"error": "NONE", "num_partitions": 3}


def test_the_traffic_names_each_request_outside_the_brokers_range_once_in_order() -> None:
    sent = [_sent(API_VERSIONS, 9), _sent(METADATA, 12), _sent(METADATA, 0), _sent(CREATE_TOPICS, 1),
            _sent(METADATA, 0), _sent(DESCRIBE_CONFIGS, 1), _sent(CREATE_TOPICS, 8)]
    assert out_of_range(sent, BROKER) == [
        METADATA_V0, {"api": "CreateTopics", "version": 1, "broker_min": 2, "broker_max": 7},
        {"api": "DescribeConfigs", "version": 1, "broker_min": None, "broker_max": None},
        {"api": "CreateTopics", "version": 8, "broker_min": 2, "broker_max": 7}]
    assert out_of_range([_sent(METADATA, 4), _sent(CREATE_TOPICS, 7)], BROKER) == []


def test_a_library_client_that_sent_outside_the_range_deviates_naming_the_request(claim: Claim) -> None:
    assert judge(claim, "sarama", Limits(7, 7), {**HELD, OUT_OF_RANGE: []}).outcome == "pass"
    found = judge(claim, "sarama", Limits(7, 7), {**HELD, OUT_OF_RANGE: [METADATA_V0]})
    assert found.outcome == "deviation"
    assert found.differences == [{"key": OUT_OF_RANGE, "documented": [], "observed": [METADATA_V0]}]
    assert found.reason == "sent outside the broker's range: Metadata v0 (the broker offers v4-v13)"
    short = judge(claim, "kafka-python", Limits(4, 7), {OUT_OF_RANGE: [METADATA_V0]})  # never unsupported either
    assert (short.outcome, short.limited_by) == ("deviation", "broker")
    absent = {"api": "DescribeConfigs", "version": 1, "broker_min": None, "broker_max": None}
    assert "DescribeConfigs v1 (the broker offers none)" in str(
        judge(claim, "confluent", Limits(7, 7), {**HELD, OUT_OF_RANGE: [absent]}).reason)


def test_below_the_brokers_minimum_a_library_client_is_judged_by_what_it_sent(claim: Claim) -> None:
    limits = Limits(7, 1, broker_min=2)
    sent = {"api": "CreateTopics", "version": 1, "broker_min": 2, "broker_max": 7}
    answered = judge(claim, "kafka-python", limits, {"error": "UNSUPPORTED_VERSION", OUT_OF_RANGE: [sent]})
    assert answered.outcome == "deviation" and "CreateTopics v1 (the broker offers v2-v7)" in str(answered.reason)
    refused = judge(claim, "java", limits, {"exception": "UnsupportedVersionException", OUT_OF_RANGE: []})
    assert (refused.outcome, refused.limited_by, refused.documented["case"]) == ("unsupported", "broker", "refused")


def test_a_pinned_client_keeps_the_brokers_refusal_below_and_above_its_range(claim: Claim) -> None:
    sent = [{"api": "CreateTopics", "version": 1, "broker_min": 2, "broker_max": 7}]
    below = judge(claim, "wire", Limits(7, 1, broker_min=2, pinned=True),
                  {"exception": "UnsupportedVersion", OUT_OF_RANGE: sent})
    assert (below.outcome, below.limited_by) == ("unsupported", "broker")
    # a pin above the broker's newest (v6 on a v3 broker) is its refusal, never the fallback's absent fields;
    # the client short of the claim too (v4 < v5) changes nothing: the broker refused first
    for pin in (6, 4):
        above = judge(claim, "wire", Limits(3, pin, broker_min=0, pinned=True),
                      {"exception": "UnsupportedVersion", OUT_OF_RANGE: [{"api": "CreateTopics", "version": pin}]})
        assert (above.outcome, above.limited_by, above.documented["case"]) == ("unsupported", "broker", "refused")
        assert above.documented["precedence"] == "generated"
    # unpinned, the same limits leave the client to negotiate: the claim's fallback decides
    assert judge(claim, "wire", Limits(3, 6, broker_min=0), {OUT_OF_RANGE: []}).documented["case"] == "below"


def test_a_claim_that_names_the_key_documents_the_behaviour(tmp_path: Path) -> None:
    claim = _claim(tmp_path, DOCUMENTED)
    assert judge(claim, "sarama", Limits(7, 7), {**HELD, OUT_OF_RANGE: [METADATA_V0]}).outcome == "pass"
    assert judge(claim, "franz-go", Limits(7, 7), {**HELD, OUT_OF_RANGE: [METADATA_V0]}).outcome == "deviation"


def test_a_broker_without_the_required_api_and_a_request_outside_its_range(claim: Claim) -> None:
    observed = {"error": "UNSUPPORTED_VERSION", OUT_OF_RANGE: [METADATA_V0]}
    assert judge_without(claim, ["ShareGroupDescribe"], observed).outcome == "deviation"
    assert judge_without(claim, ["ShareGroupDescribe"], observed, pinned=True).outcome == "unsupported"


def test_a_deviation_for_what_was_sent_is_not_observed_again(claim: Claim) -> None:
    found = judge(claim, "sarama", Limits(7, 7), {**HELD, OUT_OF_RANGE: [METADATA_V0]})
    assert not observe_again([found], 3)
    assert observe_again([Verdict("deviation", None, {}, [{"key": "error"}])], 3)
