"""The installed ``kcompat`` console script, as a user types it: tests of documented commands go through here.

A subprocess of the venv's entry point (``<venv>/bin/kcompat``), never click's runner on an inner group:
``kcompat history ingest`` once crashed on every call while every test that called the group passed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

KCOMPAT = str(Path(sys.executable).parent / "kcompat")


def run_workers() -> str:
    """``-n`` for a ``kcompat run`` a test starts: 2 when the suite runs in one process, 0 inside an xdist
    worker, where two more workers beside the suite's own would put four JVM-booting processes on two cores
    (CPU-bound boots: they would only trade places).  Whether xdist's ``--dist loadgroup`` still boots each
    cluster once is checked by the main job's test, marked ``own_workers``, which CI runs alone."""
    return "0" if os.environ.get("PYTEST_XDIST_WORKER") else "2"


def kcompat(*args: str, timeout: float = 600, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``kcompat ARGS`` to the end (bounded), with its output captured as text."""
    return subprocess.run([KCOMPAT, *args], capture_output=True, text=True, timeout=timeout, check=False, cwd=cwd,
                          env=env if env is not None else dict(os.environ))


def ok(done: subprocess.CompletedProcess[str]) -> str:
    """The output of a command that must succeed without a traceback; else the assertion shows its ends."""
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    return done.stdout
