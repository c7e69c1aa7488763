"""Client limits, one source for every kind: the newest and oldest request version of each API a client
release sends.

Each kind says it the way it can (its ``ClientKind.limits``): the wire client's are kio's
schemas; kafka-clients answers ``ApiKeys.latestVersion()`` in the sidecar;
a library that can't be asked (librdkafka) is *measured*: the release, in a
Python that has it, makes every admin call kcompat makes against a stub
broker on loopback that advertises every version of every API kio or Kafka's
own definitions (the codec, merged over the catalog's releases) know,
and the stub records each request's version, of every API it sends (those no
operation names too: sarama's DescribeCluster, measured through the operations that
sent it).  Where a client reaches the stub's ceiling (the newest
stable version the catalog's definitions give), a pass of its own advertises that API open-ended and
records the first request of it, without answering; one not sent then stays at
the ceiling, marked ``at_least`` (a verdict does not take the client as short
of newer versions).  The oldest: each API's calls again, the API offered at
one version only, from the stub's oldest up; the first version sent is the
client's oldest (one that can't go that low refuses without a request).
Each pass has a new client.  A measurement is cached per kind and release under the
cache dir, with its date and how; ``limits.jsonl`` beside this module holds
the measurements checked in (``kcompat clients limits REF --json`` writes
its lines), read when the cache has none.  A measurement goes stale per API:
it records, for each API, a digest of the operations that send it
(``api_digests``), so a new or changed operation has only its API measured
again, into the rest.  Nothing here is typed by hand.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Collection, Mapping
from importlib import resources
from pathlib import Path

from ..config import HarnessConfig
from ..errors import ConfigError, HarnessError
from ..protocol import api_names
from ..recorder import StubBroker, advertised
from ..operations import NoImplementation, operations, perform
from . import client_for, kind
from .base import AdminClient, ClientLimits, Endpoint
from .ref import ClientRef
from .venv import host_env

TABLE = "limits.jsonl"
MEASURE_TIMEOUT = 300.0
"""Seconds one measurement may take (a client's admin calls against the stub take a few)."""
CEILING_WAIT = 15.0
"""Seconds the open-ended pass waits for a client's first request of each API it reached the ceiling of."""
OPEN_ENDED = range(0, 32768)
TOPIC = "kcompat-limits"
_API_NAMES = api_names()


def exercise(admin: AdminClient, apis: Collection[str] | None = None, stop: threading.Event | None = None,
             done: Callable[[str], None] | None = None) -> None:
    """Every declared admin operation (``kcompat.harness.operations``), or those whose request is one of
    ``apis``, as its samples make it, until ``stop`` is set, telling ``done`` each one's API when its calls
    are made; results are not the point, and an operation the client's kind does not implement is passed over."""
    for operation in operations().values():
        if apis is not None and operation.api not in apis:
            continue
        for args in operation.samples(TOPIC):
            if stop is not None and stop.is_set():
                return
            try:
                perform(admin, operation, args)
            except NoImplementation:
                break
        if done is not None:
            done(operation.api)


@functools.cache
def api_digests() -> dict[str, str]:
    """Per API an operation sends, a digest of those operations (names and sample calls as the protocol writes
    them): what a measurement of that API made, so one made before an operation was added or changed is stale
    for that API alone."""
    parts: dict[str, list[str]] = {}
    for name, operation in sorted(operations().items()):
        samples = json.dumps([dataclasses.asdict(args) for args in operation.samples(TOPIC)],
                             sort_keys=True, default=str)
        parts.setdefault(operation.api, []).append(f"{name}\0{samples}")
    return {api: hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16] for api, lines in parts.items()}


def call_apis() -> frozenset[str]:
    """The APIs ``exercise``'s calls are made of (a client sends others along: sarama's DescribeCluster, the
    JoinGroup of kafkajs's offset commits)."""
    return frozenset(operation.api for operation in operations().values())


