"""A small driver for an adapter program (the JSON-lines adapter protocol, docs/ADAPTERS.md), for the adapters' own
integration tests: start it, write one request, read its answer, each read bounded."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from pathlib import Path
from typing import Any

from kcompat.harness.clients import Endpoint
from kcompat.harness.clients.adapter import api_keys

RESULT_KEYS = {"request_version", "resources", "result_fields", "exception", "exception_message",
               "unsupported_options"}
OPTIONAL_RESULT_KEYS = {"unsupported_fields", "deadline_reached"}
"""Keys an answer may leave out (docs/ADAPTERS.md): none lacking, no deadline reached."""
RESOURCE_KEYS = {"resource", "error_code", "error_name", "error_message", "fields", "exception"}


class AdapterProcess:
    """One adapter program; its stderr goes to ``log``; stdout must carry nothing but protocol lines."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, *, timeout: float = 120.0):
        log.parent.mkdir(parents=True, exist_ok=True)
        self.log = log
        self.timeout = timeout
        self._err = log.open("ab")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                     env={**os.environ, **env})
        self._buffer = b""
        self._ids = 0
        self.ready = self._line()

    def _line(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.proc.stdout.fileno(), selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                remaining = deadline - time.monotonic()
                assert remaining > 0, f"no line from the adapter within {self.timeout:.0f}s (log: {self.log})"
                if selector.select(min(remaining, 1.0)):
                    chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                    assert chunk, f"the adapter exited with {self.proc.wait(10)} (log: {self.log})"
                    self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        decoded: dict[str, Any] = json.loads(line)
        return decoded

    def request(self, op: str, endpoint: Endpoint | None, args: dict[str, Any], *,
                settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """The whole answer line (``result`` or ``failure``) to one request, checked to answer it; ``settings``
        are the library settings its connection carries."""
        assert self.proc.stdin is not None
        self._ids += 1
        connection = None if endpoint is None else {"bootstrap": endpoint.bootstrap_servers,
                                                    "username": endpoint.username, "password": endpoint.password,
                                                    **({} if settings is None else {"settings": settings})}
        self.proc.stdin.write(json.dumps({"id": self._ids, "op": op, "api_keys": list(api_keys(op)),
                                          "connection": connection, "args": args}).encode() + b"\n")
        self.proc.stdin.flush()
        answer = self._line()
        assert answer["id"] == self._ids, answer
        return answer

    def call(self, op: str, endpoint: Endpoint, args: dict[str, Any], *,
             settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``result`` of one op, checked to have the protocol's shape."""
        answer = self.request(op, endpoint, args, settings=settings)
        assert "result" in answer, answer
        result: dict[str, Any] = answer["result"]
        assert RESULT_KEYS <= set(result) <= RESULT_KEYS | OPTIONAL_RESULT_KEYS, result
        for resource in result["resources"]:
            assert set(resource) == RESOURCE_KEYS, resource
        return result

    def close(self) -> int:
        """EOF on stdin: the adapter closes its clients and exits 0 (bounded)."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            return self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self._err.close()


def by_name(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["resource"]: r for r in result["resources"]}
