"""Adapters: a client library driven by a program of its own over JSON lines (docs/ADAPTERS.md).

The Java sidecar was the first adapter; a library in any language joins the
client axis by speaking the same protocol, so the harness knows one way to
start a client, call it, time it out and tell its death from a finding.
``AdapterProcess`` is that way: one child process per (worker, kind, release),
started on first use, its ready line checked (protocol, release, the operations
it declares), every read bounded.  A process that dies or stops answering is a
``HarnessError`` (infra_error, never a compatibility finding); it is killed and
the next call starts a new one.

``ProtocolClient`` is the client side every adapter kind shares: each call's
arguments as the protocol's JSON (``protocol_args``: the Args dataclass's
fields), the keys of the APIs its operation sends (``api_keys``: no adapter
keeps a table of its own), each answer as the neutral ``AdminResult``.  ``adapter_kind`` declares
a kind whose releases are installed by an installer module of its own
(``install(release, config)`` -> argv and environment; ``published(config)``
-> the registry's releases), so a kind package is its adapter program, its
installer and one ``KIND = adapter_kind(...)``.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import importlib
import importlib.util
import json
import os
import selectors
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from ..config import HarnessConfig
from ..errors import ConfigError, HarnessError
from ..reaper import kill_tree, new_run_id, spawn
from ..versions import version_key
from .kinds import ClientKind, Refusal, Setting
from .base import AdminResult, ClientLimits, Endpoint, ResourceOutcome

PROTOCOL = 3
"""The request/answer shapes of docs/ADAPTERS.md; the Java sidecar's ``AdminSidecar.PROTOCOL`` is the same."""
START_TIMEOUT = 60.0
CALL_TIMEOUT = 120.0
DEADLINE_MARGIN = 60.0
"""Seconds kcompat waits for an answer past the deadline it gives an adapter's library call (``adapter_deadline``)."""
DEADLINE_VARIABLE = "KCOMPAT_ADAPTER_DEADLINE"
"""How an adapter is told the deadline of one library call, in seconds (docs/ADAPTERS.md)."""
MAX_LINE = 32 << 20
"""Bytes one line of an adapter may hold (docs/ADAPTERS.md): a longer one is a harness error, read no further."""


