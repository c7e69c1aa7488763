"""Brokers as local JVM processes on loopback: the default provider.

Each process runs the broker's own main class (``kafka.Kafka``, ZooKeeper's
``ZooKeeperServerMain``, ``kafka.tools.StorageTool`` for KRaft's format) on
the Maven-resolved classpath, in its own session, labelled with the run id and
set to die with the harness (see ``kcompat.harness.reaper``).  Logs stay in the run
directory after teardown.
"""

from __future__ import annotations

import contextlib
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..artifacts import ArtifactStore
from ..config import HarnessConfig
from ..errors import BootError
from ..java import select_java
from ..reaper import kill_tree, labels, reap_orphans, spawn
from ..spec import ClusterSpec
from .cluster import JvmCluster, JvmProvider, boot_with_retry


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

    def exit_code(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()

    def wait(self, timeout: float) -> int | None:
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace: float) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            kill_tree(self.proc.pid, grace=grace)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)


class ProcessCluster(JvmCluster):
    """A running cluster of broker JVMs (and ZooKeeper) owned by this process."""

    provider = "process"
    shares_classes = True  # the JVMs see the cache (containers see only their image and the run directory)

    def __init__(self, spec: ClusterSpec, *, run_id: str, **kwargs: Any):
        super().__init__(spec, **kwargs)
        self.run_id = run_id

    def _jvm(self, name: str, command: list[str], log_path: Path, role: str) -> JvmProcess:
        return JvmProcess(name, command, log_path)

    def _labels(self) -> list[str]:
        return labels(self.run_id)


class ProcessProvider(JvmProvider):
    name = "process"

    def __init__(self, config: HarnessConfig, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.store = ArtifactStore(config)

    def reap_orphans(self, *, reused: bool = False) -> list[str]:
        """Kill labelled JVMs (brokers, and Java sidecars of any run) whose owner is gone; nothing is reused."""
        return [f"killed pid {orphan.pid} (run {orphan.run_id})" for orphan in reap_orphans()]

    def start(self, spec: ClusterSpec) -> ProcessCluster:
        """Boot ``spec`` and return it ready; on any failure nothing is left running."""
        spec.validate()
        release = spec.release
        self._progress(f"resolving Kafka {release.version} ({release.maven_coordinate})")
        artifacts = self.store.resolve(release)
        java = select_java(release.line.java, self.config.cache_dir, explicit=spec.java,
                           offline=self.config.offline, what=f"Kafka {release.version}")
        return boot_with_retry(lambda: ProcessCluster(
            spec, run_dir=self.run_dirs.new(spec), run_id=self.run_id, java=java,
            classpath=artifacts.classpath_string, logging=artifacts.logging, ports=self.ports,
            config=self.config, progress=self._progress,
        ), self._progress)


__all__ = ["ProcessCluster", "ProcessProvider"]
