"""The probes, each one declared thing: what it observes and takes, and how, in one module found by its name.

A probe observes one kind of claim on a cell, the same way through every
client.  It lives in the folder of the operation it calls
(``kcompat.harness.operations``): ``probe.py`` is the probe named after the
operation, ``probe_<name>.py`` another one (``create_topics/probe_create_topic_policy.py``);
a probe that calls no operation is a module of this package (file name =
probe name).  Each holds one function decorated with
``@probe(ProbeSpec(...))``: the spec says which
keys it observes (the only ones a claim on it may name) and which arguments
it takes (checked as the claim book loads, before anything boots); the
function makes the cell's admin call through ``ctx.call`` with a declared
operation (``kcompat.harness.operations``) and returns the observation under those
keys.  A key the client or request version does not have is left out, a
value that raised when read is ``{"raised": "ExceptionClass"}``; set-up steps
go through ``ctx.admin`` (the super user's wire client) and raise
``ProbeFailed`` on an error (``kcompat.harness.matrix.probe``).  Helpers several
probes share are in ``_shared``; a module whose name starts with ``_`` is
no probe.

This module imports neither the probe modules nor the probe context: the
claim loader reads the specs (``kcompat.harness.matrix.observables.PROBES``) through
it, and the modules, which need the context, are imported the first time the
registry is asked.  Adding a probe edits no existing file.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ...errors import HarnessError

CONFIG_ATTRIBUTES = ("value", "source", "read_only", "sensitive", "type", "documentation", "is_default",
                     "synonyms")
OUT_OF_RANGE = "out_of_range"
"""The key the cell itself observes whatever the probe (``kcompat.harness.recorder.out_of_range``): the requests the
client sent outside the broker's range.  A claim may name it to document that behaviour."""

Observe = Callable[..., dict[str, Any]]
"""A probe's function: (``kcompat.harness.matrix.probe.ProbeContext``) -> the observation (left unnamed here: the
context's module imports the claim loader, which imports this one)."""
F = TypeVar("F", bound=Observe)


@dataclass(frozen=True)
class ProbeSpec:
    """What one probe observes (``keys``; ``config.<name>.<attribute>`` where ``configs``) and takes."""

    name: str
    keys: frozenset[str]
    args: Mapping[str, type | tuple[type, ...]]
    config_keys: bool = False
    about: str = ""
    sends_request: bool = True
    """False for a probe that only inspects the client library: no version of any API is involved."""
    reads: tuple[tuple[str, str], ...] = ()
    """(observed key, the result field it reads) where the two names differ (``cluster_id_matches`` reads
    ``cluster_id``): a client that declares the field unsupported is short of the key."""

    def knows(self, key: str) -> bool:
        if key in self.keys or key == OUT_OF_RANGE:
            return True
        if self.config_keys and key.startswith("config."):
            name, _, attribute = key[len("config."):].rpartition(".")
            return bool(name) and attribute in CONFIG_ATTRIBUTES
        return False


@dataclass(frozen=True)
class Declared:
    """A registered probe: its spec and its function."""

    spec: ProbeSpec
    observe: Observe


_DECLARED: dict[str, list[Declared]] = {}
"""Module name -> the probes its ``@probe`` decorators declared, filled as each module is imported."""


def probe(spec: ProbeSpec) -> Callable[[F], F]:
    """Declares the decorated function as the probe ``spec`` describes (in the module named ``spec.name``)."""
    def register(function: F) -> F:
        _DECLARED.setdefault(function.__module__, []).append(Declared(spec, function))
        return function

    return register


@functools.cache
def registry() -> dict[str, Declared]:
    """Every probe by name: the one each probe module declares with ``@probe``, named as its file says."""
    found: dict[str, Declared] = {}
    for name, module, path in modules():
        loaded = importlib.import_module(module)
        declared = _DECLARED.get(loaded.__name__, [])
        if [d.spec.name for d in declared] != [name]:
            raise HarnessError(f"{path} must declare one probe, named {name!r} (@probe(ProbeSpec({name!r}, "
                               f"...))); it declares {', '.join(repr(d.spec.name) for d in declared) or 'none'}")
        if name in found:
            raise HarnessError(f"{path} declares the probe {name!r} a probe module elsewhere declares too")
        found[name] = declared[0]
    return dict(sorted(found.items()))


def modules() -> list[tuple[str, str, str]]:
    """(probe name, module, path as written in the repository) of every probe module: this package's own and
    the operations' folders' ``probe.py`` and ``probe_<name>.py``."""
    from ... import operations  # imported when the registry is first asked: it loads the client kinds

    found = [(m.name, f"{__name__}.{m.name}", f"src/kcompat/harness/matrix/probes/{m.name}.py")
             for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    for folder in operations.folders():
        for m in pkgutil.iter_modules([str(Path(operations.__file__).parent / folder)]):
            if m.name == "probe" or m.name.startswith("probe_"):
                name = folder if m.name == "probe" else m.name.removeprefix("probe_")
                found.append((name, f"{operations.__name__}.{folder}.{m.name}",
                              f"src/kcompat/harness/operations/{folder}/{m.name}.py"))
    return found


def specs() -> dict[str, ProbeSpec]:
    """Every probe's spec by name (what the claim loader checks claims against)."""
    return {name: declared.spec for name, declared in registry().items()}


def implementation(name: str) -> Observe:
    """The function of the probe called ``name`` (a claim book names only registered probes)."""
    return registry()[name].observe


__all__ = ["CONFIG_ATTRIBUTES", "Declared", "Observe", "ProbeSpec", "implementation", "modules", "probe",
           "registry", "specs"]
