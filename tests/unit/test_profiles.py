"""Cluster profiles: broker references with feature levels, the cells a feature gate adds beside the default
ones, and how cell ids and records (schema 7) carry them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kcompat.harness.catalog import load_catalog
from kcompat.harness.errors import ConfigError
from kcompat.harness.features import load_features, measured, release_toml
from kcompat.harness.matrix.claims import claims_dir, load_claim_book
from kcompat.harness.matrix.plan import PlannedCell, Selection, plan
from kcompat.harness.records import Cell, Record, RecordError, loads_record
from kcompat.harness.spec import ClusterSpec
from kcompat.harness.versions import KafkaVersion

SHARE = "DOCS-admin/describe-share-groups"
SHARE_BY_REQUIRES = "DOCS-admin/delete-share-groups"  # DeleteGroups, requires ShareGroupDescribe


def _plan(brokers: str, kips: str = "DOCS-admin") -> list[PlannedCell]:
    return plan(Selection.of(brokers, None, "java:4.4.0", kips), load_claim_book(claims_dir()), load_catalog())


def _ids(cells: list[PlannedCell]) -> set[str]:
    return {c.cell.id for c in cells}


def test_a_release_that_keeps_a_listed_feature_off_runs_its_gated_claims_on_both_profiles() -> None:
    cells = _plan("4.1")
    profiled = {c.cell.id for c in cells if c.cell.broker_features}
    gated = {c.claim.id for c in cells if c.cell.broker_features}
    assert {SHARE, SHARE_BY_REQUIRES} <= gated
    assert all("share" in claim for claim in gated)  # no other claim is doubled
    assert f"{SHARE}[4.1.2-kraft@share.version=1|java:4.4.0]" in profiled
    default = _ids(cells) - profiled
    assert f"{SHARE}[4.1.2-kraft|java:4.4.0]" in default
    assert {c.claim.id for c in cells} == {Cell.parse(i).claim_id for i in default}  # every claim keeps its cells


def test_the_enabled_profile_boots_its_own_cluster_and_the_default_cells_are_unchanged() -> None:
    cells = _plan("4.1")
    enabled = [c for c in cells if c.cell.broker_features]
    default = [c for c in cells if not c.cell.broker_features]
    assert {c.cluster_key for c in enabled}.isdisjoint({c.cluster_key for c in default})
    assert all(c.cluster_key.endswith("@share.version=1") for c in enabled)
    assert len({c.cluster_key for c in enabled}) == 1  # one boot serves every enabled cell
    assert all("@" not in c.cell.id.split("|")[0] for c in default)


@pytest.mark.parametrize("brokers", ["4.0", "4.2", "4.4", "3.9"])
def test_releases_that_enable_the_feature_or_lack_the_api_get_no_extra_profile(brokers: str) -> None:
    assert not [c for c in _plan(brokers) if c.cell.broker_features]


def test_a_named_profile_runs_every_selected_claim_on_it_alone() -> None:
    cells = _plan("4.1@share.version=1", "KIP-525,DOCS-admin")
    assert cells and all(c.cell.broker_features == (("share.version", 1),) for c in cells)
    both = _plan("4.1,4.1@share.version=1")
    assert len(_ids(both)) == len(both)  # the gated claims' enabled cells once, not twice


@pytest.mark.parametrize("brokers, said", [
    ("4.1@share.version=2", "supports share.version up to level 1, not 2"),
    ("4.1@nope.version=1", "has no feature 'nope.version'; it has: eligible.leader.replicas.version (0-1)"),
    ("4.1@share.version=one", "the level of share.version is a whole number (ASCII digits), not 'one'"),
    ("4.1@share.version=²", "the level of share.version is a whole number (ASCII digits), not '²'"),
    ("4.1@share.version=" + "9" * 5000, "not '99999999999999999999'"),
    ("4.1@share.version", "@share.version is not a feature level like @share.version=1"),
    ("4.0@share.version=1", "Kafka 4.0.2 has no feature 'share.version'"),
    ("2.4@share.version=1", "in zk mode has no feature levels (KRaft only)"),
    ("4.1@share.version=1@share.version=0", "share.version is given two levels"),
    ("4.4@share.version=1", "finalizes share.version at level 2 by default; a profile raises a level, never lowers"),
])
def test_bad_feature_levels_are_one_config_error(brokers: str, said: str) -> None:
    with pytest.raises(ConfigError) as raised:
        _plan(brokers)
    assert said in str(raised.value) and "\n" not in str(raised.value) and len(str(raised.value)) < 300


def test_levels_are_sorted_so_one_profile_has_one_spec_and_one_id() -> None:
    one = ClusterSpec.of("4.4", features=(("streams.version", 1), ("share.version", 2)))
    two = ClusterSpec.of("4.4", features=(("share.version", 2), ("streams.version", 1)))
    assert one == two and one.features == (("share.version", 2), ("streams.version", 1))
    cell = Cell("KIP-1/x", "4.4.0", "kraft", "wire", one.features)
    assert cell.id == "KIP-1/x[4.4.0-kraft@share.version=2@streams.version=1|wire]" and Cell.parse(cell.id) == cell
    with pytest.raises(RecordError, match="out of order"):
        Cell.parse("KIP-1/x[4.4.0-kraft@streams.version=1@share.version=2|wire]")


def test_a_default_cell_id_and_series_are_as_before_and_a_profile_keeps_its_levels_in_the_series() -> None:
    assert Cell.parse("KIP-525/x[2.4.1-zk|wire@v5]") == Cell("KIP-525/x", "2.4.1", "zk", "wire@v5")
    cell = Cell.parse(f"{SHARE}[4.1.2-kraft@share.version=1|java:4.4.0]")
    assert cell.series == f"{SHARE}[4.1-kraft@share.version=1|java:4.4]"
    assert Cell(SHARE, "4.1.2", "kraft", "java:4.4.0").series == f"{SHARE}[4.1-kraft|java:4.4]"


def _record(cell_id: str, **changes: Any) -> dict[str, Any]:
    cell = Cell.parse(cell_id)
    data: dict[str, Any] = json.loads(Record(
        run_id="r", cell_id=cell_id, kip="DOCS-admin", claim_id=cell.claim_id, api="ShareGroupDescribe",
        broker_version=cell.broker_version, broker_mode=cell.broker_mode, provider="process", client_kind="java",
        client_version="4.4.0", outcome="pass", client=cell.client,
        broker_features=dict(cell.broker_features)).line())
    data.update(changes)
    return data


def test_schema_7_records_carry_the_profile_and_older_records_still_read() -> None:
    enabled = f"{SHARE}[4.1.2-kraft@share.version=1|java:4.4.0]"
    record = loads_record(json.dumps(_record(enabled)))
    assert record.schema_version >= 7 and record.broker_features == {"share.version": 1}
    old = _record(f"{SHARE}[4.1.2-kraft|java:4.4.0]", schema_version=6)
    del old["broker_features"]
    assert loads_record(json.dumps(old)).broker_features == {}
    with pytest.raises(RecordError, match="schema_version 6 has no broker feature levels"):
        loads_record(json.dumps(_record(enabled, schema_version=6)))
    with pytest.raises(RecordError, match="broker_features .* disagrees with cell_id"):
        loads_record(json.dumps(_record(enabled, broker_features={})))
    with pytest.raises(RecordError, match="broker_features is"):
        loads_record(json.dumps(_record(enabled, broker_features={"share.version": "1"})))


def test_a_measured_entry_reads_back_as_the_table_keeps_it() -> None:
    answer = {"SupportedFeatures": [{"Name": "metadata.version", "MinVersion": 7, "MaxVersion": 27},
                                    {"Name": "share.version", "MinVersion": 0, "MaxVersion": 1}],
              "FinalizedFeatures": [{"Name": "metadata.version", "MaxVersionLevel": 27, "MinVersionLevel": 27}]}
    entry = measured(KafkaVersion.parse("4.1.2"), answer, ["ShareGroupDescribe", "CreateTopics"])
    assert entry.supported == {"share.version": 1} and entry.default == {} and entry.lists == ("ShareGroupDescribe",)
    import tomllib

    from kcompat.harness.features import book_from
    raw = tomllib.loads(release_toml(entry))
    assert book_from(raw).releases[entry.version] == entry
    share = next(f for f in load_features().features if f.name == "share.version")
    assert load_features().releases[entry.version].off_by_default(share)


def test_a_profile_cell_of_an_ungated_claim_resolves_for_a_repro() -> None:
    """``kcompat repro`` plans the cell it was given: a profile named in the id is part of that plan, so a cell
    of a claim no feature gates, run on an explicit profile, is found (it was "not a cell of the matrix")."""
    from kcompat.harness.matrix.repro import resolve_cell

    text = "KIP-525/validate-only-returns-configs[4.1.2-kraft@share.version=1|wire]"
    assert resolve_cell(text).id == text
