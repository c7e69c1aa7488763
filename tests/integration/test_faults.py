"""Bad input and faults: one-line errors that name the log, and nothing left running."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from kcompat.harness import BootError, ClusterSpec, HarnessConfig, PortError, load_catalog
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.ports import PortAllocator
from kcompat.harness.providers.process import ProcessProvider
from kcompat.harness.reaper import labelled_processes, owner_token


def _left_running(provider: ProcessProvider) -> list[int]:
    return [p.pid for p in labelled_processes() if p.run_id == provider.run_id]


def test_a_broker_that_exits_during_boot(kc_config: HarnessConfig) -> None:
    provider = ProcessProvider(kc_config)
    spec = ClusterSpec.of("3.9", "zk", server_properties={"authorizer.class.name": "no.such.Authorizer"})
    with pytest.raises(BootError) as caught:
        provider.start(spec)
    message = str(caught.value)
    assert "broker 1 (Kafka 3.9.2, process) exited with code" in message
    assert "no.such.Authorizer" in message
    assert "--verify" not in message  # a class the user named is not blamed on the cached jars
    assert "\n" not in message
    assert caught.value.log is not None and caught.value.log.is_file()
    assert _left_running(provider) == []


def test_a_damaged_cached_jar_of_the_same_size_points_at_fetch_verify(kc_config: HarnessConfig,
                                                                      tmp_path: Path) -> None:
    """A warm start checks sizes only; the boot error then says how to check the bytes."""
    release = load_catalog().release("3.9")
    store = ArtifactStore(kc_config)
    real = store.resolve(release)
    manifest = json.loads(store.manifest_path(release).read_text())
    cache = tmp_path / "cache"  # a cache of its own: every jar linked, Kafka's own jar zeroed in place
    entries = []
    for index, (jar, entry) in enumerate(zip(real.classpath, manifest["jars"], strict=True)):
        relative = Path("m2") / f"{index}-{jar.name}"
        (cache / relative).parent.mkdir(parents=True, exist_ok=True)
        if jar.name.startswith("kafka_"):
            (cache / relative).write_bytes(bytes(jar.stat().st_size))
        else:
            (cache / relative).symlink_to(jar)
        entries.append({**entry, "path": str(relative)})
    copied = cache / store.manifest_path(release).relative_to(kc_config.cache_dir)
    copied.parent.mkdir(parents=True)
    copied.write_text(json.dumps({**manifest, "jars": entries}))
    provider = ProcessProvider(dataclasses.replace(kc_config, cache_dir=cache, offline=True))
    with pytest.raises(BootError) as caught:
        provider.start(ClusterSpec.of("3.9", "kraft"))
    assert "exited with code" in str(caught.value)
    assert caught.value.hint is not None and "kcompat brokers fetch --verify 3.9.2" in caught.value.hint
    assert _left_running(provider) == []


def test_a_broker_that_is_never_ready_times_out(kc_config: HarnessConfig) -> None:
    provider = ProcessProvider(dataclasses.replace(kc_config, boot_timeout=0.5))
    # Every wait of the boot shares the deadline: whichever stage is running when it passes says so.
    with pytest.raises(BootError, match=r"(not ready after [0-9.]+s|did not finish within the boot timeout).*log: "):
        provider.start(ClusterSpec.of("3.9", "kraft"))
    assert _left_running(provider) == []


class _TakenFirst(PortAllocator):
    """Hands out one port some other process holds, once or always."""

    def __init__(self, taken: int, lock_dir: Path, *, always: bool):
        super().__init__(lock_dir)
        self.taken, self.always, self.calls = taken, always, 0

    def allocate(self, count: int, *, attempts: int = 500) -> list[int]:
        self.calls += 1
        ports = super().allocate(count)
        if self.calls == 1 or self.always:
            ports[-1] = self.taken  # the broker's client port (ZooKeeper's comes first)
        return ports


@pytest.fixture
def held_port():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def test_a_port_taken_under_us_is_retried(kc_config: HarnessConfig, held_port: int, tmp_path: Path) -> None:
    allocator = _TakenFirst(held_port, tmp_path, always=False)
    provider = ProcessProvider(kc_config, ports=allocator)
    with provider.start(ClusterSpec.of("2.8", "zk")) as cluster:
        assert cluster.brokers[0].port != held_port
    assert allocator.calls == 2
    assert _left_running(provider) == []


def test_a_port_always_taken_is_a_port_error(kc_config: HarnessConfig, held_port: int, tmp_path: Path) -> None:
    provider = ProcessProvider(kc_config, ports=_TakenFirst(held_port, tmp_path, always=True))
    with pytest.raises(PortError, match=f"(Address already in use|{held_port}).*log: .*broker.log"):
        provider.start(ClusterSpec.of("2.8", "zk"))
    assert _left_running(provider) == []


def _labelled_children(pid: int) -> list[int]:
    try:
        token = owner_token(pid)
    except psutil.Error:
        return []
    return [p.pid for p in labelled_processes() if p.owner == token]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_killing_the_harness_mid_boot_leaves_no_jvm(kc_config: HarnessConfig, sig: signal.Signals) -> None:
    command = [sys.executable, "-c", "from kcompat.harness.cli import run; run()",
               "--cache-dir", str(kc_config.cache_dir), "--run-root", str(kc_config.run_root),
               "brokers", "up", "3.9", "--mode", "kraft", "--nodes", "3"]
    harness = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    token, jvms = None, []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and harness.poll() is None and not jvms:
        token = token or owner_token(harness.pid)
        jvms = [p.pid for p in labelled_processes() if p.owner == token]
        time.sleep(0.05)
    assert jvms, f"no JVM appeared; harness said: {harness.communicate(timeout=10)[1][-500:]!r}"
    os.kill(harness.pid, sig)
    harness.wait(timeout=60)
    deadline = time.monotonic() + 30
    survivors = [p.pid for p in labelled_processes() if p.owner == token]
    while survivors and time.monotonic() < deadline:
        time.sleep(0.2)
        survivors = [p.pid for p in labelled_processes() if p.owner == token]
    assert survivors == [], f"JVMs {survivors} outlived a harness killed with {sig.name}"


def test_a_sasl_cluster_killed_outright_leaves_its_passwords_to_brokers_reap(kc_config: HarnessConfig,
                                                                             tmp_path: Path) -> None:
    run_root = tmp_path / "runs"
    cli = [sys.executable, "-c", "from kcompat.harness.cli import run; run()",
           "--cache-dir", str(kc_config.cache_dir), "--run-root", str(run_root)]
    harness = subprocess.Popen([*cli, "brokers", "up", "3.9", "--mode", "kraft", "--sasl"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    while harness.poll() is None and time.monotonic() < deadline and not list(run_root.glob("*/*/client.properties")):
        time.sleep(0.2)
    assert harness.poll() is None, harness.communicate(timeout=10)[1][-500:]
    token = owner_token(harness.pid)
    os.kill(harness.pid, signal.SIGKILL)
    harness.wait(timeout=30)
    deadline = time.monotonic() + 30
    while any(p.owner == token for p in labelled_processes()) and time.monotonic() < deadline:
        time.sleep(0.1)
    (jaas,) = run_root.glob("*/*/kafka_server_jaas.conf")  # nobody was left to remove it
    props = jaas.with_name("client.properties")
    assert props.is_file()
    done = subprocess.run([*cli, "brokers", "reap"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert f"removed {jaas} (credentials" in done.stdout and f"removed {props} (credentials" in done.stdout
    assert not jaas.exists() and not props.exists()
    assert (jaas.parent / "node-1").is_dir()  # the rest of the run directory (logs) stays
