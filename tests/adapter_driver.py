"""A small driver of an adapter program (docs/ADAPTERS.md) for the adapters' own tests: JSON lines in, JSON
lines out, every read bounded, the adapter's stderr kept in a log file."""

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


class AdapterProcess:
    """One running adapter; ``ready`` is its first line."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, *, start_timeout: float = 30.0):
        self.log = log
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as err:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                         env={**os.environ, **env})
        self._buffer = b""
        self._ids = 0
        self.lines: list[bytes] = []
        """Every line the adapter wrote to stdout, to check that nothing but JSON came out."""
        self.ready = self._read(start_timeout)

    def send(self, line: bytes, timeout: float = 90.0) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        return self._read(timeout)

    def call(self, op: str, endpoint: Endpoint | None, args: dict[str, Any], timeout: float = 90.0, *,
             settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """The whole answer to one request (``result`` or ``failure``), checked to answer this request;
        ``settings`` are the library settings its connection carries."""
        self._ids += 1
        request: dict[str, Any] = {"id": self._ids, "op": op, "api_keys": list(api_keys(op)), "args": args}
        if endpoint is not None:
            request["connection"] = {"bootstrap": endpoint.bootstrap_servers, "username": endpoint.username,
                                     "password": endpoint.password}
            if settings is not None:
                request["connection"]["settings"] = settings
        answer = self.send(json.dumps(request).encode(), timeout)
        assert answer.get("id") == self._ids, answer
        return answer

    def result(self, op: str, endpoint: Endpoint | None, args: dict[str, Any], *,
               settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``result`` of a request the adapter could run (a ``failure`` fails the test)."""
        answer = self.call(op, endpoint, args, settings=settings)
        assert "result" in answer, answer
        result: dict[str, Any] = answer["result"]
        required = {"request_version", "resources", "result_fields", "exception", "exception_message",
                    "unsupported_options"}
        assert required <= set(result) <= required | {"unsupported_fields", "deadline_reached"}, result
        for entry in result["resources"]:
            assert set(entry) == {"resource", "error_code", "error_name", "error_message", "fields", "exception"}, entry
        return result

    def _read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    raise AssertionError(f"the adapter wrote no line within {timeout:.0f}s (log: {self.log})")
                if selector.select(min(remaining, 1.0)):
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        raise AssertionError(f"the adapter exited with {self.proc.wait(10)} (log: {self.log})")
                    self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        self.lines.append(line)
        decoded: dict[str, Any] = json.loads(line)
        return decoded

    def close(self, timeout: float = 30.0) -> int:
        """EOF on stdin: the adapter closes its clients and exits; its exit code."""
        try:
            rest, _ = self.proc.communicate(b"", timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the adapter did not exit within {timeout:.0f}s of EOF (log: {self.log})") from None
        self.lines += [line for line in (self._buffer + rest).split(b"\n") if line]
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
