"""ClusterFactory's sharing and stopping, on fake clusters whose stops can be held (pure plumbing)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kcompat.harness import ClusterSpec
from kcompat.harness.errors import HarnessError
from kcompat.harness.matrix.env import ClusterFactory


class HeldCluster:
    """A cluster whose ``stop`` waits until the test lets it go (a ZooKeeper broker's seconds of shutdown)."""

    def __init__(self, spec: ClusterSpec, events: list[tuple[str, str]], gate: threading.Event,
                 failing: set[str]):
        self.spec, self.events, self.gate, self.failing = spec, events, gate, failing

    def check_alive(self) -> None:
        pass

    def stop(self) -> None:
        self.events.append(("stopping", self.spec.label))
        assert self.gate.wait(10), "the test never let the stop go"
        self.events.append(("stopped", self.spec.label))
        if self.spec.label in self.failing:
            raise HarnessError(f"{self.spec.label} did not stop")

    def discard(self) -> None:
        self.events.append(("discarded", self.spec.label))


class FakeProvider:
    name = "fake"

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []
        self.gate = threading.Event()
        self.failing: set[str] = set()

    def start(self, spec: ClusterSpec) -> Any:
        self.events.append(("start", spec.label))
        return HeldCluster(spec, self.events, self.gate, self.failing)


SPECS = [ClusterSpec.of(v) for v in ("2.8", "3.9", "4.0", "4.1")]


def _factory(max_running: int = 3) -> tuple[ClusterFactory, FakeProvider]:
    provider = FakeProvider()
    return ClusterFactory(provider, max_running=max_running), provider  # type: ignore[arg-type]


def test_an_evicted_cluster_stops_while_the_next_one_boots() -> None:
    factory, provider = _factory(max_running=1)
    factory(SPECS[0])
    factory(SPECS[1])  # returns although the first cluster's stop is still held
    assert ("start", SPECS[1].label) in provider.events
    assert ("stopped", SPECS[0].label) not in provider.events
    provider.gate.set()
    factory.close()
    assert sorted(e for e in provider.events if e[0] == "stopped") == sorted(
        ("stopped", s.label) for s in SPECS[:2])


def test_close_stops_every_cluster_side_by_side_and_waits() -> None:
    factory, provider = _factory()
    for spec in SPECS[:3]:
        factory(spec)
    closing = threading.Thread(target=factory.close)
    closing.start()
    for _ in range(200):  # all three begin stopping before any is let go
        if sum(e[0] == "stopping" for e in provider.events) == 3:
            break
        threading.Event().wait(0.01)
    assert sum(e[0] == "stopping" for e in provider.events) == 3
    assert closing.is_alive()  # close waits for the stops
    provider.gate.set()
    closing.join(10)
    assert not closing.is_alive() and sum(e[0] == "stopped" for e in provider.events) == 3


def test_a_failed_stop_is_raised_by_close_after_every_other_stop() -> None:
    factory, provider = _factory(max_running=1)
    provider.failing.add(SPECS[0].label)
    provider.gate.set()
    factory(SPECS[0])
    factory(SPECS[1])  # evicts the failing one: the cell that asked is not blamed
    with pytest.raises(HarnessError, match="did not stop"):
        factory.close()
    assert ("stopped", SPECS[1].label) in provider.events


def test_a_retired_cluster_is_stopped_and_a_later_ask_boots_anew() -> None:
    factory, provider = _factory()
    provider.gate.set()
    first = factory(SPECS[0])
    assert factory(SPECS[0]) is first  # shared while in use
    factory.retire(SPECS[0])
    factory.retire(SPECS[2])  # never started: nothing to do
    assert factory(SPECS[0]) is not first
    factory.discard(SPECS[0])
    factory.close()
    assert provider.events.count(("start", SPECS[0].label)) == 2
    assert ("stopped", SPECS[0].label) in provider.events and ("discarded", SPECS[0].label) in provider.events


# -- a KRaft cluster's stop once its quorum is gone ------------------------------------------------------------


class Clock:
    """time.monotonic and time.sleep for ``_await_quorum_stops``: sleeping moves the clock; JVMs exit at set times."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class TimedJvm:
    def __init__(self, clock: Clock, exits_at: float | None):
        self.clock, self.exits_at = clock, exits_at

    def exit_code(self) -> int | None:
        return 0 if self.exits_at is not None and self.clock.now >= self.exits_at else None


@pytest.mark.parametrize(("mode", "exits", "expected"), [
    ("kraft", [1.0, 1.0, None], 11.0),   # two gone: the third has no quorum, 10 s from then, not the full 30
    ("kraft", [1.0, None, None], 30.0),  # two still form a majority: the full grace
    ("kraft", [0.5, 0.5, 2.0], 10.5),    # alone from 0.5 s; it left on its own at 2 s, well inside
    ("zk", [1.0, 1.0, None], 30.0),      # ZooKeeper outlives its brokers: no quorum to lose
    ("kraft", [None], 30.0),             # one node is its own majority
])
def test_a_kraft_node_without_a_quorum_gets_a_short_grace(monkeypatch: pytest.MonkeyPatch, mode: str,
                                                          exits: list[float | None], expected: float) -> None:
    from types import SimpleNamespace

    from kcompat.harness.providers import cluster as module

    clock = Clock()
    monkeypatch.setattr(module, "time", SimpleNamespace(monotonic=clock.monotonic, sleep=clock.sleep))
    fake = SimpleNamespace(spec=SimpleNamespace(mode=mode), _brokers=[TimedJvm(clock, at) for at in exits])
    deadline = module.JvmCluster._await_quorum_stops(fake, 30.0)  # type: ignore[arg-type]
    assert deadline == pytest.approx(expected, abs=0.11)
