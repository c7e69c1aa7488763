"""The registry of client kinds: each kind is one package of this package, found by its name.

A kind's package (``wire/``, ``confluent/``, ``java/``, ``kafka_python/`` for the kind
``kafka-python``) declares ``KIND`` in its ``__init__``, a ``ClientKind`` saying everything the harness knows about it: how
a reference to it is written, how a client is made, where its limits come from,
how its refusal of a request version looks, which Python or release check it
needs.  Its other modules are helpers its implementations of the admin
operations share; those live in each operation's folder, one module per kind
named after it (``kcompat.harness.operations``).  Nothing outside a
kind's own modules branches on its name; it asks ``kind(name)``.  Adding a kind
is adding a package here (and the adapter modules its ``modules`` names).

A kind's ``__init__`` must import quickly and without its client library: it
names the adapter it makes (imported when a client is made), so listing the
kinds loads no confluent_kafka and starts no JVM.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ...catalog import Catalog
from ...config import HarnessConfig
from ...errors import ConfigError, HarnessError
from ..base import AdminClient, AdminResult, ClientLimits, Endpoint

Release = Literal["none", "optional", "required"]
"""Whether a reference names a release: never (wire: kio's schemas), optionally (confluent: the installed one
by default), always (java: a kafka-clients release)."""


@dataclass(frozen=True)
class Refusal:
    """How a client records a request version the pair can't use, beyond Kafka's own UNSUPPORTED_VERSION error."""

    exceptions: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()


KAFKA_REFUSAL = Refusal(errors=("UNSUPPORTED_VERSION",))
"""The broker's refusal in Kafka's words, as every client records its error code."""

SettingType = Literal["version", "bool", "int", "choice"]
_VERSION = re.compile(r"\d+(?:\.\d+){1,3}", re.ASCII)
_INT = re.compile(r"0|[1-9]\d{0,9}", re.ASCII)
_BOOL = {"true": True, "false": False}


@dataclass(frozen=True)
class Setting:
    """One of a library's own settings a client reference may carry (``sarama:1.38.1@version=2.3.0``)."""

    name: str
    """The reference's key (``version``, ``api.version.request``)."""
    type: SettingType
    about: str
    """One line: what the library does with it, in its own name for it."""
    choices: tuple[str, ...] = ()
    """The values a ``choice`` takes."""
    broker: bool = False
    """It takes ``broker``: the cell's broker release (what the library's docs advise users to pin)."""

    def value(self, text: str) -> bool | int | str:
        """The typed value of ``text`` (``broker`` left as written); one line naming what it takes otherwise."""
        if text == "broker" and self.broker:
            return text
        if self.type == "bool" and text in _BOOL:
            return _BOOL[text]
        if self.type == "int" and _INT.fullmatch(text):
            return int(text)
        if (self.type == "version" and _VERSION.fullmatch(text)) or (self.type == "choice" and text in self.choices):
            return text
        raise ConfigError(f"{self.name} takes {self.takes()}, not {text!r}")

    def takes(self) -> str:
        """What values it takes, as the error and docs/CLIENTS.md say it."""
        taken = {"version": "a version (ASCII digits and dots, e.g. 2.3.0)", "bool": "true or false",
                 "int": "a whole number (ASCII digits)", "choice": " or ".join(self.choices)}[self.type]
        return f"{taken} or broker (the cell's broker release)" if self.broker else taken


