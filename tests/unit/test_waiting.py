"""The bounded waits (attempts until a deadline, with a fake clock; poll; retry) and callers whose loops they replaced."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.waiting import attempts, poll, retry


class FakeClock:
    """Time that moves only when the wait pauses."""

    def __init__(self) -> None:
        self.now = 100.0
        self.pauses: list[float] = []

    def __call__(self) -> float:
        return self.now

    def pause(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


def test_attempts_start_at_once_and_end_with_one_look_past_the_deadline() -> None:
    clock = FakeClock()
    seen = [(number, clock.now - 100.0) for number in attempts(1.0, interval=0.25, clock=clock, pause=clock.pause)]
    assert seen == [(1, 0.0), (2, 0.25), (3, 0.5), (4, 0.75), (5, 1.0)]
    assert clock.pauses == [0.25] * 4  # no pause before the first attempt, none after the last


def test_a_zero_timeout_still_makes_one_attempt() -> None:
    clock = FakeClock()
    assert list(attempts(0.0, interval=1.0, clock=clock, pause=clock.pause)) == [1]
    assert clock.pauses == []


def test_poll_returns_the_first_value_and_stops_looking() -> None:
    clock = FakeClock()
    answers = iter([None, None, 0, 7])
    assert poll(lambda: next(answers), timeout=10.0, interval=1.0, clock=clock, pause=clock.pause) == 0
    assert clock.pauses == [1.0, 1.0]


def test_poll_gives_none_when_time_runs_out() -> None:
    clock = FakeClock()
    calls: list[float] = []
    assert poll(lambda: calls.append(clock.now), timeout=2.0, interval=0.5, clock=clock, pause=clock.pause) is None
    assert len(calls) == 5 and calls[-1] - calls[0] == 2.0


class Conflict(Exception):
    pass


def test_retry_runs_again_after_accepted_failures_with_its_delays() -> None:
    pauses: list[float] = []
    noted: list[tuple[int, str]] = []
    outcomes: list[Exception | str] = [Conflict("one"), Conflict("two"), "done"]

    def action() -> str:
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    result = retry(action, times=5, when=lambda exc: isinstance(exc, Conflict), delay=lambda n: n * 10.0,
                   on_retry=lambda n, exc: noted.append((n, str(exc))), pause=pauses.append)
    assert result == "done"
    assert noted == [(1, "one"), (2, "two")] and pauses == [10.0, 20.0]


def test_retry_raises_the_last_failure_after_its_runs_and_others_at_once() -> None:
    pauses: list[float] = []
    runs: list[int] = []

    def conflicting() -> None:
        runs.append(1)
        raise Conflict(f"run {len(runs)}")

    with pytest.raises(Conflict, match="run 3"):
        retry(conflicting, times=3, when=lambda exc: isinstance(exc, Conflict), delay=lambda n: 1.0,
              pause=pauses.append)
    assert len(runs) == 3 and pauses == [1.0, 1.0]  # no pause after the last run

    def broken() -> None:
        raise KeyError("not a conflict")

    with pytest.raises(KeyError):
        retry(broken, times=3, when=lambda exc: isinstance(exc, Conflict), delay=lambda n: 1.0, pause=pauses.append)
    assert pauses == [1.0, 1.0]


def test_retry_needs_a_run() -> None:
    with pytest.raises(ValueError, match="at least one run"):
        retry(lambda: None, times=0, when=lambda exc: True, delay=lambda n: 0.0)


class FakeCluster:
    """Boots by raising what it is given; remembers being stopped."""

    def __init__(self, error: BaseException | None) -> None:
        self.error, self.stopped = error, False

    def boot(self) -> None:
        if self.error is not None:
            raise self.error

    def stop(self) -> None:
        self.stopped = True


def test_a_boot_retries_once_on_a_taken_port_and_stops_every_cluster_that_failed() -> None:
    from kcompat.harness.errors import BootError, PortError
    from kcompat.harness.providers.cluster import boot_with_retry

    made = [FakeCluster(PortError("taken")), FakeCluster(None)]
    notes: list[str] = []
    assert boot_with_retry(iter(list(made)).__next__, notes.append) is made[1]
    assert made[0].stopped and not made[1].stopped and notes == ["a port was taken under us; retrying with new ports"]

    twice = [FakeCluster(PortError("taken")), FakeCluster(PortError("taken again"))]
    with pytest.raises(PortError, match="taken again"):
        boot_with_retry(iter(list(twice)).__next__, notes.append)
    assert all(cluster.stopped for cluster in twice)

    dead = FakeCluster(BootError("died"))
    with pytest.raises(BootError):
        boot_with_retry(iter([dead]).__next__, notes.append)
    assert dead.stopped


class Answers:
    """A readiness strategy that is not ready for its first ``pending`` attempts."""

    what = "broker on 127.0.0.1:1"

    def __init__(self, pending: int) -> None:
        self.pending, self.attempts = pending, 0

    def attempt(self) -> str | None:
        self.attempts += 1
        return f"refused ({self.attempts})" if self.attempts <= self.pending else None


def test_readiness_waits_for_the_strategy_and_times_out_naming_the_last_reason_and_the_log(tmp_path: Path) -> None:
    from kcompat.harness.errors import BootError
    from kcompat.harness.readiness import wait_until

    ready = Answers(pending=2)
    assert wait_until(ready, timeout=60.0, interval=0.001) >= 0.0 and ready.attempts == 3

    never = Answers(pending=10**9)
    with pytest.raises(BootError, match=r"broker on 127.0.0.1:1 not ready after 0.0s \(last: refused \(\d+\)\); "
                                        r"log: .*broker.log"):
        wait_until(never, timeout=0.0, log=tmp_path / "broker.log")
    assert never.attempts == 1  # a zero timeout still looks once

    def died() -> None:
        raise BootError("the broker exited with code 1")

    with pytest.raises(BootError, match="exited"):
        wait_until(Answers(pending=0), timeout=60.0, alive=died)
