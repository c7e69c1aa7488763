"""What running cells needs beyond the cells themselves: clusters, clients, names, one run directory.

The pytest plugin builds one ``CellEnv`` per worker from its fixtures; a
script builds one with ``CellEnv.open`` and runs cells without pytest
(``kcompat.harness.matrix.cell.run_cell``).  ``ClusterFactory`` and
``AdminClientFactory`` live here, not in the plugin, because both ways share
clusters and clients the same way.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..artifacts import ArtifactStore
from ..catalog import load_catalog
from ..clients import AdminClient, ClientRef, Endpoint, client_for
from ..clients.java import close_sidecars
from ..config import HarnessConfig
from ..errors import EngineError
from ..javac import compile_plugin
from ..providers import Cluster, Provider, provider_for, reap_orphans
from ..reaper import new_run_id
from ..recorder import Recorders, RequestRecorder
from ..spec import ClusterSpec
from ..versions import KafkaVersion
from .claims import BrokerPlugin
from .plan import ClusterSpecs, Compiler, plugin_sources


def endpoint_of(cluster: Cluster, user: str | None = None, *, via: RequestRecorder | None = None) -> Endpoint:
    """How a client reaches ``cluster``: as ``user``, or as the super user when it has SASL; ``via`` a request
    recorder in front of its brokers, or directly."""
    servers = cluster.bootstrap_servers if via is None else via.bootstrap_servers
    sasl = cluster.spec.sasl
    if sasl is None:
        return Endpoint(servers, controllers=cluster.controller_servers)
    name = user or sasl.super_user
    return Endpoint(servers, name, sasl.credentials[name], controllers=cluster.controller_servers)


class ClusterFactory:
    """Starts clusters on demand and shares each one among callers asking for an equal spec.

    At most ``max_running`` clusters stay up per worker; the least recently
    used one is stopped to make room, which bounds memory and CPU on small CI
    machines while cells ordered by spec still reuse their cluster.

    A cluster leaving (evicted or discarded) stops on a thread of its own: a
    broker's orderly shutdown is seconds of waiting (a ZooKeeper broker's
    reapers and quota threads take about 3 s), which the next boot and the
    next cells need not wait for.  ``close`` stops the rest side by side and
    waits for every stop; a stop's failure is raised there, once all are done.
    """

    def __init__(self, provider: Provider, *, max_running: int = 3):
        self.provider = provider
        self.max_running = max_running
        self._running: dict[ClusterSpec, Cluster] = {}
        self._stopping: list[Future[None]] = []
        self._stopper = ThreadPoolExecutor(thread_name_prefix="kcompat-stop")

    def __call__(self, spec: ClusterSpec) -> Cluster:
        cluster = self._running.pop(spec, None)
        if cluster is not None:
            try:
                cluster.check_alive()
            except BaseException:
                self._leave(cluster.stop)  # a dead cluster is not handed out again; the next ask boots anew
                raise
            self._running[spec] = cluster  # most recently used goes last
            return cluster
        while len(self._running) >= self.max_running:
            oldest = next(iter(self._running))
            self._leave(self._running.pop(oldest).stop)
        cluster = self.provider.start(spec)
        self._running[spec] = cluster
        return cluster

    def discard(self, spec: ClusterSpec) -> None:
        """Stop a cluster a caller has changed beyond reuse."""
        if (cluster := self._running.pop(spec, None)) is not None:
            self._leave(cluster.discard)

    def retire(self, spec: ClusterSpec) -> None:
        """Stop a cluster no later caller will ask for (its last cell has run), rather than when a boot evicts it."""
        if (cluster := self._running.pop(spec, None)) is not None:
            self._leave(cluster.stop)

    def _leave(self, stop: Callable[[], None]) -> None:
        self._stopping.append(self._stopper.submit(stop))

    def close(self) -> None:
        while self._running:
            _, cluster = self._running.popitem()
            self._leave(cluster.stop)
        self._stopper.shutdown(wait=True)  # every stop is bounded: stop_grace, then SIGKILL
        failures = [error for stop in self._stopping if (error := stop.exception()) is not None]
        self._stopping.clear()
        if failures:
            raise failures[0]


class AdminClientFactory:
    """Makes clients by name (``wire``, ``confluent``, ``java:4.4.0``) and closes them together.

    Java sidecars are shared per kafka-clients release for the whole process.
    """

    def __init__(self, config: HarnessConfig, run_id: str):
        self.config = config
        self.run_id = run_id
        self._made: list[AdminClient] = []

    def __call__(self, cluster: Cluster, client: str | ClientRef, *, user: str | None = None,
                 via: RequestRecorder | None = None) -> AdminClient:
        made = client_for(client, endpoint_of(cluster, user, via=via), self.config, run_id=self.run_id,
                          broker=str(cluster.spec.version))
        self._made.append(made)
        return made

    def close(self) -> None:
        """Close every client, each bounded by ``CLOSE_TIMEOUT`` (``close_bounded``)."""
        while self._made:
            client = self._made.pop()
            close_bounded(client.close, f"a {client.kind} {client.version} client")


CLOSE_TIMEOUT = 30.0
"""Seconds a client gets to close.  librdkafka 2.16 closing an admin client after DeleteGroups was refused by
Kafka 0.11 has aborted the process, and once deadlocked in ``rd_kafka_destroy_final`` instead (2026-11-25)."""
CLOSE_HUNG_EXIT = 70
"""The exit code of a test process kcompat ended because a client's close never returned."""


