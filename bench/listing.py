"""KIP-142's motivation measured: what listing topics with Metadata costs, next to a names-only listing.

    .venv/bin/python bench/listing.py [--brokers 4.4:kraft,2.8:zk] [--counts 10,1000,10000] [--repeats 7]

KIP-142 proposed ListTopics because "in a cluster with thousands of topics
... the MetadataResponse will be quite large"; it was never adopted.  For each
broker (one node, booted through the harness's own ``ProcessProvider``, one
boot per broker) the topics are created in batches with CreateTopics through
the wire client (1 partition, RF 1), up to each count in turn, and at each
count this measures, on one open connection:

* Metadata for all topics at the version the wire client's ``list_topics``
  negotiates, and at v0 where the broker still accepts it: response bytes as
  they arrive on the socket (``WireConnection.exchange``: size prefix, header
  and body) and the round trip, median of ``--repeats``; decoding in Python is
  not timed;
* DescribeTopicPartitions (API 75, KIP-966) where the broker offers it: the
  whole listing paged by its cursor, bytes and round trips summed over pages;
* the bytes KIP-142's ListTopicsResponse v0 would take for the topics the
  Metadata response listed, computed from the KIP's schema (``names_only_bytes``).

Creation of each count is timed (from the first CreateTopics to Metadata
listing every topic with a leader) and bounded by ``--create-timeout``.
Every broker is stopped on every exit (SIGTERM included).  Prints Markdown for
docs/PERFORMANCE.md.  Never run by the tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from kcompat.harness import ClusterSpec, HarnessConfig
from kcompat.harness.clients import Endpoint, NewTopic
from kcompat.harness.clients.wire import WireClient
from kcompat.harness.operations import perform
from kcompat.harness.operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from kcompat.harness.protocol import (
    METADATA,
    ApiVersionRange,
    WireConnection,
    build_request,
    metadata_request,
    nested_type,
    pick_version,
)
from kcompat.harness.providers.process import ProcessProvider

DESCRIBE_TOPIC_PARTITIONS = 75
TOPIC_EXISTS = 36
REQUEST_TIMED_OUT = 7
PREFIX = "kcompat-listing-"

# KIP-142's proposed schema (docs: /work/shared/kips/KIP-142-listtopics-request.md), in the
# protocol's classic (non-flexible) encoding of 2017, the only one that existed then:
#   ListTopicsResponse (Version 0) => error_code [topic_listing]; topic_listing => name internal
# size prefix INT32 + response header v0 (correlation_id INT32) + error_code INT16 + array length INT32,
# and per topic: name STRING (INT16 length + UTF-8 bytes) + internal BOOLEAN (1 byte).
FRAME_AND_HEADER = 4 + 4
LIST_TOPICS_FIXED = 2 + 4
PER_TOPIC_FIXED = 2 + 1


def names_only_bytes(names: list[str]) -> int:
    """Bytes KIP-142's ListTopicsResponse v0 takes on the wire for ``names``, size prefix included."""
    return FRAME_AND_HEADER + LIST_TOPICS_FIXED + sum(PER_TOPIC_FIXED + len(n.encode()) for n in names)


class CreationTimeout(Exception):
    """The topics of a count were not all created (with a leader) within --create-timeout."""


@dataclass
class Listing:
    """One way of listing all topics, measured at one topic count."""

    how: str
    wire_bytes: int = 0
    pages: int = 0
    listed: int = 0
    round_trips_ms: list[float] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.round_trips_ms)


@dataclass
class Row:
    broker: str
    topics: int
    create_s: float
    """Seconds creating all ``topics`` took (every CreateTopics up to this count, and the wait for leaders)."""
    names_only: int
    listings: list[Listing]


