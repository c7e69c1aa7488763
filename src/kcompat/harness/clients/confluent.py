"""confluent-kafka (librdkafka) behind the neutral ``AdminClient`` interface.

Its public surface is what operations (``kcompat.harness.operations``) use:
``ConfluentClient.library``, the library's AdminClient, and ``call``, which
calls one of its methods and records the request version librdkafka sent.

The only module that imports ``confluent_kafka``.  The installed version is an
install-time axis (one tox env per line), so this adapter discovers what the
version offers instead of assuming it: which keyword arguments each call
takes, which attributes a ``ConfigEntry`` has.  The request version librdkafka
actually sent is read from its ``debug=protocol`` log ("Sent
CreateTopicsRequest (v4, ...)") through the logger callback.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from importlib.metadata import version as dist_version
from typing import Any

import confluent_kafka
from confluent_kafka import KafkaError, KafkaException
from confluent_kafka import admin as ck

from ..errors import HarnessError
from ..waiting import poll
from .base import (
    CONFIG_SOURCES,
    AdminResult,
    Endpoint,
    ResourceOutcome,
    error_name,
)

CALL_TIMEOUT = 60.0
LOG_DRAIN_EVENTS = 10_000
"""The most queued events one look for a request's log line serves (a bound, never reached in practice)."""
LOG_GRACE = 0.2
"""How long a request's log line may still be on its way once the queue has been served."""
_SENT = re.compile(r"Sent (?P<api>\w+)Request \(v(?P<version>\d+)")
_METADATA_RECEIVED = re.compile(r"Received MetadataResponse \(v\d+")
BOOTSTRAP_WAIT = 5.0
"""Longest a new client's first metadata is waited for (a broker it can't use: its call then says why)."""
_INVALID_KWARG = re.compile(r"'(?P<name>\w+)' is an invalid keyword argument")
CONFIG_TYPES = {"topic": ck.ResourceType.TOPIC, "broker": ck.ResourceType.BROKER}


def installed_version() -> str:
    return dist_version("confluent-kafka")


def librdkafka_version() -> str:
    return str(confluent_kafka.libversion()[0])


