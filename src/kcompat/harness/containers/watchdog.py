"""Removes a harness process's containers when that process ends, however it ends.

The container provider starts ``python -m kcompat.harness.containers.watchdog OWNER CACHE_DIR``
with a pipe on its stdin and keeps the write end.  When the harness exits
(normally, by a signal, or SIGKILL) the kernel closes the pipe; the watchdog
reads EOF and removes every container labelled with that owner, except
reusable clusters that finished booting.  It is Ryuk's idea (a connection
whose loss means "clean up") with no image to pull.  It says ``ready`` once it
can reach the engine, so a watchdog that can't work is an error at start, not
a leak later.
"""

from __future__ import annotations

import select
import subprocess
import sys
from pathlib import Path

from ..errors import EngineError
from ..reaper import owner_token
from ..waiting import retry
from . import engine
from .orphans import remove_orphans_of

READY = b"ready\n"
READY_TIMEOUT = 30.0
SWEEP_ATTEMPTS = 5

_started: subprocess.Popen[bytes] | None = None


def ensure_started(cache_dir: Path, log_dir: Path) -> None:
    """Start this process's watchdog once (in its own session, untouched by Ctrl-C) and wait for it."""
    global _started
    if _started is not None and _started.poll() is None:
        return
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / f"watchdog-{owner_token()}.log"
    with log.open("ab") as err:
        _started = subprocess.Popen(
            [sys.executable, "-P", "-m", "kcompat.harness.containers.watchdog", owner_token(), str(cache_dir)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, start_new_session=True,
        )
    assert _started.stdout is not None
    ready, _, _ = select.select([_started.stdout], [], [], READY_TIMEOUT)
    if not ready or _started.stdout.readline() != READY:
        _started.kill()
        raise EngineError(f"the container watchdog did not start within {READY_TIMEOUT:.0f}s, so containers "
                          "could outlive a killed harness", log=log)
    # Its stdin is never written: the pipe closing (we exit, however) is the message.


def main(argv: list[str]) -> int:
    owner, cache_dir = argv[1], Path(argv[2])
    engine.client()
    sys.stdout.buffer.write(READY)
    sys.stdout.buffer.flush()
    sys.stdin.buffer.read()  # returns at EOF: the owner closed the pipe or died
    def failed(attempt: int, exc: Exception) -> None:
        print(f"sweep {attempt}/{SWEEP_ATTEMPTS} failed: {exc}", file=sys.stderr)

    try:  # an engine restarting: try again, a bounded number of times
        removed = retry(lambda: remove_orphans_of(owner, cache_dir), times=SWEEP_ATTEMPTS,
                        when=lambda exc: isinstance(exc, EngineError), delay=lambda _: 2.0, on_retry=failed)
    except EngineError as exc:
        failed(SWEEP_ATTEMPTS, exc)
        return 1
    for name in removed:
        print(f"removed {name} of {owner}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
