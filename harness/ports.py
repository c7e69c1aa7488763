"""Free loopback ports, reserved across processes (pytest-xdist workers).

A port is taken when it can be bound on 127.0.0.1 *and* its lock file could be
created exclusively.  Lock files name their owner (pid and start time) so a
crashed worker's reservations are reclaimed by the next allocator.  Ports are
drawn below the kernel's ephemeral range so outgoing connections can't grab
one between reservation and the broker's bind.
"""

from __future__ import annotations

import os
import random
import socket
import tempfile
from pathlib import Path

from .errors import PortError
from .reaper import owner_alive, owner_token

PORT_RANGE = range(20000, 32000)


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


class PortAllocator:
    def __init__(self, lock_dir: Path | None = None, *, owner: str | None = None):
        self.lock_dir = lock_dir or Path(tempfile.gettempdir()) / "kcompat-ports"
        self.lock_dir.mkdir(parents=True, exist_ok=True)
        self.owner = owner or owner_token()

    def _lock(self, port: int) -> bool:
        path = self.lock_dir / str(port)
        for _ in range(2):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    holder = path.read_text().strip()
                except OSError:
                    return False
                if owner_alive(holder):
                    return False
                path.unlink(missing_ok=True)  # stale: its owner is gone
                continue
            with os.fdopen(fd, "w") as handle:
                handle.write(self.owner)
            return True
        return False

    def reserve(self, port: int) -> int:
        """Reserve one given port, or say who has it."""
        if not port_is_free(port):
            raise PortError(f"port {port} on 127.0.0.1 is already taken by another process")
        if not self._lock(port):
            raise PortError(f"port {port} is reserved by another kcompat run (lock {self.lock_dir / str(port)})")
        return port

    def allocate(self, count: int, *, attempts: int = 500) -> list[int]:
        chosen: list[int] = []
        rng = random.Random()
        for _ in range(attempts):
            if len(chosen) == count:
                return chosen
            port = rng.choice(PORT_RANGE)
            if port in chosen or not port_is_free(port):
                continue
            if self._lock(port):
                chosen.append(port)
        self.release(chosen)
        raise PortError(f"could not find {count} free ports in {PORT_RANGE.start}-{PORT_RANGE.stop - 1}")

    def release(self, ports: list[int]) -> None:
        for port in ports:
            path = self.lock_dir / str(port)
            try:
                if path.read_text().strip() == self.owner:
                    path.unlink()
            except OSError:
                pass
