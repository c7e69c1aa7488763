"""What a recorder saw: every request header, what each broker offered, and what it could not follow.

Shared by every connection of a ``RequestRecorder`` (one per cluster and
worker, reused across cells), so a caller takes a ``mark()`` before its
client acts and asks about what came after it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from ..protocol import ApiVersionRange, api_name


@dataclass(frozen=True)
class SentRequest:
    """One request as it passed the proxy."""

    connection: int
    """The recorder's number for the client connection (from 1, in accept order)."""
    broker: str
    """The broker it went to, ``host:port`` as the cluster names it."""
    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    at: float
    """``time.time()`` when its header was read."""

    @property
    def api(self) -> str:
        return api_name(self.api_key) or str(self.api_key)


class Traffic:
    """Thread-safe: the proxy's pumps add, callers query."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sent: list[SentRequest] = []
        self._offered: dict[str, dict[int, ApiVersionRange]] = {}
        self._problems: list[tuple[int, str]] = []
        self._connections: dict[str, int] = {}

    def add(self, request: SentRequest) -> None:
        with self._lock:
            self._sent.append(request)

    def connected(self, broker: str) -> int:
        """Count one client connection to ``broker``'s proxy port; its number."""
        with self._lock:
            self._connections[broker] = self._connections.get(broker, 0) + 1
            return sum(self._connections.values())

    def offer(self, broker: str, versions: Iterable[ApiVersionRange]) -> None:
        """What ``broker`` answered an ApiVersions with (the last answer wins: every answer is the same)."""
        with self._lock:
            self._offered[broker] = {v.api_key: v for v in versions}

    def problem(self, line: str) -> None:
        """Something the recorder could not follow; kept with the position it happened at (``problems_since``)."""
        with self._lock:
            self._problems.append((len(self._sent), f"{time.strftime('%H:%M:%S')} {line}"))

    def mark(self) -> int:
        """A position: ``*_since(mark)`` ask about what came after it."""
        with self._lock:
            return len(self._sent)

    def sent_since(self, mark: int = 0, api: str | int | None = None) -> list[SentRequest]:
        """The requests since ``mark``, of one API (by name or key) or all, in arrival order."""
        with self._lock:
            found = self._sent[mark:]
        return [r for r in found if api is None or (r.api if isinstance(api, str) else r.api_key) == api]

    def versions_since(self, mark: int, api: str | int) -> tuple[int, ...]:
        """The versions of ``api`` sent since ``mark``, in arrival order."""
        return tuple(r.api_version for r in self.sent_since(mark, api))

    def version_since(self, mark: int, api: str | int) -> int | None:
        """The version of the last ``api`` request since ``mark`` (None: none went through the recorder)."""
        found = self.versions_since(mark, api)
        return found[-1] if found else None

    def offered(self, broker: str | None = None) -> dict[int, ApiVersionRange]:
        """What ``broker`` (or, without one, the first broker that answered) offered its clients."""
        with self._lock:
            if broker is not None:
                return dict(self._offered.get(broker, {}))
            return dict(next(iter(self._offered.values()), {}))

    def problems_since(self, mark: int = 0) -> list[str]:
        with self._lock:
            return [line for at, line in self._problems if at >= mark]

    @property
    def problems(self) -> list[str]:
        return self.problems_since(0)

    def connections(self) -> dict[str, int]:
        """Client connections accepted per broker (``host:port``) since the recorder started."""
        with self._lock:
            return dict(self._connections)


__all__ = ["SentRequest", "Traffic"]
