"""What a recorder saw: every request header, what each broker offered, and what it could not follow.

Shared by every connection of a ``RequestRecorder`` (one per cluster and
worker, reused across cells), so a caller takes a ``mark()`` before its
client acts and asks about what came after it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from ..protocol import API_VERSIONS, ApiVersionRange, api_name


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


class Mark(NamedTuple):
    """A position in the traffic: requests and problems seen so far."""

    requests: int = 0
    problems: int = 0


START = Mark()
"""Before anything was seen."""


class Traffic:
    """Thread-safe: the proxy's pumps add, callers query."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sent: list[SentRequest] = []
        self._offered: dict[str, dict[int, ApiVersionRange]] = {}
        self._problems: list[str] = []
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
        """Something the recorder could not follow, one line."""
        with self._lock:
            self._problems.append(line)

    def mark(self) -> Mark:
        """A position: ``*_since(mark)`` ask about what came after it."""
        with self._lock:
            return Mark(len(self._sent), len(self._problems))

    def sent_since(self, mark: Mark = START, api: str | int | None = None, *, until: Mark | None = None
                   ) -> list[SentRequest]:
        """The requests since ``mark`` (up to the mark ``until``), of one API (by name or key) or all, in
        arrival order."""
        with self._lock:
            found = self._sent[mark.requests:None if until is None else until.requests]
        return [r for r in found if api is None or (r.api if isinstance(api, str) else r.api_key) == api]

    def versions_since(self, mark: Mark, api: str | int, *, until: Mark | None = None) -> tuple[int, ...]:
        """The versions of ``api`` sent since ``mark``, in arrival order."""
        return tuple(r.api_version for r in self.sent_since(mark, api, until=until))

    def version_since(self, mark: Mark, api: str | int, *, until: Mark | None = None) -> int | None:
        """The version of the last ``api`` request since ``mark`` (None: none went through the recorder)."""
        found = self.versions_since(mark, api, until=until)
        return found[-1] if found else None

    def offered(self, broker: str | None = None) -> dict[int, ApiVersionRange]:
        """What ``broker`` (or, without one, the first broker that answered) offered its clients."""
        with self._lock:
            if broker is not None:
                return dict(self._offered.get(broker, {}))
            return dict(next(iter(self._offered.values()), {}))

    def problems_since(self, mark: Mark = START, *, until: Mark | None = None) -> list[str]:
        with self._lock:
            return self._problems[mark.problems:None if until is None else until.problems]

    @property
    def problems(self) -> list[str]:
        return self.problems_since()

    def connections(self) -> dict[str, int]:
        """Client connections accepted per broker (``host:port``) since the recorder started."""
        with self._lock:
            return dict(self._connections)


@dataclass(frozen=True)
class CrossCheck:
    """The request version a cell records, and what the two observers said when they differ."""

    version: int | None
    """The recorder's, where it saw the API; else the client's own (a request that bypassed the recorder)."""
    observed: dict[str, object]
    """Keys for the record's ``observed``, empty when the observers agree and the recorder had no problem:
    ``request_version_reported`` (the client's own, when the recorder saw another), ``request_version_recorded``
    (null: the client reported a version the recorder never saw) and ``recorder_problems``."""


def cross_check(traffic: Traffic, mark: Mark, api: str, reported: int | None, *, until: Mark | None = None
                ) -> CrossCheck:
    """The version of ``api`` sent between two marks, read off the wire, checked against the client's own
    report (kio's request, librdkafka's protocol log, NetworkClient's log; None for a client that can't say)."""
    recorded = traffic.version_since(mark, api, until=until)
    observed: dict[str, object] = {}
    if recorded is not None and reported is not None and recorded != reported:
        observed["request_version_reported"] = reported
    if recorded is None and reported is not None:
        observed["request_version_recorded"] = None
    if problems := traffic.problems_since(mark, until=until):
        observed["recorder_problems"] = problems
    return CrossCheck(recorded if recorded is not None else reported, observed)


def out_of_range(sent: Iterable[SentRequest], advertised: Iterable[ApiVersionRange]) -> list[dict[str, object]]:
    """Each (API, version) the client sent outside the range the broker advertised, once, in arrival order:
    ``{"api", "version", "broker_min", "broker_max"}`` (both null: the broker offers no version of it).  A broker
    refuses such a request (an error, or a closed connection), whatever the client negotiated or was set to.
    ApiVersions is aside: its fallback to an older version is the protocol's own (KIP-511)."""
    offered = {r.api_key: r for r in advertised}
    found: dict[tuple[int, int], dict[str, object]] = {}
    for request in sent:
        known = offered.get(request.api_key)
        if request.api_key == API_VERSIONS or (request.api_key, request.api_version) in found or (
                known is not None and known.min_version <= request.api_version <= known.max_version):
            continue
        found[request.api_key, request.api_version] = {
            "api": request.api, "version": request.api_version,
            "broker_min": None if known is None else known.min_version,
            "broker_max": None if known is None else known.max_version}
    return list(found.values())


__all__ = ["START", "CrossCheck", "Mark", "SentRequest", "Traffic", "cross_check", "out_of_range"]
