"""Boot-to-ready through the harness next to a bare launch of the same jars.

    .venv/bin/python bench/boot.py [--rounds 3] [--versions 2.8:zk,3.9:zk,3.9:kraft,4.4:kraft]

For each version and mode, alternately (so drift hits both alike):

* harness: ``ProcessProvider.start`` from call to ready (artifacts from the
  warm cache, Java selection, configs, ZooKeeper or format, broker, readiness),
  with the release's class-data sharing archives (``kcompat.harness.cds``, made by two
  untimed boots first) and C1 alone (``--jit c1``, the default), again with the JVM's
  tiered JIT, and again with sharing off (C1);
  a side thread polls ApiVersions every 5 ms to find when the broker could
  first answer, so the harness's detection latency is measured too;
* bare: a hand-written server.properties and ``java -cp <same jars>
  kafka.Kafka`` (ZooKeeper or ``StorageTool format`` first), ready when a 5 ms
  ApiVersions poll first succeeds: the fastest "ready" anyone could see.

Then a cold fetch into an empty cache and a warm one, counting downloads.
Prints a Markdown report for docs/PERFORMANCE.md.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from kcompat.harness import ClusterSpec, HarnessConfig
from kcompat.harness.artifacts import ArtifactStore
from kcompat.harness.java import select_java
from kcompat.harness.protocol import WireConnection
from kcompat.harness.providers.process import ProcessProvider
from kcompat.harness.reaper import kill_tree, spawn
from kcompat.harness.render import new_cluster_id

POLL = 0.005


def answers(port: int) -> bool:
    try:
        with WireConnection("127.0.0.1", port, timeout=0.5) as conn:
            conn.api_versions()
        return True
    except Exception:
        return False


def first_answer(port: int, stop: threading.Event, found: list[float]) -> None:
    while not stop.is_set():
        if answers(port):
            found.append(time.monotonic())
            return
        time.sleep(POLL)


def zk_answers(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"srvr")
            return sock.recv(64).startswith(b"Zookeeper")
    except OSError:
        return False


def harness_boot(config: HarnessConfig, spec: ClusterSpec) -> tuple[float, float]:
    """(seconds from start() to ready, detection latency after the broker could first answer)."""
    provider = ProcessProvider(config)
    handed: list[int] = []  # the ports start() allocates: [zk, broker] or [broker, controller]
    allocate = provider.ports.allocate

    def spy(count: int, *, attempts: int = 500) -> list[int]:
        handed.extend(allocate(count, attempts=attempts))
        return handed

    provider.ports.allocate = spy  # type: ignore[method-assign]
    stop, found = threading.Event(), []  # type: ignore[var-annotated]

    def watch() -> None:
        while not handed and not stop.is_set():
            time.sleep(POLL)
        if handed:
            first_answer(handed[1] if spec.mode == "zk" else handed[0], stop, found)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    started = time.monotonic()
    cluster = provider.start(spec)
    ready = time.monotonic()
    stop.set()
    thread.join(timeout=5)
    cluster.stop()
    return ready - started, (ready - found[0]) if found else float("nan")


BARE_ZK = "broker.id=1\nzookeeper.connect=127.0.0.1:{zk}\nlisteners=PLAINTEXT://127.0.0.1:{port}\nlog.dirs={dir}/data\noffsets.topic.replication.factor=1\n"
BARE_KRAFT = ("process.roles=broker,controller\nnode.id=1\ncontroller.quorum.voters=1@127.0.0.1:{ctl}\n"
              "controller.listener.names=CONTROLLER\nlisteners=PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{ctl}\n"
              "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT\nlog.dirs={dir}/data\n"
              "offsets.topic.replication.factor=1\n")
LOG4J = "log4j.rootLogger=INFO, stdout\nlog4j.appender.stdout=org.apache.log4j.ConsoleAppender\nlog4j.appender.stdout.layout=org.apache.log4j.PatternLayout\n"
LOG4J2 = "appender.c.type=Console\nappender.c.name=C\nappender.c.layout.type=PatternLayout\nrootLogger.level=INFO\nrootLogger.appenderRef.c.ref=C\n"


def bare_boot(config: HarnessConfig, spec: ClusterSpec, ports: list[int]) -> float:
    release = spec.release
    classpath = ArtifactStore(config).resolve(release).classpath_string
    java = str(select_java(release.line.java, config.cache_dir).java)
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="kc-bare-") as tmp:
        d = Path(tmp)
        log4j = d / ("log4j2.properties" if release.version.supports("log4j2") else "log4j.properties")
        log4j.write_text(LOG4J2 if release.version.supports("log4j2") else LOG4J)
        flags = ["-Xms256m", "-Xmx1g", "-XX:+UseG1GC", f"-Dlog4j.configuration=file:{log4j}",
                 f"-Dlog4j2.configurationFile={log4j}", "-Dzookeeper.jmx.log4j.disable=true"]
        out = open(d / "out.log", "wb")

        def launch(*args: str) -> subprocess.Popen[bytes]:
            proc = spawn([java, *flags, "-cp", classpath, *args], stdout=out, stderr=subprocess.STDOUT)
            procs.append(proc)
            return proc

        try:
            started = time.monotonic()
            props = d / "server.properties"
            if spec.mode == "zk":
                (d / "zk.properties").write_text(f"dataDir={d}/zk\nclientPort={ports[0]}\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n")
                launch("org.apache.zookeeper.server.ZooKeeperServerMain", str(d / "zk.properties"))
                while not zk_answers(ports[0]):
                    time.sleep(POLL)
                props.write_text(BARE_ZK.format(zk=ports[0], port=ports[1], dir=d))
            else:
                props.write_text(BARE_KRAFT.format(ctl=ports[0], port=ports[1], dir=d))
                fmt = launch("kafka.tools.StorageTool", "format", f"--cluster-id={new_cluster_id()}", "-c", str(props))
                fmt.wait(timeout=120)
            broker = launch("kafka.Kafka", str(props))
            deadline = started + 180
            while not answers(ports[1]):
                if broker.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"bare broker failed; see {d / 'out.log'}")
                time.sleep(POLL)
            return time.monotonic() - started
        finally:
            for proc in reversed(procs):
                if proc.poll() is None:
                    kill_tree(proc.pid, grace=2)
            out.close()


def cold_and_warm_fetch(version: str) -> tuple[float, int, int, float, int]:
    with tempfile.TemporaryDirectory(prefix="kc-cold-") as tmp:
        config = HarnessConfig(cache_dir=Path(tmp), run_root=Path(tmp) / "runs")
        release = ClusterSpec.of(version).release
        counts: list[tuple[int, int]] = []
        started = time.monotonic()
        ArtifactStore(config).resolve(release, progress=lambda f, b: counts.append((f, b)))
        cold = time.monotonic() - started
        warm_counts: list[tuple[int, int]] = []
        started = time.monotonic()
        ArtifactStore(config).resolve(release, verify_hashes=False, progress=lambda f, b: warm_counts.append((f, b)))
        warm = time.monotonic() - started
        files, size = counts[-1] if counts else (0, 0)
        return cold, files, size, warm, len(warm_counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--versions", default="2.8:zk,3.9:zk,3.9:kraft,4.4:kraft")
    parser.add_argument("--cold-fetch", default="3.7", help="version fetched into an empty cache ('' to skip)")
    args = parser.parse_args()
    config = HarnessConfig.resolve()
    from kcompat.harness.ports import PortAllocator

    allocator = PortAllocator()
    rows = []
    for item in args.versions.split(","):
        version, mode = item.split(":")
        spec = ClusterSpec.of(version, mode)
        ArtifactStore(config).resolve(spec.release)  # warm cache before timing
        harness_boot(config, spec)  # the class archive of this release: recorded, or already there
        harness_boot(config, spec)  # ... and dumped
        harness_times, detections, bare_times, plain_times, tiered_times = [], [], [], [], []
        quick = dataclasses.replace(config, jit="c1")
        unshared, tiered = dataclasses.replace(quick, class_sharing=False), dataclasses.replace(quick, jit="tiered")
        for _ in range(args.rounds):
            took, detect = harness_boot(quick, spec)
            harness_times.append(took)
            detections.append(detect)
            tiered_times.append(harness_boot(tiered, spec)[0])
            plain_times.append(harness_boot(unshared, spec)[0])
            ports = allocator.allocate(2)
            try:
                bare_times.append(bare_boot(config, spec, ports))
            finally:
                allocator.release(ports)
        h, t, b, p = (statistics.median(x) for x in (harness_times, tiered_times, bare_times, plain_times))
        rows.append((str(spec.version), mode, h, t, p, b, h / b, t / b, max(detections)))
    print(f"machine: {platform.node()} {platform.machine()}, {subprocess.getoutput('nproc')} cores, "
          f"Python {platform.python_version()}; rounds: {args.rounds} (medians)\n")
    print("| version | mode | harness boot (s) | harness, tiered JIT (s) | harness, class sharing off (s) | bare boot (s) "
          "| harness / bare | tiered / bare | worst readiness detection (ms) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for version, mode, h, t, p, b, ratio, tiered_ratio, detect in rows:
        print(f"| {version} | {mode} | {h:.2f} | {t:.2f} | {p:.2f} | {b:.2f} | {ratio:.2f} | {tiered_ratio:.2f} "
              f"| {detect * 1000:.0f} |")
    if args.cold_fetch:
        cold, files, size, warm, warm_files = cold_and_warm_fetch(args.cold_fetch)
        print(f"\nfetch of Kafka {args.cold_fetch} into an empty cache: {cold:.1f}s, {files} files, "
              f"{size / 1e6:.1f} MB; warm second resolve: {warm * 1000:.1f} ms, {warm_files} downloads")


if __name__ == "__main__":
    main()
