"""The boot sequence every provider shares; providers differ only in how a JVM runs.

A cluster is laid out (ports, directories, ``server.properties``), then
ZooKeeper is started or KRaft storage formatted, then the brokers, then each is
waited for by ApiVersions + Metadata under one deadline.  ``JvmCluster`` owns
that sequence; a provider subclass supplies ``_jvm`` (a process, a container).
The JVM command is identical in both: same main class, same flags, same
rendered files; a container mounts the run directory at the same path.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, Self, TypeVar

from ..cds import ClassArchive, archive_for
from ..config import HarnessConfig
from ..errors import BootError, HarnessError, JavaError, PortError
from ..java import JavaRuntime, jit_flags
from ..ports import PortAllocator
from ..protocol import ApiVersionRange, WireConnection
from ..reaper import SECRET_FILES, mark_owner, new_run_id
from ..readiness import BrokerAnswers, FeaturesFinalized, ZooKeeperAnswers, wait_until
from ..render import (
    HOST,
    NodeLayout,
    broker_properties,
    initial_controllers,
    jaas_config,
    logging_files,
    new_cluster_id,
    render_properties,
    write_private,
    zookeeper_properties,
)
from ..spec import ClusterSpec
from ..waiting import retry
from .base import BrokerEndpoint, Progress

BROKER_MAIN = "kafka.Kafka"
ZOOKEEPER_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain"
STORAGE_TOOL_MAIN = "kafka.tools.StorageTool"
BROKER_HEAP = ["-Xms256m", "-Xmx1g"]
TOOL_HEAP = ["-Xms64m", "-Xmx256m"]
JAAS_FILE = SECRET_FILES[0]
C = TypeVar("C", bound="JvmCluster")
_EXCEPTION = re.compile(r"\b(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\b.*")
# What a damaged (same size, other bytes) cached jar looks like in a JVM's log.
_UNREADABLE_JAR = re.compile(r"ZipException|invalid LOC header|error in opening zip file|zip END header not found")
_MISSING_CLASS = re.compile(r"(?:ClassNotFoundException|NoClassDefFoundError|Could not find or load main class)"
                            r":?\s*([\w$./]+)")


def _tail(path: Path, lines: int = 200) -> list[str]:
    try:
        return path.read_text(errors="replace").splitlines()[-lines:]
    except OSError:
        return []


def failure_reason(log: Path) -> str:
    """The most telling line of a dead JVM's log: its exception, else its last line."""
    tail = [line.strip() for line in _tail(log) if line.strip()]
    found = [(line, match.group(0)) for line in tail
             if not line.startswith("at ") and (match := _EXCEPTION.search(line))]
    causes = [text for line, text in found if line.startswith("Caused by:")]
    if causes:  # the root cause of the last failure
        return causes[-1][:300]
    if found:
        return found[0][1][:300]
    return tail[-1][:300] if tail else "no output"


QUORUMLESS_GRACE = 10.0
"""Seconds a stopping KRaft node still gets once fewer than a majority of its cluster's nodes run: in 79 stops of
3-node KRaft clusters whose logs show every node's shutdown complete, the last finished at most 5.4 s after the
second (docs/PERFORMANCE.md)."""


