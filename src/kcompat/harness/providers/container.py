"""Brokers in Docker containers: the container provider and its clusters.

Each JVM of the shared boot sequence (``cluster.JvmCluster``) runs in its own
container (``kcompat.harness.containers.jvm``) of the version's image
(``kcompat.harness.containers.images``) with host networking, so brokers listen on
loopback exactly as process brokers do and the same readiness (ApiVersions +
Metadata) applies.  The run directory is mounted at the same path, so rendered
properties, JAAS and logging files are used unchanged; extra classpath entries
are mounted read-only at their own paths.

Cleanup on every exit path:

* normal teardown removes each container (``stop`` then ``remove``);
* a watchdog process (``kcompat.harness.containers.watchdog``) removes this process's
  containers when it exits any way, SIGKILL included: Ryuk's idea, with no
  image to pull;
* testcontainers' own Ryuk is used too where it can work (``jvm.use_ryuk``);
* ``reap_orphans`` (``kcompat brokers reap``, each pytest session) removes
  containers whose owner process is gone (labels ``io.kcompat.*``).

With ``reuse`` on, a cluster is left running for the next run with an
identical spec and image (``kcompat.harness.containers.reuse``): attach-or-boot
happens under one file lock per key (so xdist workers asking at once boot it
once), and every process using it holds a shared lease, so it is only ever
removed when nobody uses it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import time
import uuid
from pathlib import Path
from typing import Any

from ..artifacts import logging_backend
from ..config import HarnessConfig
from ..containers import engine, watchdog
from ..containers.images import BrokerImage, ImageBuilder
from ..containers.jvm import JvmContainer, use_ryuk
from ..containers.orphans import remove_orphans
from ..containers.reuse import STATE_FILE, nobody_uses, remove_reused, reuse_key, take_lease
from ..errors import BootError, ConfigError, EngineError, HarnessError
from ..locking import exclusive
from ..reaper import owner_token
from ..render import NodeLayout, write_private
from ..spec import ClusterSpec
from .cluster import JvmCluster, JvmProvider, boot_with_retry

ATTACH_TIMEOUT = 60.0
"""Seconds a reused cluster has to answer again (on a busy 2-core machine) before it is replaced."""


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
        if self.reuse is not None and not role.startswith("format"):
            labels[engine.LABEL_REUSE] = self.reuse
        mounts = [(self.run_dir, "rw"), *((path, "ro") for path in self.spec.extra_classpath)]
        return JvmContainer(name, command, log_path, image=self.image.tag, container_name=f"{self._prefix}-{role}",
                            mounts=mounts, labels=labels)

    def _jvms(self) -> list[JvmContainer]:
        jvms = [*([self._zookeeper] if self._zookeeper else []), *self._brokers]
        return [jvm for jvm in jvms if isinstance(jvm, JvmContainer)]

    def keep_running(self) -> None:
        """Detach at ``stop``: containers stay up for the next run with this spec."""
        for jvm in self._jvms():
            jvm.keep = True

    def state(self) -> dict[str, Any]:
        sasl = self.spec.sasl
        return {"nodes": [[n.node_id, n.port, n.controller_port] for n in self.nodes], "zk_port": self._zk_port,
                "image": self.image.tag, "spec": self.spec.label,
                "super_password": sasl.super_password if sasl else None}

    def attach(self, state: dict[str, Any], running: dict[str, Any]) -> None:
        """Adopt running containers described by ``state``; raise if they no longer answer."""
        started = time.monotonic()
        if self.spec.sasl is not None:  # clients must use the password the cluster was booted with
            sasl = dataclasses.replace(self.spec.sasl, super_password=str(state["super_password"]))
            self.spec = dataclasses.replace(self.spec, sasl=sasl)
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
        jvms = self._jvms()
        if self.reuse is not None and jvms and all(jvm.keep for jvm in jvms):
            return  # detached: containers, ports, state and lease stay for later runs
        super().stop()

    def discard(self) -> None:
        if self.reuse is None:
            self.stop()
        elif nobody_uses(self.config.cache_dir, self.reuse):
            remove_reused(self.config.cache_dir, self.reuse, grace=self.config.stop_grace)
        # else another process uses it: left running, as it is


class ContainerProvider(JvmProvider):
    name = "container"

    def __init__(self, config: HarnessConfig, **kwargs: Any):
        super().__init__(config, **kwargs)
        self._ready = False

    @functools.cached_property
    def images(self) -> ImageBuilder:
        """Made on first use: reaping needs no image settings (a bad ``images`` value is the boot's error)."""
        return ImageBuilder(self.config, progress=self._progress)

    def reap_orphans(self, *, reused: bool = False) -> list[str]:
        """Remove containers of dead owners (and, with ``reused``, reusable clusters nobody uses).

        No engine means no containers to reap, unless ``reused`` asked for them explicitly.
        """
        try:
            engine.client()
        except EngineError:
            if reused:
                raise
            return []
        names = remove_orphans(self.config.cache_dir)
        if reused:
            names += remove_reused(self.config.cache_dir, grace=self.config.stop_grace)
        return [f"removed container {name}" for name in names]

    def _prepare(self) -> None:
        """Once: the engine answers, the watchdog runs, Ryuk only where it can work."""
        if self._ready:
            return
        engine.require_local()
        engine.client()
        use_ryuk(self.config.reuse)
        watchdog.ensure_started(self.config.cache_dir, self.config.run_root)
        self._ready = True

    def start(self, spec: ClusterSpec) -> ContainerCluster:
        """Boot ``spec`` in containers and return it ready; on failure none is left."""
        spec.validate()
        if spec.java is not None:
            raise ConfigError("a spec's java applies to the process provider; containers use their image's Java")
        self._prepare()
        self._progress(f"preparing the image of Kafka {spec.version}")
        image = self.images.image_for(spec.release)  # local by now; creating never pulls
        logging = logging_backend(spec.release).name  # the binding the image's classpath carries
        if not self.config.reuse:
            return boot_with_retry(lambda: ContainerCluster(
                spec, image=image, run_id=self.run_id, run_dir=self.run_dirs.new(spec), logging=logging,
                ports=self.ports, config=self.config, progress=self._progress), self._progress)
        return self._start_reusable(spec, image, logging)

    def _start_reusable(self, spec: ClusterSpec, image: BrokerImage, logging: str) -> ContainerCluster:
        key = reuse_key(spec, image)
        cache_dir = self.config.cache_dir
        directory = cache_dir / "reuse" / key
        directory.parent.mkdir(parents=True, exist_ok=True)
        # The holder may boot twice (a port taken under it) and then attach.
        patience = 2 * self.config.boot_timeout + ATTACH_TIMEOUT + 60

        def make() -> ContainerCluster:
            return ContainerCluster(spec, image=image, run_id=self.run_id, reuse=key, run_dir=directory,
                                    logging=logging, ports=self.ports, config=self.config, progress=self._progress)

        with exclusive(directory, timeout=patience, waiting_for=f"to boot or attach the reusable {spec.label}"):
            state_path = directory / STATE_FILE
            if state_path.is_file():
                running = {c.labels.get(engine.LABEL_ROLE): c for c in engine.containers(**{engine.LABEL_REUSE: key})
                           if c.status == "running"}
                cluster = make()
                try:
                    self._progress(f"attaching to the running {spec.label} ({key})")
                    cluster.attach(json.loads(state_path.read_text()), running)
                    take_lease(cache_dir, key)
                    return cluster
                except (HarnessError, KeyError, ValueError, TypeError) as exc:
                    if not nobody_uses(cache_dir, key):
                        raise BootError(f"the reusable {spec.label} ({key}) does not answer ({exc}) and another "
                                        "process uses it, so it is left alone",
                                        hint="kcompat brokers reap --reused once that run ends") from exc
                    self._progress(f"the reusable {spec.label} can't be attached ({exc}); booting it again")
            remove_reused(cache_dir, key, grace=self.config.stop_grace, locked=True)
            directory.mkdir(parents=True, exist_ok=True)
            cluster = boot_with_retry(make, self._progress)
            cluster.keep_running()
            write_private(state_path, json.dumps(cluster.state()))  # holds the super user's password
            take_lease(cache_dir, key)
            return cluster



__all__ = ["ContainerCluster", "ContainerProvider"]
