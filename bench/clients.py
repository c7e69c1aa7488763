"""Per-call overhead of each client adapter over the bare admin round trip.

    .venv/bin/python bench/clients.py [--calls 200] [--version 3.9]

One broker is booted; a topic is created; then, interleaved round by round so
drift hits every client alike, DescribeConfigs of that topic is timed:

* raw: a prebuilt DescribeConfigs request sent on an open ``WireConnection``
  (framing, kio encode/decode and the broker's work: the floor);
* wire / confluent / java: the same call through each ``AdminClient``
  adapter, record conversion included.

Overhead = adapter p50 - raw p50.  Also: the Java sidecar's start (JVM up and
ready line, compile cached) for one kafka-clients release.  Prints Markdown
for docs/PERFORMANCE.md.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import time
from collections.abc import Callable

from kcompat.harness import ClusterSpec, HarnessConfig
from kcompat.harness.clients import ConfigTarget, Endpoint, NewTopic, client_for
from kcompat.harness.clients.java import Sidecar, close_sidecars
from kcompat.harness.protocol import WireConnection, build_request, nested_type, pick_version
from kcompat.harness.providers.process import ProcessProvider

DESCRIBE_CONFIGS = 32


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--version", default="3.9")
    parser.add_argument("--java-client", default="4.4.0")
    args = parser.parse_args()
    config = HarnessConfig.resolve()
    with ProcessProvider(config).start(ClusterSpec.of(args.version)) as cluster:
        endpoint = Endpoint(cluster.bootstrap_servers)
        target = [ConfigTarget("topic", "bench-topic")]
        clients = {kind: client_for(kind, endpoint, config)
                   for kind in ("wire", "confluent", f"java:{args.java_client}")}
        clients["wire"].create_topics([NewTopic("bench-topic", 1, 1)])
        host, port = endpoint.first
        raw = WireConnection(host, port)
        offered = {r.api_key: r for r in raw.api_versions()}
        version = pick_version(DESCRIBE_CONFIGS, offered)
        resource = nested_type(DESCRIBE_CONFIGS, version, "DescribeConfigsResource", resources=())
        request = build_request(DESCRIBE_CONFIGS, version, resources=(resource(
            resource_type=2, resource_name="bench-topic", configuration_keys=None),))

        calls: dict[str, Callable[[], object]] = {"raw": lambda: raw.send(request)}
        for name, client in clients.items():
            calls[name] = lambda c=client: c.describe_configs(target)  # type: ignore[misc]
        sent = {name: getattr(fn(), "request_version", version) for name, fn in calls.items()}  # warm-up
        timings: dict[str, list[float]] = {name: [] for name in calls}
        for _ in range(args.calls):
            for name, fn in calls.items():
                started = time.perf_counter()
                fn()
                timings[name].append(time.perf_counter() - started)
        for client in clients.values():
            client.close()
        raw.close()
    close_sidecars()

    started = time.monotonic()
    sidecar = Sidecar(args.java_client, config)
    sidecar.call("version", None, {})
    sidecar_start = time.monotonic() - started
    sidecar.close()

    base = statistics.median(timings["raw"])
    print(f"machine: {platform.node()} {platform.machine()}, {subprocess.getoutput('nproc')} cores, "
          f"Python {platform.python_version()}; broker Kafka {cluster.spec.version} ({cluster.spec.mode}); "
          f"{args.calls} calls per client, interleaved\n")
    print("| path | DescribeConfigs version sent | p50 (ms) | p95 (ms) | overhead over raw, p50 (ms) |")
    print("|---|---|---|---|---|")
    for name, values in timings.items():
        p50 = statistics.median(values)
        print(f"| {name} | v{sent[name]} | {p50 * 1000:.2f} | {percentile(values, 0.95) * 1000:.2f} | "
              f"{'-' if name == 'raw' else f'{(p50 - base) * 1000:.2f}'} |")
    print(f"\nJava sidecar start (kafka-clients {args.java_client}, compiled classes cached): {sidecar_start:.2f} s, "
          "once per (worker, client version)")


if __name__ == "__main__":
    main()
