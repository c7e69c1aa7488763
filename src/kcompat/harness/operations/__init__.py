"""Admin operations: each one folder holding everything about it, found by its name.

An operation is one package of this package (folder name = operation name).
Its ``__init__`` declares an ``Operation``: the name (the ``AdminResult``'s
``operation``, the adapters' handler), a frozen dataclass of typed arguments,
the Kafka API whose request version the result records, the sample calls the
client limits are measured with, and the Java sidecar's class that performs it
(``ops/<java_class>.java``, compiled with each kafka-clients release).  A
caller passes the declared object and an argument value
(``perform(client, CREATE_TOPICS, CreateTopicsArgs(...))``), so mypy checks
both.  Its result is an ``AdminResult`` whatever the client.

Beside the spec, the folder holds each client kind's implementation in a
module named after the kind (``wire.py``, ``confluent.py``; ``kafka_python.py``
for ``kafka-python``), registered with ``@OPERATION.implement(ClientClass)``
and imported the first time a client of the kind performs the operation; a
kind whose client runs any operation by name (a sidecar, an adapter:
``ClientKind.perform_by_name``) needs none.  The probes that observe the
operation are ``probe.py`` (the probe named after it) and ``probe_<name>.py``
(``kcompat.harness.matrix.probes``), and a set-up only they use is
``setup.py``.  Adding an operation is adding a folder; no existing file
changes.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..clients.base import AdminClient, AdminResult
from ..clients.kinds import kind
from ..errors import HarnessError

A = TypeVar("A")
C = TypeVar("C")
Implementation = Callable[[C, A, int | None], AdminResult]
"""(client, arguments, the request version a pinned client sends or None) -> the neutral result."""


class NoImplementation(Exception):
    """A client kind has no implementation of an operation: nothing was sent, so nothing can be judged."""


@dataclass(frozen=True, eq=False)
class Operation(Generic[A]):
    """One admin operation; implementations register on it, one per client class."""

    name: str
    args: type[A]
    api: str
    """The Kafka API whose request version the result's ``request_version`` is (``CreateTopics``)."""
    about: str
    samples: Callable[[str], Sequence[A]]
    """The calls ``kcompat.harness.clients.limits.exercise`` makes against the stub broker, given a topic name."""
    java_class: str = ""
    """The Java sidecar's class performing it (``ops/ListOffsets.java``; "" where it has none): the sidecar
    finds it by the operation's name, so it is that name in CamelCase."""
    _implementations: dict[type, Callable[..., AdminResult]] = field(default_factory=dict, repr=False)

    def implement(self, client: type[C]) -> Callable[[Implementation[C, A]], Implementation[C, A]]:
        """Registers the decorated function as this operation's implementation for ``client``'s class."""
        def register(implementation: Implementation[C, A]) -> Implementation[C, A]:
            self._implementations[client] = implementation
            return implementation

        return register

    def implementation(self, client: object) -> Implementation[Any, A] | None:
        """The implementation registered for ``client``'s class (or a base class), if one is."""
        for cls in type(client).__mro__:
            if cls in self._implementations:
                found: Implementation[Any, A] = self._implementations[cls]
                return found
        return None


def perform(client: AdminClient, operation: Operation[A], args: A, *, version: int | None = None) -> AdminResult:
    """``operation`` through ``client`` (at request version ``version`` where the client is pinned);
    ``NoImplementation`` when its kind has none."""
    implementation = operation.implementation(client)
    if implementation is None:
        module = implementation_module(operation.name, client.kind)
        if _exists(module):
            importlib.import_module(module)  # registers it
            implementation = operation.implementation(client)
    if implementation is not None:
        return implementation(client, args, version)
    by_name = kind(client.kind).perform_by_name
    if by_name is None:
        raise NoImplementation(f"{client.kind} has no implementation of {operation.name} "
                               f"(src/kcompat/harness/operations/{operation.name}/{module_name(client.kind)}.py)")
    return by_name(client, operation.name, args)


@functools.cache
def _exists(module: str) -> bool:
    """Whether an operation's folder has a module for a kind (asked once: adapter kinds have none, every call)."""
    return importlib.util.find_spec(module.rpartition(".")[0]) is not None and importlib.util.find_spec(module) is not None


def module_name(kind: str) -> str:
    """The module of an operation's folder implementing it for a kind (``kafka-python`` -> ``kafka_python``)."""
    return kind.replace("-", "_")


def implementation_module(operation: str, kind: str) -> str:
    return f"{__name__}.{operation}.{module_name(kind)}"


@functools.cache
def operations() -> dict[str, Operation[Any]]:
    """Every declared operation by name: the ``Operation`` each folder of this package declares, named after it."""
    found: dict[str, Operation[Any]] = {}
    for module in folders():
        loaded = importlib.import_module(f"{__name__}.{module}")
        declared = [v for v in vars(loaded).values() if isinstance(v, Operation) and v.name == module]
        if len(declared) != 1:
            raise HarnessError(f"src/kcompat/harness/operations/{module}/__init__.py declares no Operation named {module!r}")
        found[module] = declared[0]
    return found


def folders() -> tuple[str, ...]:
    """The operations' folders, without importing them (the probe registry reads them too)."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg and not m.name.startswith("_")))


__all__ = ["Implementation", "NoImplementation", "Operation", "folders", "implementation_module", "module_name",
           "operations", "perform"]
