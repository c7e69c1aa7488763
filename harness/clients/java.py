"""The Java AdminClient of any kafka-clients release, through a long-lived sidecar JVM.

The sidecar (``sidecar/kcompat/sidecar/``: the protocol loop in
``AdminSidecar.java``, one class per op under ``ops/``, found by name: op
``create_topics`` is class ``ops.CreateTopics``) is compiled once per
kafka-clients release against that release's jar from Maven Central and driven
over JSON lines on stdin/stdout.
Its ready line carries the protocol version it speaks; one that differs from
``SIDECAR_PROTOCOL`` is refused (and its compiled classes dropped).  One sidecar runs per (process, client
version): an xdist worker starts it on first use and keeps it for every cell.
A sidecar that dies or stops answering is a ``HarnessError`` (infra error,
never a compatibility finding); it is killed and the next call starts a new one.
One that died between calls affected no call: the next call starts a new one
and the exit code is kept in ``exits_between_calls`` and written to its log.
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import selectors
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..artifacts import ArtifactStore, check_release_name
from ..config import HarnessConfig
from ..errors import HarnessError
from ..java import select_java
from ..javac import compile_sources
from ..reaper import kill_tree, labels, new_run_id, spawn
from .base import (
    AclSpec,
    AdminResult,
    ConfigTarget,
    Endpoint,
    NewPartitions,
    NewTopic,
    ResourceOutcome,
)

SIDECAR_SOURCES = Path(__file__).resolve().parent / "sidecar"
SIDECAR_MAIN = "kcompat.sidecar.AdminSidecar"
SIDECAR_PROTOCOL = 2
"""The request/answer shapes this module speaks; ``AdminSidecar.PROTOCOL`` must be the same."""
START_TIMEOUT = 60.0
CALL_TIMEOUT = 120.0


class Sidecar:
    """One JVM running one kafka-clients release's AdminClient."""

    def __init__(self, version: str, config: HarnessConfig, *, run_id: str | None = None):
        self.version = check_release_name(version)  # it names the log, the classes and the cache entry
        self.config = config
        self.run_id = run_id or new_run_id()
        self.log_path = config.run_root / self.run_id / f"sidecar-kafka-clients-{version}-{os.getpid()}.log"
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._ids = 0
        self._classes: Path | None = None
        self.starts = 0
        self.exits_between_calls: list[int] = []

    def _command(self) -> list[str]:
        store = ArtifactStore(self.config)
        jars = store.resolve_client(self.version)
        classpath = ":".join(str(j) for j in jars)
        classes = self._classes = compile_sources(SIDECAR_SOURCES, classpath, f"kafka-clients {self.version}",
                                  self.config.cache_dir / "sidecars" / f"kafka-clients-{self.version}",
                                  self.config.cache_dir)
        java = select_java((17, 11, 21), self.config.cache_dir, offline=self.config.offline,
                           what=f"kafka-clients {self.version}")
        # VM warnings go to stderr: stdout carries nothing but JSON lines.
        return [str(java.java), "-Xmx256m", "-XX:+UseSerialGC", "-XX:+DisplayVMOutputToStderr", *labels(self.run_id),
                "-cp", f"{classes}:{classpath}", SIDECAR_MAIN]

    def start(self) -> None:
        command = self._command()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with self.log_path.open("ab") as log:
                self._proc = spawn(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
        except OSError as exc:
            raise HarnessError(f"can't start the sidecar for kafka-clients {self.version}: {exc}",
                               log=self.log_path) from exc
        self._buffer = b""
        self.starts += 1
        ready = self._read_line(START_TIMEOUT, "start")
        if ready.get("protocol") != SIDECAR_PROTOCOL:
            self.kill()
            if self._classes is not None:  # compiled from other sources: never trusted again
                shutil.rmtree(self._classes, ignore_errors=True)
            raise HarnessError(f"the sidecar for kafka-clients {self.version} speaks protocol "
                               f"{ready.get('protocol')!r}, this harness speaks {SIDECAR_PROTOCOL} "
                               "(its compiled classes were removed; the next call compiles it again)",
                               log=self.log_path)
        reported = ready.get("ready")
        if reported != self.version:
            self.kill()
            raise HarnessError(f"the sidecar for kafka-clients {self.version} reports version {reported!r}",
                               log=self.log_path)

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def call(self, op: str, connection: Endpoint | None, args: dict[str, Any]) -> dict[str, Any]:
        if self._proc is not None and self._proc.poll() is not None:
            self._note_exit_between_calls(self._proc.returncode)
        if not self.alive:
            self.start()
        assert self._proc is not None and self._proc.stdin is not None
        self._ids += 1
        request: dict[str, Any] = {"id": self._ids, "op": op, "args": args}
        if connection is not None:
            request["connection"] = {"bootstrap": connection.bootstrap_servers, "username": connection.username,
                                     "password": connection.password}
        try:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
        except OSError as exc:
            self.kill()
            raise HarnessError(f"the sidecar for kafka-clients {self.version} is gone ({exc})",
                               log=self.log_path) from exc
        answer = self._read_line(CALL_TIMEOUT, op)
        if answer.get("id") != self._ids:
            self.kill()
            raise HarnessError(f"the sidecar for kafka-clients {self.version} answered out of turn",
                               log=self.log_path)
        if "failure" in answer:
            failure = answer["failure"]
            raise HarnessError(f"the sidecar for kafka-clients {self.version} could not run {op}: "
                               f"{failure['class']}: {failure['message']}", log=self.log_path)
        result: dict[str, Any] = answer["result"]
        return result

    def _read_line(self, timeout: float, what: str) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    raise HarnessError(f"the sidecar for kafka-clients {self.version} did not answer {what} "
                                       f"within {timeout:.0f}s (killed; the next call starts a new one)",
                                       log=self.log_path)
                if not selector.select(min(remaining, 1.0)):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    code = self._proc.wait(timeout=10)
                    self._proc = None
                    raise HarnessError(f"the sidecar for kafka-clients {self.version} exited with code {code} "
                                       f"during {what} (the next call starts a new one)", log=self.log_path)
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            decoded: dict[str, Any] = json.loads(line)
        except ValueError as exc:
            self.kill()
            raise HarnessError(f"the sidecar for kafka-clients {self.version} wrote a non-JSON line during {what}: "
                               f"{line[:120]!r}", log=self.log_path) from exc
        return decoded

    def _note_exit_between_calls(self, code: int) -> None:
        self.exits_between_calls.append(code)
        self._proc = None
        with self.log_path.open("a") as log:
            log.write(f"kcompat: the sidecar exited with code {code} between calls; the next call starts a new one\n")

    def kill(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                kill_tree(self._proc.pid)
            self._proc.wait(timeout=10)
        self._proc = None

    def close(self) -> None:
        """Close stdin (the sidecar closes its clients and exits), then make sure."""
        if self._proc is not None and self._proc.poll() is None and self._proc.stdin is not None:
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


_SIDECARS: dict[str, Sidecar] = {}


def sidecar_for(version: str, config: HarnessConfig, *, run_id: str | None = None) -> Sidecar:
    """The sidecar of this process for a kafka-clients release, created on first use."""
    sidecar = _SIDECARS.get(version)
    if sidecar is None:
        sidecar = _SIDECARS[version] = Sidecar(version, config, run_id=run_id)
    return sidecar


@atexit.register
def close_sidecars() -> None:
    while _SIDECARS:
        _, sidecar = _SIDECARS.popitem()
        sidecar.close()


class JavaClient:
    kind = "java"

    def __init__(self, endpoint: Endpoint, client_version: str, config: HarnessConfig, *,
                 run_id: str | None = None):
        self.endpoint = endpoint
        self.sidecar = sidecar_for(client_version, config, run_id=run_id)
        self.version = client_version

    def _call(self, op: str, args: dict[str, Any]) -> AdminResult:
        raw = self.sidecar.call(op, self.endpoint, args)
        resources = tuple(ResourceOutcome(r["resource"], int(r["error_code"]), r["error_name"], r["error_message"],
                                          r["fields"], r["exception"]) for r in raw["resources"])
        return AdminResult(op, self.kind, self.version, raw["request_version"], resources,
                           tuple(raw["result_fields"]), raw["exception"], raw["exception_message"],
                           tuple(raw["unsupported_options"]))

    def create_topics(self, topics: Sequence[NewTopic], *, validate_only: bool = False) -> AdminResult:
        return self._call("create_topics", {"validate_only": validate_only, "topics": [
            {"name": t.name, "partitions": t.partitions, "replication_factor": t.replication_factor,
             "assignments": None if t.assignments is None else {str(p): list(ids) for p, ids in t.assignments.items()},
             "configs": dict(t.configs)} for t in topics]})

    def create_partitions(self, partitions: Sequence[NewPartitions], *, validate_only: bool = False) -> AdminResult:
        return self._call("create_partitions", {"validate_only": validate_only, "partitions": [
            {"topic": p.topic, "total_count": p.total_count,
             "assignments": None if p.assignments is None else [list(ids) for ids in p.assignments]}
            for p in partitions]})

    def describe_configs(self, targets: Sequence[ConfigTarget], *, include_synonyms: bool = False,
                         include_documentation: bool = False) -> AdminResult:
        return self._call("describe_configs", {
            "include_synonyms": include_synonyms, "include_documentation": include_documentation,
            "resources": [{"type": t.resource_type, "name": t.name} for t in targets]})

    def list_topics(self, *, list_internal: bool = True) -> AdminResult:
        return self._call("list_topics", {"list_internal": list_internal})

    def create_acls(self, acls: Sequence[AclSpec]) -> AdminResult:
        return self._call("create_acls", {"acls": [
            {"resource_type": a.resource_type.upper(), "resource_name": a.resource_name, "principal": a.principal,
             "operation": a.operation, "permission": a.permission, "host": a.host, "pattern": a.pattern,
             "label": a.label} for a in acls]})

    def describe_topics(self, names: Sequence[str] = ()) -> AdminResult:
        """Admin.describeTopics: DescribeTopicPartitions where the release and the broker have it (KIP-966,
        kafka-clients 3.8+), Metadata otherwise; the request version recorded is DescribeTopicPartitions'."""
        return self._call("describe_topics", {"topics": list(names)})

    def perform_by_name(self, op: str, args: object) -> AdminResult:
        """Any operation the sidecar has a class for (``ops/<Op>.java``), its arguments as their dataclass's JSON."""
        encoded = dataclasses.asdict(args) if dataclasses.is_dataclass(args) and not isinstance(args, type) else {}
        return self._call(op, encoded)

    def client_api_versions(self) -> dict[str, int]:
        """The newest request version this kafka-clients can send, per API (``ApiKeys`` name, e.g. CREATE_TOPICS)."""
        versions: dict[str, int] = self.sidecar.call("api_versions", None, {})["api_versions"]
        return versions

    def client_api_keys(self) -> dict[str, int]:
        """Each ``ApiKeys`` name's key in this release (a release may rename an API; the key stays)."""
        keys: dict[str, int] = self.sidecar.call("api_versions", None, {}).get("api_keys", {})
        return keys

    def client_oldest_versions(self) -> dict[str, int]:
        """The oldest request version this kafka-clients still sends, per API (4.0 dropped many, KIP-896)."""
        versions: dict[str, int] = self.sidecar.call("api_versions", None, {}).get("oldest_versions", {})
        return versions

    def public_methods(self, class_name: str) -> tuple[str, ...] | None:
        """Sorted public method names of a class of this release (``Object``'s left out); None if it has none."""
        methods: list[str] | None = self.sidecar.call("methods", None, {"class": class_name})["methods"]
        return None if methods is None else tuple(methods)

    def close(self) -> None:
        """Close this endpoint's AdminClient in the sidecar; the sidecar itself serves the whole worker."""
        if self.sidecar.alive:
            self.sidecar.call("close", self.endpoint, {})
