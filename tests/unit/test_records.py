"""The strict record reader: every field typed as docs/RECORDS.md says, and in agreement with its cell id.

A line that fails is a counted ``malformed`` bad line, never an exception in a reader: the page, qualify
and the history store all read through ``parse_lines``, so a hostile line is refused once, for all.
"""

from __future__ import annotations

from kcompat.harness.records import SCHEMA_VERSION

import json
from typing import Any

import pytest

from kcompat.harness.records import MAX_DEPTH, Record, RecordError, loads_json, loads_record, parse_lines

CELL = "KIP-525/x[2.4.1-zk|java:3.7.0]"


def _good(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Record(
        run_id="r", cell_id=CELL, kip="KIP-525", claim_id="KIP-525/x", api="CreateTopics",
        broker_version="2.4.1", broker_mode="zk", provider="process", client_kind="java", client_version="3.7.0",
        outcome="pass", client="java:3.7.0", documented={"case": "supported", "quotes": ["q"], "expect": {}},
        log="logs/cluster-1/broker-0.log").line())
    data.update(changes)
    return data


def test_a_written_record_reads_back_equal() -> None:
    assert loads_record(json.dumps(_good())) == Record.from_json(_good())


@pytest.mark.parametrize("changes, said", [
    ({"documented": "hostile"}, "documented"),
    ({"kip": None}, "kip"),
    ({"kip": "../x"}, "kip"),
    ({"kip": "/etc/passwd"}, "kip"),
    ({"api": 123}, "api"),
    ({"claim_id": "KIP-525"}, "claim_id"),
    ({"limited_by": ["broker"]}, "limited_by"),
    ({"log": 7}, "log"),
    ({"log": "javascript:alert(1)"}, "log"),
    ({"log": "/etc/passwd"}, "log"),
    ({"log": "logs/../../secret"}, "log"),
    ({"broker_version": 2.4}, "broker_version"),
    ({"client": 5}, "client"),
    ({"documented": {"quotes": 5}}, "documented"),
    ({"differences": "x"}, "differences"),
    ({"broker_nodes": True}, "broker_nodes"),
    ({"request_version": "5"}, "request_version"),
    ({"duration_ms": float("inf")}, "duration_ms"),
    ({"broker_version": "2.6.3"}, "disagrees with cell_id"),
    ({"client": "java:4.4.0"}, "disagrees with cell_id"),
    ({"client_kind": "wire"}, "disagrees with cell_id"),
    ({"claim_id": "KIP-525/y"}, "disagrees with cell_id"),
    ({"kip": "KIP-569"}, "disagrees with cell_id"),
    ({"cell_id": CELL + "\n"}, "cell_id"),
    ({"schema_version": True}, "schema_version"),
    ({"intermittent": "yes"}, "intermittent is"),
    ({"intermittent": True}, "only a deviation is intermittent"),
    ({"observations": {"outcome": "pass"}}, "observations"),
    ({"observations": [{"outcome": "held"}]}, "observations"),
    ({"observations": [{"outcome": "pass", "observed": []}]}, "observations"),
    ({"observations": [{"outcome": "pass", "differences": "x"}]}, "observations"),
    ({"observations": [{"outcome": "pass", "call_ms": float("nan")}]}, "observations"),
    ({"observations": [{"outcome": "pass", "reason": 5}]}, "observations"),
    ({"observations": ["pass"]}, "observations"),
])
def test_a_field_of_the_wrong_type_or_cell_is_refused_with_its_name(changes: dict[str, Any], said: str) -> None:
    with pytest.raises(RecordError, match=said.replace("[", r"\[")):
        Record.from_json(_good(**changes))


@pytest.mark.parametrize("text", [
    json.dumps(_good(duration_ms=float("nan"))),
    json.dumps(_good(duration_ms=float("inf"))),
    json.dumps(_good(observed={"x": json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))})),
    "[" * 200_000 + "]" * 200_000,
    b"\xff\xfe not utf-8",
    "[1, 2]",
    json.dumps(_good()).replace('"expect": {}', '"expect": {"x": 1e400}'),
    json.dumps(_good(reason="\ud800")),
    json.dumps(_good(reason="X")).encode().replace(b'"X"', b'"\xed\xa0\x80"'),
    json.dumps(_good(observed={"\udc00": 1})),
], ids=["nan", "infinity", "deep-record", "deeper-than-the-stack", "not-utf-8", "not-an-object", "1e400-nested",
        "escaped-surrogate", "encoded-surrogate", "surrogate-key"])
