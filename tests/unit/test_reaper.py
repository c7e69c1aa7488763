"""The two pieces of the reaper that need no broker: owner tokens and the spawn guard."""

import os
import subprocess

from kcompat.harness import reaper


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


def _cluster_dir(run_root, name: str, owner: str | None):  # type: ignore[no-untyped-def]
    from kcompat.harness.reaper import OWNER_FILE, SECRET_FILES

    directory = run_root / "20260101-000000-abcdef" / name
    directory.mkdir(parents=True)
    if owner is not None:
        (directory / OWNER_FILE).write_text(owner + "\n")
    for secret in SECRET_FILES:
        (directory / secret).write_text("password=secret\n")
    (directory / "server.log").write_text("log\n")
    return directory


def _dead_pid() -> int:
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_reaping_removes_the_secrets_of_dead_owners_only(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from kcompat.harness.reaper import SECRET_FILES, owner_token, reap_secrets

    dead = _cluster_dir(tmp_path, f"3.9-kraft-1n-sasl-{_dead_pid()}-1", f"{_dead_pid()}-12345")
    live = _cluster_dir(tmp_path, f"3.9-kraft-1n-sasl-{os.getpid()}-1", owner_token())
    legacy_dead = _cluster_dir(tmp_path, f"2.8-zk-1n-sasl-{_dead_pid()}-2", None)
    legacy_live = _cluster_dir(tmp_path, f"2.8-zk-1n-sasl-{os.getpid()}-3", None)
    removed = reap_secrets(tmp_path)
    assert sorted(removed) == sorted(d / s for d in (dead, legacy_dead) for s in SECRET_FILES)
    for directory in (dead, legacy_dead):
        assert not any((directory / s).exists() for s in SECRET_FILES)
        assert (directory / "server.log").is_file()  # logs stay
    for directory in (live, legacy_live):
        assert all((directory / s).is_file() for s in SECRET_FILES)
    assert reap_secrets(tmp_path) == []


def test_brokers_reap_says_which_secrets_it_removed(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from kcompat.harness.cli import main

    # touch nothing of other runs on this machine: no process or container reaping, only the secrets
    monkeypatch.setattr("kcompat.harness.cli.brokers.reap_orphans", lambda config, names=None, *, reused=False: [])
    dead = _cluster_dir(tmp_path / "runs", f"3.9-kraft-1n-sasl-{_dead_pid()}-1", f"{_dead_pid()}-1")
    result = CliRunner().invoke(main, ["--cache-dir", str(tmp_path / "cache"), "--run-root", str(tmp_path / "runs"),
                                       "brokers", "reap"])
    assert result.exit_code == 0, result.output
    assert f"removed {dead / 'kafka_server_jaas.conf'} (credentials of a run whose kcompat process is gone)" \
        in result.output
    assert not (dead / "client.properties").exists()