def measure_here(ref: ClientRef, config: HarnessConfig, only: frozenset[str] | None = None) -> ClientLimits:
    """Measure the release this Python has (the caller makes sure it is ``ref``'s): every operation's APIs, or
    those in ``only`` (the other APIs its calls send come along); leaves threads behind when a client hangs on
    the open-ended pass, so ``python -m kcompat.harness.clients.limits`` runs it and exits."""
    apis = advertised()
    measuring = call_apis() if only is None else call_apis() & only
    with StubBroker(apis) as stub:
        admin = client_for(ref, Endpoint(stub.bootstrap_servers), config)
        callers = _Callers(stub)
        try:
            exercise(admin, only, done=callers.done)
        finally:
            admin.close()
        sent = stub.recording.versions()
        problems = stub.recording.problems
    if problems:
        raise HarnessError(f"{ref} against the stub broker: {problems[0]}")
    newest = {name: versions[-1] for name, versions in sent.items()}
    ours = {name for name in newest if name in measuring or name not in call_apis()}  # the rest: not asked
    capped = {key for key, name in _API_NAMES.items() if name in ours and newest[name] == apis[key][-1]}
    beyond = _beyond_ceiling(ref, config, apis, capped, callers.calls) if capped else {}
    newest.update(beyond)
    oldest = _oldest(ref, config, apis, {name: v for name, v in newest.items()  # ApiVersions goes out before
                                         if name in ours and name != "ApiVersions"},  # the offer is known
                     callers.calls)
    version = admin.version
    under = getattr(admin, "librdkafka_version", None)
    client = f"{ref.kind} {version}" + (f" (librdkafka {under})" if under else "")
    how = (f"stub broker advertising the versions of kio and the catalog's definitions"
           f"{_open_note(capped, beyond)}; {client} made "
           "every admin call of kcompat.harness.clients.limits.exercise; the newest version each request header "
           "carried; the oldest: each API's calls again, the API offered at one version, from the stub's oldest up, "
           "until the client sent it")
    program = kind(ref.kind).program
    digests = {api: digest for api, digest in api_digests().items() if api in measuring}
    return ClientLimits(ref.kind, version, newest, oldest, datetime.datetime.now(datetime.UTC).date().isoformat(), how,
                        tuple(sorted(operations())), program() if program is not None else None, digests,
                        frozenset(_API_NAMES[k] for k in capped) - frozenset(beyond), dict(ref.settings))


class _Callers:
    """Which operations' calls sent each API (DescribeCluster: describe_cluster's, a Metadata operation's):
    a pass measuring an API makes its own operations' calls, or, where those send none of it (kafkajs's
    LeaveGroup goes out as its offset commit's consumer stops), the calls that did."""

    def __init__(self, stub: StubBroker):
        self._recording = stub.recording
        self._mark = stub.recording.mark()  # what the client sent as it was made is no operation's
        self._senders: dict[str, set[str]] = {}

    def done(self, api: str) -> None:
        for name in self._recording.names_since(self._mark):
            self._senders.setdefault(name, set()).add(api)
        self._mark = self._recording.mark()

    def calls(self, name: str) -> frozenset[str]:
        senders = self._senders.get(name, set())
        return frozenset({name} if name in senders else senders)


def _open_note(capped: set[int], beyond: Mapping[str, int]) -> str:
    if not capped:
        return ""
    names = sorted(_API_NAMES[k] for k in capped)
    unseen = [n for n in names if n not in beyond]
    note = f" (then {', '.join(names)} open-ended"
    return note + (f"; {', '.join(unseen)} not sent then: at least the version above)" if unseen else ")")


def _beyond_ceiling(ref: ClientRef, config: HarnessConfig, apis: dict[int, range], capped: set[int],
                    calls: Callable[[str], frozenset[str]]) -> dict[str, int]:
    """The version a client sends of each capped API when the stub offers any (an API it did not send in
    ``CEILING_WAIT`` is left out), one pass per API: a request the stub can't decode is not answered, so a pass's
    call stays in flight, and one pass for all would see only the first API the calls reach."""
    found: dict[str, int] = {}
    for key in sorted(capped):
        sent = _pass(ref, config, {**apis, key: OPEN_ENDED}, key, calls(_API_NAMES[key]), until_sent=True)
        if sent:
            found[_API_NAMES[key]] = sent[-1]
    return found


def _oldest(ref: ClientRef, config: HarnessConfig, apis: dict[int, range], newest: Mapping[str, int],
            calls: Callable[[str], frozenset[str]]) -> dict[str, int]:
    """The oldest version of each API in ``newest`` the client sends: that API's calls again while the stub
    offers the API at one version only (every other API as before), from the stub's oldest up to the newest the
    client sent; the first version it sends is its oldest.  A client that can't go that low refuses the call
    without a request."""
    keys = {name: key for key, name in _API_NAMES.items()}
    found: dict[str, int] = {}
    for name, top in sorted(newest.items()):
        key = keys[name]
        for version in (v for v in apis[key] if v <= top):
            if version in _pass(ref, config, {**apis, key: range(version, version + 1)}, key, calls(name),
                                until_sent=False):
                found[name] = version
                break
    return found


