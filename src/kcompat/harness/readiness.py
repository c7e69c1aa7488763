"""Readiness as objects: what "ready" means, checked until a bounded deadline.

A strategy makes one attempt and returns ``None`` when ready or the reason it
is not yet; ``wait_until`` polls it every ``interval`` seconds (10 ms, so a
broker is seen ready within one interval of answering; ``kcompat.harness.waiting``
keeps the time) and, before each attempt, lets the caller raise if the
process it waits for has died.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .errors import BootError, HarnessError
from .features import FEATURES_API_VERSIONS
from .protocol import ApiVersionRange, WireConnection
from .spec import SaslSpec
from .waiting import attempts


class Readiness(Protocol):
    @property
    def what(self) -> str:
        """What is waited for, for the timeout message."""

    def attempt(self) -> str | None:
        """None when ready, else why not (kept for the timeout message)."""


def wait_until(
    strategy: Readiness,
    *,
    timeout: float,
    log: Path | None = None,
    alive: Callable[[], None] = lambda: None,
    interval: float = 0.01,
) -> float:
    """Poll ``strategy`` until ready; return the seconds it took."""
    started = time.monotonic()
    reason = ""
    for _ in attempts(timeout, interval=interval):
        alive()
        reason = strategy.attempt() or ""
        if not reason:
            return time.monotonic() - started
    raise BootError(f"{strategy.what} not ready after {timeout:.1f}s (last: {reason})", log=log)


@dataclass
class ZooKeeperAnswers:
    """ZooKeeper answers the ``srvr`` four-letter word (whitelisted by default)."""

    port: int
    host: str = "127.0.0.1"

    @property
    def what(self) -> str:
        return f"ZooKeeper on {self.host}:{self.port}"

    def attempt(self) -> str | None:
        try:
            with socket.create_connection((self.host, self.port), timeout=1.0) as sock:
                sock.sendall(b"srvr")
                answer = sock.recv(256)
        except OSError as exc:
            return str(exc)
        return None if answer.startswith(b"Zookeeper version") else f"answered {answer[:40]!r}"


@dataclass
class BrokerAnswers:
    """The broker answers ApiVersions, and Metadata lists ``expected`` brokers.

    With SASL, Metadata is asked after authenticating as the super user, so
    the check also proves the listener's authentication works.
    """

    port: int
    expected: int
    sasl: SaslSpec | None = None
    host: str = "127.0.0.1"
    api_versions: list[ApiVersionRange] | None = None

    @property
    def what(self) -> str:
        return f"broker on {self.host}:{self.port}"

    def attempt(self) -> str | None:
        try:
            with WireConnection(self.host, self.port, timeout=2.0) as conn:
                ranges = conn.api_versions()
                offered = {r.api_key: r for r in ranges}
                if self.sasl is not None:
                    conn.authenticate_plain(self.sasl.super_user, self.sasl.super_password, offered)
                brokers = conn.metadata_brokers(offered)
        except HarnessError as exc:
            return str(exc)
        if len(brokers) < self.expected:
            return f"Metadata lists {len(brokers)} of {self.expected} brokers"
        self.api_versions = ranges
        return None


@dataclass
class FeaturesFinalized:
    """The broker's ApiVersions finalizes ``levels`` (a level 0 is finalized by being absent)."""

    port: int
    levels: tuple[tuple[str, int], ...]
    host: str = "127.0.0.1"

    @property
    def what(self) -> str:
        shown = ", ".join(f"{name}={level}" for name, level in self.levels)
        return f"feature levels {shown} on {self.host}:{self.port}"

    def attempt(self) -> str | None:
        try:
            with WireConnection(self.host, self.port, timeout=2.0) as conn:
                answer = conn.call("ApiVersions", FEATURES_API_VERSIONS, {"ClientSoftwareName": "kcompat",
                                                                          "ClientSoftwareVersion": "0"})
        except HarnessError as exc:
            return str(exc)
        finalized = {f["Name"]: int(f["MaxVersionLevel"]) for f in answer.get("FinalizedFeatures") or ()}
        wrong = [f"{name} is at {finalized.get(name, 0)}" for name, level in self.levels
                 if finalized.get(name, 0) != level]
        return "; ".join(wrong) or None
