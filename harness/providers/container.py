"""Brokers in Docker containers, through testcontainers-python.

Each JVM of the shared boot sequence (``cluster.JvmCluster``) runs in its own
container of the version's image (``harness.images``) with host networking, so
brokers listen on loopback exactly as process brokers do and the same
readiness (ApiVersions + Metadata) applies.  The run directory is mounted at
the same path, so rendered properties, JAAS and logging files are used
unchanged; extra classpath entries are mounted read-only at their own paths.
Container output is followed into the same ``broker.log`` files.

Cleanup on every exit path:

* normal teardown removes each container (``stop`` then ``remove``);
* a watchdog process (``harness.watchdog``) removes this process's containers
  when it exits any way, SIGKILL included: our Ryuk, which needs no image;
* testcontainers' own Ryuk is used too when its image is on the engine and the
  engine has a bridge network to reach it;
* ``kcompat brokers reap`` and each pytest session remove containers whose
  owner process is gone (labels ``io.kcompat.*``).

With ``reuse`` on, a cluster is left running for the next run with an
identical spec and image (testcontainers' reuse, made safe for xdist: one file
lock per spec, attach-or-boot under it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from .. import engine, watchdog
from ..config import HarnessConfig
from ..errors import BootError, ConfigError, HarnessError, ImageError
from ..images import BrokerImage, ImageBuilder
from ..locking import exclusive
from ..ports import PortAllocator
from ..reaper import new_run_id, owner_token
from ..render import NodeLayout
from ..spec import ClusterSpec
from .base import Progress
from .cluster import STOP_GRACE, JvmCluster, RunDirs, boot_with_retry

ALIVE_CHECK_INTERVAL = 0.25
"""Seconds between engine lookups of a container's state while waiting for readiness."""
ATTACH_TIMEOUT = 20.0
"""Seconds a reused cluster has to answer again before it is replaced."""
LOG_DRAIN_TIMEOUT = 5.0


class JvmContainer:
    """One JVM in a container; its output is followed into ``log_path``."""

    def __init__(self, name: str, command: list[str], log_path: Path, *, image: str, container_name: str,
                 mounts: list[tuple[Path, str]], labels: dict[str, str], keep: bool = False):
        self.name = name
        self.command = command
        self.log_path = log_path
        self.image = image
        self.container_name = container_name
        self.mounts = mounts
        self.labels = labels
        self.keep = keep
        """Left running at ``stop`` (a reusable cluster detaching)."""
        self._container: Any = None
        self._session: Any = None  # the testcontainers client, closed once the container is gone
        self._follower: threading.Thread | None = None
        self._checked = 0.0
        self._code: int | None = None

    @classmethod
    def attach(cls, name: str, container: Any, log_path: Path) -> JvmContainer:
        jvm = cls(name, [], log_path, image=container.image.tags[0] if container.image.tags else "",
                  container_name=container.name, mounts=[], labels=dict(container.labels), keep=True)
        jvm._container = container
        return jvm

    def start(self) -> None:
        from testcontainers.core.container import DockerContainer

        container = DockerContainer(self.image).with_command(self.command).with_name(self.container_name)
        for path, mode in self.mounts:
            container.with_volume_mapping(path, str(path), mode)
        container.with_kwargs(network_mode="host", user=f"{os.getuid()}:{os.getgid()}", labels=self.labels,
                              working_dir=str(self.log_path.parent), detach=True)
        self._session = container.get_docker_client()
        try:
            self._container = container.start().get_wrapped_container()
        except Exception as exc:  # the SDK's and testcontainers' errors alike
            raise BootError(f"can't start the container of {self.name} ({self.image}): {exc}",
                            log=self.log_path) from exc
        self._follower = threading.Thread(target=self._follow, name=f"logs-{self.container_name}", daemon=True)
        self._follower.start()

    def _follow(self) -> None:
        with contextlib.suppress(Exception), self.log_path.open("ab") as out:
            for chunk in self._container.logs(stream=True, follow=True):
                out.write(chunk)
                out.flush()

    def _drain(self) -> None:
        if self._follower is not None:
            self._follower.join(timeout=LOG_DRAIN_TIMEOUT)

    def exit_code(self) -> int | None:
        if self._code is not None or self._container is None:
            return self._code
        now = time.monotonic()
        if now - self._checked < ALIVE_CHECK_INTERVAL:
            return None
        self._checked = now
        import docker.errors

        try:
            self._container.reload()
        except docker.errors.NotFound:
            self._code = 137  # removed under us (docker rm -f, a reaper)
            return self._code
        if self._container.status in ("exited", "dead"):
            self._drain()
            self._code = int(self._container.attrs["State"]["ExitCode"])
        return self._code

    def terminate(self) -> None:
        if self._container is None or self.keep:
            return
        with contextlib.suppress(Exception):
            self._container.kill(signal="SIGTERM")

    def wait(self, timeout: float) -> int | None:
        if self._container is None:
            return None
        try:
            result = self._container.wait(timeout=max(1, int(timeout)))
        except Exception:  # a read timeout of the engine request: still running
            return None
        self._drain()
        self._code = int(result.get("StatusCode", -1))
        return self._code

    def stop(self, grace: float) -> None:
        if self._container is None or self.keep:
            return
        with contextlib.suppress(Exception):
            self._container.stop(timeout=max(0, int(round(grace))))
        self._drain()
        engine.remove(self._container)
        if self._session is not None:
            self._session.client.close()
            self._session = None


