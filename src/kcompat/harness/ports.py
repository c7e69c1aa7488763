"""Free loopback ports, reserved across processes (pytest-xdist workers).

A port is taken when it can be bound on 127.0.0.1 *and* an exclusive
``flock`` on its file in the shared lock directory could be had.  The lock is
held (an open descriptor) for as long as the reservation, so the kernel drops
it the moment its process dies: no owner bookkeeping, no stale-lock race.
Ports are drawn from 20000-31999, below Linux's default ephemeral range
(32768-60999), so outgoing connections don't grab one between reservation and
the broker's bind.
"""

from __future__ import annotations

import fcntl
import os
import random
import socket
import tempfile
import threading
from pathlib import Path

from .errors import PortError

PORT_RANGE = range(20000, 32000)


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as trial:
        try:
            trial.bind((host, port))
        except OSError:
            return False
    return True


def _shared_dir(path: Path) -> Path:
    """A lock directory every user of the machine can lock in (mode 1777, like /tmp)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        if path.stat().st_uid == os.getuid():
            path.chmod(0o1777)
    except OSError as exc:
        raise PortError(f"can't use the port lock directory {path}: {exc}") from exc
    return path


class PortAllocator:
    def __init__(self, lock_dir: Path | None = None):
        self.lock_dir = _shared_dir(lock_dir or Path(tempfile.gettempdir()) / "kcompat-ports")
        self._held: dict[int, int] = {}
        self._guard = threading.Lock()  # clusters stop on threads of their own (ClusterFactory) and release here

    def _lock(self, port: int) -> bool:
        path = self.lock_dir / str(port)
        try:
            fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o666)
        except OSError:
            return False  # another user's file we may not open: treat the port as taken
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._held[port] = fd
        return True

    def reserve(self, port: int) -> int:
        """Reserve one given port, or say who has it."""
        with self._guard:
            return self._reserve(port)

    def _reserve(self, port: int) -> int:
        if not port_is_free(port):
            raise PortError(f"port {port} on 127.0.0.1 is already taken by another process")
        if port in self._held or not self._lock(port):
            raise PortError(f"port {port} is reserved by another kcompat run (lock {self.lock_dir / str(port)})")
        return port

    def allocate(self, count: int, *, attempts: int = 500) -> list[int]:
        with self._guard:
            return self._allocate(count, attempts)

    def _allocate(self, count: int, attempts: int) -> list[int]:
        chosen: list[int] = []
        rng = random.Random()
        for _ in range(attempts):
            if len(chosen) == count:
                return chosen
            port = rng.choice(PORT_RANGE)
            if port in chosen or port in self._held or not port_is_free(port):
                continue
            if self._lock(port):
                chosen.append(port)
        self._release(chosen)
        raise PortError(f"could not find {count} free ports in {PORT_RANGE.start}-{PORT_RANGE.stop - 1}")

    def close(self) -> None:
        self.release(list(self._held))

    def __del__(self) -> None:
        self.close()

    def release(self, ports: list[int]) -> None:
        with self._guard:
            self._release(ports)

    def _release(self, ports: list[int]) -> None:
        for port in ports:
            fd = self._held.pop(port, None)
            if fd is not None:
                os.close(fd)  # closing drops the flock; the empty file stays for reuse
