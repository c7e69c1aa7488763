"""One request recorder per cluster, shared by every cell of a worker on that cluster.

Starting a recorder is cheap (a listening socket per broker and one thread)
but its connections are the client's: reusing it across cells costs nothing
more, and each cell asks about what came after its own ``traffic.mark()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .proxy import RequestRecorder
from .rewrite import Address


class _Broker(Protocol):
    @property
    def host(self) -> str: ...

    @property
    def port(self) -> int: ...


class _Cluster(Protocol):
    @property
    def brokers(self) -> Sequence[_Broker]: ...


class Recorders:
    """``recorders(cluster)``: the recorder in front of that cluster's brokers, started on first ask.

    At most ``keep`` stay open (a worker keeps three clusters up at most); the least recently used one is
    closed to make room.  A cluster booted again on other ports gets a recorder of its own.
    """

    def __init__(self, keep: int = 4):
        self.keep = keep
        self._open: dict[tuple[Address, ...], RequestRecorder] = {}

    def __call__(self, cluster: _Cluster) -> RequestRecorder:
        brokers = tuple((b.host, int(b.port)) for b in cluster.brokers)
        recorder = self._open.pop(brokers, None)
        if recorder is None:
            while len(self._open) >= self.keep:
                self._open.pop(next(iter(self._open))).close()
            recorder = RequestRecorder(brokers, name=f"recorder-{brokers[0][1]}").__enter__()
        self._open[brokers] = recorder  # most recently used last
        return recorder

    def close(self) -> None:
        while self._open:
            _, recorder = self._open.popitem()
            recorder.close()


__all__ = ["Recorders"]
