"""A document's statements about another document's claims: what older pairs observe, and which word decides.

The KIP that introduced a feature often says what a new client sees against an older broker (a field comes
back null, an option is ignored, a call falls back to an older request), where the Admin javadoc only names
a minimum release, below which kcompat generates "the call is refused".  Such a statement is an
``[[overrides]]`` table of the KIP's claims file, naming the claims it speaks of; KIP-896's removal of old
request versions is one too (``case = "removed"``).  Per cell, the first of these decides what a short pair
observes, in a fixed order (``PRECEDENCE``): the claim's own words in range, the KIP that introduced the
feature (the claim's own fallback or another KIP's override), KIP-896's removals, the javadoc minimum, the
generated refusal.  Two documents of one rank that disagree on a cell are a load error naming both: which
one decides would otherwise depend on the order the files load.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal, Protocol

from ..errors import ConfigError
from ..records import LIMITED_BY
from ..versions import KafkaVersion
from .observables import PROBES, check_matcher

Case = Literal["short", "removed"]
Precedence = Literal["claim", "introduced", "removal", "javadoc", "generated"]
"""What decided a cell's documented side, first first (``verdict.judge`` applies the order): the claim's
expectation (in range), the introducing KIP's statement about older pairs, KIP-896's removals, the javadoc
minimum, the generated refusal."""
RANK: Mapping[Case, Precedence] = {"short": "introduced", "removed": "removal"}
REFUSED = "refused"
_KEYS = ("claims", "case", "limited_by", "clients", "brokers", "section", "quote", "observe")
_BOUND = re.compile(r"(?P<op>>=|<)\s*(?P<version>[0-9]+(?:\.[0-9]+){1,3})\Z")
_PATTERN = re.compile(r"[A-Za-z0-9*?\[\]/.-]+\Z")


@dataclass(frozen=True)
class Override:
    """One statement of a document about older pairs of other documents' claims."""

    document: str
    where: str
    """``file:line`` of its ``[[overrides]]`` table, for messages."""
    patterns: tuple[str, ...]
    case: Case
    limited_by: tuple[str, ...]
    clients: tuple[str, ...]
    section: str
    quote: str
    observe: Mapping[str, Any]
    since: KafkaVersion | None = None
    before: KafkaVersion | None = None

    @property
    def rank(self) -> Precedence:
        return RANK[self.case]

    def holds_for(self, broker: KafkaVersion | None) -> bool:
        """Whether the statement covers a broker of this release (unknown: only an unbounded statement)."""
        if self.since is None and self.before is None:
            return True
        return broker is not None and (self.since is None or broker >= self.since) and (
            self.before is None or broker < self.before)

    def applies(self, case: Case, side: str, client_kind: str, broker: KafkaVersion | None) -> bool:
        return (self.case == case and side in self.limited_by and (not self.clients or client_kind in self.clients)
                and self.holds_for(broker))


def parse(data: Mapping[str, Any], lines: Sequence[str], path: str, document: str,
          error: Callable[[str], ConfigError]) -> tuple[Override, ...]:
    """The ``[[overrides]]`` tables of one claims file, each checked on its own (what it matches is checked
    once the whole book is loaded: ``attach``)."""
    raw = data.get("overrides", [])
    headers = [i for i, line in enumerate(lines) if line.strip() == "[[overrides]]"]

    def at(index: int, key: str | None = None) -> str:
        start = headers[index] if index < len(headers) else 0
        if key is not None:
            pattern = re.compile(rf"(^|[\s{{,])\"?{re.escape(key)}\"?\s*=")
            start = next((i for i in range(start, len(lines)) if pattern.search(lines[i])), start)
        return f"{path}:{start + 1}"

    if not isinstance(raw, list):
        raise error(f"{path}: overrides is a list of tables ([[overrides]])")
    return tuple(_one(entry, functools.partial(at, i), document, error) for i, entry in enumerate(raw))