def reuse_key(spec: ClusterSpec, image: BrokerImage) -> str:
    """Equal for equal specs on the same image; passwords count (hashed), so a reused
    SASL cluster is only ever attached by a run that knows its passwords."""
    sasl = spec.sasl
    credentials = hashlib.sha256(json.dumps(sorted(sasl.credentials.items())).encode()).hexdigest() if sasl else ""
    text = json.dumps([image.tag, str(spec.version), spec.mode, spec.nodes, list(spec.server_properties),
                       repr(sasl), credentials, [str(p) for p in spec.extra_classpath]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class ContainerCluster(JvmCluster):
    """A cluster whose JVMs run in containers of one broker image."""

    provider = "container"

    def __init__(self, spec: ClusterSpec, *, image: BrokerImage, run_id: str, reuse: str | None = None,
                 **kwargs: Any):
        super().__init__(spec, java=image.java, classpath=image.classpath, **kwargs)
        self.image = image
        self.run_id = run_id
        self.reuse = reuse
        self.reattached = False
        self._prefix = f"kcompat-r{reuse}" if reuse else f"kcompat-{uuid.uuid4().hex[:10]}"

    def _jvm(self, name: str, command: list[str], log_path: Path, role: str) -> JvmContainer:
        labels = {engine.LABEL_RUN: self.run_id, engine.LABEL_OWNER: owner_token(),
                  engine.LABEL_CLUSTER: self._prefix, engine.LABEL_ROLE: role,
                  engine.LABEL_VERSION: str(self.spec.version)}
        long_lived = self.reuse is not None and not role.startswith("format")
        if long_lived:
            labels[engine.LABEL_REUSE] = str(self.reuse)
        mounts = [(self.run_dir, "rw"), *((path, "ro") for path in self.spec.extra_classpath)]
        return JvmContainer(name, command, log_path, image=self.image.tag, container_name=f"{self._prefix}-{role}",
                            mounts=mounts, labels=labels)

    # -- reuse ------------------------------------------------------------------------
    def keep_running(self) -> None:
        """Detach at ``stop``: containers stay up for the next run with this spec."""
        for jvm in [*([self._zookeeper] if self._zookeeper else []), *self._brokers]:
            assert isinstance(jvm, JvmContainer)
            jvm.keep = True

    def state(self) -> dict[str, Any]:
        return {"nodes": [[n.node_id, n.port, n.controller_port] for n in self.nodes], "zk_port": self._zk_port,
                "image": self.image.tag, "spec": self.spec.label}

    def attach(self, state: dict[str, Any], running: dict[str, Any]) -> None:
        """Adopt running containers described by ``state``; raise if they no longer answer."""
        started = time.monotonic()
        self.nodes = [NodeLayout(node_id, port, controller, self.run_dir / f"node-{node_id}")
                      for node_id, port, controller in state["nodes"]]
        self._zk_port = state["zk_port"]
        if self._zk_port is not None:
            self._zookeeper = JvmContainer.attach("ZooKeeper", running["zookeeper"],
                                                  self.run_dir / "zookeeper" / "zookeeper.log")
        self._brokers = [JvmContainer.attach(f"broker {n.node_id}", running[f"broker-{n.node_id}"], n.log_path)
                         for n in self.nodes]
        self._deadline = started + ATTACH_TIMEOUT
        self._phase = "after boot"
        self.wait_ready()
        self.boot_seconds = time.monotonic() - started
        self.reattached = True

    def stop(self) -> None:
        if self.reuse is not None and self._brokers and all(
                isinstance(j, JvmContainer) and j.keep for j in self._brokers):
            return  # detached: the containers, their ports and the JAAS file stay for the next run
        super().stop()


class ContainerProvider:
    name = "container"

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
        self.images = ImageBuilder(config, progress=self._progress)
        self.run_dirs = RunDirs(config, self.run_id)
        self._ready = False

    def _prepare(self) -> None:
        """Once: the engine answers, the watchdog runs, Ryuk only where it can work."""
        if self._ready:
            return
        engine.require_local()
        engine.client()
        from testcontainers.core.config import testcontainers_config

        if "TESTCONTAINERS_RYUK_DISABLED" not in os.environ:
            testcontainers_config.ryuk_disabled = not (
                engine.image_present(testcontainers_config.ryuk_image) and engine.has_bridge_network())
        watchdog.ensure_started()
        self._ready = True

    def start(self, spec: ClusterSpec) -> ContainerCluster:
        """Boot ``spec`` in containers and return it ready; on failure none is left."""
        spec.validate()
        if spec.java is not None:
            raise ConfigError("a spec's java applies to the process provider; containers use their image's Java")
        self._prepare()
        self._progress(f"preparing the image of Kafka {spec.version}")
        image = self.images.image_for(spec.release)
        if not engine.image_present(image.tag):
            raise ImageError(f"image {image.tag} vanished from the engine before the boot")
        logging = "log4j2" if spec.version.supports("log4j2") else "log4j1"
        if not self.config.reuse:
            return boot_with_retry(lambda: ContainerCluster(
                spec, image=image, run_id=self.run_id, run_dir=self.run_dirs.new(spec), logging=logging,
                ports=self.ports, config=self.config, progress=self._progress), self._progress)
        return self._start_reusable(spec, image, logging)

    def _start_reusable(self, spec: ClusterSpec, image: BrokerImage, logging: str) -> ContainerCluster:
        key = reuse_key(spec, image)
        directory = self.config.cache_dir / "reuse" / key
        directory.parent.mkdir(parents=True, exist_ok=True)
        with exclusive(directory, timeout=self.config.boot_timeout + 60,
                       waiting_for=f"to boot or attach the reusable {spec.label}"):
            def make() -> ContainerCluster:
                return ContainerCluster(spec, image=image, run_id=self.run_id, reuse=key, run_dir=directory,
                                        logging=logging, ports=self.ports, config=self.config,
                                        progress=self._progress)

            state_path = directory / "cluster.json"
            running = {c.labels.get(engine.LABEL_ROLE): c for c in engine.containers(**{engine.LABEL_REUSE: key})
                       if c.status == "running"}
            if state_path.is_file():
                cluster = make()
                try:
                    self._progress(f"attaching to the running {spec.label} ({key})")
                    cluster.attach(json.loads(state_path.read_text()), running)
                    return cluster
                except (HarnessError, KeyError, ValueError) as exc:
                    self._progress(f"the reusable {spec.label} can't be attached ({exc}); booting it again")
            remove_reused(self.config.cache_dir, key)
            directory.mkdir(parents=True, exist_ok=True)
            cluster = boot_with_retry(make, self._progress)
            cluster.keep_running()
            (directory / "cluster.json").write_text(json.dumps(cluster.state()))
            return cluster


def remove_reused(cache_dir: Path, key: str | None = None) -> list[str]:
    """Stop and remove reusable clusters (all, or the one of ``key``) and their directories."""
    keys = {key} if key else set()
    removed = []
    for container in engine.containers(**{engine.LABEL_REUSE: key or ""}):
        keys.add(str(container.labels[engine.LABEL_REUSE]))
        with contextlib.suppress(Exception):
            container.stop(timeout=int(STOP_GRACE))
        engine.remove(container)
        removed.append(str(container.name))
    for found in keys:
        shutil.rmtree(cache_dir / "reuse" / found, ignore_errors=True)
    return removed


def remove_orphans() -> list[str]:
    """Remove containers whose owner process is gone (reusable ones excepted)."""
    from ..reaper import owner_alive

    removed = []
    for container in engine.containers(**{engine.LABEL_OWNER: ""}):
        if engine.LABEL_REUSE in container.labels:
            continue
        if not owner_alive(container.labels.get(engine.LABEL_OWNER, "")):
            engine.remove(container)
            removed.append(str(container.name))
    return removed


__all__ = ["ContainerCluster", "ContainerProvider", "remove_orphans", "remove_reused"]
