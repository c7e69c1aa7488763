"""How a cell's exceptions become outcomes (kcompat.harness.matrix.cell.run_cell), with clusters that only raise.

No broker is booted: every attempt ends at asking for its cluster, which is
where a HarnessError, a refused set-up and a bug of ours take their separate
ways (tests/integration/test_cell_library.py runs a cell against a real broker).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.catalog import load_catalog
from kcompat.harness.config import HarnessConfig
from kcompat.harness.errors import BootError
from kcompat.harness.matrix.cell import bug_reason, run_cell
from kcompat.harness.matrix.claims import claims_dir, load_claim_book
from kcompat.harness.matrix.env import CellEnv
from kcompat.harness.matrix.plan import ClusterSpecs, PlannedCell, Selection, plan
from kcompat.harness.matrix.probe import ProbeFailed
from kcompat.harness.records import RECORDS_FILE, read_records
from kcompat.harness.spec import ClusterSpec


class RaisingClusters:
    """Clusters whose every ask raises ``error``; remembers what was asked and discarded."""

    def __init__(self, error: Exception):
        self.error = error
        self.asked: list[ClusterSpec] = []
        self.discarded: list[ClusterSpec] = []

    def __call__(self, spec: ClusterSpec) -> object:
        self.asked.append(spec)
        raise self.error

    def discard(self, spec: ClusterSpec) -> None:
        self.discarded.append(spec)

    def retire(self, spec: ClusterSpec) -> None:
        self.discarded.append(spec)


def _cell() -> PlannedCell:
    cells = plan(Selection.of("4.4", None, "wire", "KIP-195"), load_claim_book(claims_dir()), load_catalog())
    return cells[0]


def _env(tmp_path: Path, clusters: RaisingClusters) -> CellEnv:
    config = HarnessConfig.resolve(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs")
    return CellEnv(config, "run-1", tmp_path / "run", clusters, ClusterSpecs(), lambda prefix: f"{prefix}-1")


def _raise_key_error() -> None:
    {}["missing"]


def test_a_bug_of_ours_is_an_infra_error_naming_type_message_and_place(tmp_path: Path) -> None:
    try:
        _raise_key_error()
    except KeyError as exc:
        error = exc
    clusters = RaisingClusters(error)
    record = run_cell(_cell(), _env(tmp_path, clusters))
    assert record.outcome == "infra_error" and record.attempt == 1
    assert record.reason is not None and record.reason.startswith("harness error: KeyError: 'missing' at "
                                                                  "tests/unit/test_cell.py:")
    assert record.reason.endswith(" (a bug of kcompat, not a finding)")
    assert len(clusters.asked) == 1 and not clusters.discarded  # a bug would only repeat: no retry
    assert [r.cell_id for r in read_records(tmp_path / "run" / RECORDS_FILE).records] == [record.cell_id]


def test_a_refused_set_up_is_a_fail(tmp_path: Path) -> None:
    record = run_cell(_cell(), _env(tmp_path, RaisingClusters(ProbeFailed("set-up: refused"))))
    assert (record.outcome, record.reason) == ("fail", "ProbeFailed: set-up: refused")


def test_a_harness_error_is_retried_once_on_a_fresh_cluster_then_infra_error(tmp_path: Path) -> None:
    clusters = RaisingClusters(BootError("broker 1 exited"))
    record = run_cell(_cell(), _env(tmp_path, clusters))
    assert (record.outcome, record.reason, record.attempt) == ("infra_error", "broker 1 exited", 2)
    assert len(clusters.asked) == 2 and clusters.discarded == clusters.asked[:1]


def test_a_cluster_that_failed_to_boot_twice_is_not_booted_again_for_the_next_cell(tmp_path: Path) -> None:
    """KRaft 3.3-3.5 once refused every SASL boot: each of hundreds of cells paid two boots for nothing."""
    clusters = RaisingClusters(BootError("broker 1 exited with code 1 during boot"))
    env = _env(tmp_path, clusters)
    first, second = run_cell(_cell(), env), run_cell(_cell(), env)
    assert len(clusters.asked) == 2  # the first cell's two attempts; none for the second
    assert (second.outcome, second.reason) == ("infra_error", "broker 1 exited with code 1 during boot")
    assert first.reason == second.reason


@pytest.mark.parametrize("error", [TypeError("bad operand"), AttributeError("no attribute 'x'")])
def test_the_reason_of_a_bug_names_the_innermost_frame(error: Exception) -> None:
    try:
        raise error
    except Exception as exc:
        reason = bug_reason(exc)
    assert reason.startswith(f"harness error: {type(error).__name__}: {error} at tests/unit/test_cell.py:")


class _Clock:
    """``time.perf_counter`` for the cell: moved only by the fake build below."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _adapter_cell() -> PlannedCell:
    cells = plan(Selection.of("4.4", None, "franz-go:1.22.2", "KIP-195"), load_claim_book(claims_dir()),
                 load_catalog())
    return cells[0]


def test_an_adapters_build_is_made_before_the_cells_clock_starts(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from kcompat.harness.matrix import cell

    clock, built = _Clock(), []

    def build(ref: object, config: object, *, quiet: bool = False) -> None:
        built.append((str(ref), quiet))
        clock.now += 61.0  # a first franz-go build

    monkeypatch.setattr(cell.time, "perf_counter", clock)
    monkeypatch.setattr(cell, "install_client", build)
    record = run_cell(_adapter_cell(), _env(tmp_path, RaisingClusters(ProbeFailed("set-up: refused"))))
    assert built == [("franz-go:1.22.2", True)] and record.outcome == "fail"
    assert record.duration_ms == 0.0  # the clock moved only while building: none of it is the cell's


def test_an_adapter_that_cant_be_built_is_an_infra_error_and_not_built_again(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from kcompat.harness.matrix import cell

    tries: list[str] = []

    def broken(ref: object, config: object, *, quiet: bool = False) -> None:
        tries.append(str(ref))
        raise BootError("building the franz-go 1.22.2 adapter: `go build` exited 1")

    monkeypatch.setattr(cell, "install_client", broken)
    clusters = RaisingClusters(ProbeFailed("set-up: refused"))
    env = _env(tmp_path, clusters)
    first, second = run_cell(_adapter_cell(), env), run_cell(_adapter_cell(), env)
    assert first.outcome == second.outcome == "infra_error" and tries == ["franz-go:1.22.2"]
    assert first.reason == ("client franz-go:1.22.2 unavailable: building the franz-go 1.22.2 adapter: "
                            "`go build` exited 1")
    assert not clusters.asked  # nothing booted for a client that can't exist
