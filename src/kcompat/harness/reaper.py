"""Every process the harness starts is labelled, so none can outlive it.

Three layers, from cheapest to last resort:

1. Teardown stops each cluster's processes on normal exit, exceptions and
   SIGINT/SIGTERM (turned into ``SystemExit`` by ``install_signal_handlers``).
2. Each JVM is started (``spawn``) with ``PR_SET_PDEATHSIG=SIGKILL``: the
   kernel kills it the moment the harness dies, even by SIGKILL (a killed
   xdist worker).  The signal is tied to the thread that spawned the child, so
   spawn from a thread that lives as long as the cluster (the harness always
   spawns from its caller's thread; pytest and the CLI call from the main one).
3. Each JVM carries ``-Dkcompat.run=<run id>`` and ``-Dkcompat.owner=<pid>-<start>``
   on its command line; ``reap_orphans`` kills those whose owner is gone.

Files outlive processes: a cluster directory that holds credentials (the
broker's JAAS file, the CLI's client.properties) also holds its owner's token
(``mark_owner``), and ``reap_secrets`` removes the credentials of owners that
are gone; logs stay.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import psutil

RUN_FLAG = "-Dkcompat.run="
OWNER_FLAG = "-Dkcompat.owner="
OWNER_FILE = "owner"
SECRET_FILES = ("kafka_server_jaas.conf", "client.properties")
"""Files of a cluster directory that carry passwords: removed at teardown, or by ``reap_secrets``."""
_CLUSTER_DIR = re.compile(r".+-(?P<pid>\d+)-\d+")  # <spec label>-<pid>-<n>, see providers.cluster.RunDirs
_PR_SET_PDEATHSIG = 1


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


def owner_token(pid: int | None = None) -> str:
    """``<pid>-<start>``: a pid alone may be reused by the time we check.

    The start is the kernel's, in clock ticks since boot (``/proc/<pid>/stat``),
    not a wall-clock time: a stepped clock (NTP, a migrated VM) shifts the
    wall-clock start of every live process and would make them all look dead.
    """
    pid = pid or os.getpid()
    stat = Path(f"/proc/{pid}/stat").read_text()
    start = stat[stat.rindex(")") + 2:].split()[19]  # field 22; the fields after the name start at 3
    return f"{pid}-{start}"


def owner_alive(token: str) -> bool:
    try:
        pid_text, _ = token.split("-", 1)
        return owner_token(int(pid_text)) == token
    except (ValueError, OSError):
        return False


_SETPRIV = shutil.which("setpriv")
_prctl = ctypes.CDLL(None, use_errno=True).prctl  # bound now: no dlopen in a forked child


# The death signal is armed in the child, after fork: a parent that died in between has
# already gone (the child was re-parented), so the child checks it still has the parent
# that spawned it, and quits if not.
_GUARD = 'test "$PPID" = "$1" || exit 99; shift; exec "$@"'


def _die_with(parent: int) -> Callable[[], None]:
    def arm() -> None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(99)
    return arm


def spawn(command: list[str], **popen: Any) -> subprocess.Popen[bytes]:
    """Start ``command`` in its own session, to be SIGKILLed by the kernel if we die.

    ``setpriv --pdeathsig`` (util-linux) sets that up in the child after exec
    of setpriv itself, so no Python runs between fork and exec (``preexec_fn``
    is unsafe once librdkafka or sidecar reader threads exist); without
    setpriv, a pre-bound ``prctl`` in ``preexec_fn`` is the fallback.
    """
    parent = os.getpid()
    if _SETPRIV is not None:
        return subprocess.Popen([_SETPRIV, "--pdeathsig", "KILL", "--", "/bin/sh", "-c", _GUARD, "kcompat-spawn",
                                 str(parent), *command], start_new_session=True, **popen)
    return subprocess.Popen(command, start_new_session=True, preexec_fn=_die_with(parent), **popen)


def labels(run_id: str) -> list[str]:
    return [f"{RUN_FLAG}{run_id}", f"{OWNER_FLAG}{owner_token()}"]


@dataclass(frozen=True)
class Labelled:
    pid: int
    run_id: str
    owner: str


def labelled_processes() -> Iterator[Labelled]:
    for process in psutil.process_iter(["pid", "cmdline"]):
        cmdline = process.info.get("cmdline") or []
        run = next((a[len(RUN_FLAG):] for a in cmdline if a.startswith(RUN_FLAG)), None)
        if run is None:
            continue
        owner = next((a[len(OWNER_FLAG):] for a in cmdline if a.startswith(OWNER_FLAG)), "")
        yield Labelled(process.info["pid"], run, owner)


def kill_tree(pid: int, *, grace: float = 0.0) -> None:
    """SIGTERM (if ``grace``) then SIGKILL a process and all its descendants."""
    try:
        root = psutil.Process(pid)
        family = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return
    if grace > 0:
        for member in family:
            with contextlib.suppress(psutil.Error):
                member.terminate()
        _, family = psutil.wait_procs(family, timeout=grace)
    for member in family:
        with contextlib.suppress(psutil.Error):
            member.kill()
    psutil.wait_procs(family, timeout=10)


def reap_orphans() -> list[Labelled]:
    """Kill labelled processes whose harness process no longer exists."""
    orphans = [p for p in labelled_processes() if not owner_alive(p.owner)]
    for orphan in orphans:
        kill_tree(orphan.pid)
    return orphans


def mark_owner(directory: Path) -> None:
    """Record this process as the owner of a cluster directory, before any secret is written into it."""
    (directory / OWNER_FILE).write_text(owner_token() + "\n")


def _owner_gone(directory: Path) -> bool:
    try:
        return not owner_alive((directory / OWNER_FILE).read_text().strip())
    except OSError:  # written before owner files: its name carries the pid (gone, or reused: then kept)
        found = _CLUSTER_DIR.fullmatch(directory.name)
        return found is not None and not psutil.pid_exists(int(found["pid"]))


def reap_secrets(run_root: Path) -> list[Path]:
    """Remove the credentials left in ``<run_root>/<run id>/<cluster>/`` by owners that are gone."""
    removed = []
    for secret in sorted(path for name in SECRET_FILES for path in run_root.glob(f"*/*/{name}")):
        if _owner_gone(secret.parent):
            with contextlib.suppress(FileNotFoundError):
                secret.unlink()
                removed.append(secret)
    return removed


def _raise_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def install_signal_handlers() -> None:
    """Turn SIGTERM/SIGHUP into ``SystemExit`` and SIGINT into ``KeyboardInterrupt``.

    SIGINT is set explicitly because a shell starts background jobs with it
    ignored, and Python then never raises ``KeyboardInterrupt``.
    """
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_exit)
    signal.signal(signal.SIGINT, signal.default_int_handler)
