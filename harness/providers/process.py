"""Brokers as local JVM processes on loopback: the default provider.

Each process runs the broker's own main class (``kafka.Kafka``, ZooKeeper's
``ZooKeeperServerMain``, ``kafka.tools.StorageTool`` for KRaft's format) on
the Maven-resolved classpath, in its own session, labelled with the run id and
set to die with the harness (see ``harness.reaper``).  Logs stay in the run
directory after teardown.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from ..artifacts import ArtifactStore, BrokerArtifacts
from ..config import HarnessConfig
from ..errors import BootError, JavaError, PortError
from ..java import JavaRuntime, select_java
from ..ports import PortAllocator
from ..reaper import kill_tree, labels, new_run_id, spawn
from ..readiness import BrokerAnswers, ZooKeeperAnswers, wait_until
from ..render import (
    HOST,
    NodeLayout,
    broker_properties,
    jaas_config,
    logging_files,
    new_cluster_id,
    render_properties,
    write_private,
    zookeeper_properties,
)
from ..spec import ClusterSpec
from ..wire import ApiVersionRange
from .base import BrokerEndpoint, Progress

BROKER_MAIN = "kafka.Kafka"
ZOOKEEPER_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain"
STORAGE_TOOL_MAIN = "kafka.tools.StorageTool"
BROKER_HEAP = ["-Xms256m", "-Xmx1g"]
TOOL_HEAP = ["-Xms64m", "-Xmx256m"]
STOP_GRACE = 2.0
JAAS_FILE = "kafka_server_jaas.conf"
_EXCEPTION = re.compile(r"\b(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\b.*")


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


@dataclass
class JvmProcess:
    """One labelled JVM writing stdout and stderr to ``log_path``."""

    name: str
    command: list[str]
    log_path: Path
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def start(self) -> None:
        try:
            with self.log_path.open("ab") as log:
                self.proc = spawn(self.command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  cwd=self.log_path.parent)
        except OSError as exc:
            raise BootError(f"can't start {self.name}: {exc}", log=self.log_path) from exc

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def check_alive(self, java: JavaRuntime, version: str, phase: str = "during boot") -> None:
        """Raise a one-line error naming the cause if the JVM has exited."""
        if self.proc is None or (code := self.proc.poll()) is None:
            return
        reason = failure_reason(self.log_path)
        message = f"{self.name} (Kafka {version}) exited with code {code} {phase}: {reason}"
        if "UnsupportedClassVersionError" in reason or "has been compiled by a more recent" in reason:
            raise JavaError(f"Java {java.major} can't run Kafka {version}: {reason}", log=self.log_path)
        if "Address already in use" in reason or "BindException" in reason:
            raise PortError(message, log=self.log_path)
        raise BootError(message, log=self.log_path)

    def stop(self, grace: float = STOP_GRACE) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            kill_tree(self.proc.pid, grace=grace)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)


def java_command(
    java: JavaRuntime, classpath: str, main: str, args: Sequence[str], flags: Sequence[str]
) -> list[str]:
    return [str(java.java), *flags, "-cp", classpath, main, *args]


class ProcessCluster:
    """A running cluster of broker JVMs (and ZooKeeper) owned by this process."""

    def __init__(
        self,
        spec: ClusterSpec,
        *,
        run_dir: Path,
        run_id: str,
        java: JavaRuntime,
        artifacts: BrokerArtifacts,
        ports: PortAllocator,
        config: HarnessConfig,
        progress: Progress,
    ):
        self.spec = spec
        self.run_dir = run_dir
        self.run_id = run_id
        self.java = java
        self.artifacts = artifacts
        self.config = config
        self.boot_seconds = 0.0
        self.api_versions: list[ApiVersionRange] = []
        self._ports = ports
        self._reserved: list[int] = []
        self._progress = progress
        self._zookeeper: JvmProcess | None = None
        self._zk_port: int | None = None
        self._brokers: list[JvmProcess] = []
        self._phase = "during boot"
        self._deadline = 0.0
        self.nodes: list[NodeLayout] = []

    # -- the Cluster protocol -------------------------------------------------
    @property
    def brokers(self) -> Sequence[BrokerEndpoint]:
        return [BrokerEndpoint(n.node_id, HOST, n.port, n.log_path) for n in self.nodes]

    @property
    def bootstrap_servers(self) -> str:
        return ",".join(f"{HOST}:{node.port}" for node in self.nodes)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- boot -------------------------------------------------------------------
    def _remaining(self) -> float:
        """Seconds left of the boot timeout: every wait of the boot shares one deadline."""
        return max(0.0, self._deadline - time.monotonic())

    def boot(self) -> None:
        started = time.monotonic()
        self._deadline = started + self.config.boot_timeout
        self._layout()
        classpath = self._classpath()
        flags = self._jvm_flags()
        if self.spec.mode == "zk":
            self._start_zookeeper(classpath)
        else:
            self._format_storage(classpath)
        for node in self.nodes:
            self._progress(f"starting broker {node.node_id} on {HOST}:{node.port}")
            process = JvmProcess(
                f"broker {node.node_id}",
                java_command(self.java, classpath, BROKER_MAIN, [str(node.properties_path)], flags),
                node.log_path,
            )
            self._brokers.append(process)
            process.start()
        for node in self.nodes:
            strategy = BrokerAnswers(node.port, expected=len(self.nodes), sasl=self.spec.sasl)
            wait_until(strategy, timeout=self._remaining(), log=node.log_path, alive=self.check_alive)
            self.api_versions = self.api_versions or (strategy.api_versions or [])
            self._progress(f"broker {node.node_id} ready")
        self.boot_seconds = time.monotonic() - started
        self._phase = "after boot"

    def check_alive(self) -> None:
        """Raise if any process of the cluster has exited."""
        for process in [*([self._zookeeper] if self._zookeeper else []), *self._brokers]:
            process.check_alive(self.java, str(self.spec.version), self._phase)

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

    def _classpath(self) -> str:
        extra = ":".join(str(p) for p in self.spec.extra_classpath)
        return self.artifacts.classpath_string + (f":{extra}" if extra else "")

    def _jvm_flags(self) -> list[str]:
        flags = [*BROKER_HEAP, "-XX:+UseG1GC", "-Djava.awt.headless=true",
                 "-Dzookeeper.sasl.client=false", *labels(self.run_id)]
        flags += logging_files(self.artifacts.logging, self.run_dir)
        if self.spec.sasl is not None:
            jaas = write_private(self.run_dir / JAAS_FILE, jaas_config(self.spec.sasl))
            flags.append(f"-Djava.security.auth.login.config={jaas}")
        return flags

    def _start_zookeeper(self, classpath: str) -> None:
        assert self._zk_port is not None
        directory = self.run_dir / "zookeeper"
        directory.mkdir(parents=True, exist_ok=True)
        properties = directory / "zookeeper.properties"
        properties.write_text(render_properties(zookeeper_properties(self._zk_port, directory / "data")))
        log_path = directory / "zookeeper.log"
        # ZooKeeper 3.4 registers log4j 1's JMX beans, which reload4j lacks.
        flags = [*TOOL_HEAP, "-Dzookeeper.jmx.log4j.disable=true", *labels(self.run_id),
                 *logging_files(self.artifacts.logging, directory)]
        self._progress(f"starting ZooKeeper on {HOST}:{self._zk_port}")
        self._zookeeper = JvmProcess(
            "ZooKeeper", java_command(self.java, classpath, ZOOKEEPER_MAIN, [str(properties)], flags), log_path
        )
        self._zookeeper.start()
        wait_until(ZooKeeperAnswers(self._zk_port), timeout=self._remaining(), log=log_path, alive=self.check_alive)

    def _format_storage(self, classpath: str) -> None:
        """``kafka-storage format`` for every node, run side by side."""
        cluster_id = new_cluster_id()
        self._progress(f"formatting KRaft storage (cluster id {cluster_id})")
        flags = [*TOOL_HEAP, *labels(self.run_id), *logging_files(self.artifacts.logging, self.run_dir)]
        tools = []
        for node in self.nodes:
            args = ["format", f"--cluster-id={cluster_id}", "-c", str(node.properties_path), "--ignore-formatted"]
            tool = JvmProcess(f"storage format of node {node.node_id}",
                              java_command(self.java, classpath, STORAGE_TOOL_MAIN, args, flags),
                              node.directory / "format.log")
            tool.start()
            tools.append(tool)
        try:
            for tool in tools:
                assert tool.proc is not None
                try:
                    code = tool.proc.wait(timeout=self._remaining())
                except subprocess.TimeoutExpired:
                    raise BootError(f"{tool.name} did not finish within the boot timeout "
                                    f"({self.config.boot_timeout:.0f}s)", log=tool.log_path) from None
                if code != 0:
                    tool.check_alive(self.java, str(self.spec.version))
        finally:
            for tool in tools:
                tool.stop(grace=0)

    # -- teardown ---------------------------------------------------------------
    def stop(self) -> None:
        """Brokers first (they talk to ZooKeeper while stopping), then ZooKeeper.

        SIGTERM goes to every broker at once so they stop side by side; each
        is then given the grace period before SIGKILL.
        """
        for process in self._brokers:
            if process.proc is not None and process.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.proc.terminate()
        for process in self._brokers:
            process.stop(grace=STOP_GRACE)
        if self._zookeeper is not None:
            self._zookeeper.stop(grace=STOP_GRACE)
        self._ports.release(self._reserved)
        self._reserved = []
        (self.run_dir / JAAS_FILE).unlink(missing_ok=True)  # logs stay; passwords don't
        if not self.config.keep_data:
            for node in self.nodes:
                shutil.rmtree(node.data_dir, ignore_errors=True)
            shutil.rmtree(self.run_dir / "zookeeper" / "data", ignore_errors=True)


class ProcessProvider:
    name = "process"

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
        self.store = ArtifactStore(config)
        self.ports = ports or PortAllocator()
        self._progress: Progress = progress or (lambda line: None)
        self._sequence = 0

    def start(self, spec: ClusterSpec) -> ProcessCluster:
        """Boot ``spec`` and return it ready; on any failure nothing is left running."""
        spec.validate()
        release = spec.release
        self._progress(f"resolving Kafka {release.version} ({release.maven_coordinate})")
        artifacts = self.store.resolve(release)
        java = select_java(release.line.java, self.config.cache_dir, explicit=spec.java,
                           offline=self.config.offline, what=f"Kafka {release.version}")
        for attempt in (1, 2):
            cluster = ProcessCluster(
                spec, run_dir=self._new_run_dir(spec), run_id=self.run_id, java=java,
                artifacts=artifacts, ports=self.ports, config=self.config, progress=self._progress,
            )
            try:
                cluster.boot()
                return cluster
            except PortError:
                cluster.stop()
                if attempt == 2:
                    raise
                self._progress("a port was taken under us; retrying with new ports")
            except BaseException:
                cluster.stop()
                raise
        raise AssertionError("unreachable")

    def _new_run_dir(self, spec: ClusterSpec) -> Path:
        self._sequence += 1
        path = self.config.run_root / self.run_id / f"{spec.label}-{os.getpid()}-{self._sequence}"
        path.mkdir(parents=True, exist_ok=True)
        return path


__all__ = ["ProcessCluster", "ProcessProvider"]