@dataclass(frozen=True)
class Launch:
    """How to start one adapter: its command line and what it adds to the environment."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)


class AdapterProcess:
    """One adapter program serving one client release, spoken to over its stdin and stdout."""

    def __init__(self, what: str, release: str, launch: Callable[[], Launch], log_path: Path):
        self.what = what
        """How messages name it: ``the sidecar for kafka-clients 3.9.1``, ``the kafkajs 2.2.4 adapter``."""
        self.release = release
        self.log_path = log_path
        self._launch = launch
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._ids = 0
        self.starts = 0
        self.exits_between_calls: list[int] = []
        self.operations: frozenset[str] | None = None
        """The operations its ready line declares; None where it declares none (it runs any it has a class for)."""
        self.answer_timeout = CALL_TIMEOUT
        """Seconds to wait for one answer: longer than any deadline the adapter's library calls are given."""

    def on_wrong_protocol(self) -> None:
        """What else to drop when the program speaks another protocol (the sidecar's compiled classes)."""

    def start(self) -> None:
        launch = self._launch()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with self.log_path.open("ab") as log:
                self._proc = spawn(list(launch.argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                                   env={**os.environ, **launch.env})
        except OSError as exc:
            raise HarnessError(f"can't start {self.what}: {exc}", log=self.log_path) from exc
        self._buffer = b""
        self.starts += 1
        ready = self._read_line(START_TIMEOUT, "start")
        if ready.get("protocol") != PROTOCOL:
            self.kill()
            self.on_wrong_protocol()
            raise HarnessError(f"{self.what} speaks protocol {ready.get('protocol')!r}, this harness speaks "
                               f"{PROTOCOL}{self._dropped_note()}", log=self.log_path)
        if ready.get("ready") != self.release:
            self.kill()
            raise HarnessError(f"{self.what} reports version {ready.get('ready')!r}", log=self.log_path)
        declared = ready.get("operations")
        if declared is not None and not (isinstance(declared, list) and all(isinstance(o, str) for o in declared)):
            self.kill()
            raise HarnessError(f"{self.what} declares operations that are not a list of names: {declared!r:.120}",
                               log=self.log_path)
        self.operations = None if declared is None else frozenset(declared)

    def _dropped_note(self) -> str:
        return ""

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def call(self, op: str, connection: Endpoint | None, args: Mapping[str, Any],
             keys: Sequence[int] = (), settings: Mapping[str, object] | None = None) -> dict[str, Any]:
        """One request, its answer's ``result`` (the whole answer's object for the special ops); ``keys`` are
        the APIs whose last request version the answer reports; ``settings`` (with ``surface``) go into the
        request's ``connection``."""
        if self._proc is not None and self._proc.poll() is not None:
            self._note_exit_between_calls(self._proc.returncode)
        if not self.alive:
            self.start()
        assert self._proc is not None and self._proc.stdin is not None
        self._ids += 1
        request: dict[str, Any] = {"id": self._ids, "op": op, "api_keys": list(keys), "args": args}
        if connection is not None:
            request["connection"] = {"bootstrap": connection.bootstrap_servers, "username": connection.username,
                                     "password": connection.password, **connection_settings(settings or {})}
            if connection.controllers is not None:
                request["connection"]["controllers"] = connection.controllers
        try:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
        except OSError as exc:
            self.kill()
            raise HarnessError(f"{self.what} is gone ({exc})", log=self.log_path) from exc
        answer = self._read_line(self.answer_timeout, op)
        if answer.get("id") != self._ids:
            self.kill()
            raise HarnessError(f"{self.what} answered out of turn", log=self.log_path)
        if "failure" in answer:
            failure = answer["failure"] if isinstance(answer["failure"], dict) else {}
            raise HarnessError(f"{self.what} could not run {op}: {failure.get('class')}: {failure.get('message')}",
                               log=self.log_path)
        result = answer.get("result")
        if not isinstance(result, dict):
            self.kill()
            raise HarnessError(f"{self.what} answered {op} with no result object", log=self.log_path)
        return result

    def _read_line(self, timeout: float, what: str) -> dict[str, Any]:
        line = self._next_line(timeout, what)
        try:
            decoded = json.loads(line)
        except ValueError as exc:
            self.kill()
            raise HarnessError(f"{self.what} wrote a non-JSON line during {what}: {line[:120]!r}",
                               log=self.log_path) from exc
        if not isinstance(decoded, dict):
            self.kill()
            raise HarnessError(f"{self.what} wrote a JSON line that is not an object during {what}: {line[:120]!r}",
                               log=self.log_path)
        return decoded

    def _next_line(self, timeout: float, what: str) -> bytes:
        """The next line on stdout, in time linear in its length: each chunk read is searched for the newline
        once (never the whole line again), and a line past ``MAX_LINE`` ends the read there, the process
        killed, rather than growing the buffer without bound."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        chunks, size = [self._buffer], len(self._buffer)
        end = self._buffer.find(b"\n")
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while end < 0:
                if size > MAX_LINE:
                    self.kill()
                    raise HarnessError(f"{self.what} wrote a line longer than the protocol's bound of {MAX_LINE:,} "
                                       f"bytes during {what} ({size:,} bytes read without its end; killed, the "
                                       "next call starts a new one)", log=self.log_path)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    raise HarnessError(f"{self.what} did not answer {what} within {timeout:.0f}s "
                                       "(killed; the next call starts a new one)", log=self.log_path)
                if not selector.select(min(remaining, 1.0)):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    code = self._proc.wait(timeout=10)
                    self._proc = None
                    raise HarnessError(f"{self.what} exited with code {code} during {what} "
                                       "(the next call starts a new one)", log=self.log_path)
                found = chunk.find(b"\n")
                end = -1 if found < 0 else size + found
                chunks.append(chunk)
                size += len(chunk)
        data = b"".join(chunks)
        if end > MAX_LINE:
            self.kill()
            raise HarnessError(f"{self.what} wrote a line of {end:,} bytes during {what}, longer than the "
                               f"protocol's bound of {MAX_LINE:,} (killed; the next call starts a new one)",
                               log=self.log_path)
        self._buffer = data[end + 1:]
        return data[:end]

    def _note_exit_between_calls(self, code: int) -> None:
        self.exits_between_calls.append(code)
        self._proc = None
        with self.log_path.open("a") as log:
            log.write(f"kcompat: {self.what} exited with code {code} between calls; the next call starts a new one\n")

    def kill(self) -> None:
        proc, self._proc = self._proc, None  # a call in flight in another thread may see it die and drop it too
        if proc is not None:
            if proc.poll() is None:
                kill_tree(proc.pid)
            proc.wait(timeout=10)

    def retire(self) -> None:
        """Kill the process and leave this worker's registry, so the next client of the kind gets a process of
        its own: a call still in flight here (the limits' passes leave one unanswered on purpose) can then
        never take the next one's process down with it."""
        for key, process in list(_PROCESSES.items()):
            if process is self:
                del _PROCESSES[key]
        self.kill()

    def close(self) -> None:
        """Close stdin (the adapter closes its clients and exits), then make sure."""
        if self._proc is not None and self._proc.poll() is None and self._proc.stdin is not None:
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


def connection_settings(settings: Mapping[str, object]) -> dict[str, object]:
    """A client's settings as the request's ``connection`` carries them (docs/ADAPTERS.md): ``settings`` (the
    library's, typed) and ``surface`` apart; none given (the sidecar's own calls) adds nothing."""
    if not settings:
        return {}
    return {"settings": {k: v for k, v in settings.items() if k != "surface"}, "surface": settings.get("surface")}


_PROCESSES: dict[tuple[str, str], AdapterProcess] = {}


def process_for(key: tuple[str, str], make: Callable[[], AdapterProcess]) -> AdapterProcess:
    """This worker's process for (kind, release), made on first use and kept for every cell."""
    process = _PROCESSES.get(key)
    if process is None:
        process = _PROCESSES[key] = make()
    return process


@atexit.register
def close_processes() -> None:
    while _PROCESSES:
        _, process = _PROCESSES.popitem()
        process.close()


def protocol_args(args: object) -> dict[str, Any]:
    """An operation's arguments as the protocol carries them: its Args dataclass's fields, for every operation."""
    if not dataclasses.is_dataclass(args) or isinstance(args, type):
        return {}
    return dataclasses.asdict(args)


def api_keys(op: str) -> tuple[int, ...]:
    """The keys of the APIs operation ``op`` sends (its ``Operation.api``), as its request names them: an
    adapter reports the last version of these it wrote, and keeps no table of its own; none for an op kcompat
    does not declare (``close``)."""
    from ..operations import operations
    from ..protocol import api_key

    operation = operations().get(op)
    key = None if operation is None else api_key(operation.api)
    return () if key is None else (key,)


def _lacking(raw: Mapping[str, Any]) -> dict[str, str]:
    """The answer's optional ``unsupported_fields``: result field -> the library API type that lacks it."""
    found = raw.get("unsupported_fields") or {}
    if not (isinstance(found, dict) and all(isinstance(v, str) for v in found.values())):
        raise TypeError(f"unsupported_fields is not an object of API names: {found!r:.120}")
    return {str(k): v for k, v in found.items()}


def _deadline(raw: Mapping[str, Any]) -> float | None:
    """The answer's optional ``deadline_reached``: the seconds of the deadline the library call ran into."""
    found = raw.get("deadline_reached")
    if found is None:
        return None
    if isinstance(found, bool) or not isinstance(found, (int, float)) or found <= 0:
        raise TypeError(f"deadline_reached is not a number of seconds: {found!r:.60}")
    return float(found)


class ProtocolClient:
    """An admin client behind an adapter process: every operation by its name (``perform_by_name``)."""

    kind: str

    def __init__(self, endpoint: Endpoint, version: str, process: AdapterProcess,
                 settings: Mapping[str, object] | None = None):
        self.endpoint = endpoint
        self.version = version
        self.process = process
        self.settings: Mapping[str, object] = settings or {}
        """The reference's settings and surface, as ``ClientKind.make`` received them."""

    def _call(self, op: str, args: Mapping[str, Any]) -> AdminResult:
        raw = self.process.call(op, self.endpoint, args, api_keys(op), self.settings)
        try:
            resources = tuple(ResourceOutcome(r["resource"], int(r["error_code"]), r["error_name"],
                                              r["error_message"], r["fields"], r["exception"])
                              for r in raw["resources"])
            return AdminResult(op, self.kind, self.version, raw["request_version"], resources,
                               tuple(raw["result_fields"]), raw["exception"], raw["exception_message"],
                               tuple(raw["unsupported_options"]), unsupported_fields=_lacking(raw),
                               deadline_reached=_deadline(raw))
        except (KeyError, TypeError, ValueError) as exc:
            raise HarnessError(f"{self.process.what} answered {op} in another shape than docs/ADAPTERS.md's "
                               f"({type(exc).__name__}: {exc})", log=self.process.log_path) from None

    def perform_by_name(self, op: str, args: object) -> AdminResult:
        """Any operation by its name, its arguments as ``protocol_args`` writes them."""
        return self._call(op, protocol_args(args))

    def close(self) -> None:
        """Close this endpoint's client in the adapter; the adapter itself serves the whole worker."""
        if self.process.alive:
            self.process.call("close", self.endpoint, {}, (), self.settings)


class AdapterClient(ProtocolClient):
    """A client of an adapter kind: an operation its adapter does not declare is the client lacking it."""

    def __init__(self, kind: str, endpoint: Endpoint, version: str, process: AdapterProcess,
                 settings: Mapping[str, object] | None = None):
        self.kind = kind
        super().__init__(endpoint, version, process, settings)

    def perform_by_name(self, op: str, args: object) -> AdminResult:
        if not self.process.alive:
            self.process.start()  # its ready line says what it declares
        if self.process.operations is not None and op not in self.process.operations:
            return AdminResult(op, self.kind, self.version, None, exception="NotImplementedError",
                               exception_message=f"{self.process.what} declares no operation {op}")
        return super().perform_by_name(op, args)


class Installer(Protocol):
    """The module an adapter kind names: its releases, and how one is installed and started."""

    def published(self, config: HarnessConfig) -> tuple[str, ...]: ...

    def install(self, release: str, config: HarnessConfig) -> tuple[list[str], dict[str, str]]: ...


def installer(module: str) -> Installer:
    loaded: ModuleType = importlib.import_module(module)
    if not callable(getattr(loaded, "published", None)) or not callable(getattr(loaded, "install", None)):
        raise HarnessError(f"{module} has no published(config) and install(release, config)")
    found: Installer = loaded  # a module is its own namespace: checked above that it has both
    return found


def check_published(library: str, release: str, published: Sequence[str]) -> str:
    """``release`` if its registry publishes it; else one line naming the nearest published releases."""
    if release in published:
        return release
    if not published:
        raise ConfigError(f"{library} {release}: its registry lists no release (is it reachable?)")
    ordered = sorted(published, key=version_key)
    below = [r for r in ordered if version_key(r) < version_key(release)][-2:]
    above = [r for r in ordered if version_key(r) > version_key(release)][:2]
    raise ConfigError(f"{library} {release} is not published; nearest releases: {', '.join([*below, *above])}")


def sources_digest(directory: Path) -> str:
    """sha256 over every file under ``directory`` (relative name and bytes, in name order); caches left out."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(directory)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def adapter_kind(*, name: str, order: int, library: str, installer_module: str, refusal: Refusal,
                 example: str, settings: Sequence[Setting] = (), surfaces: tuple[str, ...] = ("admin",)) -> ClientKind:
    """A ``ClientKind`` whose client is an adapter program of this package (``kinds/<module>/adapter/``): releases
    are required (``kafkajs:2.2.4``), checked against the registry before anything boots, installed on first use
    by the installer module; limits are measured against the stub broker (an adapter can't be asked)."""
    from .limits import measured
    from .ref import ClientRef

    def launch(release: str, config: HarnessConfig) -> Launch:
        argv, env = installer(installer_module).install(release, config)
        return Launch(tuple(argv), {**env, DEADLINE_VARIABLE: f"{config.adapter_deadline:g}"})

    def make(endpoint: Endpoint, config: HarnessConfig, release: str | None, run_id: str | None,
             settings: Mapping[str, object]) -> AdapterClient:
        assert release is not None  # ClientRef.parse guarantees it (release = "required")
        run = run_id or new_run_id()

        def new() -> AdapterProcess:
            log = config.run_root / run / f"adapter-{name}-{release}-{os.getpid()}.log"
            process = AdapterProcess(f"the {library} {release} adapter", release, lambda: launch(release, config),
                                     log)
            process.answer_timeout = max(CALL_TIMEOUT, config.adapter_deadline + DEADLINE_MARGIN)
            return process

        return AdapterClient(name, endpoint, release, process_for((name, release), new), settings)

    def limits(client: Any, config: HarnessConfig) -> ClientLimits:
        return measured(ClientRef(name, client.version), config)

    def check(release: str, config: HarnessConfig) -> str:
        return check_published(library, release, installer(installer_module).published(config))

    def program() -> str:
        """sha256 over the adapter program's files (``kinds/<module>/adapter/``), names and bytes in name order,
        and over the sources it shares with other kinds' (the installer module's ``SHARED_SOURCES``)."""
        spec = importlib.util.find_spec(installer_module.rsplit(".", 1)[0])
        assert spec is not None and spec.submodule_search_locations, installer_module
        own = sources_digest(Path(list(spec.submodule_search_locations)[0]) / "adapter")
        shared: Sequence[Path] = getattr(installer(installer_module), "SHARED_SOURCES", ())
        if not shared:
            return own
        return hashlib.sha256("\0".join([own, *(sources_digest(d) for d in shared)]).encode()).hexdigest()

    def by_name(client: Any, op: str, args: object) -> AdminResult:
        assert isinstance(client, AdapterClient)
        return client.perform_by_name(op, args)

    def install(release: str, config: HarnessConfig) -> None:
        installer(installer_module).install(release, config)

    return ClientKind(
        name=name, order=order, library=library, release="required",
        release_note=f"the {name} client needs a {library} release, e.g. {name}:{example}",
        make=make, limits=limits, modules=(installer_module,), refusal=refusal, measured=True,
        check_release=check, perform_by_name=by_name, program=program, install=install,
        survey_default=lambda catalog: (),  # a release must be named: a survey drives it only when asked
        settings={setting.name: setting for setting in settings}, surfaces=surfaces)
