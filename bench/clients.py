"""Per-call overhead of each client adapter over the bare admin round trip, and of the request recorder.

    .venv/bin/python bench/clients.py [--calls 200] [--version 3.9] [--clients wire,confluent,...] [--recorder-only]

One broker is booted; a topic is created; then, interleaved round by round so
drift hits every client alike, DescribeConfigs of that topic is timed:

* raw: a prebuilt DescribeConfigs request sent on an open ``WireConnection``
  (framing, the codec's encode/decode and the broker's work: the floor);
* each client of ``--clients`` (default: every kind, adapters at the releases
  named): the same call through its ``AdminClient``, record conversion
  included (for an adapter: the JSON line each way and the library's own call).

Overhead = client p50 - raw p50 (the goal: at most 5 ms per adapter call).
Also each adapter process's start: from launch to its ready line, installed
and compiled already (the Java sidecar's JVM, node, a Go binary, a venv's Python).

The request recorder (``kcompat.harness.recorder``, the goal: at most 2 ms
p50 added per request): prebuilt raw requests on an open connection, once
directly to the broker and once through a recorder in front of it, timed
in the same rounds: ApiVersions (the broker's cheapest answer: the proxy's
share shows most), DescribeConfigs (forwarded as it is) and Metadata (decoded,
its broker addresses rewritten and encoded again by the recorder).
``--recorder-only`` skips the adapters.  Prints Markdown for
docs/PERFORMANCE.md.  Never run by the tests.
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
from kcompat.harness.clients.adapter import AdapterProcess, close_processes
from kcompat.harness.operations import perform
from kcompat.harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from kcompat.harness.operations.describe_configs import DESCRIBE_CONFIGS as DESCRIBE_CONFIGS_OP
from kcompat.harness.operations.describe_configs import DescribeConfigsArgs
from kcompat.harness.protocol import (API_VERSIONS, METADATA, WireConnection, build_request, metadata_request,
                                      nested_type, pick_version)
from kcompat.harness.providers import Cluster
from kcompat.harness.providers.process import ProcessProvider
from kcompat.harness.recorder import RequestRecorder

DESCRIBE_CONFIGS = 32


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed_rounds(calls: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Seconds per call of each path, interleaved round by round so drift hits every path alike."""
    timings: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            started = time.perf_counter()
            fn()
            timings[name].append(time.perf_counter() - started)
    return timings


