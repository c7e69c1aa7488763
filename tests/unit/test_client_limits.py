"""Client limits: the checked-in measurements, the cache, and the one source per kind (no client started here;
tests/integration/test_limits.py measures real releases against the stub)."""

from __future__ import annotations

import configparser
import json
import re
from pathlib import Path
from typing import Any

import pytest

from kcompat.harness import ConfigError, HarnessConfig
from kcompat.harness.clients import limits as limits_module
from kcompat.harness.clients.limits import (
    ClientLimits,
    api_digests,
    cached,
    checked_in,
    current,
    limits_of,
    measured,
    merged,
    stale_apis,
)
from kcompat.harness.operations import operations
from kcompat.harness.protocol import api_name
from kcompat.harness.recorder import Recording, advertised
from kcompat.harness.clients.ref import ClientRef
from kcompat.harness.matrix.limits import client_max_version, client_min_version

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "kcompat"


@pytest.fixture(autouse=True)
def _fresh_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """limits_of asks once per process: each test starts without what another one planted."""
    import kcompat.harness.clients.limits

    monkeypatch.setattr(kcompat.harness.clients.limits, "_KNOWN", {})


def _tox_lines() -> list[str]:
    tox = configparser.ConfigParser()
    tox.read(ROOT / "tox.ini")
    return re.findall(r"confluent-kafka==([\d.]+)", tox["testenv:ck{2_0,2_3,2_8,2_12,2_16}"]["deps"])


def test_every_tox_line_has_a_checked_in_measurement() -> None:
    lines = _tox_lines()
    assert len(lines) == 5
    table = checked_in()
    for release in lines:
        limits = table[f"confluent:{release}"]
        assert limits.measured_at and "stub broker" in limits.how
        assert {"CreateTopics", "CreatePartitions", "DescribeConfigs", "Metadata", "CreateAcls"} <= set(limits.newest)


def test_nothing_typed_by_hand_remains_in_the_catalog() -> None:
    assert "confluent_client" not in (SRC / "harness" / "catalog.toml").read_text()


def _entry(**changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"kind": "confluent", "release": "2.3.0", "newest": {"Metadata": 12}, "oldest": {},
                             "measured_at": "2026-11-24", "how": "stub"}
    entry.update(changes)
    return entry


@pytest.mark.parametrize("bad", [
    [], "x", _entry(newest={"Metadata": "12"}), _entry(newest={"Metadata": True}), _entry(newest={"Metadata": -1}),
    _entry(newest={"Metadata": 1 << 20}), _entry(newest=[12]), _entry(kind=5), _entry(measured_at=3),
    _entry(oldest={"Metadata": 1.5}), _entry(how=None),
])
def test_a_mistyped_entry_is_one_line(bad: Any) -> None:
    with pytest.raises(ConfigError, match="^somewhere: "):
        ClientLimits.from_json(bad, "somewhere")


def test_an_entry_reads_back_what_it_wrote() -> None:
    limits = ClientLimits.from_json(_entry(), "x")
    assert ClientLimits.from_json(json.loads(json.dumps(limits.as_json())), "x") == limits
    assert limits.ref == "confluent:2.3.0"


@pytest.mark.parametrize("text", [b'{"kind": NaN}', b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe", b"{}",
                                  json.dumps(_entry(newest={"Metadata": "x"})).encode()])
def test_a_broken_cache_entry_is_not_trusted(tmp_path: Path, text: bytes) -> None:
    config = HarnessConfig(cache_dir=tmp_path)
    (tmp_path / "client-limits").mkdir()
    (tmp_path / "client-limits" / "confluent-2.3.0.json").write_bytes(text)
    assert cached(ClientRef("confluent", "2.3.0"), config) is None


def test_another_releases_entry_under_this_name_is_not_trusted(tmp_path: Path) -> None:
    config = HarnessConfig(cache_dir=tmp_path)
    (tmp_path / "client-limits").mkdir()
    (tmp_path / "client-limits" / "confluent-2.3.0.json").write_text(json.dumps(_entry(release="2.8.2")))
    assert cached(ClientRef("confluent", "2.3.0"), config) is None


