"""kcompat bisect's search and release list: pure logic on crafted records and metadata."""

from __future__ import annotations

import dataclasses

import pytest

from kcompat.harness.errors import ConfigError
from kcompat.harness.matrix.repro import first_change, releases_between, reproduced, signature
from kcompat.harness.records import Record
from kcompat.harness.versions import KafkaVersion

V = KafkaVersion.parse
RELEASES = [V(v) for v in ("2.3.0", "2.3.1", "2.4.0", "2.4.1", "2.5.0", "2.5.1", "2.6.0", "2.6.1", "2.6.2")]


def _record(outcome: str, configs: object = None) -> Record:
    observed = {} if configs is None else {"configs": configs}
    return Record(run_id="r", cell_id="KIP-525/x[2.4.0-zk|wire]", kip="KIP-525", claim_id="KIP-525/x",
                  api="CreateTopics", broker_version="2.4.0", broker_mode="zk", provider="process",
                  client_kind="wire", client_version="0.5.0", outcome=outcome,  # type: ignore[arg-type]
                  documented={"expect": {"configs": {"present": True}}}, observed=observed)


@pytest.mark.parametrize("change_at", range(1, len(RELEASES)))
def test_first_change_finds_the_release_and_probes_only_what_it_needs(change_at: int) -> None:
    probed: list[KafkaVersion] = []

    def probe(release: KafkaVersion) -> Record:
        probed.append(release)
        return _record("pass", 30) if RELEASES.index(release) >= change_at else _record("unsupported")

    first, steps = first_change(RELEASES, probe)
    assert first == RELEASES[change_at]
    assert len(probed) == len(set(probed)) <= 2 + 3  # both ends, then log2(9) midpoints at most
    assert [s.release for s in steps] == probed


def test_no_change_between_equal_ends() -> None:
    first, steps = first_change(RELEASES, lambda release: _record("pass", 30))
    assert first is None and len(steps) == 2


def test_a_changed_observation_counts_even_with_the_same_verdict() -> None:
    assert signature(_record("pass", 30)) == signature(_record("pass", 30))
    assert signature(_record("deviation", 1)) != signature(_record("deviation", 2))
    assert signature(None) == ("no record",)


METADATA = "<metadata><versioning><versions>" + "".join(
    f"<version>{v}</version>" for v in ("2.3.0", "2.3.1", "2.4.0-rc1", "2.4.0", "2.4.1", "2.5.0")) + \
    "</versions></versioning></metadata>"


def test_releases_between_lists_every_published_patch_in_range() -> None:
    assert releases_between("2.3.1", "2.4.1", lambda scala: METADATA) == [V("2.3.1"), V("2.4.0"), V("2.4.1")]


def test_releases_between_refuses_reversed_or_unpublished_ends() -> None:
    with pytest.raises(ConfigError, match="must be an older release"):
        releases_between("2.4.1", "2.3.1", lambda scala: METADATA)
    with pytest.raises(ConfigError, match="2.3.7 is not a release"):
        releases_between("2.3.7", "2.4.1", lambda scala: METADATA)


def test_a_repro_agrees_with_the_same_verdict_or_with_what_an_intermittent_cell_saw() -> None:
    steady = _record("deviation")
    flipping = dataclasses.replace(steady, intermittent=True, observations=[{"outcome": "deviation"},
                                                                            {"outcome": "pass"}])
    below = dataclasses.replace(steady, intermittent=True, observations=[{"outcome": "deviation"},
                                                                         {"outcome": "unsupported"}])
    assert reproduced(None, _record("pass")) and reproduced(steady, _record("deviation"))
    assert not reproduced(steady, _record("pass"))
    assert reproduced(flipping, _record("pass")) and reproduced(flipping, _record("deviation"))
    assert not reproduced(flipping, _record("unsupported"))
    assert reproduced(below, _record("unsupported")) and not reproduced(below, _record("pass"))
    assert not reproduced(None, _record("fail")) and not reproduced(_record("fail"), _record("fail"))
    assert not reproduced(steady, None)
