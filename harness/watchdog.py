"""Removes a harness process's containers when that process ends, however it ends.

The container provider starts ``python -m harness.watchdog OWNER`` with a pipe
on its stdin and keeps the write end.  When the harness exits (normally, by a
signal, or SIGKILL) the kernel closes the pipe; the watchdog reads EOF and
removes every container labelled with that owner, except reusable ones.  It is
Ryuk's idea (a connection whose loss means "clean up") with no image to pull.
"""

from __future__ import annotations

import subprocess
import sys
from typing import IO

from . import engine
from .reaper import owner_token

_started: subprocess.Popen[bytes] | None = None
_pipe: IO[bytes] | None = None


def ensure_started() -> None:
    """Start this process's watchdog once; it lives in its own session, untouched by Ctrl-C."""
    global _started, _pipe
    if _started is not None and _started.poll() is None:
        return
    _started = subprocess.Popen(
        [sys.executable, "-m", "harness.watchdog", owner_token()],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    _pipe = _started.stdin  # never written; its closing is the message


def sweep(owner: str) -> list[str]:
    removed = []
    for container in engine.containers(**{engine.LABEL_OWNER: owner}):
        if engine.LABEL_REUSE not in container.labels:
            engine.remove(container)
            removed.append(str(container.name))
    return removed


def main(argv: list[str]) -> int:
    owner = argv[1]
    sys.stdin.buffer.read()  # returns at EOF: the owner closed the pipe or died
    sweep(owner)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