class Jvm(Protocol):
    """One JVM of a cluster, however it runs; its output goes to ``log_path``."""

    name: str
    log_path: Path

    def start(self) -> None: ...

    def exit_code(self) -> int | None:
        """None while it runs; once it has exited, its code (with its log complete)."""

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM) without waiting."""

    def wait(self, timeout: float) -> int | None:
        """Its exit code, or None if it still runs after ``timeout`` seconds."""

    def stop(self, grace: float) -> None:
        """SIGTERM, up to ``grace`` seconds, then SIGKILL; safe to call twice."""


class JvmCluster:
    """A cluster booted by the shared sequence; subclasses say how a JVM starts."""

    provider = "abstract"

    def __init__(
        self,
        spec: ClusterSpec,
        *,
        run_dir: Path,
        java: JavaRuntime,
        classpath: str,
        logging: str,
        ports: PortAllocator,
        config: HarnessConfig,
        progress: Progress,
    ):
        self.spec = spec
        self.run_dir = run_dir
        self.java = java
        self.config = config
        self.boot_seconds = 0.0
        self.api_versions: list[ApiVersionRange] = []
        self.nodes: list[NodeLayout] = []
        self._classpath = ":".join([classpath, *(str(p) for p in spec.extra_classpath)])
        self._logging = logging
        self._ports = ports
        self._reserved: list[int] = []
        self._progress = progress
        self._zookeeper: Jvm | None = None
        self._zk_port: int | None = None
        self._brokers: list[Jvm] = []
        self._phase = "during boot"
        self._deadline = 0.0
        self._archives: dict[str, ClassArchive] = {}

    # -- what a provider supplies ------------------------------------------------
    def _jvm(self, name: str, command: list[str], log_path: Path, role: str) -> Jvm:
        raise NotImplementedError

    def _labels(self) -> list[str]:
        """JVM flags that mark a process as this run's (see ``kcompat.harness.reaper``)."""
        return []

    shares_classes = False
    """Whether this provider's JVMs see the cache's class-data sharing archives (``kcompat.harness.cds``)."""

    # -- the Cluster protocol -------------------------------------------------------
    @property
    def brokers(self) -> Sequence[BrokerEndpoint]:
        return [BrokerEndpoint(n.node_id, HOST, n.port, n.log_path) for n in self.nodes]

    @property
    def bootstrap_servers(self) -> str:
        return ",".join(f"{HOST}:{node.port}" for node in self.nodes)

    @property
    def controller_servers(self) -> str | None:
        ports = [node.controller_port for node in self.nodes if node.controller_port is not None]
        return ",".join(f"{HOST}:{port}" for port in ports) or None

    @property
    def zookeeper_connect(self) -> str | None:
        """``127.0.0.1:<port>`` of the cluster's ZooKeeper; None in KRaft mode."""
        return None if self._zk_port is None else f"{HOST}:{self._zk_port}"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- boot ---------------------------------------------------------------------------
    def _remaining(self) -> float:
        """Seconds left of the boot timeout: every wait of the boot shares one deadline."""
        return max(0.0, self._deadline - time.monotonic())

    def _command(self, main: str, args: list[str], flags: list[str]) -> list[str]:
        return [str(self.java.java), *flags, *self._sharing(main), "-cp", self._classpath, main, *args]

    def _sharing(self, main: str) -> list[str]:
        """Flags that map (or record) the release's class archive for ``main``; [] when sharing is off."""
        if not (self.shares_classes and self.config.class_sharing):
            return []
        archive = self._archives.get(main) or archive_for(self.config.cache_dir, self.java.java, main,
                                                          self._classpath)
        if archive is None:
            return []
        self._archives[main] = archive
        return archive.flags(deadline=self._deadline)

    def boot(self) -> None:
        started = time.monotonic()
        self._deadline = started + self.config.boot_timeout
        self._layout()
        if self.spec.mode == "zk":
            self._start_zookeeper()
        else:
            self._format_storage()
        flags = self._broker_flags()
        for node in self.nodes:
            self._progress(f"starting broker {node.node_id} on {HOST}:{node.port}")
            jvm = self._jvm(f"broker {node.node_id}", self._command(BROKER_MAIN, [str(node.properties_path)], flags),
                            node.log_path, f"broker-{node.node_id}")
            self._brokers.append(jvm)
            jvm.start()
        self.wait_ready()
        self._set_features()
        self.boot_seconds = time.monotonic() - started
        for archive in self._archives.values():
            archive.keep_recorded()  # booted: the classes a boot loads are in the lists
        self._phase = "after boot"

    def wait_ready(self) -> None:
        for node in self.nodes:
            strategy = BrokerAnswers(node.port, expected=len(self.nodes), sasl=self.spec.sasl)
            wait_until(strategy, timeout=self._remaining(), log=node.log_path, alive=self.check_alive)
            self.api_versions = self.api_versions or (strategy.api_versions or [])
            self._progress(f"broker {node.node_id} ready")

    def _set_features(self) -> None:
        """The spec's feature levels, set with UpdateFeatures (a booted KRaft cluster takes them live, as
        ``kafka-features upgrade`` does), then awaited in every broker's ApiVersions: no cell runs on a cluster
        still in its default configuration, and a level that does not take is a boot failure naming it."""
        if not self.spec.features:
            return
        shown = ", ".join(f"{name}={level}" for name, level in self.spec.features)
        node = self.nodes[0]
        self._progress(f"setting feature levels {shown}")
        offered = {r.api_key: r for r in self.api_versions}
        update = next((r for r in self.api_versions if r.name == "UpdateFeatures"), None)
        if update is None:
            raise BootError(f"Kafka {self.spec.version} does not offer UpdateFeatures, so {shown} can't be set",
                            log=node.log_path)
        body = {"timeoutMs": 30000, "FeatureUpdates": [{"Feature": name, "MaxVersionLevel": level, "UpgradeType": 1}
                                                       for name, level in self.spec.features]}
        try:
            with WireConnection(HOST, node.port, timeout=35.0) as conn:
                if self.spec.sasl is not None:
                    conn.authenticate_plain(self.spec.sasl.super_user, self.spec.sasl.super_password, offered)
                answer = conn.call("UpdateFeatures", min(update.max_version, 2), body)
        except HarnessError as exc:
            raise BootError(f"setting feature levels {shown} on Kafka {self.spec.version} failed: {exc}",
                            log=node.log_path) from exc
        errors = [f"{r['Feature']}: {r['ErrorMessage']}" for r in answer.get("Results") or () if r["ErrorCode"]]
        if answer.get("ErrorCode") or errors:
            raise BootError(f"Kafka {self.spec.version} refused feature levels {shown}: "
                            f"{answer.get('ErrorMessage') or '; '.join(errors)}", log=node.log_path)
        for node in self.nodes:
            wait_until(FeaturesFinalized(node.port, self.spec.features), timeout=self._remaining(),
                       log=node.log_path, alive=self.check_alive)

    def check_alive(self) -> None:
        """Raise a one-line error naming the cause if any JVM of the cluster has exited."""
        for jvm in [*([self._zookeeper] if self._zookeeper else []), *self._brokers]:
            self._raise_if_exited(jvm)

    def _raise_if_exited(self, jvm: Jvm) -> None:
        if (code := jvm.exit_code()) is None:
            return
        reason = failure_reason(jvm.log_path)
        version = self.spec.version
        message = f"{jvm.name} (Kafka {version}, {self.provider}) exited with code {code} {self._phase}: {reason}"
        if "UnsupportedClassVersionError" in reason or "has been compiled by a more recent" in reason:
            raise JavaError(f"Java {self.java.major} can't run Kafka {version}: {reason}", log=jvm.log_path)
        if "Address already in use" in reason or "BindException" in reason:
            raise PortError(message, log=jvm.log_path)
        if self._damaged_jars(jvm.log_path):
            # The warm start checks jar sizes only: a jar damaged in place passes it.
            raise BootError(message, log=jvm.log_path,
                            hint=f"a class or jar of Kafka could not be read: check the cached jars with "
                                 f"`kcompat brokers fetch --verify {version}` (it fetches damaged ones again)")
        raise BootError(message, log=jvm.log_path)

    def _damaged_jars(self, log: Path) -> bool:
        """The log shows an unreadable jar, or a missing class the user did not name in a property."""
        named = {value for _, value in self.spec.server_properties}
        for line in _tail(log):
            if _UNREADABLE_JAR.search(line):
                return True
            if (found := _MISSING_CLASS.search(line)) and found.group(1).replace("/", ".") not in named:
                return True
        return False

    def _layout(self) -> None:
        kraft = self.spec.mode == "kraft"
        per_node = 2 if kraft else 1
        self._reserved = self._ports.allocate(self.spec.nodes * per_node + (0 if kraft else 1))
        ports = iter(self._reserved)
        if not kraft:
            self._zk_port = next(ports)
        for node_id in range(1, self.spec.nodes + 1):
            directory = self.run_dir / f"node-{node_id}"
            directory.mkdir(parents=True, exist_ok=True)
            port = next(ports)
            self.nodes.append(NodeLayout(node_id, port, next(ports) if kraft else None, directory))
        for node in self.nodes:
            properties = broker_properties(self.spec, node, self.nodes, zk_port=self._zk_port)
            node.properties_path.write_text(render_properties(properties))

    def _broker_flags(self) -> list[str]:
        flags = [*BROKER_HEAP, "-XX:+UseG1GC", *jit_flags(self.config.jit), "-Djava.awt.headless=true",
                 "-Dzookeeper.sasl.client=false", *self._labels()]
        flags += logging_files(self._logging, self.run_dir)
        if self.spec.sasl is not None:
            mark_owner(self.run_dir)  # so that a reaper can remove the passwords if we die
            jaas = write_private(self.run_dir / JAAS_FILE, jaas_config(self.spec.sasl))
            flags.append(f"-Djava.security.auth.login.config={jaas}")
        return flags

    def _start_zookeeper(self) -> None:
        assert self._zk_port is not None
        directory = self.run_dir / "zookeeper"
        directory.mkdir(parents=True, exist_ok=True)
        properties = directory / "zookeeper.properties"
        properties.write_text(render_properties(zookeeper_properties(self._zk_port, directory / "data")))
        log_path = directory / "zookeeper.log"
        # ZooKeeper 3.4 registers log4j 1's JMX beans, which reload4j lacks.
        flags = [*TOOL_HEAP, *jit_flags(self.config.jit), "-Dzookeeper.jmx.log4j.disable=true", *self._labels(),
                 *logging_files(self._logging, directory)]
        self._progress(f"starting ZooKeeper on {HOST}:{self._zk_port}")
        self._zookeeper = self._jvm("ZooKeeper", self._command(ZOOKEEPER_MAIN, [str(properties)], flags),
                                    log_path, "zookeeper")
        self._zookeeper.start()
        wait_until(ZooKeeperAnswers(self._zk_port), timeout=self._remaining(), log=log_path, alive=self.check_alive)

    def _format_storage(self) -> None:
        """``kafka-storage format`` for every node, run side by side."""
        cluster_id = new_cluster_id()
        self._progress(f"formatting KRaft storage (cluster id {cluster_id})")
        flags = [*TOOL_HEAP, *jit_flags(self.config.jit), *self._labels(), *logging_files(self._logging, self.run_dir)]
        tools = []
        # a dynamic quorum's voters, with their directory ids, are written into every node's log (KIP-853)
        voters = ["--initial-controllers", initial_controllers(self.nodes)] if self.spec.quorum == "dynamic" else []
        for node in self.nodes:
            args = ["format", f"--cluster-id={cluster_id}", "-c", str(node.properties_path), "--ignore-formatted",
                    *voters]
            tool = self._jvm(f"storage format of node {node.node_id}",
                             self._command(STORAGE_TOOL_MAIN, args, flags), node.directory / "format.log",
                             f"format-{node.node_id}")
            tool.start()
            tools.append(tool)
        try:
            for tool in tools:
                code = tool.wait(self._remaining())
                if code is None:
                    raise BootError(f"{tool.name} did not finish within the boot timeout "
                                    f"({self.config.boot_timeout:.0f}s)", log=tool.log_path)
                if code != 0:
                    self._raise_if_exited(tool)
        finally:
            for tool in tools:
                tool.stop(grace=0)

    # -- teardown -------------------------------------------------------------------------
    def stop(self) -> None:
        """Brokers first (they talk to ZooKeeper while stopping), then ZooKeeper.

        SIGTERM goes to every broker at once so they stop side by side; each
        is then given ``config.stop_grace`` for its controlled shutdown before
        SIGKILL (a broker killed mid-shutdown leaves a log that ends there).
        Every JVM is stopped even if stopping one fails; the first failure is
        raised at the end.
        """
        failures: list[HarnessError] = []
        for jvm in self._brokers:
            jvm.terminate()
        deadline = self._await_quorum_stops(time.monotonic() + self.config.stop_grace)
        for jvm in [*self._brokers, *([self._zookeeper] if self._zookeeper else [])]:
            try:
                jvm.stop(grace=max(0.0, deadline - time.monotonic()) if jvm in self._brokers
                         else self.config.stop_grace)
            except HarnessError as exc:
                failures.append(exc)
        self._ports.release(self._reserved)
        self._reserved = []
        for archive in self._archives.values():
            archive.forget_recordings()
        (self.run_dir / JAAS_FILE).unlink(missing_ok=True)  # logs stay; passwords don't
        if not self.config.keep_data:
            for node in self.nodes:
                shutil.rmtree(node.data_dir, ignore_errors=True)
            shutil.rmtree(self.run_dir / "zookeeper" / "data", ignore_errors=True)
        if failures:
            raise failures[0]

    def _await_quorum_stops(self, deadline: float) -> float:
        """When the stopping brokers' own deadline ends: ``deadline``, or for KRaft nodes still running once
        fewer than a majority of them are, ``QUORUMLESS_GRACE`` from then.  Without a quorum a node's controlled
        shutdown can't finish and Kafka keeps waiting (a 4.4 leader logging "Did not receive fetch request from
        the majority of the voters" until our SIGKILL, 30 s later, at the end of a run)."""
        if self.spec.mode != "kraft" or len(self._brokers) < 2:
            return deadline
        majority = len(self._brokers) // 2 + 1
        while time.monotonic() < deadline:
            running = sum(jvm.exit_code() is None for jvm in self._brokers)
            if running == 0:
                break
            if running < majority:
                return min(deadline, time.monotonic() + QUORUMLESS_GRACE)
            time.sleep(0.1)
        return deadline

    def discard(self) -> None:
        """Stop a cluster a test changed beyond reuse (a reusable one is removed, not kept)."""
        self.stop()


