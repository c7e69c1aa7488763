"""Cluster profiles through the console script: feature levels in ``--brokers``, the feature table measured
against a real broker, and a gated claim run on both profiles of a release that keeps its feature off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.console import kcompat, ok


@pytest.mark.parametrize("brokers, said", [
    ("4.1@share.version=2", "Kafka 4.1.2 supports share.version up to level 1, not 2"),
    ("4.1@nope.version=1", "Kafka 4.1.2 has no feature 'nope.version'; it has:"),
    ("4.1@share.version=x", "the level of share.version is a whole number (ASCII digits), not 'x'"),
    ("4.0@share.version=1", "Kafka 4.0.2 has no feature 'share.version'"),
    ("3.9@share.version=1", "Kafka 3.9.2 in zk mode has no feature levels (KRaft only)"),
])
def test_bad_feature_levels_are_one_line_before_anything_boots(tmp_path: Path, brokers: str, said: str) -> None:
    mode = ["--mode", "zk"] if brokers.startswith("3.9") else []
    done = kcompat("run", "--brokers", brokers, *mode, "--out", str(tmp_path / "x"), timeout=120)
    assert done.returncode == 2 and said in done.stderr, (done.returncode, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x").exists()


def test_the_feature_table_is_what_a_4_1_broker_answers() -> None:
    out = ok(kcompat("brokers", "features", "--check", "4.1", timeout=600))
    assert "Kafka 4.1.2: features.toml agrees" in out


def test_a_share_group_claim_runs_on_the_default_and_the_enabled_profile(tmp_path: Path) -> None:
    """4.1 lists the share group APIs with share.version at 0: its default cells are refused, and the cells of
    the profile with share.version=1 reach the share group coordinator (no UNSUPPORTED_VERSION)."""
    out = tmp_path / "run"
    kcompat("run", "--brokers", "4.1", "--clients", "java:4.4.0", "-k", "describe-share-groups", "--out", str(out),
            timeout=1500)
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    by_profile: dict[str, list[dict[str, object]]] = {}
    for record in records:
        by_profile.setdefault(json.dumps(record["broker_features"]), []).append(record)
    assert set(by_profile) == {"{}", '{"share.version": 1}'}, records
    enabled = by_profile['{"share.version": 1}']
    assert all(r["cell_id"].endswith("[4.1.2-kraft@share.version=1|java:4.4.0]") for r in enabled)  # type: ignore[attr-defined]
    assert all(r["outcome"] != "infra_error" for r in enabled), enabled
    assert not [r for r in enabled if r["observed"].get("error") == "UNSUPPORTED_VERSION"], enabled  # type: ignore[attr-defined]
    assert all(r["observed"].get("error") == "UNSUPPORTED_VERSION" for r in by_profile["{}"])  # type: ignore[attr-defined]
