"""The Docker engine: one connection, checked once, with errors that say what to do.

Only modules of ``kcompat.harness.containers`` talk to Docker, and none of them lets
the engine pull on its own: images are checked to be local first and pulled
explicitly only when the user allowed it (``pull``).  This machine's kind has
no registry, and an unexpected pull would go to the public internet through
the engine's resolver.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..errors import EngineError

if TYPE_CHECKING:
    import docker

START_HINT = "run scripts/docker.sh (installs docker.io, starts dockerd --bridge=none --iptables=false)"
API_TIMEOUT = 300
"""Seconds one engine request may take (an image build streams within it)."""

LABEL_RUN = "io.kcompat.run"
LABEL_OWNER = "io.kcompat.owner"
LABEL_REUSE = "io.kcompat.reuse"
LABEL_CLUSTER = "io.kcompat.cluster"
LABEL_ROLE = "io.kcompat.role"
LABEL_VERSION = "io.kcompat.kafka-version"
LABEL_CONTENT = "io.kcompat.content-hash"


def engine_address() -> str:
    return os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")


def require_local() -> None:
    """Containers share the run directory (bind mounts) and loopback (host network) with us."""
    address = engine_address()
    if not (address.startswith("unix://") or urlsplit(address).hostname in ("localhost", "127.0.0.1", "::1")):
        raise EngineError(f"DOCKER_HOST={address} is not this machine's engine; the container provider mounts "
                          "run directories and uses host networking, so it needs a local one",
                          hint=START_HINT)


@functools.cache
def client() -> docker.DockerClient:
    """A connected client; ``EngineError`` (one line, with the fix) when there is no engine."""
    try:
        import docker
        import docker.errors
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise EngineError("the docker Python package is not installed",
                          hint="pip install -e '.[test]'") from exc
    try:
        # Every container's log follower streams on this one client: room for many at once.
        connected = docker.from_env(timeout=API_TIMEOUT, max_pool_size=64)
        connected.ping()
    except docker.errors.DockerException as exc:
        raise EngineError(f"no Docker engine answers at {engine_address()} ({reason(exc, 200)})",
                          hint=START_HINT) from exc
    return connected


def image_present(name: str) -> bool:
    import docker.errors

    try:
        client().images.get(name)
    except docker.errors.ImageNotFound:
        return False
    except docker.errors.APIError as exc:
        raise EngineError(f"the engine could not inspect image {name}: {exc.explanation}") from exc
    return True


def has_bridge_network() -> bool:
    """Ryuk publishes a port, which needs the default bridge (absent with ``--bridge=none``)."""
    return bool(client().networks.list(names=["bridge"]))


def containers(**label_values: str) -> list[Any]:
    """Every container (running or not) carrying all the given ``label=value`` pairs.

    The SDK lists, then inspects each; one removed in between (a watchdog or a
    parallel teardown at work) is simply gone, not an error.
    """
    filters = [f"{key}={value}" if value else key for key, value in label_values.items()]
    return list(client().containers.list(all=True, filters={"label": filters}, ignore_removed=True))


def reason(exc: BaseException, limit: int = 300) -> str:
    """The first line of an SDK or transport error (the engine's own explanation when it gave one)."""
    text = str(getattr(exc, "explanation", None) or exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:limit]


def translate(exc: Exception, doing: str) -> EngineError:
    """An SDK or transport error as a one-line ``EngineError``."""
    return EngineError(f"the Docker engine failed while {doing}: {reason(exc)}", hint=START_HINT)


def remove_where(labels: dict[str, str], keep: Callable[[Any], bool] | None = None, *, grace: float = 0.0
                 ) -> list[str]:
    """Stop and remove the containers with ``labels`` that ``keep`` does not keep.

    With ``grace``, all get SIGTERM at once and share one grace period before
    removal kills what is left, so many containers take one grace, not many.
    """
    victims = [c for c in containers(**labels) if keep is None or not keep(c)]
    if grace > 0:
        deadline = time.monotonic() + grace
        for container in victims:
            with contextlib.suppress(Exception):  # not running: removal settles it
                container.kill(signal="SIGTERM")
        for container in victims:
            if (left := deadline - time.monotonic()) <= 0:
                break  # the grace is spent: removal kills what still runs
            with contextlib.suppress(Exception):  # a read timeout: still running, removal kills it
                container.wait(timeout=max(1, round(left)))
    with ThreadPoolExecutor(max_workers=8) as pool:  # the engine removes side by side
        list(pool.map(remove, victims))
    return [str(c.name) for c in victims]


def remove(container: Any) -> None:
    """Remove a container, whatever its state; a vanished one is fine."""
    import docker.errors

    try:
        container.remove(force=True, v=True)
    except docker.errors.NotFound:
        pass
    except docker.errors.APIError as exc:
        if "already in progress" not in str(exc):
            raise EngineError(f"could not remove container {container.name}: {exc.explanation}") from exc