class LoadWatch:
    """The 1-minute load average, sampled at each measurement (the machine is shared)."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    def sample(self) -> None:
        self.samples.append(os.getloadavg()[0])

    def text(self) -> str:
        return f"{min(self.samples):.1f} to {max(self.samples):.1f}" if self.samples else "not sampled"


def metadata_listing(conn: WireConnection, version: int, repeats: int) -> tuple[Listing, list[str]]:
    request = metadata_request(version, None if version >= 1 else ())  # v0: an empty list means all
    listing = Listing(f"Metadata v{version}")
    names: list[str] = []
    for _ in range(repeats):
        started = time.perf_counter()
        frame = conn.exchange(request)
        listing.round_trips_ms.append((time.perf_counter() - started) * 1000)
        if not names:
            names = [str(t.name) for t in conn.decode(frame).topics]
        listing.wire_bytes, listing.pages, listing.listed = frame.wire_bytes, 1, len(names)
    return listing, names


def describe_topic_partitions_listing(conn: WireConnection, repeats: int, limit: int) -> tuple[Listing, list[str]]:
    """All topics through DescribeTopicPartitions v0, page after page by ``next_cursor``."""
    cursor_type: Any = nested_type(DESCRIBE_TOPIC_PARTITIONS, 0, "Cursor", topics=())
    listing = Listing("DescribeTopicPartitions v0")
    names: list[str] = []
    for _ in range(repeats):
        cursor, total_ms, total_bytes, pages, names = None, 0.0, 0, 0, []
        while True:
            request = build_request(DESCRIBE_TOPIC_PARTITIONS, 0, topics=(), response_partition_limit=limit,
                                    cursor=cursor)
            started = time.perf_counter()
            frame = conn.exchange(request)
            total_ms += (time.perf_counter() - started) * 1000
            total_bytes, pages = total_bytes + frame.wire_bytes, pages + 1
            response = conn.decode(frame)
            names += [str(t.name) for t in response.topics]
            if response.next_cursor is None:
                break
            cursor = cursor_type(topic_name=response.next_cursor.topic_name,
                                 partition_index=response.next_cursor.partition_index)
        listing.round_trips_ms.append(total_ms)
        listing.wire_bytes, listing.pages, listing.listed = total_bytes, pages, len(names)
    return listing, names


def create_up_to(client: WireClient, conn: WireConnection, version: int, have: int, want: int, batch: int,
                 deadline: float) -> float:
    """Create topics ``have`` .. ``want``-1 in batches; seconds until Metadata lists them all with a leader."""
    started = time.monotonic()
    for first in range(have, want, batch):
        topics = [NewTopic(f"{PREFIX}{i:05d}", 1, 1) for i in range(first, min(want, first + batch))]
        result = perform(client, CREATE_TOPICS, CreateTopicsArgs(topics))
        if result.exception is not None:
            sys.exit(f"bench: CreateTopics failed: {result.exception}: {result.exception_message}")
        # REQUEST_TIMED_OUT: a ZooKeeper broker did not see every leader within the request's
        # timeout; the topics exist and the wait below covers them.
        bad = [o for o in result.resources if o.error_code not in (0, TOPIC_EXISTS, REQUEST_TIMED_OUT)]
        if bad:
            sys.exit(f"bench: CreateTopics answered {bad[0].resource}: error {bad[0].error_code} {bad[0].error_message}")
        if time.monotonic() > deadline:
            raise CreationTimeout(f"{first + len(topics):,} of {want:,} topics requested when --create-timeout ran out")
    while True:
        response = conn.send(metadata_request(version, None))
        led = sum(1 for t in response.topics if str(t.name).startswith(PREFIX) and int(t.error_code) == 0
                  and t.partitions and all(int(p.leader_id) >= 0 for p in t.partitions))
        if led >= want:
            return time.monotonic() - started
        if time.monotonic() > deadline:
            raise CreationTimeout(f"Metadata listed {led:,} of {want:,} topics with a leader when "
                                  "--create-timeout ran out")
        time.sleep(0.2)


def measure_broker(config: HarnessConfig, version: str, mode: str, counts: list[int], args: argparse.Namespace,
                   load: LoadWatch, notes: list[str]) -> list[Row]:
    spec = ClusterSpec.of(version, mode)  # type: ignore[arg-type]
    label = f"{spec.version} {mode}"
    progress = (lambda line: print(f"  [{label}] {line}", file=sys.stderr)) if args.verbose else None
    rows: list[Row] = []
    with ProcessProvider(config, progress=progress).start(spec) as cluster:
        client = WireClient(Endpoint(cluster.bootstrap_servers), timeout=120.0)
        try:
            conn, offered = client.connection()
            rows = measure_counts(client, conn, offered, label, counts, args, load, notes)
        finally:
            client.close()
    return rows


def measure_counts(client: WireClient, conn: WireConnection, offered: dict[int, ApiVersionRange], label: str,
                   counts: list[int], args: argparse.Namespace, load: LoadWatch, notes: list[str]) -> list[Row]:
    """Each count in turn; a count not created in time ends this broker's rows with a note."""
    negotiated = max(1, pick_version(METADATA, offered))  # the rule of WireClient.list_topics
    versions = [negotiated] + ([0] if offered[METADATA].min_version == 0 else [])
    has_dtp = DESCRIBE_TOPIC_PARTITIONS in offered
    deadline = time.monotonic() + args.create_timeout
    rows, have, total = [], 0, 0.0
    for count in counts:
        print(f"[{label}] creating topics {have}..{count - 1}", file=sys.stderr)
        try:
            took = create_up_to(client, conn, negotiated, have, count, args.batch, deadline)
        except CreationTimeout as exc:
            notes.append(f"{label}: {count:,} topics not measured: {exc} "
                         f"({args.create_timeout:.0f} s for all of this broker's topics)")
            print(f"[{label}] {notes[-1]}", file=sys.stderr)
            break
        have, total = count, total + took
        load.sample()
        listings: list[Listing] = []
        names: list[str] = []
        for version in versions:
            listing, listed = metadata_listing(conn, version, args.repeats)
            listings.append(listing)
            names = names or listed
        if has_dtp:
            listing, listed = describe_topic_partitions_listing(conn, args.repeats, args.page_limit)
            listings.append(listing)
            if sorted(listed) != sorted(names):
                print(f"[{label}] DescribeTopicPartitions listed {len(listed)} topics, Metadata {len(names)}",
                      file=sys.stderr)
        load.sample()
        rows.append(Row(label, count, total, names_only_bytes(names), listings))
        print(f"[{label}] {count} topics: created in {took:.1f}s; " +
              "; ".join(f"{x.how} {x.wire_bytes} B {x.median_ms:.1f} ms" for x in listings), file=sys.stderr)
    return rows