def close_bounded(close: Callable[[], None], what: str, timeout: float = CLOSE_TIMEOUT) -> None:
    """``close()`` on a thread, waited for ``timeout`` seconds; its exception is raised here.  A close that
    never returns holds locks nobody can take back, so the process ends as an abort would, with a
    ``*** ... ***`` line on its stderr that the run reads as the death's cause (``runner._death``): the cell's
    verdict is on disk already and the run starts the rest again."""
    failed: list[BaseException] = []

    def closing() -> None:
        try:
            close()
        except BaseException as exc:  # handed to the caller's thread
            failed.append(exc)

    thread = threading.Thread(target=closing, name="kcompat-client-close", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        os.write(2, f"\n*** kcompat: closing {what} had not returned after {timeout:g} s (the client library "
                    f"hangs in its close); kcompat ends the test process ***\n".encode())
        os._exit(CLOSE_HUNG_EXIT)
    if failed:
        raise failed[0]


class Clusters(Protocol):
    """Where a cell gets its cluster: ``ClusterFactory``, or anything sharing clusters the same way."""

    def __call__(self, spec: ClusterSpec) -> Cluster: ...

    def discard(self, spec: ClusterSpec) -> None: ...

    def retire(self, spec: ClusterSpec) -> None: ...


def unique_names(run_id: str, worker: str) -> Callable[[str], str]:
    """``names("orders")`` -> ``orders-<run id>-<worker>-<n>``: clusters are shared and keep their topics,
    so a topic a cell really creates carries the run, the worker and a counter of the process."""
    counter = itertools.count(1)
    return lambda prefix: f"{prefix}-{run_id}-{worker}-{next(counter)}"


def plugin_compiler(config: HarnessConfig) -> Compiler:
    """Compiles a claim's broker plug-in against the cell's broker release (its jars resolved through the cache)."""
    def compile_for(plugin: BrokerPlugin, version: KafkaVersion) -> Path:
        artifacts = ArtifactStore(config).resolve(load_catalog().release(version))
        return compile_plugin(plugin_sources(plugin), artifacts, config.cache_dir)

    return compile_for


@dataclass
class CellEnv:
    """One process's means of running cells: the pytest plugin makes it from fixtures, a script with ``open``.

    ``granted`` remembers the cluster-level ACLs already granted per cluster;
    ``broken`` the client references that could not be made twice, and the
    clusters (by spec) that could not be booted twice, with the reason, so
    later cells of that client or cluster don't pay for them again;
    ``recorders`` the request recorder in front of each cluster, through which
    every cell's client under test connects (closed with the environment).
    """

    config: HarnessConfig
    run_id: str
    run_dir: Path
    clusters: Clusters
    specs: ClusterSpecs
    topic: Callable[[str], str]
    worker: str = "main"
    granted: set[tuple[str, str]] = field(default_factory=set)
    broken: dict[str, str] = field(default_factory=dict)
    recorders: Recorders = field(default_factory=Recorders)

    def clients(self) -> AdminClientFactory:
        """A factory for one attempt's clients (closed by the attempt: a client must not outlive its cluster)."""
        return AdminClientFactory(self.config, self.run_id)

    def store(self) -> ArtifactStore:
        return ArtifactStore(self.config)

    @classmethod
    @contextmanager
    def open(cls, config: HarnessConfig, *, run_dir: Path | None = None, run_id: str | None = None,
             worker: str = "main") -> Iterator[CellEnv]:
        """An environment of its own (provider, clusters, request recorders, sidecars), torn down on leaving;
        orphans of dead runs are reaped first, as a pytest session does.  ``run_dir`` defaults to
        ``<run root>/<run id>``."""
        run_id = run_id or new_run_id()
        with suppress(EngineError):  # an engine failing: the cell that needs it says so
            reap_orphans(config, ("process", config.provider))
        clusters = ClusterFactory(provider_for(config.provider, config, run_id=run_id))
        recorders = Recorders()
        try:
            yield cls(config, run_id, (run_dir or config.run_root / run_id).absolute(), clusters,
                      ClusterSpecs(plugin_compiler(config)), unique_names(run_id, worker), worker,
                      recorders=recorders)
        finally:
            try:
                recorders.close()
            finally:
                try:
                    clusters.close()
                finally:
                    close_sidecars()
