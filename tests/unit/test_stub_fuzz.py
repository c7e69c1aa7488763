"""The stub broker under malformed requests: the fuzzer of tests/fuzz.py, the corpus it keeps, an error of its own.

Each frame must end in an answer or a close with one problem line, and the stub must go on serving.  CI runs
the corpus and about 45 seconds of fuzzing (seeded, bounded by count and time); the nightly runs ten minutes.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from kcompat.harness.codec.catalog import catalog_codec
from kcompat.harness.recorder import StubBroker
from kcompat.harness.recorder import stub as stub_module
from kcompat.harness.recorder.stub import STUB_FAILED
from tests import fuzz


@pytest.fixture
def stub() -> Iterator[StubBroker]:
    with StubBroker() as broker:
        yield broker


def _run(stub: StubBroker, seed: int, count: int, seconds: float) -> None:
    report = fuzz.fuzz(stub, seed, count=count, seconds=seconds)
    print(f"fuzzed the stub with {report.frames} frames (seed {seed}): {report.answered} answered, "
          f"{report.closed} closed with one problem line, {len(report.failures)} failures")
    assert not report.failures, (f"{len(report.failures)} frames broke the stub; add each to {fuzz.CORPUS} "
                                 "as a .hex file:\n" + "\n".join(report.failures[:5]))
    assert report.answered and report.closed  # both ends were reached


def test_every_frame_of_the_corpus_is_answered_or_refused_in_one_line(stub: StubBroker) -> None:
    report = fuzz.Report()
    frames = list(fuzz.corpus())
    for _, frame in frames:
        fuzz.check(stub, frame, report)
    fuzz.still_serving(stub, report)
    assert frames and not report.failures, report.failures


def test_a_request_whose_tags_are_out_of_order_is_refused_in_one_line(stub: StubBroker) -> None:
    frame = dict(fuzz.corpus())["tags-out-of-order.hex"]
    assert fuzz.send(stub, frame) == b""
    assert [line for line in stub.recording.problems if "tag 3 comes after tag 7" in line]


def test_fuzzing_the_stub_for_about_45_seconds(stub: StubBroker) -> None:
    _run(stub, seed=2024, count=60_000, seconds=45.0)


@pytest.mark.nightly  # ten minutes of fuzzing: CI runs 45 seconds of it
def test_fuzzing_the_stub_for_ten_minutes(stub: StubBroker) -> None:
    _run(stub, seed=7, count=2_000_000, seconds=600.0)


def test_an_error_of_the_stubs_own_is_one_problem_line_and_the_next_connection_is_served(
        stub: StubBroker, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(request: object, schema: object, broker: StubBroker) -> object:
        raise KeyError("a bug in an answer")

    monkeypatch.setitem(stub_module.ANSWERS, "Metadata", broken)
    codec = catalog_codec()
    frame = codec.encode_request("Metadata", 13, {"CorrelationId": 1, "ClientId": "c"}, {"Topics": None})
    assert fuzz.send(stub, frame) == b""
    assert stub.recording.problems == [line for line in stub.recording.problems if STUB_FAILED in line]
    assert len(stub.recording.problems) == 1 and "KeyError" in stub.recording.problems[0]
    versions = codec.encode_request("ApiVersions", 3, {"CorrelationId": 2, "ClientId": "c"},
                                    {"ClientSoftwareName": "k", "ClientSoftwareVersion": "1"})
    with socket.create_connection((stub.host, stub.port), timeout=10) as sock:
        sock.sendall(versions)
        assert len(sock.recv(4)) == 4
