"""Container boot next to process boot, image builds cold and warm, reuse reattach.

    .venv/bin/python bench/containers.py [--rounds 3] [--versions 2.8:zk,3.9:zk,3.9:kraft,4.4:kraft]
                                         [--build 3.9]

* boot: ``ProcessProvider.start`` and ``ContainerProvider.start`` of the same
  spec, alternately (so drift hits both alike), each from the call to ready
  (ApiVersions + Metadata), images already built; then each cluster's stop.
* build (``--build VERSION``): the version's image three ways: cold (its Java
  base image and every kcompat image on that base removed first: import of
  the local JDK + broker layer), layer-only (only the broker image removed),
  warm (nothing changed: one engine lookup).  Removed images of other versions
  are rebuilt on their next use.
* reuse: a ``--reuse`` boot, detach, then a second provider attaching to it
  (what the next run of a developer's loop pays), then the cluster is removed.

Prints a Markdown report for docs/PERFORMANCE.md.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import statistics
import subprocess
import time
from typing import cast

from kcompat.harness import ClusterSpec, HarnessConfig
from kcompat.harness.catalog import Mode
from kcompat.harness.containers import engine
from kcompat.harness.containers.images import ImageBuilder, offline_base
from kcompat.harness.containers.reuse import remove_reused, reuse_key
from kcompat.harness.java import select_java

from kcompat.harness.providers.container import ContainerProvider
from kcompat.harness.providers.process import ProcessProvider


def timed_boot(provider: ProcessProvider | ContainerProvider, spec: ClusterSpec) -> tuple[float, float]:
    """(call-to-ready seconds, stop seconds)."""
    started = time.monotonic()
    cluster = provider.start(spec)
    ready = time.monotonic()
    cluster.stop()
    return ready - started, time.monotonic() - ready


def build_times(config: HarnessConfig, version: str) -> tuple[float, float, float, str]:
    release = ClusterSpec.of(version).release
    builder = ImageBuilder(config)
    java = select_java(release.line.java, config.cache_dir)
    base = offline_base(java)
    client = engine.client()
    image = builder.image_for(release)
    for other in client.images.list(filters={"label": engine.LABEL_CONTENT}):
        if other.labels.get("io.kcompat.java") == java.version:
            client.images.remove(other.id, force=True)
    if engine.image_present(base):
        client.images.remove(base, force=True)
    started = time.monotonic()
    image = builder.image_for(release)  # a new tag: the re-imported base has a new id
    cold = time.monotonic() - started
    client.images.remove(image.tag, force=True)
    started = time.monotonic()
    builder.image_for(release)
    layer = time.monotonic() - started
    started = time.monotonic()
    builder.image_for(release)
    warm = time.monotonic() - started
    size = client.images.get(image.tag).attrs["Size"] / 1e6
    return cold, layer, warm, f"{image.tag} ({size:.0f} MB, Java {java.version})"


def reuse_times(config: HarnessConfig, spec: ClusterSpec) -> tuple[float, float]:
    reusing = dataclasses.replace(config, reuse=True)
    first = ContainerProvider(reusing)
    key = reuse_key(spec, first.images.image_for(spec.release))
    try:
        boot, _ = timed_boot(first, spec)
        attach, _ = timed_boot(ContainerProvider(reusing), spec)
    finally:
        remove_reused(config.cache_dir, key, grace=config.stop_grace)
    return boot, attach


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--versions", default="2.8:zk,3.9:zk,3.9:kraft,4.4:kraft")
    parser.add_argument("--build", default="3.9", help="version whose image is built cold and warm ('' to skip)")
    parser.add_argument("--only", choices=["boot", "build"], help="run one part (default: all)")
    args = parser.parse_args()
    config = HarnessConfig.resolve()
    process, container = ProcessProvider(config), ContainerProvider(config)
    rows = []
    for item in args.versions.split(",") if args.only in (None, "boot") else []:
        version, mode = item.split(":")
        spec = ClusterSpec.of(version, cast(Mode, mode))
        container.images.image_for(spec.release)  # built before timing
        times: dict[str, list[tuple[float, float]]] = {"process": [], "container": []}
        for _ in range(args.rounds):
            times["process"].append(timed_boot(process, spec))
            times["container"].append(timed_boot(container, spec))
        p = statistics.median(t for t, _ in times["process"])
        c = statistics.median(t for t, _ in times["container"])
        ps = statistics.median(s for _, s in times["process"])
        cs = statistics.median(s for _, s in times["container"])
        rows.append((str(spec.version), mode, p, c, c / p, ps, cs))
    print(f"machine: {platform.node()} {platform.machine()}, {subprocess.getoutput('nproc')} cores, "
          f"Python {platform.python_version()}, {subprocess.getoutput('docker version -f {{.Server.Version}}')} "
          f"engine; rounds: {args.rounds} (medians)\n")
    if rows:
        print("| version | mode | process boot (s) | container boot (s) | container/process | process stop (s) "
              "| container stop (s) |")
        print("|---|---|---|---|---|---|---|")
    for version, mode, p, c, ratio, ps, cs in rows:
        print(f"| {version} | {mode} | {p:.2f} | {c:.2f} | {ratio:.2f} | {ps:.2f} | {cs:.2f} |")
    if args.build and args.only in (None, "build"):
        cold, layer, warm, what = build_times(config, args.build)
        print(f"\nimage of Kafka {args.build}, {what}: cold (JDK import + broker layer) {cold:.1f}s, "
              f"broker layer only {layer:.1f}s, warm (unchanged) {warm * 1000:.0f} ms")
    spec = ClusterSpec.of("3.9", "kraft")
    boot, attach = reuse_times(config, spec)
    print(f"\nreuse ({spec.label}): first boot {boot:.2f}s, next run reattaches in {attach:.2f}s "
          f"({boot / attach:.0f}x faster)")


if __name__ == "__main__":
    main()