class _SentRequests(logging.Handler):
    """Keeps (api, version) of every request librdkafka logs as sent; nothing else is kept."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sent: list[tuple[str, int]] = []
        self.metadata = False
        """Whether a Metadata answer has come (the client's bootstrap is done)."""
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if match := _SENT.search(message):
            with self._lock:
                self.sent.append((match["api"], int(match["version"])))
        elif _METADATA_RECEIVED.search(message):
            self.metadata = True

    def mark(self) -> int:
        with self._lock:
            return len(self.sent)

    def version_since(self, mark: int, api: str) -> int | None:
        with self._lock:
            found = [v for a, v in self.sent[mark:] if a == api]
        return found[-1] if found else None


def error_of(exc: BaseException) -> tuple[int, str, str]:
    if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
        err = exc.args[0]
        return int(err.code()), str(err.name()), str(err.str())
    return -1, type(exc).__name__, str(exc)


def resource_outcome(resource: str, future: Future[Any], **fields: Any) -> ResourceOutcome:
    try:
        future.result(timeout=CALL_TIMEOUT)
    except FutureTimeout as exc:
        raise HarnessError(f"confluent-kafka gave no answer for {resource} in {CALL_TIMEOUT:.0f}s") from exc
    except Exception as exc:  # the client's verdict on this resource is data
        code, name, message = error_of(exc)
        known = error_name(code) if code >= 0 else name
        return ResourceOutcome(resource, code, known if code >= 0 else name, message, fields, type(exc).__name__)
    return ResourceOutcome(resource, 0, "NONE", None, fields)


def librdkafka_settings(settings: Mapping[str, object]) -> dict[str, str]:
    """A reference's settings (``api.version.request=false``) as librdkafka's configuration takes them: its own
    property names, every value a string (``true``/``false`` for a bool)."""
    return {key: str(value).lower() if isinstance(value, bool) else str(value) for key, value in settings.items()}


class ConfluentClient:
    kind = "confluent"

    def __init__(self, endpoint: Endpoint, settings: Mapping[str, object] | None = None):
        self.version = installed_version()
        self.librdkafka_version = librdkafka_version()
        self._log = _SentRequests()
        # An unregistered logger: it dies with this client, and nothing propagates to pytest's capture.
        logger = logging.Logger("kcompat.confluent", logging.DEBUG)
        logger.addHandler(self._log)
        conf: dict[str, Any] = {"bootstrap.servers": endpoint.bootstrap_servers, "debug": "protocol",
                                "logger": logger, "client.id": "kcompat-confluent"}
        if endpoint.username is not None:
            conf.update({"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
                         "sasl.username": endpoint.username, "sasl.password": endpoint.password or ""})
        conf.update(librdkafka_settings(settings or {}))
        self.library: Any = ck.AdminClient(conf)
        # What librdkafka sends once made (ApiVersions, Metadata) then precedes every call, instead of racing
        # a call the client refuses without a request of its own (a method its release lacks).
        poll(lambda: True if self._log.metadata else None, timeout=BOOTSTRAP_WAIT, interval=0.005,
             pause=self.library.poll)

    def close(self) -> None:
        """Drop the librdkafka handle (releases cannot be closed explicitly in every version)."""
        if self.library is not None:
            self.library.poll(0)
            self.library = None

    @staticmethod
    def _invoke(method: Callable[..., Any], argument: Any, options: dict[str, Any],
                dropped: list[str]) -> Any:
        """Call with the options asked for, leaving out each one this version rejects.

        Options left at false are not passed at all.  When the C extension
        refuses a keyword (by name, or just by count in older releases), the
        option it names, else the last one asked for, is noted in ``dropped``
        (the record's ``unsupported_options``) and the call is retried.
        """
        wanted = {k: v for k, v in options.items() if v}
        while True:
            try:
                return method(argument, **wanted)
            except TypeError as exc:
                match = _INVALID_KWARG.search(str(exc))
                droppable = [k for k in wanted if k in _DROPPABLE]
                name = match["name"] if match and match["name"] in wanted else (droppable[-1] if droppable else None)
                if name is None or name not in _DROPPABLE:
                    # validate_only and the like change what the call does: never retry without them.
                    if name is not None:
                        dropped.append(name)
                    raise
                wanted.pop(name)
                dropped.append(name)

    def mark(self) -> int:
        """Where the log of sent requests is now: ``request_version`` looks only at what was sent after it."""
        return self._log.mark()

    def request_version(self, mark: int, api: str) -> int | None:
        """The version of the last ``api`` request sent since ``mark``, asked once the call has answered.

        librdkafka queues "Sent ...Request" when it writes the request, before any answer can come, and
        ``poll()`` serves the logger callback: serving what is queued finds the line of a request that
        was sent.  The short wait after it is for a line still on its way; a call the client answered
        without sending (a refusal of its own) used to wait 2 s here for a line that never comes.
        """
        for _ in range(LOG_DRAIN_EVENTS):
            if not self.library.poll(0):
                break
        return poll(lambda: self._log.version_since(mark, api), timeout=LOG_GRACE, interval=0.05,
                    pause=self.library.poll)

    def call(self, operation: str, api: str, method: Callable[..., Any], argument: Any, options: dict[str, Any],
             describe: Callable[[Any, Future[Any]], ResourceOutcome]) -> AdminResult:
        """``method`` of ``library`` (the AdminClient) with ``argument`` and the options this release takes;
        each future it returns becomes an outcome through ``describe``, and the record carries the version of
        the last ``api`` request librdkafka logged as sent: the public seam of this client."""
        mark = self._log.mark()
        dropped: list[str] = []
        try:
            futures = self._invoke(method, argument, options, dropped)
        except (KafkaException, ValueError, TypeError, NotImplementedError) as exc:
            return AdminResult(operation, self.kind, self.version, self.request_version(mark, api),
                               exception=type(exc).__name__, exception_message=str(exc),
                               unsupported_options=tuple(dropped), librdkafka_version=self.librdkafka_version)
        outcomes = tuple(describe(key, future) for key, future in futures.items())
        return AdminResult(operation, self.kind, self.version, self.request_version(mark, api), outcomes,
                           unsupported_options=tuple(dropped), librdkafka_version=self.librdkafka_version)


# Options that only ask for more detail; a release without them can still make the call.
_DROPPABLE = frozenset({"include_synonyms", "include_documentation"})
ENTRY_ORDER = ("name", "value", "read_only", "source", "is_default", "sensitive", "synonyms", "type", "documentation")


def type_label(resource: Any) -> str:
    restype = getattr(resource, "restype", None)
    name = getattr(restype, "name", str(restype))
    return str(name).lower()


def _source(entry: Any) -> str:
    """confluent-kafka gives the source as an enum in some versions, an int in others."""
    source = getattr(entry, "source", None)
    if isinstance(source, int) and not hasattr(source, "name"):
        return CONFIG_SOURCES.get(source, str(source))
    name = str(getattr(source, "name", source))
    return "UNKNOWN" if name in ("UNKNOWN_CONFIG", "None") else name


def config_entry(entry: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": entry.name, "value": entry.value, "read_only": bool(entry.is_read_only),
                           "source": _source(entry), "is_default": bool(entry.is_default),
                           "sensitive": bool(entry.is_sensitive)}
    synonyms = getattr(entry, "synonyms", None)
    if synonyms is not None:
        out["synonyms"] = [{"name": s.name, "value": s.value, "source": _source(s)} for s in synonyms.values()]
    for attribute in ("type", "documentation"):  # KIP-569, where this version exposes it
        if hasattr(entry, attribute):
            value = getattr(entry, attribute)
            out[attribute] = getattr(value, "name", value)
    return out
