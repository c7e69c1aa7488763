"""A documented matcher in words, as the detail pane shows it: ``is null``, not ``{"null":true}``.

Records carry a claim's expectations as JSON matchers (docs/RECORDS.md); a reader wants what they mean
(docs/CLAIMS.md's table).  Every kind the claim loader accepts has words here, and a test keeps the two in
step; a literal reads as equality, and a kind this page does not know (a newer harness's) as its JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def _listed(values: Any) -> str:
    return ", ".join(map(_json, values)) if isinstance(values, list) else _json(values)


WORDS: Mapping[str, Callable[[Any], str]] = {
    "present": lambda _: "is present (any value)",
    "absent": lambda _: "is absent",
    "null": lambda _: "is null",
    "missing": lambda _: "is absent or null",
    "type": lambda name: f"is of type {name}",
    "in": lambda values: f"is one of {_listed(values)}",
    "contains": lambda values: f"is a list holding {_listed(values)}",
    "raises": lambda name: f"raises {name} when read",
}
"""Each matcher kind's words, given its argument."""


def words(matcher: Any) -> str:
    """``matcher`` as a sentence's predicate about the observed value."""
    if isinstance(matcher, dict):
        said = WORDS.get(next(iter(matcher))) if len(matcher) == 1 else None
        return said(next(iter(matcher.values()))) if said else _json(matcher)
    return f"is {_json(matcher)}"


def with_words(documented: Any) -> Any:
    """``documented`` with ``said``, each expected key's matcher in words, for the page's script."""
    expect = documented.get("expect") if isinstance(documented, dict) else None
    if not isinstance(expect, dict):
        return documented
    return {**documented, "said": {key: words(matcher) for key, matcher in expect.items()}}