def test_the_cache_comes_before_the_checked_in_table(tmp_path: Path) -> None:
    config = HarnessConfig(cache_dir=tmp_path)
    (tmp_path / "client-limits").mkdir()
    (tmp_path / "client-limits" / "confluent-2.3.0.json").write_text(
        json.dumps(_entry(newest={"Metadata": 11}, operations=sorted(operations()), apis=api_digests())))

    class Client:
        kind, version = "confluent", "2.3.0"

    ref = ClientRef("confluent", "2.3.0")
    assert client_max_version(Client(), ref, "Metadata", config) == 11  # type: ignore[arg-type]
    assert client_min_version(Client(), ref, "Metadata", config) is None  # type: ignore[arg-type]
    assert checked_in()["confluent:2.3.0"].newest["Metadata"] == 12


def test_the_wire_probe_states_kios_range_and_a_pin_wins(tmp_path: Path) -> None:
    config = HarnessConfig(cache_dir=tmp_path)

    class Wire:
        kind, version = "wire", "0.5.0"

    limits = limits_of(Wire(), ClientRef("wire"), config)  # type: ignore[arg-type]
    assert limits.newest["CreateTopics"] == 7 and limits.oldest["CreateTopics"] == 0 and limits.measured_at is None
    assert client_max_version(Wire(), ClientRef("wire", pin=4), "CreateTopics", config) == 4  # type: ignore[arg-type]


def test_a_measurement_older_than_an_operation_is_passed_over(tmp_path: Path) -> None:
    """A cache entry made before an operation existed never sent its API: the checked-in table (which made
    every operation) is read instead, never a client that looks short of the new API."""
    config = HarnessConfig(cache_dir=tmp_path)
    (tmp_path / "client-limits").mkdir()
    (tmp_path / "client-limits" / "confluent-2.3.0.json").write_text(
        json.dumps(_entry(newest={"Metadata": 11}, operations=["create_topics"])))
    stale = cached(ClientRef("confluent", "2.3.0"), config)
    assert stale is not None and not current(stale)
    assert current(checked_in()["confluent:2.3.0"])  # the table checked in is measured with every operation
    assert measured(ClientRef("confluent", "2.3.0"), config) == checked_in()["confluent:2.3.0"]


