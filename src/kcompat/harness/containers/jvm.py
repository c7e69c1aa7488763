"""One JVM in a Docker container: the unit the container provider's clusters are made of.

Containers are made with testcontainers' ``DockerContainer`` on kcompat's one
engine client (``engine.client``) that never pulls: testcontainers would pull
a missing image, and here that would go to the public internet.  This is the
one module that imports testcontainers.  Each container runs with host
networking and the run directory mounted at its own path; its output is
followed into the same ``broker.log`` a process broker writes.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path
from typing import Any

from testcontainers.core.container import DockerContainer
from testcontainers.core.docker_client import DockerClient
from testcontainers.core.labels import create_labels

from ..errors import BootError, HarnessError
from . import engine

ALIVE_CHECK_INTERVAL = 0.25
"""Seconds between engine lookups of a container's state while waiting for readiness."""
LOG_DRAIN_TIMEOUT = 30.0  # the log stream ends with the container; a bound only against a stuck engine


def use_ryuk(reuse: bool) -> None:
    """testcontainers' Ryuk as a second line of cleanup, only where it can work.

    It needs its image on the engine and a bridge network to publish its port,
    and reuse must be off (Ryuk removes every container of its session,
    reusable ones included).  ``TESTCONTAINERS_RYUK_DISABLED`` set by the user wins.
    """
    from testcontainers.core.config import testcontainers_config

    if "TESTCONTAINERS_RYUK_DISABLED" not in os.environ:
        testcontainers_config.ryuk_disabled = reuse or not (
            engine.image_present(testcontainers_config.ryuk_image) and engine.has_bridge_network())


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