def boot_with_retry(make: Callable[[], C], progress: Progress) -> C:
    """Boot a fresh cluster from ``make``; once more if a port was taken between allocation and bind.

    On any failure the cluster is stopped before the error propagates, so
    nothing is left running.
    """
    def boot() -> C:
        cluster = make()
        try:
            cluster.boot()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    return retry(boot, times=2, when=lambda exc: isinstance(exc, PortError), delay=lambda _: 0.0,
                 on_retry=lambda *_: progress("a port was taken under us; retrying with new ports"))


class JvmProvider:
    """What every provider holds: config, run id, port allocator, progress, run directories."""

    name = "abstract"

    def __init__(
        self,
        config: HarnessConfig,
        *,
        progress: Progress | None = None,
        run_id: str | None = None,
        ports: PortAllocator | None = None,
    ):
        self.config = config
        self.run_id = run_id or new_run_id()
        self.ports = ports or PortAllocator()
        self._progress: Progress = progress or (lambda line: None)
        self.run_dirs = RunDirs(config, self.run_id)


class RunDirs:
    """``<run_root>/<run id>/<spec label>-<pid>-<n>``: one fresh directory per cluster."""

    def __init__(self, config: HarnessConfig, run_id: str):
        self.root = config.run_root / run_id
        self._sequence = 0

    def new(self, spec: ClusterSpec) -> Path:
        self._sequence += 1
        path = self.root / f"{spec.label}-{os.getpid()}-{self._sequence}"
        path.mkdir(parents=True, exist_ok=True)
        return path