def _one(raw: Any, at: Callable[[str | None], str], document: str,
         error: Callable[[str], ConfigError]) -> Override:
    def fail(key: str | None, reason: str) -> ConfigError:
        return error(f"{at(key)}: {reason}")

    if not isinstance(raw, dict):
        raise fail(None, "[[overrides]] entries are tables")
    unknown = sorted(set(raw) - set(_KEYS))
    if unknown:
        raise fail(unknown[0], f"unknown key {unknown[0]!r} in [[overrides]]; known: {', '.join(_KEYS)}")
    patterns = _strings(raw.get("claims"), fail, "claims", required=True)
    for pattern in patterns:
        if not _PATTERN.match(pattern):
            raise fail("claims", f"{pattern!r} is not a claim id or pattern (KIP-516/describe-by-id, DOCS-admin/*)")
    case: Case = raw.get("case", "short")
    if not isinstance(case, str) or case not in RANK:
        raise fail("case", f"case is \"short\" (a side lacks the claim's version) or \"removed\" (a side no longer "
                           f"has the other's versions, KIP-896), not {case!r}")
    limited_by = _strings(raw.get("limited_by", list(LIMITED_BY)), fail, "limited_by", required=True)
    for side in limited_by:
        if side not in (LIMITED_BY if case == "short" else ("broker", "client")):
            raise fail("limited_by", f"limited_by of a {case!r} statement is one of "
                                     f"{', '.join(LIMITED_BY if case == 'short' else ('broker', 'client'))}, "
                                     f"not {side!r}")
    for key in ("section", "quote"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise fail(None, f"[[overrides]] needs `{key}` (a string: the document's own words for quote)")
    observe = raw.get("observe")
    if not isinstance(observe, dict) or not observe:
        raise fail("observe", "[[overrides]] needs `observe`, a table of key = value or matcher")
    for key, matcher in observe.items():
        if (problem := check_matcher(matcher)) is not None:
            raise fail(key, f"{key}: {problem}")
    if case == "removed" and dict(observe) != {REFUSED: True}:
        raise fail("observe", "a \"removed\" statement observes the refusal: observe = { refused = true }")
    since, before = _bound(raw.get("brokers"), fail)
    return Override(document, at(None), patterns, case, limited_by, _strings(raw.get("clients", []), fail, "clients"),
                    raw["section"], " ".join(raw["quote"].split()), dict(observe), since, before)


def _strings(value: Any, fail: Callable[[str | None, str], ConfigError], key: str, *,
             required: bool = False) -> tuple[str, ...]:
    if (not isinstance(value, list) or not all(isinstance(v, str) and v for v in value)
            or (required and not value)):
        raise fail(key if value is not None else None,
                   f"{key} is a list of {'one or more ' if required else ''}non-empty strings")
    return tuple(value)


def _bound(value: Any, fail: Callable[[str | None, str], ConfigError]) -> tuple[KafkaVersion | None,
                                                                               KafkaVersion | None]:
    if value is None:
        return None, None
    match = _BOUND.match(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise fail("brokers", f"brokers is a release bound like \">=4.0\" or \"<2.4\", not {value!r}")
    version = KafkaVersion.parse(match["version"])
    return (version, None) if match["op"] == ">=" else (None, version)


class Subject(Protocol):
    """What a statement is checked against: a claim of the book (``claims.Claim``)."""

    @property
    def id(self) -> str: ...
    @property
    def kip(self) -> str: ...
    @property
    def probe(self) -> str: ...
    @property
    def method(self) -> str | None: ...


def attach(claims: Sequence[Subject], statements: Sequence[Override],
           error: Callable[[str], ConfigError]) -> dict[str, tuple[Override, ...]]:
    """Each claim's statements by other documents (by claim id); a pattern that matches no claim of another
    document, an observed key the claim's probe lacks, or two documents of one rank disagreeing on a cell is
    a load error."""
    found: dict[str, list[Override]] = {}
    for override in statements:
        matched = [c for c in claims if c.kip != override.document
                   and any(fnmatchcase(c.id, p) for p in override.patterns)]
        if not matched:
            raise error(f"{override.where}: overrides names no claim of another document: "
                        f"{', '.join(override.patterns)}")
        for claim in matched:
            if override.case == "short" and claim.method is None:
                raise error(f"{override.where}: {claim.id} says what its own older pairs observe (its "
                            "[[claim.fallback]]); a \"short\" statement decides a javadoc claim's, whose "
                            "fallback is only the generated refusal")
            _check_keys(override, claim, error)
            found.setdefault(claim.id, []).append(override)
    for claim in claims:
        _check_rank(claim, found.get(claim.id, []), error)
    return {claim_id: tuple(said) for claim_id, said in found.items()}


def _check_keys(override: Override, claim: Subject, error: Callable[[str], ConfigError]) -> None:
    spec = PROBES[claim.probe]
    for key in override.observe:
        if key != REFUSED and not spec.knows(key):
            raise error(f"{override.where}: {claim.id}'s probe {claim.probe} does not observe {key!r}; it observes "
                        f"{', '.join(sorted(spec.keys))} (and refused)")


def _check_rank(claim: Subject, overrides: Iterable[Override], error: Callable[[str], ConfigError]) -> None:
    """Two documents of one rank documenting one cell of ``claim`` differently: refused, naming both."""
    statements = list(overrides)
    for i, first in enumerate(statements):
        for second in statements[i + 1:]:
            if first.document == second.document or first.case != second.case:
                continue
            clash = _clash(first, second)
            if clash is not None:
                raise error(f"{second.where}: {second.document} and {first.document} ({first.where}) document "
                            f"{claim.id} differently, both as the {first.rank} word on {clash}")


def _clash(first: Override, second: Override) -> str | None:
    """The key two statements of one rank give different values for on a cell both cover, or None."""
    sides = set(first.limited_by) & set(second.limited_by)
    kinds_meet = not first.clients or not second.clients or bool(set(first.clients) & set(second.clients))
    low = max((v for v in (first.since, second.since) if v is not None), default=None)
    high = min((v for v in (first.before, second.before) if v is not None), default=None)
    if not sides or not kinds_meet or (low is not None and high is not None and low >= high):
        return None
    for key in sorted(set(first.observe) & set(second.observe)):
        if first.observe[key] != second.observe[key]:
            return (f"{key} ({first.observe[key]!r} vs {second.observe[key]!r}) for pairs limited by "
                    f"{'/'.join(sorted(sides))}")
    return None


def deciding(statements: Iterable[Override], case: Case, side: str, client_kind: str,
             broker: KafkaVersion | None) -> tuple[Override, ...]:
    """The statements (a claim's ``overrides``) that decide a short cell: generic first, then those naming the
    cell's client kind (whose keys override theirs), as a claim's own fallbacks are ordered."""
    found = [o for o in statements if o.applies(case, side, client_kind, broker)]
    return (*[o for o in found if not o.clients], *[o for o in found if o.clients])


def documented(statements: Sequence[Override], case: str) -> dict[str, Any]:
    """A cell's documented side from other documents' statements (``deciding``), as ``verdict`` records it."""
    expect: dict[str, Any] = {}
    for statement in statements:
        expect.update(statement.observe)
    return {"case": case, "section": statements[0].section,
            "quotes": list(dict.fromkeys(s.quote for s in statements)), "expect": expect,
            "decided_by": ", ".join(dict.fromkeys(s.document for s in statements)), "precedence": statements[0].rank}


__all__ = ["Override", "Precedence", "attach", "deciding", "documented", "parse"]
