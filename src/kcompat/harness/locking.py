"""File locks shared by xdist workers, with waits that say what they wait for."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from .errors import HarnessError


@contextmanager
def exclusive(path: Path, *, timeout: float, waiting_for: str) -> Iterator[None]:
    """Hold ``<path>.lock``; if another process keeps it past ``timeout``, a one-line error."""
    lock = FileLock(str(path) + ".lock", timeout=timeout)
    try:
        lock.acquire()
    except Timeout as exc:
        raise HarnessError(f"waited {timeout:.0f}s for another kcompat process {waiting_for}",
                           hint=f"lock file {lock.lock_file}") from exc
    try:
        yield
    finally:
        lock.release()
