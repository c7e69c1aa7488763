"""What kcompat's pytest plugin costs a project that never asks for it.

    .venv/bin/python bench/plugin.py [--rounds 30]

kcompat installs a ``pytest11`` entry point, so pytest loads its plugin in every
session of the environment.  Until a session asks (a ``--kc-*`` option, a
``kc_*`` ini key, the scenarios, a kcompat fixture) it must only declare its
options and fixtures.  This starts ``pytest -q`` on a one-test project in a
temporary directory, alternately with the plugin and with ``-p no:kcompat``,
``--rounds`` times each, and prints the medians of wall and CPU time (user +
system of the child) and their ratio as Markdown for docs/PERFORMANCE.md, and
whether any line of the plugin-on output names kcompat.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _once(project: Path, extra: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra], cwd=project,
                          capture_output=True, text=True, timeout=120, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout + done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory(prefix="kcompat-bench-plugin-") as tmp:
        project = Path(tmp)
        (project / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
        on, off = [], []
        for _ in range(rounds):  # alternated, so a busy moment costs both sides alike
            on.append(_once(project, []))
            off.append(_once(project, ["-p", "no:kcompat"]))
    named = sorted({line for *_, out in on for line in out.splitlines() if "kcompat" in line.lower()})
    print(f"Machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"`pytest -q` on a one-test project, {rounds} rounds each, alternated (medians).\n")
    print("| | with kcompat installed | `-p no:kcompat` | ratio |")
    print("|---|---|---|---|")
    for name, index in (("wall", 0), ("CPU (user + system)", 1)):
        with_it = statistics.median(run[index] for run in on)
        without = statistics.median(run[index] for run in off)
        print(f"| {name} | {with_it:.3f} s | {without:.3f} s | {with_it / without:.3f}x |")
    print(f"\nLines naming kcompat in the plugin-on output: {len(named)}" + (f" ({named})" if named else ""))


if __name__ == "__main__":
    main()
