"""Admin operations, each one declared thing: its arguments, its neutral result, the API whose version it records.

An operation is one module of this package (file name = operation name)
declaring an ``Operation``: the name (the ``AdminResult``'s ``operation``,
the Java sidecar's op), a frozen dataclass of typed arguments, the Kafka API
whose request version the result records, and the sample calls the client
limits are measured with.  A caller passes the declared object and an
argument value (``perform(client, CREATE_TOPICS, CreateTopicsArgs(...))``),
so mypy checks both.  Its result is an ``AdminResult`` whatever the client.

Each client kind implements it in a module named after it inside the kind's
package (``harness/clients/kinds/<kind>/<operation>.py``), registered with
``@OPERATION.implement(ClientClass)``; ``perform`` imports that module the
first time a client of the kind performs the operation.  A kind whose client
runs any operation by name (a sidecar: ``ClientKind.perform_by_name``) needs
no module where the arguments' JSON is what the sidecar reads.  Adding an
operation edits no existing file.
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
from ..clients.kinds import kind, package_of
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
        module = f"{package_of(client.kind)}.{operation.name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)  # registers it
            implementation = operation.implementation(client)
    if implementation is not None:
        return implementation(client, args, version)
    by_name = kind(client.kind).perform_by_name
    if by_name is None:
        raise NoImplementation(f"{client.kind} has no implementation of {operation.name} "
                               f"(harness/clients/kinds/{package_of(client.kind).rsplit('.', 1)[-1]}/{operation.name}.py)")
    return by_name(client, operation.name, args)


@functools.cache
def operations() -> dict[str, Operation[Any]]:
    """Every declared operation by name: the ``Operation`` of each module of this package named after it."""
    found: dict[str, Operation[Any]] = {}
    for module in pkgutil.iter_modules(__path__):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        declared = [v for v in vars(loaded).values() if isinstance(v, Operation) and v.name == module.name]
        if len(declared) != 1:
            raise HarnessError(f"harness/operations/{module.name}.py declares no Operation named {module.name!r}")
        found[module.name] = declared[0]
    return found


__all__ = ["Implementation", "NoImplementation", "Operation", "operations", "perform"]