def report(rows: list[Row], load: LoadWatch, command: str, notes: list[str]) -> None:
    print(f"Machine: {os.cpu_count()} cores (shared), {platform.platform()}, Python {platform.python_version()}; "
          f"1-minute load average during the measurements: {load.text()}")
    print(f"Command: {command}\n")
    print("| broker | topics | all created in s | listing | pages | topics listed | response bytes | "
          "bytes per topic | round trip p50 ms | names-only bytes (KIP-142) | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        for listing in row.listings:
            print(f"| {row.broker} | {row.topics:,} | {row.create_s:.1f} | {listing.how} | {listing.pages} | "
                  f"{listing.listed:,} | {listing.wire_bytes:,} | {listing.wire_bytes / max(1, listing.listed):.1f} | "
                  f"{listing.median_ms:.1f} | {row.names_only:,} | {listing.wire_bytes / row.names_only:.1f} |")
    for note in notes:
        print(f"\n{note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--brokers", default="4.4:kraft,2.8:zk", help="version:mode, comma-separated")
    parser.add_argument("--counts", default="10,1000,10000")
    parser.add_argument("--repeats", type=int, default=7, help="requests per measurement (median)")
    parser.add_argument("--batch", type=int, default=500, help="topics per CreateTopics request")
    parser.add_argument("--create-timeout", type=float, default=300.0, help="seconds for all creation, per broker")
    parser.add_argument("--page-limit", type=int, default=2000, help="DescribeTopicPartitions partitions per page")
    parser.add_argument("--verbose", action="store_true", help="the boot's progress lines on stderr")
    args = parser.parse_args()
    counts = sorted(int(c) for c in args.counts.split(","))
    if not 1 <= args.repeats <= 50:
        parser.error("--repeats must be 1..50")
    # SIGTERM unwinds like Ctrl-C, so the with-blocks stop every broker.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(f"bench: stopped by signal {signum}"))
    config = HarnessConfig.resolve()
    load = LoadWatch()
    rows: list[Row] = []
    notes: list[str] = []
    for item in args.brokers.split(","):
        version, mode = item.split(":")
        rows += measure_broker(config, version, mode, counts, args, load, notes)
    report(rows, load, " ".join([".venv/bin/python bench/listing.py", *sys.argv[1:]]), notes)


if __name__ == "__main__":
    main()
