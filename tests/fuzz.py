"""A fuzzer of the stub broker: random frames and mutations of real request frames, each on its own connection.

The seeds are the request frames the catalog's codec encodes for every API and version (a full and a sparse
sample of each).  A mutation flips bits, truncates, inserts bytes, sets a length field huge or negative, or
appends tagged-field garbage; the size prefix usually announces what follows, sometimes not.  Each frame goes
to the stub on a fresh connection, half-closed after it, and must end in an answer or a close with one problem
line, within ``DEADLINE`` seconds, and never in an error of the stub's own (``STUB_FAILED``).  Every
``CHECK_EVERY`` frames a valid ApiVersions and Metadata must still be answered.  Frames that once failed live
in ``CORPUS`` (one hex file each), replayed on every run before the random ones.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kcompat.harness.codec.catalog import catalog_codec
from kcompat.harness.codec.samples import sample
from kcompat.harness.recorder import StubBroker
from kcompat.harness.recorder.stub import STUB_FAILED

CORPUS = Path(__file__).parent / "fuzz-corpus"
DEADLINE = 10.0
"""Seconds a frame may take to be answered or refused; longer is a hang."""
CHECK_EVERY = 250
HUGE = [b"\x7f\xff", b"\xff\xff", b"\x80\x00", b"\x7f\xff\xff\xff", b"\xff\xff\xff\xff", b"\x80\x00\x00\x00",
        b"\xff\xff\xff\xff\x0f", b"\xfe\xff\xff\xff\x07"]
"""Length fields set huge or negative: int16, int32 and varint spellings."""


def seeds() -> list[bytes]:
    """A full and a sparse request of every (API, version) of the catalog's codec, size prefix included."""
    codec, out = catalog_codec(), []
    for api in codec.apis():
        for version in codec.versions(api):
            struct = codec.message(f"{api}Request", version).struct
            for full in (True, False):
                body = sample(struct, version, full=full, seed=version + 1)
                out.append(codec.encode_request(api, version, {"CorrelationId": 7, "ClientId": "fuzz"}, body))
    return out


def mutate(rng: random.Random, frame: bytes) -> bytes:
    """One to four mutations of ``frame``'s payload, then (mostly) a size prefix announcing what follows."""
    data = bytearray(frame[4:])
    for _ in range(rng.randint(1, 4)):
        _MUTATIONS[rng.randrange(len(_MUTATIONS))](rng, data)
    if rng.random() < 0.9:
        return len(data).to_bytes(4, "big", signed=False) + bytes(data)
    return frame[:4] + bytes(data)


def _at(rng: random.Random, data: bytearray, width: int = 1) -> int:
    """A position for ``width`` bytes, mostly past the API key and version (else most frames name no schema)."""
    low = 4 if rng.random() < 0.8 and len(data) > 4 + width else 0
    return rng.randrange(low, max(len(data) - width, low) + 1)


def _flip(rng: random.Random, data: bytearray) -> None:
    if data:
        data[min(_at(rng, data), len(data) - 1)] ^= 1 << rng.randrange(8)


def _truncate(rng: random.Random, data: bytearray) -> None:
    del data[_at(rng, data, 0):]


def _insert(rng: random.Random, data: bytearray) -> None:
    at = _at(rng, data, 0)
    data[at:at] = rng.randbytes(rng.randint(1, 8))


def _huge_length(rng: random.Random, data: bytearray) -> None:
    value = rng.choice(HUGE)
    at = _at(rng, data, len(value))
    data[at:at + len(value)] = value


def _tagged_garbage(rng: random.Random, data: bytearray) -> None:
    """A count of tagged fields, tags out of order or repeated, sizes overrunning: where a flexible body ends."""
    tags = bytes(b for _ in range(rng.randint(1, 3)) for b in (rng.randrange(4), rng.randrange(12)))
    if data:
        data[-1:] = bytes([rng.randint(1, 4)]) + tags + rng.randbytes(rng.randint(0, 6))


def _random(rng: random.Random, data: bytearray) -> None:
    """A frame of random bytes behind a plausible API key and version."""
    data[:] = rng.randrange(100).to_bytes(2, "big") + rng.randrange(20).to_bytes(2, "big") + rng.randbytes(
        rng.randint(0, 64))


_MUTATIONS = [_flip, _flip, _truncate, _insert, _huge_length, _tagged_garbage, _random]


@dataclass
class Report:
    """What a run saw; ``failures`` one line each, with the frame's hex for the corpus."""

    frames: int = 0
    answered: int = 0
    closed: int = 0
    failures: list[str] = field(default_factory=list)


def send(stub: StubBroker, frame: bytes) -> bytes | None:
    """``frame`` on a fresh connection, half-closed; what came back until the stub closed (None: a hang)."""
    with socket.create_connection((stub.host, stub.port), timeout=DEADLINE) as sock:
        deadline = time.monotonic() + DEADLINE
        try:
            sock.sendall(frame)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the stub refused the frame and closed before all of it was sent
        received = bytearray()
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                return None
            except ConnectionResetError:
                return bytes(received)  # closed with bytes of ours unread
            if not chunk:
                return bytes(received)
            received += chunk
        return None


def check(stub: StubBroker, frame: bytes, report: Report) -> None:
    """One frame: an answer, or a close with one problem line; never a hang or a stub error."""
    before = len(stub.recording.problems)
    received = send(stub, frame)
    problems = stub.recording.problems[before:]
    report.frames += 1
    trouble = _trouble(received, problems)
    if trouble:
        report.failures.append(f"{trouble}: {frame.hex()}")
    elif received:
        report.answered += 1
    else:
        report.closed += 1


def _trouble(received: bytes | None, problems: list[str]) -> str | None:
    if received is None:
        return f"no answer and no close in {DEADLINE:.0f} s"
    if failed := [line for line in problems if STUB_FAILED in line]:
        return failed[0]
    if not received and len(problems) != 1:
        return f"closed with {len(problems)} problem lines, not one ({problems[:2]})"
    return None


def still_serving(stub: StubBroker, report: Report) -> None:
    """A valid ApiVersions and an all-topics Metadata, answered: the fuzzing left the stub serving."""
    codec = catalog_codec()
    for api, version, body in (("ApiVersions", 3, {"ClientSoftwareName": "k", "ClientSoftwareVersion": "1"}),
                               ("Metadata", 12, {"Topics": None})):
        frame = codec.encode_request(api, version, {"CorrelationId": 1, "ClientId": "check"}, body)
        received = send(stub, frame)
        if not received:
            report.failures.append(f"a valid {api} v{version} went unanswered after fuzzing; problems: "
                                   f"{stub.recording.problems[-2:]}")


def corpus() -> Iterator[tuple[str, bytes]]:
    """(file name, frame) of every frame in ``CORPUS``; a line starting ``#`` says what it once broke."""
    for path in sorted(CORPUS.glob("*.hex")):
        lines = [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
        yield path.name, bytes.fromhex("".join(lines))


def fuzz(stub: StubBroker, seed: int, *, count: int, seconds: float) -> Report:
    """Up to ``count`` frames within ``seconds`` (whichever comes first), the corpus first."""
    rng, report, deadline = random.Random(seed), Report(), time.monotonic() + seconds
    for _, frame in corpus():
        check(stub, frame, report)
    pool = seeds()
    while report.frames < count and time.monotonic() < deadline:
        check(stub, mutate(rng, rng.choice(pool)), report)
        if report.frames % CHECK_EVERY == 0:
            still_serving(stub, report)
    still_serving(stub, report)
    return report