def _pass(ref: ClientRef, config: HarnessConfig, offered: dict[int, range], key: int, calls: frozenset[str],
          until_sent: bool) -> tuple[int, ...]:
    """One pass: a stub offering ``offered``, a new client making only the calls whose request is one of
    ``calls``, in a thread; bounded by ``CEILING_WAIT`` until the API was sent (``until_sent``) or the calls are
    done.  The versions of that API the stub saw."""
    name = _API_NAMES[key]
    with StubBroker(offered) as stub:
        admin = client_for(ref, Endpoint(stub.bootstrap_servers), config)
        stop = threading.Event()
        worker = threading.Thread(target=exercise, args=(admin, calls, stop), daemon=True,
                                  name=f"kcompat-limits-{name}")
        worker.start()
        if until_sent:
            stub.recording.wait_for({key}, CEILING_WAIT)
        else:
            worker.join(CEILING_WAIT)  # a refusal returns at once; an answer the client dislikes, soon
        stop.set()  # the thread makes no call after the one in flight
        sent = stub.recording.versions().get(name, ())
        _let_go(admin, worker)
    return sent


def _let_go(admin: AdminClient, worker: threading.Thread) -> None:
    """Close a pass's client: at once where its thread is done, else kill an adapter's process (its call may
    hang on the stub's answer: the next pass's calls must not queue behind it) and leave an in-process
    client's thread behind, a daemon."""
    process = getattr(admin, "process", None)
    if not worker.is_alive():
        try:
            admin.close()
            return
        except HarnessError:  # the pass's calls ended the adapter (a call that timed out kills it)
            pass
    if process is not None:
        process.retire()


