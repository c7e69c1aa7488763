"""The two pieces of the reaper that need no broker: owner tokens and the spawn guard."""

import os
import subprocess

from harness import reaper


def test_an_owner_token_is_stable_for_a_live_process_and_dead_otherwise() -> None:
    token = reaper.owner_token()
    assert token == reaper.owner_token(os.getpid()) and reaper.owner_alive(token)
    pid, start = token.split("-")
    assert not reaper.owner_alive(f"{pid}-{int(start) + 1}")  # the same pid, another process
    assert not reaper.owner_alive("999999999-1") and not reaper.owner_alive("not a token")


def test_a_spawned_command_runs_with_its_arguments_intact() -> None:
    child = reaper.spawn(["/bin/sh", "-c", 'printf "%s|" "$@"', "sh", "a b", "-c", "$HOME"], stdout=subprocess.PIPE)
    out, _ = child.communicate(timeout=30)
    assert (child.returncode, out) == (0, b"a b|-c|$HOME|")


def test_a_child_whose_spawner_is_already_gone_does_not_run(monkeypatch) -> None:
    """The window between fork and arming the death signal: the child must notice it lost its parent.
    Simulated by naming a parent that is not ours."""
    monkeypatch.setattr(reaper.os, "getpid", lambda: 1)
    child = reaper.spawn(["/bin/sh", "-c", "echo ran"], stdout=subprocess.PIPE)
    out, _ = child.communicate(timeout=30)
    assert (child.returncode, out) == (99, b"")
