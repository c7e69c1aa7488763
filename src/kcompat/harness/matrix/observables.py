"""The vocabulary of observations: what each probe can observe, and the matchers claims use.

A claim's documented side is a set of ``key = matcher`` pairs; a probe
(``kcompat.harness.matrix.probes``, one module each, its spec beside its function)
fills the same keys from what a client returned.  Both sides meet here: the
claim loader checks every key a claim names against its probe's vocabulary
(``PROBES``; so a typo is a load error, not a silent pass), and ``match``
compares one documented matcher with one observed value.

Observed values are JSON.  A key the client or request version does not have
is left out (``absent``); a value that raised when read is ``{"raised":
"ExceptionClass"}``.  Standard library only until ``PROBES`` is first read
(which imports the probe modules): the verdict is pure logic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from .probes import CONFIG_ATTRIBUTES, OUT_OF_RANGE, ProbeSpec, specs

ABSENT: Any = object()
"""What ``observed.get(key, ABSENT)`` gives for a key the observation does not have."""


class _Specs(Mapping[str, ProbeSpec]):
    """Every probe's spec by name, read from the probes' registry when first asked (``kcompat.harness.matrix.probes``):
    the claim loader imports this module, and the probe modules import the claim loader."""

    def __getitem__(self, name: str) -> ProbeSpec:
        return specs()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(specs())

    def __len__(self) -> int:
        return len(specs())


PROBES: Mapping[str, ProbeSpec] = _Specs()
"""What each probe observes and takes, by name: one declaration per probe, in its module."""

_MATCHERS = ("present", "absent", "null", "missing", "type", "in", "contains", "raises")


def result_field(key: str) -> str:
    """The result field (docs/ADAPTERS.md's ``result_fields`` name) an observed key reads: ``config.<name>.<attribute>``
    reads ``configs.<attribute>``; any other key the field of its own name."""
    return "configs." + key.rpartition(".")[2] if key.startswith("config.") else key
_TYPES: dict[str, type | tuple[type, ...]] = {"string": str, "int": int, "bool": bool, "list": list, "object": dict, "number": (int, float)}
_EXCEPTION = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def check_matcher(value: Any) -> str | None:
    """Why ``value`` is not a valid matcher, or None when it is."""
    if not isinstance(value, dict):
        return None  # a literal: equality
    if len(value) != 1:
        return f"a matcher has exactly one of {', '.join(_MATCHERS)}; got {', '.join(value) or 'none'}"
    (kind, argument), = value.items()
    if kind not in _MATCHERS:
        return f"unknown matcher {kind!r}; known: {', '.join(_MATCHERS)}"
    if kind in ("present", "absent", "null", "missing") and argument is not True:
        return f"{kind} takes true"
    if kind == "type" and argument not in _TYPES:
        return f"type is one of {', '.join(_TYPES)}, not {argument!r}"
    if kind in ("in", "contains") and not isinstance(argument, list):
        return f"{kind} takes a list"
    if kind == "raises" and not (isinstance(argument, str) and _EXCEPTION.match(argument)):
        return f"raises takes an exception's simple class name, not {argument!r}"
    return None


def _is_type(value: Any, name: str) -> bool:
    if name in ("int", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[name])


def match(documented: Any, observed: Any) -> bool:
    """Whether one observed value (``ABSENT`` when not observed) meets one documented matcher."""
    raised = isinstance(observed, dict) and set(observed) == {"raised"}
    if not isinstance(documented, dict):
        return observed is not ABSENT and not raised and observed == documented
    (kind, argument), = documented.items()
    if kind == "absent":
        return observed is ABSENT
    if kind == "present":
        return observed is not ABSENT and not raised
    if kind == "null":
        return observed is None
    if kind == "missing":
        return observed is ABSENT or observed is None
    if kind == "raises":
        return raised and str(observed["raised"]).rsplit(".", 1)[-1] == argument
    if observed is ABSENT or raised:
        return False
    if kind == "type":
        return _is_type(observed, argument)
    if kind == "in":
        return observed in argument
    if kind == "contains":
        return isinstance(observed, list) and all(item in observed for item in argument)
    raise AssertionError(f"unchecked matcher {kind}")


def shown(observed: Any) -> Any:
    """An observed value as a record shows it (``ABSENT`` becomes the marker ``{"absent": true}``)."""
    return {"absent": True} if observed is ABSENT else observed


__all__ = ["ABSENT", "CONFIG_ATTRIBUTES", "OUT_OF_RANGE", "PROBES", "ProbeSpec", "check_matcher", "match", "result_field", "shown"]
