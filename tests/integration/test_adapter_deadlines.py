"""Every adapter kind gives each library call kcompat's deadline (``KCOMPAT_ADAPTER_DEADLINE``, docs/ADAPTERS.md)
and says when a call returned only because it expired: each adapter, installed by its installer, asked for the
topics of a loopback listener that accepts connections and never answers, with a 2 s deadline.  No broker."""

from __future__ import annotations

import importlib
import os
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from kcompat.harness.clients import Endpoint
from kcompat.harness.clients.adapter import DEADLINE_VARIABLE
from kcompat.harness.config import HarnessConfig
from tests.adapter_driver import AdapterProcess

pytestmark = pytest.mark.timeout(600)

RELEASES = {"franz-go": "1.22.2", "sarama": "1.61.1", "kafka-python": "3.0.12", "kafkajs": "2.2.4",
            "kafka-go": "0.4.51"}
DEADLINE = 2.0
LATE = 15.0
"""Seconds past the deadline an answer may come (an adapter's start and a busy machine), far below the
libraries' own 30 s timeouts."""


@pytest.fixture
def silent() -> Iterator[Endpoint]:
    """A loopback address whose listener accepts every connection and never writes a byte."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield Endpoint(f"127.0.0.1:{listener.getsockname()[1]}")
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()


@pytest.mark.parametrize("kind", sorted(RELEASES))
def test_a_call_that_only_the_deadline_ends_says_so(kind: str, kc_config: HarnessConfig, silent: Endpoint) -> None:
    install = importlib.import_module(f"kcompat.harness.clients.kinds.{kind.replace('-', '_')}.install")
    argv, env = install.install(RELEASES[kind], kc_config)
    log = kc_config.run_root / "adapters" / f"deadline-{kind}-{os.getpid()}.log"
    adapter = AdapterProcess(argv, {**env, DEADLINE_VARIABLE: f"{DEADLINE:g}"}, log)
    try:
        started = time.monotonic()
        result = adapter.result("list_topics", silent, {"list_internal": True})
        took = time.monotonic() - started
    finally:
        adapter.kill()
    assert result.get("deadline_reached") == DEADLINE, (result, log)
    assert DEADLINE <= took < DEADLINE + LATE, (took, result)
