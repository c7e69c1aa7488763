"""Brokers in Docker containers, through testcontainers-python.

Each JVM of the shared boot sequence (``cluster.JvmCluster``) runs in its own
container of the version's image (``harness.images``) with host networking, so
brokers listen on loopback exactly as process brokers do and the same
readiness (ApiVersions + Metadata) applies.  The run directory is mounted at
the same path, so rendered properties, JAAS and logging files are used
unchanged; extra classpath entries are mounted read-only at their own paths.
Container output is followed into the same ``broker.log`` files.

Containers are made with testcontainers' ``DockerContainer`` on one shared
engine client that never pulls: testcontainers would pull a missing image, and
here that would go to the public internet.

Cleanup on every exit path:

* normal teardown removes each container (``stop`` then ``remove``);
* a watchdog process (``harness.watchdog``) removes this process's containers
  when it exits any way, SIGKILL included: Ryuk's idea, with no image to pull;
* testcontainers' own Ryuk is used too when its image is on the engine, the
  engine has a bridge network to reach it, and reuse is off (Ryuk removes
  every container of its session, reusable ones included);
* ``kcompat brokers reap`` and each pytest session remove containers whose
  owner process is gone (labels ``io.kcompat.*``).

With ``reuse`` on, a cluster is left running for the next run with an
identical spec and image: attach-or-boot happens under one file lock per key
(so xdist workers asking at once boot it once), and every process using it
holds a shared lease, so it is only ever removed when nobody uses it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import shutil
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from testcontainers.core.container import DockerContainer
from testcontainers.core.docker_client import DockerClient
from testcontainers.core.labels import create_labels

from .. import engine, watchdog
from ..artifacts import logging_backend
from ..config import HarnessConfig
from ..errors import BootError, ConfigError, HarnessError
from ..images import BrokerImage, ImageBuilder
from ..locking import exclusive
from ..reaper import owner_token
from ..render import NodeLayout, write_private
from ..spec import ClusterSpec
from .cluster import JvmCluster, JvmProvider, boot_with_retry

ALIVE_CHECK_INTERVAL = 0.25
"""Seconds between engine lookups of a container's state while waiting for readiness."""
ATTACH_TIMEOUT = 60.0
"""Seconds a reused cluster has to answer again (on a busy 2-core machine) before it is replaced."""
LOG_DRAIN_TIMEOUT = 30.0  # the log stream ends with the container; a bound only against a stuck engine
STATE_FILE = "cluster.json"


class _LocalDocker(DockerClient):
    """testcontainers' client on kcompat's one engine connection, minus the pull-if-missing step."""

    def __init__(self) -> None:  # no super(): no second connection, no registry login
        self.client = engine.client()

    def create(self, image: str, command: Any = None, environment: Any = None, ports: Any = None,
               labels: dict[str, str] | None = None, detach: bool = False, **kwargs: Any) -> Any:
        return self.client.containers.create(image, command=command, environment=environment, ports=ports,
                                             labels=create_labels(image, labels), detach=detach, **kwargs)