def measure(ref: ClientRef, config: HarnessConfig, python: Path | str, base: ClientLimits | None = None) \
        -> ClientLimits:
    """Measure ``ref`` in a child ``python`` that has it (this one, or its release's venv), bounded: every
    API, or with ``base`` (a measurement of the same program) only the APIs stale in it, merged into it."""
    log = _cache(config) / f"{_slug(ref)}.measure.log"  # apart from the venv's install log
    log.parent.mkdir(parents=True, exist_ok=True)
    only = None if base is None else stale_apis(base)
    command = [str(python), "-P", "-m", "kcompat.harness.clients.limits", str(ref), str(config.cache_dir),
               *([",".join(sorted(only))] if only is not None else [])]
    with log.open("wb") as errors:
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=errors, timeout=MEASURE_TIMEOUT,
                                  env=host_env(), check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"measuring {ref}'s limits failed ({exc})", log=log) from exc
    lines = done.stdout.decode(errors="replace").strip().splitlines()
    if done.returncode != 0 or not lines:
        last = log.read_text(errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise HarnessError(f"measuring {ref}'s limits failed (exit {done.returncode}): {last[0]}", log=log)
    try:
        limits = ClientLimits.from_json(json.loads(lines[-1], parse_constant=_no_constant), str(log))
    except (ValueError, RecursionError) as exc:
        raise HarnessError(f"measuring {ref}'s limits printed no limits ({exc})", log=log) from exc
    if base is not None and only is not None:
        limits = merged(base, limits, only)
    path = _cache(config) / f"{_slug(ref)}.json"
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # a concurrent reader sees all of it or none
    partial.write_text(json.dumps(limits.as_json(), indent=1) + "\n")
    partial.replace(path)
    return limits


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a request version")


def _cache(config: HarnessConfig) -> Path:
    return config.cache_dir / "client-limits"


def _slug(ref: ClientRef) -> str:
    """The cache's file name of a measurement: kind, release and settings (``sarama-1.38.1@version=broker``)."""
    assert ref.version is not None and re.fullmatch(r"[\d.]+", ref.version), ref  # ClientRef.parse checked it
    settings = "".join(f"@{key}={value}" for key, value in ref.settings)
    assert re.fullmatch(r"[a-z0-9_.@=-]*", settings), ref  # each value checked by its kind's declaration
    return f"{ref.kind}-{ref.version}{settings}"


def cached(ref: ClientRef, config: HarnessConfig) -> ClientLimits | None:
    path = _cache(config) / f"{_slug(ref)}.json"
    if not path.is_file():
        return None
    try:
        limits = ClientLimits.from_json(json.loads(path.read_text(encoding="utf-8"), parse_constant=_no_constant),
                                        str(path))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None  # a broken cache entry is measured again, never trusted
    return limits if limits.ref == str(ref) else None  # another release's entry under this name: not this one


@functools.cache
def checked_in() -> dict[str, ClientLimits]:
    """The measurements checked in beside this module, by reference (``confluent:2.12.2``)."""
    text = resources.files("kcompat.harness.clients").joinpath(TABLE).read_text(encoding="utf-8")
    table: dict[str, ClientLimits] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            where = f"src/kcompat/harness/clients/{TABLE}:{number}"
            try:
                limits = ClientLimits.from_json(json.loads(line, parse_constant=_no_constant), where)
            except (ValueError, RecursionError) as exc:
                raise ConfigError(str(exc) if isinstance(exc, ConfigError) else f"{where}: {exc}") from None
            table[limits.ref] = limits
    return table


def python_for(ref: ClientRef, config: HarnessConfig, log: Path) -> str:
    """The Python that has ``ref``: this one, or the one its kind makes for the release (a venv)."""
    declared = kind(ref.kind)
    if declared.python is None or ref.version is None or not declared.own_python(ref.version):
        return sys.executable
    return str(declared.python(ref.version, config, log))


def measured(ref: ClientRef, config: HarnessConfig) -> ClientLimits:
    """The cache's measurement, else the checked-in one, each only if it is ``current``; else the first of them
    made by this program with only its stale APIs measured again (a new operation's), else measured now, all of
    it, in this Python (which has it); the limits source of a kind whose client can't be asked
    (``ClientKind.measured``)."""
    known = [k for k in (cached(ref, config), checked_in().get(str(ref))) if k is not None]
    for limits in known:
        if current(limits):
            return limits
    for limits in known:
        if stale_apis(limits) is not None:
            return measure(ref, config, sys.executable, base=limits)
    return measure(ref, config, sys.executable)


def stale_apis(limits: ClientLimits) -> frozenset[str] | None:
    """The APIs a measurement must make again: those whose operations are not what it measured (added,
    changed, or none then: one that never sent an API would make the client look short of it); None where all
    of it must, having run another adapter program than there is now."""
    program = kind(limits.kind).program
    if program is not None and limits.program != program():
        return None
    return frozenset(api for api, digest in api_digests().items() if limits.apis.get(api) != digest)


def current(limits: ClientLimits) -> bool:
    """Whether a measurement made every operation there is now, as it is, with the adapter program there is."""
    return stale_apis(limits) == frozenset()


def merged(base: ClientLimits, again: ClientLimits, apis: frozenset[str]) -> ClientLimits:
    """``base`` with ``apis`` as measured ``again`` (and any API the new calls sent that ``base`` lacks)."""
    def take(old: Mapping[str, int], new: Mapping[str, int]) -> dict[str, int]:
        kept = {name: v for name, v in old.items() if name not in apis}
        return {**kept, **{name: v for name, v in new.items() if name in apis or name not in old}}

    how = f"{base.how}; {', '.join(sorted(apis))} measured again on {again.measured_at}, alone"
    def fresh(name: str) -> bool:  # its newest is the one measured again
        return name in apis or name not in base.newest

    at_least = {n for n in again.at_least if fresh(n)} | {n for n in base.at_least if not fresh(n)}
    return dataclasses.replace(again, newest=take(base.newest, again.newest), oldest=take(base.oldest, again.oldest),
                               how=how, apis={**base.apis, **again.apis}, at_least=frozenset(at_least))


_KNOWN: dict[tuple[str, str, tuple[tuple[str, str], ...]], ClientLimits] = {}


def limits_of(client: AdminClient, ref: ClientRef, config: HarnessConfig) -> ClientLimits:
    """The limits of the client release behind ``client`` in ``ref``'s configuration, asked once per process: a
    reference with settings (a pinned version changes what a library sends) has a measurement of its own."""
    key = (ref.kind, client.version, ref.settings)
    if key not in _KNOWN:
        configured = bool(ref.settings) and kind(ref.kind).measured
        _KNOWN[key] = (measured(dataclasses.replace(ref, version=client.version, pin=None), config) if configured
                       else kind(ref.kind).limits(client, config))
    return _KNOWN[key]


def _main(argv: list[str]) -> None:
    """``python -P -m kcompat.harness.clients.limits REF CACHE_DIR [API,...]``: one line of JSON (of those APIs
    alone, where named), then exit at once (the open-ended pass may leave a client's calls waiting in a thread)."""
    ref = ClientRef.parse(argv[0]).resolved()
    config = HarnessConfig.resolve(cache_dir=Path(argv[1]))
    only = frozenset(filter(None, argv[2].split(","))) if len(argv) > 2 else None
    limits = measure_here(ref, config, only)
    if ref.version is not None and limits.release != ref.version:
        raise ConfigError(f"asked to measure {ref}, but this Python has {limits.ref}")
    sys.stdout.write(json.dumps(limits.as_json()) + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    _main(sys.argv[1:])