def test_a_measurement_goes_stale_per_api_and_only_that_api_is_measured_again(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """An operation added (or changed) since a measurement changes its API's digest alone: that API is measured
    again, merged into the rest, which stays as measured."""
    config = HarnessConfig(cache_dir=tmp_path)
    digests = api_digests()
    before = ClientLimits("confluent", "2.3.0", {"Metadata": 12, "CreateTopics": 4, "ElectLeaders": 0},
                          {"Metadata": 0, "CreateTopics": 0}, "2026-11-24", "stub", (), None,
                          {**digests, "ElectLeaders": "an older set of operations"})
    assert stale_apis(before) == frozenset({"ElectLeaders"}) and not current(before)
    asked: list[frozenset[str] | None] = []

    def measure(ref: ClientRef, config: HarnessConfig, python: str, base: ClientLimits | None = None) -> ClientLimits:
        asked.append(None if base is None else stale_apis(base))
        again = ClientLimits("confluent", "2.3.0", {"ElectLeaders": 1, "Metadata": 9, "ApiVersions": 3},
                             {"ElectLeaders": 0}, "2026-11-28", "stub", tuple(operations()), None,
                             {"ElectLeaders": digests["ElectLeaders"]})
        assert base is not None
        return merged(base, again, frozenset({"ElectLeaders"}))

    monkeypatch.setattr(limits_module, "cached", lambda ref, config: before)
    monkeypatch.setattr(limits_module, "checked_in", lambda: {})
    monkeypatch.setattr(limits_module, "measure", measure)
    after = measured(ClientRef("confluent", "2.3.0"), config)
    assert asked == [frozenset({"ElectLeaders"})]
    assert after.newest == {"Metadata": 12, "CreateTopics": 4, "ElectLeaders": 1, "ApiVersions": 3}
    assert after.oldest == {"Metadata": 0, "CreateTopics": 0, "ElectLeaders": 0}
    assert current(after) and "ElectLeaders measured again on 2026-11-28, alone" in after.how


def test_another_adapter_program_makes_the_whole_measurement_stale() -> None:
    line = checked_in()["sarama:1.61.1"]
    assert stale_apis(line) is not None  # the table checked in is measured with the program there is
    assert stale_apis(ClientLimits(**{**line.__dict__, "program": "another"})) is None


def test_at_least_reads_back_and_a_wrong_one_is_one_line() -> None:
    limits = ClientLimits.from_json(_entry(newest={"Metadata": 12, "DescribeCluster": 1},
                                           at_least=["DescribeCluster"]), "x")
    assert limits.at_least == {"DescribeCluster"} and "at_least" not in ClientLimits.from_json(_entry(), "x").as_json()
    assert ClientLimits.from_json(json.loads(json.dumps(limits.as_json())), "x") == limits
    for bad in ("DescribeCluster", [1], ["DescribeCluster"]):  # the last: not among newest
        with pytest.raises(ConfigError, match="^x: at_least is a list of API names in newest$"):
            ClientLimits.from_json(_entry(at_least=bad), "x")


def test_a_partial_measurement_keeps_at_least_where_it_keeps_the_version() -> None:
    base = ClientLimits("sarama", "1.61.1", {"DescribeCluster": 1, "ApiVersions": 4, "Metadata": 11}, {}, "d",
                        "stub", at_least=frozenset({"DescribeCluster", "ApiVersions"}))
    again = ClientLimits("sarama", "1.61.1", {"DescribeCluster": 1, "ApiVersions": 4, "ElectLeaders": 2}, {}, "e",
                         "stub", at_least=frozenset({"ElectLeaders"}))
    assert merged(base, again, frozenset({"ElectLeaders", "ApiVersions"})).at_least == {"DescribeCluster",
                                                                                         "ElectLeaders"}


def _opened(how: str) -> set[str]:
    """The APIs a measurement offered at any version, as its ``how`` names them (``_open_note``)."""
    found = re.search(r"\(then ([^;)]*) open-ended", how)
    return set(found.group(1).split(", ")) if found else set()


def test_no_recorded_newest_is_the_stubs_ceiling_unless_at_least_or_measured_beyond_it() -> None:
    """A client that sends kio's newest version of an API may send newer: each such API was offered at any
    version in a pass of its own, and is either its newest then or marked ``at_least``; whatever the API (one
    no operation names, sarama's DescribeCluster, included)."""
    ceiling = {name: versions[-1] for key, versions in advertised().items() if (name := api_name(key))}
    for ref, line in checked_in().items():
        at_ceiling = {api for api, version in line.newest.items() if ceiling.get(api) == version}
        assert at_ceiling - line.at_least <= _opened(line.how), (ref, sorted(at_ceiling - _opened(line.how)))
        assert line.at_least <= at_ceiling & _opened(line.how), ref


def test_an_api_no_operation_names_is_measured_through_the_calls_that_sent_it() -> None:
    """sarama sends DescribeCluster for describe_cluster (a Metadata operation); kafkajs sends JoinGroup and
    LeaveGroup for its offset commits (its remove_members_from_consumer_group, LeaveGroup's own, is not
    implemented): the passes measuring them make those calls; an API its own operations send, those alone."""
    recording = Recording()
    stub = type("Stub", (), {"recording": recording})()
    for key, version in ((18, 3), (3, 4)):  # ApiVersions, Metadata: as the client is made
        recording.add(key, version)
    callers = limits_module._Callers(stub)  # type: ignore[arg-type]
    for key, version in ((3, 4), (60, 1)):  # Metadata, DescribeCluster
        recording.add(key, version)
    callers.done("Metadata")
    for key, version in ((32, 0), (3, 4)):  # DescribeConfigs (another operation sends it too), Metadata
        recording.add(key, version)
    callers.done("AlterConfigs")
    for key, version in ((11, 5), (13, 3), (8, 5), (32, 1)):  # JoinGroup, LeaveGroup, OffsetCommit, DescribeConfigs
        recording.add(key, version)
    callers.done("OffsetCommit")
    recording.add(32, 1)
    callers.done("DescribeConfigs")
    assert callers.calls("DescribeCluster") == {"Metadata"} and callers.calls("JoinGroup") == {"OffsetCommit"}
    assert callers.calls("LeaveGroup") == {"OffsetCommit"} and callers.calls("OffsetCommit") == {"OffsetCommit"}
    assert callers.calls("DescribeConfigs") == {"DescribeConfigs"} and callers.calls("Metadata") == {"Metadata"}
    assert callers.calls("ApiVersions") == frozenset()  # sent as the client is made: every pass makes it