class _BrokerContainer(DockerContainer):
    def __init__(self, image: str) -> None:
        # DockerContainer makes a default client first (it logs in to a registry only if the user
        # set DOCKER_AUTH_CONFIG); it is closed at once and never used.
        super().__init__(image)
        self._docker.client.close()  # the default client, replaced by the shared one
        self._docker = _LocalDocker()
        self.image = image  # a local tag: no registry prefix (TESTCONTAINERS_HUB_IMAGE_NAME_PREFIX)


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
        self._follower: threading.Thread | None = None
        self._checked = 0.0
        self._code: int | None = None

    @classmethod
    def attach(cls, name: str, container: Any, log_path: Path) -> JvmContainer:
        """Adopt a running container: its output from now on is appended to ``log_path``."""
        jvm = cls(name, [], log_path, image=str(container.attrs["Config"]["Image"]),
                  container_name=container.name, mounts=[], labels=dict(container.labels), keep=True)
        jvm._container = container
        jvm._follow_from(int(time.time()))
        return jvm

    def start(self) -> None:
        container = _BrokerContainer(self.image).with_command(self.command).with_name(self.container_name)
        for path, mode in self.mounts:
            container.with_volume_mapping(path, str(path), mode)
        container.with_kwargs(network_mode="host", user=f"{os.getuid()}:{os.getgid()}", labels=self.labels,
                              working_dir=str(self.log_path.parent), entrypoint=[], detach=True)
        try:
            self._container = container.start().get_wrapped_container()
        except Exception as exc:  # the SDK's and testcontainers' errors alike
            created = container._container  # created but not started (e.g. no java in a named image)
            if created is not None:
                with contextlib.suppress(HarnessError):
                    engine.remove(created)
            raise BootError(f"can't start the container of {self.name} ({self.image}): {engine.reason(exc)}",
                            log=self.log_path) from exc
        self._follow_from(None)

    def _follow_from(self, since: int | None) -> None:
        self._follower = threading.Thread(target=self._follow, args=(since,), name=f"logs-{self.container_name}",
                                          daemon=True)
        self._follower.start()

    def _follow(self, since: int | None) -> None:
        with contextlib.suppress(Exception), self.log_path.open("ab") as out:
            for chunk in self._container.logs(stream=True, follow=True, since=since):
                out.write(chunk)
                out.flush()

    def _drain(self) -> None:
        if self._follower is not None:
            self._follower.join(timeout=LOG_DRAIN_TIMEOUT)

    def _vanished(self) -> int:
        """The container was removed under us (docker rm -f, a reaper): say so in its log."""
        with contextlib.suppress(OSError), self.log_path.open("a") as out:
            out.write(f"[kcompat] container {self.container_name} was removed while it ran\n")
        self._code = 137
        return self._code

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
            return self._vanished()
        except Exception as exc:
            raise engine.translate(exc, f"checking container {self.container_name}") from exc
        if self._container.status in ("exited", "dead"):
            self._drain()
            self._code = int(self._container.attrs["State"]["ExitCode"])
        return self._code

    def terminate(self) -> None:
        if self._container is None or self.keep:
            return
        with contextlib.suppress(Exception):  # not running any more: stop() settles it
            self._container.kill(signal="SIGTERM")

    def wait(self, timeout: float) -> int | None:
        if self._container is None:
            return None
        import docker.errors
        import requests.exceptions

        try:
            result = self._container.wait(timeout=max(1, int(timeout)))
        except (requests.exceptions.ReadTimeout, requests.exceptions.ConnectionError):
            return None  # the engine's wait outlasted the timeout: still running
        except docker.errors.NotFound:
            return self._vanished()
        except docker.errors.APIError as exc:
            raise engine.translate(exc, f"waiting for container {self.container_name}") from exc
        self._drain()
        self._code = int(result.get("StatusCode", -1))
        return self._code

    def stop(self, grace: float) -> None:
        if self._container is None or self.keep:
            return
        with contextlib.suppress(Exception):  # already stopped or gone: removal settles it
            self._container.stop(timeout=max(0, int(round(grace))))
        self._drain()
        engine.remove(self._container)


# -- reuse ----------------------------------------------------------------------------------
_leases: dict[str, int] = {}
"""Reuse keys this process uses, each with the descriptor holding its shared lease."""


def _lease_path(cache_dir: Path, key: str) -> Path:
    return cache_dir / "reuse" / f"{key}.lease"


def take_lease(cache_dir: Path, key: str) -> None:
    """Mark the reusable cluster ``key`` as used by this process until it exits (a shared flock)."""
    if key in _leases:
        return
    fd = os.open(_lease_path(cache_dir, key), os.O_CREAT | os.O_RDWR, 0o600)
    fcntl.flock(fd, fcntl.LOCK_SH)  # never waits long: exclusive holds are only tried, never kept
    _leases[key] = fd


