"""Client limits measured against the stub broker by real clients: the installed confluent-kafka through the
documented command, every tox line's release in its own venv, and kcompat's own wire client."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kcompat.harness import HarnessConfig
from kcompat.harness.clients.limits import api_digests, checked_in, measure_here
from kcompat.harness.clients.kinds.confluent import installed_confluent
from kcompat.harness.clients.ref import ClientRef
from kcompat.harness.protocol import client_versions
from tests.console import kcompat, run_workers
from tests.console import ok as _ok
from tests.unit.test_client_limits import _tox_lines

pytestmark = pytest.mark.timeout(900)


def test_the_installed_release_measures_as_checked_in(tmp_path: Path) -> None:
    """`kcompat clients limits confluent --json` re-measures; the checked-in row must say the same."""
    env = {**os.environ, "KCOMPAT_CACHE_DIR": str(tmp_path)}
    (line,) = _ok(kcompat("clients", "limits", "confluent", "--json", env=env, timeout=300)).splitlines()
    measured = json.loads(line)
    release = installed_confluent()
    assert (measured["kind"], measured["release"]) == ("confluent", release)
    assert measured["newest"] == dict(checked_in()[f"confluent:{release}"].newest), \
        f"re-measured confluent:{release} differs from src/kcompat/harness/clients/limits.jsonl: update the table"
    assert measured["oldest"] == dict(checked_in()[f"confluent:{release}"].oldest) and measured["oldest"]
    assert json.loads((tmp_path / "client-limits" / f"confluent-{release}.json").read_text()) == measured
    table = _ok(kcompat("clients", "limits", "confluent", env=env, timeout=300))
    assert f"confluent:{release}, measured" in table and "Metadata" in table


@pytest.mark.parametrize("release", [pytest.param(r, marks=() if r == _tox_lines()[0] else (pytest.mark.nightly,))
                                     for r in _tox_lines()])
def test_every_tox_line_measures_as_checked_in(release: str) -> None:
    """Each confluent-kafka line of tox.ini, in its venv (the cache's, as `kcompat run` makes it).  CI measures
    the oldest line here and the installed (newest) one above; the lines between are measured by the nightly,
    and CI's cells through them (below) fail should they send above their checked-in measurement."""
    (line,) = _ok(kcompat("clients", "limits", f"confluent:{release}", "--json", timeout=900)).splitlines()
    measured = json.loads(line)
    assert measured["release"] == release
    assert measured["newest"] == dict(checked_in()[f"confluent:{release}"].newest)
    assert measured["oldest"] == dict(checked_in()[f"confluent:{release}"].oldest)


@pytest.mark.parametrize(("ref", "along"), [
    ("confluent:2.0.2", {"DescribeGroups", "FindCoordinator"}),  # describe_consumer_groups, without KIP-430's option
    ("kafkajs:2.2.4", {"OffsetCommit", "JoinGroup", "SyncGroup"}), ("sarama:1.61.1", {"DescribeCluster"}),
])  # each a minute at most
def test_every_api_a_client_sends_is_measured_at_both_ends(ref: str, along: set[str]) -> None:
    """`kcompat clients limits REF --json`: the APIs a release sends for kcompat's calls, those no operation
    names included (a consumer's group requests behind kafkajs's offset commit, sarama's DescribeCluster),
    have their newest and their oldest, as checked in (an API at the stub's ceiling that the client did not
    send when offered more is ``at_least``)."""
    (line,) = _ok(kcompat("clients", "limits", ref, "--json", timeout=900)).splitlines()
    measured = json.loads(line)
    assert along <= set(measured["newest"]) and along <= set(measured["oldest"]), measured["newest"]
    checked = checked_in()[ref]  # the APIs the test is about: under load kafkajs has sent FindCoordinator v1 first
    assert ({api: (measured["newest"][api], measured["oldest"][api]) for api in along}
            == {api: (checked.newest[api], checked.oldest[api]) for api in along}), \
        f"re-measured {ref} differs from src/kcompat/harness/clients/limits.jsonl"
    assert set(measured.get("at_least", ())) == set(checked.at_least)


def test_refusals_are_one_line() -> None:
    for args, says in [(("java:3.7.0",), "the other kinds state their own limits"), (("confluent:2.x",), "is not a release"),
                       (("nosuch",), "unknown client kind")]:
        done = kcompat("clients", "limits", *args)
        assert done.returncode != 0 and says in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_release_pypi_does_not_publish_is_one_line_naming_the_nearest(tmp_path: Path) -> None:
    """Asked of PyPI before anything boots (as Maven Central is for java:X), and no half-made venv stays."""
    for args in (("clients", "limits", "confluent:2.5.1"),
                 ("run", "--brokers", "4.4", "--clients", "confluent:2.5.1", "--kip", "KIP-569",
                  "--out", str(tmp_path / "run"))):
        done = kcompat(*args, timeout=300)
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip().splitlines()[-1].startswith(
            "kcompat: error: PyPI publishes no confluent-kafka 2.5.1; nearest releases: 2.4.0, 2.5.0, 2.5.3, 2.6.0")
    assert not (tmp_path / "run" / "records.jsonl").exists()
    assert not any(HarnessConfig.resolve().cache_dir.glob("venvs/confluent-kafka-2.5.1"))


def test_kcompats_wire_client_shows_the_definitions_newest_to_the_stub() -> None:
    """The stub answers a second real client well enough to make every call at the definitions' newest versions."""
    limits = measure_here(ClientRef("wire"), HarnessConfig.resolve())
    for api, key in {"CreateTopics": 19, "CreatePartitions": 37, "DescribeConfigs": 32, "CreateAcls": 30}.items():
        assert limits.newest[api] == client_versions(key)[-1], api


def test_the_tox_lines_ci_does_not_run_judge_a_cell_set(tmp_path: Path) -> None:
    """CI runs tox for the oldest and newest lines only (a tox env costs ~107 s here); the lines between
    judge KIP-142's cells on 2.6 through `kcompat run`, each in its venv: no fail, nothing sent above
    what was measured (the check that caught the typed table's Metadata v4)."""
    middle = [f"confluent:{release}" for release in _tox_lines()[1:-1]]
    done = kcompat("run", "--brokers", "2.6", "--clients", ",".join(middle), "--kip", "KIP-142",
                   "-n", run_workers(), "--out", str(tmp_path / "run"), timeout=900)
    _ok(done)
    records = [json.loads(line) for line in (tmp_path / "run" / "records.jsonl").read_text().splitlines()]
    assert {r["client"] for r in records} == set(middle) and len(records) == 4 * len(middle)
    for record in records:
        assert record["outcome"] == "pass", (record["cell_id"], record["reason"])
        assert record["request_version"] <= record["client_max_version"], record["cell_id"]


def test_an_adapter_release_is_built_as_one_step_and_measured_at_both_ends(tmp_path: Path) -> None:
    """`kcompat clients limits sarama:1.61.1`, not on a terminal, in a cache of its own (sharing only Go's module
    and build caches, so the build really runs, in seconds): the build and the measurement are a start and an
    end line each, the build's end line naming its log; the table's piped rows are tab-separated, unpadded,
    with the oldest and the newest version of each API."""
    shared = HarnessConfig.resolve().cache_dir / "adapters" / "go"
    shared.mkdir(parents=True, exist_ok=True)
    (tmp_path / "adapters").mkdir()
    (tmp_path / "adapters" / "go").symlink_to(shared)
    done = kcompat("clients", "limits", "sarama:1.61.1", env={**os.environ, "KCOMPAT_CACHE_DIR": str(tmp_path)},
                   timeout=900)
    table = _ok(done).splitlines()
    log = tmp_path / "adapters" / "sarama-1.61.1" / "build.log"
    start, built, measuring, measured = done.stderr.splitlines()
    assert (start, measuring) == ("… the sarama 1.61.1 adapter", "… measuring sarama:1.61.1's limits")
    assert built.startswith("✓ the sarama 1.61.1 adapter (") and built.endswith(f"s; log: {log})")
    assert measured.startswith("✓ measuring sarama:1.61.1's limits (") and "$ go build" in log.read_text()
    assert table[0].startswith("sarama:1.61.1, measured ")
    assert table[1] == "API\toldest version sent\tnewest version sent"
    rows = {api: (oldest, newest) for api, oldest, newest in (row.split("\t") for row in table[2:-1])}
    recorded = json.loads((tmp_path / "client-limits" / "sarama-1.61.1.json").read_text())  # what was measured
    assert {api: newest for api, (_, newest) in rows.items()} == {k: f"v{v}" for k, v in recorded["newest"].items()}
    assert {api: oldest for api, (oldest, _) in rows.items() if oldest != "-"} == {
        k: f"v{v}" for k, v in recorded["oldest"].items()} and recorded["oldest"]
    assert not any(line.endswith(" ") for line in table)


@pytest.mark.parametrize("ref", [
    pytest.param("franz-go:1.22.2", marks=pytest.mark.nightly),  # the kit is one: CI measures one Go kind
    "sarama:1.61.1",
    pytest.param("kafka-go:0.4.51", marks=pytest.mark.nightly),
])
def test_a_go_adapter_measures_as_checked_in_with_what_it_measured_per_api(tmp_path: Path, ref: str) -> None:
    """`kcompat clients limits <Go kind>:<release> --json`, built from its handlers and the kit the Go adapters
    share, in a cache of its own (sharing only Go's module and build caches): the versions are the checked-in
    ones, and the line records per API the digest of the operations that sent it, so that a new operation
    makes only its own API stale."""
    shared = HarnessConfig.resolve().cache_dir / "adapters" / "go"
    shared.mkdir(parents=True, exist_ok=True)
    (tmp_path / "adapters").mkdir()
    (tmp_path / "adapters" / "go").symlink_to(shared)
    done = kcompat("clients", "limits", ref, "--json", env={**os.environ, "KCOMPAT_CACHE_DIR": str(tmp_path)},
                   timeout=900)
    measured = json.loads(_ok(done).splitlines()[-1])
    line = checked_in()[ref]
    assert (measured["newest"], measured["oldest"]) == (dict(line.newest), dict(line.oldest)), \
        f"re-measured {ref} differs from src/kcompat/harness/clients/limits.jsonl"
    assert measured["apis"] == api_digests() == dict(line.apis)


def test_the_help_names_every_measured_kind() -> None:
    text = _ok(kcompat("clients", "limits", "--help"))
    assert "KIND[:RELEASE]..." in text and "confluent[:RELEASE]" not in text and "adapter kind" in text