def test_hostile_json_is_a_record_error_never_another_exception(text: str | bytes) -> None:
    with pytest.raises(RecordError):
        loads_record(text)


def test_one_hostile_line_is_counted_and_the_rest_are_read() -> None:
    lines = [json.dumps(_good()), json.dumps(_good(api=123)), "[" * 100_000, json.dumps(_good(run_id="r2"))]
    records, bad = parse_lines(("\n".join(lines) + "\n").encode())
    assert [(n, r.run_id) for n, r in records] == [(1, "r"), (4, "r2")]
    assert [(b.line, b.kind) for b in bad] == [(2, "malformed"), (3, "malformed")]
    assert "api is 123" in bad[0].reason and "nested" in bad[1].reason


def test_loads_json_refuses_nan_and_depth() -> None:
    assert loads_json('{"a": [1, {"b": 2}]}') == {"a": [1, {"b": 2}]}
    for text in ("NaN", '{"a": -Infinity}', "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)):
        with pytest.raises(ValueError):
            loads_json(text)


OBSERVED = [{"outcome": "deviation", "observed": {"partitions_after": 1}, "reason": "partitions_after differs",
             "differences": [{"key": "partitions_after", "documented": 3, "observed": 1}], "call_ms": 4.5},
            {"outcome": "pass", "observed": {"partitions_after": 3}, "differences": [], "reason": None, "call_ms": 3.0},
            {"outcome": "fail", "observed": {}, "differences": [], "reason": "ProbeFailed: set-up", "call_ms": 0.0}]


def test_every_schema_version_reads_and_only_3_on_have_observations() -> None:
    """Version 1 (no broker_min_version), 2 (no observations) and 3 lines of one file are all records; 1 and 2
    read as observed once."""
    v1, v2 = _good(schema_version=1), _good(schema_version=2)
    for old in (v1, v2):
        del old["observations"], old["intermittent"]
    del v1["broker_min_version"]
    v3 = _good(outcome="deviation", intermittent=True, observations=OBSERVED)
    records, bad = parse_lines(("\n".join(json.dumps(d) for d in (v1, v2, v3)) + "\n").encode())
    assert bad == []
    assert [(r.schema_version, r.observations, r.intermittent, r.held) for _, r in records[:2]] == [
        (1, [], False, None), (2, [], False, None)]
    third = records[2][1]
    assert third.schema_version == SCHEMA_VERSION and third.intermittent and third.held == (1, 2)  # the fail counts for neither
    assert third.held_text == "held 1 of 2"
    assert json.loads(third.line())["observations"] == OBSERVED
    v3 = _good(schema_version=3, outcome="fail", reason="TypeError: a bug of ours, as version 3 recorded it")
    records, bad = parse_lines((json.dumps(v3) + "\n").encode())
    assert bad == [] and records[0][1].schema_version == 3 and records[0][1].outcome == "fail"
    _, unknown = parse_lines((json.dumps(_good(schema_version=SCHEMA_VERSION + 1)) + "\n").encode())
    assert [b.kind for b in unknown] == ["unknown_schema"]


@pytest.mark.parametrize("changes", [
    {"schema_version": 2, "intermittent": True, "outcome": "deviation", "observations": OBSERVED},
    {"schema_version": 2, "observations": OBSERVED},
    {"outcome": "deviation", "intermittent": True, "observations": []},
    {"outcome": "deviation", "intermittent": True, "observations": [OBSERVED[0], OBSERVED[0]]},
    {"outcome": "deviation", "intermittent": True, "observations": [OBSERVED[1], OBSERVED[0]]},
], ids=["v2-intermittent", "v2-observations", "v3-intermittent-unobserved", "v3-never-held", "v3-held-first"])
def test_intermittent_must_be_what_the_observations_say(changes: dict[str, Any]) -> None:
    """qualify's known_intermittent and the page's k of n trust the flag: a line whose flag its observations
    deny (or whose version has none) is refused, never read as intermittent."""
    with pytest.raises(RecordError):
        Record.from_json(_good(**changes))


def test_a_cell_of_a_kind_whose_name_has_a_dash_reads_back() -> None:
    from kcompat.harness.records import Cell

    cell = Cell.parse("KIP-525/create-returns-configs[2.3.1-zk|franz-go:1.22.2]")
    assert cell.client == "franz-go:1.22.2" and cell.broker_version == "2.3.1"
    with pytest.raises(RecordError, match="is not a cell id"):
        Cell.parse("KIP-525/create-returns-configs[2.3.1-zk|-go:1.22.2]")
