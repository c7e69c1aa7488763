"""Long steps as a person sees them: what, how far and for how long, never silence and never a tool's flood.

Building an adapter, fetching a release's admin tools or measuring a client takes tens of seconds; its
tools' output goes to a log, which the step's last line names.  On a terminal a step is one line rewritten
in place (``what: how far  12s``); anywhere else (a file, a pipe, CI) it is a start line and an end line, so
a log says what ran and how long it took without carriage returns.  Code inside a step (a build's stages)
says how far it got with ``report``, not knowing who shows it: where no step is shown (a pytest worker's
cell), ``report`` does nothing.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TextIO

TICK = 0.5
"""Seconds between redraws of a step's line on a terminal."""
_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class _Step:
    """One step being shown: its line, and the thread redrawing it on a terminal."""

    def __init__(self, what: str, stream: TextIO):
        self.what = what
        self.stream = stream
        self.how_far = ""
        self.log: Path | None = None
        self.started = time.monotonic()
        self.live = stream.isatty()
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="kcompat-progress", daemon=True)

    def begin(self) -> None:
        if self.live:
            self._ticker.start()
        else:
            self._write(f"… {self.what}\n")

    def end(self, failed: bool) -> None:
        self._done.set()
        if self.live:
            self._ticker.join()
        took = elapsed(time.monotonic() - self.started)
        log = f"; log: {self.log}" if self.log is not None else ""
        line = f"✗ {self.what}: failed after {took}{log}" if failed else f"✓ {self.what} ({took}{log})"
        self._write(("\r\x1b[K" if self.live else "") + line + "\n")

    def _tick(self) -> None:
        frame = 0
        while not self._done.wait(0 if frame == 0 else TICK):
            how_far = f": {self.how_far}" if self.how_far else ""
            line = f"{_SPINNER[frame % len(_SPINNER)]} {self.what}{how_far}  {elapsed(time.monotonic() - self.started)}"
            width = shutil.get_terminal_size().columns - 1  # a wrapped line could not be rewritten in place
            self._write("\r\x1b[K" + line[:width])
            frame += 1

    def _write(self, text: str) -> None:
        with self._lock:
            self.stream.write(text)
            self.stream.flush()


_CURRENT: ContextVar[_Step | None] = ContextVar("kcompat_progress_step", default=None)


def elapsed(seconds: float) -> str:
    """``4.2s`` under a minute, ``1m05s`` from there."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}m{rest:02d}s"


def report(how_far: str | None = None, *, log: Path | None = None) -> None:
    """Tell the step being shown how far it got (``go build (3/3)``) and where its tools' output goes; nothing
    when none is shown."""
    current = _CURRENT.get()
    if current is None:
        return
    if how_far is not None:
        current.how_far = how_far
    if log is not None:
        current.log = log


@contextmanager
def step(what: str, *, quiet: bool = False, stream: TextIO | None = None) -> Iterator[None]:
    """Show ``what`` on stderr (or ``stream``) while the block runs: one line on a terminal, a start and an end
    line elsewhere; ``quiet`` (a command's ``--json``) shows nothing, though ``report`` still reaches it."""
    shown = _Step(what, stream or sys.stderr)
    token = _CURRENT.set(shown)
    if not quiet:
        shown.begin()
    failed = True
    try:
        yield
        failed = False
    finally:
        _CURRENT.reset(token)
        if not quiet:
            shown.end(failed)
