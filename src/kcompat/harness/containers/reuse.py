"""Clusters left running for the next run with an identical spec (``reuse`` on).

A reusable cluster's key covers its spec, its image and its plug-in files;
its state (ports, the super user's password) is a file in
``<cache>/reuse/<key>/``.  Attach-or-boot happens under one file lock per key,
and every process using a cluster holds a shared lease on it, so it is only
ever removed when nobody uses it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from ..locking import exclusive
from ..spec import ClusterSpec
from . import engine
from .images import BrokerImage

STATE_FILE = "cluster.json"

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


def nobody_uses(cache_dir: Path, key: str) -> bool:
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
                       repr(sasl), users, [_fingerprint(p) for p in spec.extra_classpath],
                       *([spec.log_dirs] if spec.log_dirs > 1 else [])])  # one dir: the keys of before
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def abandoned(container: Any, cache_dir: Path) -> bool:
    """A reusable container whose boot never finished (no state file) belongs to nobody."""
    key = container.labels.get(engine.LABEL_REUSE)
    return key is None or not (cache_dir / "reuse" / key / STATE_FILE).is_file()


def remove_reused(cache_dir: Path, key: str | None = None, *, grace: float, locked: bool = False) -> list[str]:
    """Stop and remove reusable clusters nobody uses (all, or the one of ``key``) and their files.

    A cluster another process holds a lease on is left running.  ``locked``:
    the caller already holds the key's lock.  Running ones share ``grace`` seconds to stop.
    """
    keys = {key} if key else {str(c.labels[engine.LABEL_REUSE]) for c in
                              engine.containers(**{engine.LABEL_REUSE: ""})}
    with contextlib.ExitStack() as locks:  # taken in key order; others take one at a time
        free = []
        for found in sorted(keys):
            if not locked:
                locks.enter_context(exclusive(cache_dir / "reuse" / found, timeout=30,
                                              waiting_for=f"to remove the reusable {found}"))
            if nobody_uses(cache_dir, found):
                free.append(found)
        # One removal for all: they share one grace period.
        removed = engine.remove_where({engine.LABEL_REUSE: ""}, lambda c: c.labels[engine.LABEL_REUSE] not in free,
                                      grace=grace)
        for found in free:
            shutil.rmtree(cache_dir / "reuse" / found, ignore_errors=True)
            _lease_path(cache_dir, found).unlink(missing_ok=True)
    return removed

