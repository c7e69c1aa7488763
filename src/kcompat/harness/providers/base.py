"""The provider interface every way of running brokers implements.

A provider turns a ``ClusterSpec`` into a running ``Cluster`` that is ready
(answers ApiVersions; Metadata lists every broker) or raises a
``HarnessError``.  Scenarios and fixtures see only these Protocols.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Self

from ..java import JavaRuntime
from ..protocol import ApiVersionRange
from ..spec import ClusterSpec

Progress = Callable[[str], None]
"""Receives one short line per boot stage (for progress bars)."""


@dataclass(frozen=True)
class BrokerEndpoint:
    node_id: int
    host: str
    port: int
    log_path: Path


class Cluster(Protocol):
    spec: ClusterSpec
    java: JavaRuntime
    run_dir: Path
    boot_seconds: float
    api_versions: list[ApiVersionRange]

    @property
    def brokers(self) -> Sequence[BrokerEndpoint]: ...

    @property
    def bootstrap_servers(self) -> str: ...

    @property
    def controller_servers(self) -> str | None:
        """The KRaft controller listener's ``host:port`` list; None in ZooKeeper mode."""

    def check_alive(self) -> None:
        """Raise ``BootError`` naming the process and its log if any has exited."""

    def stop(self) -> None:
        """Stop every process of the cluster; safe to call twice."""

    def discard(self) -> None:
        """Stop a cluster changed beyond reuse: unlike ``stop``, never leaves it for a later run."""

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


class Provider(Protocol):
    name: str

    def start(self, spec: ClusterSpec) -> Cluster: ...

    def reap_orphans(self, *, reused: bool = False) -> list[str]:
        """Remove what this provider started for harness processes that no longer exist.

        ``reused`` also removes clusters left running for reuse that nobody
        uses.  Returns one line per thing removed.
        """