def _nobody_uses(cache_dir: Path, key: str) -> bool:
    """True if no process holds a lease on ``key`` (ours is dropped first)."""
    if (fd := _leases.pop(key, None)) is not None:
        os.close(fd)
    path = _lease_path(cache_dir, key)
    if not path.exists():
        return True
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def _fingerprint(path: Path) -> list[str]:
    """Names, sizes and mtimes of a classpath entry's files: a rebuilt plug-in is a new key."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return [f"{p}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in files]


def reuse_key(spec: ClusterSpec, image: BrokerImage) -> str:
    """Equal for equal specs on the same image and plug-in files.

    SASL users' passwords count (hashed); the super user's generated password
    does not: a reused cluster keeps the one it was booted with (state file).
    """
    sasl = spec.sasl
    users = hashlib.sha256(json.dumps(sorted(sasl.users)).encode()).hexdigest() if sasl else ""
    text = json.dumps([image.tag, str(spec.version), spec.mode, spec.nodes, list(spec.server_properties),
                       repr(sasl), users, [_fingerprint(p) for p in spec.extra_classpath]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _abandoned(container: Any, cache_dir: Path) -> bool:
    """A reusable container whose boot never finished (no state file) belongs to nobody."""
    key = container.labels.get(engine.LABEL_REUSE)
    return key is None or not (cache_dir / "reuse" / key / STATE_FILE).is_file()


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
        elif _nobody_uses(self.config.cache_dir, self.reuse):
            remove_reused(self.config.cache_dir, self.reuse, grace=self.config.stop_grace)
        # else another process uses it: left running, as it is


class ContainerProvider(JvmProvider):
    name = "container"

    def __init__(self, config: HarnessConfig, **kwargs: Any):
        super().__init__(config, **kwargs)
        self.images = ImageBuilder(config, progress=self._progress)
        self._ready = False

    def _prepare(self) -> None:
        """Once: the engine answers, the watchdog runs, Ryuk only where it can work."""
        if self._ready:
            return
        engine.require_local()
        engine.client()
        from testcontainers.core.config import testcontainers_config

        if "TESTCONTAINERS_RYUK_DISABLED" not in os.environ:
            testcontainers_config.ryuk_disabled = self.config.reuse or not (
                engine.image_present(testcontainers_config.ryuk_image) and engine.has_bridge_network())
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
                    if not _nobody_uses(cache_dir, key):
                        raise BootError(f"the reusable {spec.label} ({key}) does not answer ({exc}) and another "
                                        "process uses it, so it is left alone",
                                        hint="kcompat brokers reap --reused once that run ends") from exc
                    self._progress(f"the reusable {spec.label} can't be attached ({exc}); booting it again")
            remove_reused(cache_dir, key, locked=True, grace=self.config.stop_grace)
            directory.mkdir(parents=True, exist_ok=True)
            cluster = boot_with_retry(make, self._progress)
            cluster.keep_running()
            write_private(state_path, json.dumps(cluster.state()))  # holds the super user's password
            take_lease(cache_dir, key)
            return cluster


def remove_reused(cache_dir: Path, key: str | None = None, *, locked: bool = False,
                  grace: float = HarnessConfig.stop_grace) -> list[str]:
    """Stop and remove reusable clusters nobody uses (all, or the one of ``key``) and their files.

    A cluster another process holds a lease on is left running; ``grace`` is
    the brokers' controlled-shutdown time (``stop_grace``).  ``locked``:
    the caller already holds the key's lock.
    """
    keys = {key} if key else {str(c.labels[engine.LABEL_REUSE]) for c in
                              engine.containers(**{engine.LABEL_REUSE: ""})}
    with contextlib.ExitStack() as locks:  # taken in key order; others take one at a time
        free = []
        for found in sorted(keys):
            if not locked:
                locks.enter_context(exclusive(cache_dir / "reuse" / found, timeout=30,
                                              waiting_for=f"to remove the reusable {found}"))
            if _nobody_uses(cache_dir, found):
                free.append(found)
        # One removal for all: they share one grace period.
        removed = engine.remove_where({engine.LABEL_REUSE: ""}, lambda c: c.labels[engine.LABEL_REUSE] not in free,
                                      grace=grace)
        for found in free:
            shutil.rmtree(cache_dir / "reuse" / found, ignore_errors=True)
            _lease_path(cache_dir, found).unlink(missing_ok=True)
    return removed


def remove_orphans(cache_dir: Path) -> list[str]:
    """Remove containers whose owner process is gone, except reusable clusters that finished booting."""
    from ..reaper import owner_alive

    return engine.remove_where(
        {engine.LABEL_OWNER: ""},
        lambda c: owner_alive(c.labels.get(engine.LABEL_OWNER, "")) or not _abandoned(c, cache_dir))


def remove_orphans_of(owner: str, cache_dir: Path) -> list[str]:
    """The watchdog's sweep: every container of ``owner`` but finished reusable clusters."""
    return engine.remove_where({engine.LABEL_OWNER: owner}, lambda c: not _abandoned(c, cache_dir))


__all__ = ["ContainerCluster", "ContainerProvider", "remove_orphans", "remove_orphans_of", "remove_reused",
           "reuse_key"]