@dataclass(frozen=True)
class ClientKind:
    """One kind of client on the matrix's client axis."""

    name: str
    """The reference's kind (``wire``); equal to its package's name."""
    order: int
    """Where the kind sorts on the page and in summaries (wire 0, confluent 10, java 20)."""
    library: str
    """What a release of this kind is a release of (``kio``, ``confluent-kafka``, ``kafka-clients``)."""
    release: Release
    release_note: str
    """Why a reference must (or can't) name a release: the end of the one-line error when it doesn't."""
    make: Callable[[Endpoint, HarnessConfig, str | None, str | None, Mapping[str, object]], AdminClient]
    """(endpoint, config, release, run id, settings) -> a client; imports the adapter on first use.  ``settings``
    holds the reference's settings typed (``broker`` resolved to the cell's broker release) and ``surface``."""
    limits: Callable[[AdminClient, HarnessConfig], ClientLimits]
    """The request versions this client's release can send: stated (kio, kafka-clients) or measured."""
    modules: tuple[str, ...]
    """The harness modules that belong to this kind (its adapter and helpers): only they may name it."""
    refusal: Refusal = Refusal()
    measured: bool = False
    """Its limits are measured against the stub broker (``kcompat clients limits`` takes it); a request newer
    than the measurement means the measurement is stale."""
    pinnable: bool = False
    """A reference may pin a request version (``wire@v5``); the matrix adds pinned cells around a claim's bound."""
    pins: Callable[[int], range] | None = None
    """The request versions of an API (by key) a pinned reference can send: a pin outside them is refused before
    anything boots."""
    chooses_broker: bool = False
    """It can send a request to a broker the caller names (the others pick their own)."""
    lists_by_describe: bool = False
    """It lists topics through DescribeTopicPartitions' listing mode (no names); the others describe by name."""
    documents_itself: bool = False
    """Its releases are kafka-clients releases, whose Admin javadoc documents their own cells (DOCS-admin);
    another kind's cells are documented by the newest kafka-clients release of the catalog."""
    installed: Callable[[], str] | None = None
    """The release this Python has, for a reference that names none (``confluent`` -> ``confluent:2.16.1``)."""
    check_release: Callable[[str, HarnessConfig], str] | None = None
    """Refuses (ConfigError, before anything boots) a release its registry does not publish."""
    python: Callable[[str, HarnessConfig, Path], Path] | None = None
    """A Python of its own for a release other than the installed one (a venv made for it, logging to the
    path given): the kind is an install-time axis.  None: every release runs in this Python."""
    run_json: Callable[[RunReleases], dict[str, object]] | None = None
    """run.json's entries about this kind (``java_clients``, ``confluent``), written as the run starts and,
    where it returns any then, again from the records once it has run."""
    perform_by_name: Callable[[AdminClient, str, object], AdminResult] | None = None
    """Runs any operation by its name with its arguments as JSON (a sidecar): operations this kind has no
    module for (``kcompat.harness.operations.perform``)."""
    program: Callable[[], str] | None = None
    """An adapter kind: the digest of its adapter program's sources, which a measurement of its limits records
    (a measurement made by other sources is measured again)."""
    survey_default: Callable[[Catalog], tuple[str, ...]] | None = None
    """The references ``kcompat clients survey`` drives when none are named; None: the kind's name alone."""
    install: Callable[[str, HarnessConfig], None] | None = None
    """An adapter kind: builds or installs a release's program once (then cached), so that it is made ahead of
    its first use (shown as a step, ``clients.install_client``), not inside a cell's time or a call's deadline."""
    settings: Mapping[str, Setting] = field(default_factory=dict, hash=False)
    """The library's own settings a reference may carry (``@key=value``), by key."""
    surfaces: tuple[str, ...] = ("admin",)
    """Its public admin surfaces (``@surface=NAME``); the first is the default, the one a bare reference drives."""

    def own_python(self, release: str | None) -> bool:
        """Whether a release's cells run in a Python of their own (``python``), not in this one."""
        if self.python is None or release is None:
            return False
        try:
            return self.installed is None or release != self.installed()
        except ConfigError:  # nothing installed here: every release has its own
            return True

    def refuses(self, exception: object, error: object) -> bool:
        """Whether an observation's exception or error is this client's (or Kafka's) refusal of a version."""
        return (exception in self.refusal.exceptions or error in self.refusal.errors
                or error in KAFKA_REFUSAL.errors)


@dataclass(frozen=True)
class RunReleases:
    """A run's releases of one kind, for ``ClientKind.run_json``."""

    selected: tuple[str, ...]
    """Named by the selection (``--clients``), unresolved."""
    planned: tuple[str, ...]
    """Of the planned cells (a reference naming none resolved to the installed release)."""
    ran: tuple[tuple[str, str | None], ...] | None = None
    """(client release, release of the library under it) of its records; None before the run."""


@functools.cache
def registry() -> dict[str, ClientKind]:
    """Every kind, in page order: each package here declaring ``KIND`` (package name = kind name)."""
    found: dict[str, ClientKind] = {}
    for module in pkgutil.iter_modules(__path__):
        declared = getattr(importlib.import_module(f"{__name__}.{module.name}"), "KIND", None)
        name = module.name.replace("_", "-")
        if not isinstance(declared, ClientKind) or declared.name != name:
            raise HarnessError(f"src/kcompat/harness/clients/kinds/{module.name}/__init__.py declares no KIND named {name!r}")
        found[name] = declared
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def kind_names() -> tuple[str, ...]:
    return tuple(registry())


def kind(name: str) -> ClientKind:
    """The kind called ``name``; an unknown one is one line naming the known kinds."""
    try:
        return registry()[name]
    except KeyError:
        raise ConfigError(f"unknown client kind {name!r}; known: {', '.join(registry())}") from None


def kind_rank(name: str) -> int:
    """A kind's place in page order; kinds this installation does not know (records from elsewhere) last."""
    names = kind_names()
    return names.index(name) if name in names else len(names)


__all__ = ["KAFKA_REFUSAL", "ClientKind", "Refusal", "RunReleases", "Setting", "SettingType", "kind", "kind_names",
           "kind_rank", "registry"]
