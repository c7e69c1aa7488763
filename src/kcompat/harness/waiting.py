"""Every bounded wait in one place: poll until a deadline, or retry a bounded number of times.

A loop written by hand forgets its bound, sleeps before its first try, or gives up without
looking once more after the deadline. These helpers don't. They decide only *when* to stop.
The caller still raises its own error (a ``BootError`` naming the log, a ``ProbeFailed``
naming the user) with the last thing it saw, so every timeout message stays specific.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")
Clock = Callable[[], float]
Pause = Callable[[float], object]


def attempts(timeout: float, *, interval: float, clock: Clock = time.monotonic,
             pause: Pause = time.sleep) -> Iterator[int]:
    """Yield 1, 2, 3... once per attempt, pausing ``interval`` seconds between attempts, for ``timeout`` seconds.

    The first attempt is immediate. The last is the first one made at or after the deadline, so a
    condition that comes true just as time runs out is still seen. The caller's loop body makes the
    attempt and returns (or breaks) when it is done. Falling out of the loop means time ran out,
    and the caller raises its own error. ``pause`` is what fills the interval (``time.sleep``, or
    a client's ``poll`` that serves callbacks meanwhile).
    """
    started = clock()
    number = 0
    while True:
        number += 1
        yield number
        if clock() - started >= timeout:
            return
        pause(interval)


def poll(check: Callable[[], T | None], *, timeout: float, interval: float, clock: Clock = time.monotonic,
         pause: Pause = time.sleep) -> T | None:
    """The first value ``check`` returns that is not None, or None once ``timeout`` has passed without one."""
    for _ in attempts(timeout, interval=interval, clock=clock, pause=pause):
        if (found := check()) is not None:
            return found
    return None


def retry(action: Callable[[], T], *, times: int, when: Callable[[Exception], bool], delay: Callable[[int], float],
          on_retry: Callable[[int, Exception], None] = lambda attempt, exc: None,
          pause: Pause = time.sleep) -> T:
    """Run ``action``. If it raises an exception ``when`` accepts, run it again, ``times`` runs in all.

    After the n-th run fails (n from 1), ``on_retry(n, exc)`` runs, then a pause of ``delay(n)``
    seconds, then the next run. The last run's exception propagates, as does any exception
    ``when`` refuses, with no pause.
    """
    if times < 1:
        raise ValueError(f"retry needs at least one run, not {times}")
    for attempt in range(1, times + 1):
        try:
            return action()
        except Exception as exc:
            if attempt == times or not when(exc):
                raise
            on_retry(attempt, exc)
            pause(delay(attempt))
    raise AssertionError("unreachable: the last run returned or raised")