def recorder_overhead(cluster: Cluster, rounds: int) -> None:
    """Raw requests direct and through a recorder, same rounds; prints the Markdown table."""
    host, port = cluster.brokers[0].host, cluster.brokers[0].port
    with RequestRecorder([(host, port)]) as recorder:
        direct = WireConnection(host, port)
        proxied = WireConnection(*recorder.proxy_of((host, port)))
        offered = {r.api_key: r for r in direct.api_versions()}
        proxied.api_versions()
        described = nested_type(DESCRIBE_CONFIGS, pick_version(DESCRIBE_CONFIGS, offered), "DescribeConfigsResource",
                                resources=())
        requests = {
            "ApiVersions v0": build_request(API_VERSIONS, 0),
            f"DescribeConfigs v{pick_version(DESCRIBE_CONFIGS, offered)}": build_request(
                DESCRIBE_CONFIGS, pick_version(DESCRIBE_CONFIGS, offered), resources=(described(
                    resource_type=2, resource_name="bench-topic", configuration_keys=None),)),
            f"Metadata v{pick_version(METADATA, offered)} (rewritten)": metadata_request(
                pick_version(METADATA, offered), None),
        }
        calls: dict[str, Callable[[], object]] = {}
        for name, request in requests.items():
            calls[f"{name}|direct"] = lambda r=request: direct.exchange(r)  # type: ignore[misc]
            calls[f"{name}|recorder"] = lambda r=request: proxied.exchange(r)  # type: ignore[misc]
        for fn in calls.values():  # warm-up
            fn()
        timings = timed_rounds(calls, rounds)
        direct.close()
        proxied.close()
        problems = recorder.traffic.problems
    print(f"\nRequest recorder, one open connection each way, {rounds} rounds interleaved "
          f"(broker Kafka {cluster.spec.version} {cluster.spec.mode}):\n")
    print("| request | direct p50 (ms) | direct p95 (ms) | via recorder p50 (ms) | via recorder p95 (ms) | "
          "added p50 (ms) | added p95 (ms) |")
    print("|---|---|---|---|---|---|---|")
    for name in requests:
        plain, via = timings[f"{name}|direct"], timings[f"{name}|recorder"]
        figures = [statistics.median(plain), percentile(plain, 0.95), statistics.median(via), percentile(via, 0.95)]
        added = [figures[2] - figures[0], figures[3] - figures[1]]
        print(f"| {name} | " + " | ".join(f"{v * 1000:.3f}" for v in (*figures, *added)) + " |")
    print(f"\nrecorder problems: {problems or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--version", default="3.9")
    parser.add_argument("--java-client", default="4.4.0")
    parser.add_argument("--clients", default="wire,confluent,java:{java},kafka-python:3.0.12,kafkajs:2.2.4,"
                                              "franz-go:1.22.2,sarama:1.61.1",
                        help="client references, comma-separated ({java} is --java-client)")
    parser.add_argument("--recorder-only", action="store_true", help="measure the request recorder alone")
    args = parser.parse_args()
    config = HarnessConfig.resolve()
    with ProcessProvider(config).start(ClusterSpec.of(args.version)) as cluster:
        setup = client_for("wire", Endpoint(cluster.bootstrap_servers), config)
        perform(setup, CREATE_TOPICS, CreateTopicsArgs([NewTopic("bench-topic", 1, 1)]))
        setup.close()
        print(f"machine: {platform.node()} {platform.machine()}, {subprocess.getoutput('nproc')} cores, "
              f"Python {platform.python_version()}")
        recorder_overhead(cluster, args.calls)
        if args.recorder_only:
            return
        endpoint = Endpoint(cluster.bootstrap_servers)
        target = [ConfigTarget("topic", "bench-topic")]
        clients = {ref: client_for(ref, endpoint, config)
                   for ref in args.clients.format(java=args.java_client).split(",") if ref}
        host, port = endpoint.first
        raw = WireConnection(host, port)
        offered = {r.api_key: r for r in raw.api_versions()}
        version = pick_version(DESCRIBE_CONFIGS, offered)
        resource = nested_type(DESCRIBE_CONFIGS, version, "DescribeConfigsResource", resources=())
        request = build_request(DESCRIBE_CONFIGS, version, resources=(resource(
            resource_type=2, resource_name="bench-topic", configuration_keys=None),))

        calls: dict[str, Callable[[], object]] = {"raw": lambda: raw.send(request)}
        for name, client in clients.items():
            calls[name] = lambda c=client: perform(c, DESCRIBE_CONFIGS_OP, DescribeConfigsArgs(target))  # type: ignore[misc]
        sent = {name: getattr(fn(), "request_version", version) for name, fn in calls.items()}  # warm-up
        timings = timed_rounds(calls, args.calls)
        starts: dict[str, float] = {}
        for name, client in clients.items():
            client.close()
            process = getattr(client, "process", None)
            if isinstance(process, AdapterProcess):  # the process again, from launch to its ready line
                process.close()
                started = time.monotonic()
                process.start()
                starts[name] = time.monotonic() - started
        raw.close()
    close_processes()

    base = statistics.median(timings["raw"])
    print(f"\nAdapters: broker Kafka {cluster.spec.version} ({cluster.spec.mode}); "
          f"{args.calls} calls per client, interleaved\n")
    print("| path | DescribeConfigs version sent | p50 (ms) | p95 (ms) | overhead over raw, p50 (ms) | "
          "adapter start (s) |")
    print("|---|---|---|---|---|---|")
    for name, values in timings.items():
        p50 = statistics.median(values)
        start = f"{starts[name]:.2f}" if name in starts else "-"
        shown = "-" if sent[name] is None else f"v{sent[name]}"  # an adapter may not know: the recorder does
        print(f"| {name} | {shown} | {p50 * 1000:.2f} | {percentile(values, 0.95) * 1000:.2f} | "
              f"{'-' if name == 'raw' else f'{(p50 - base) * 1000:.2f}'} | {start} |")
    print("\nadapter start: launch to ready line, installed and compiled already; once per (worker, release)")


if __name__ == "__main__":
    main()
