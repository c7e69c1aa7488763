"""The documented claims, loaded from ``src/kcompat/scenarios/claims/*.toml`` through one schema.

A claims file rests on one document: a KIP (``KIP-NNN.toml``) or an excerpt of
Apache Kafka's own documentation (``DOCS-<name>.toml``), for behaviour no KIP
documents; ``source`` names the document's text, found beside the claims file
or in the installed ``src/kcompat/scenarios/sources`` (which ships every text the installed
book cites).  Every quote is checked against that text when the file loads,
with markup normalised on both sides (``verbatim_form``): a quote the document
does not say is a ``file:line`` load error, for a user's book as for ours.
Its id (``kip``) names its cells like a KIP's.

Why TOML: the standard library reads it (no dependency for users' tools), the
catalog is TOML already, and it has no YAML-style coercions (``2.10`` stays a
string where it is quoted, ``no`` is not false).  tomllib gives no line
numbers, so a load error finds the line itself: the claim's ``[[claim]]``
header, then the first line in that block naming the offending key.

A claim is the documented side only: the API and request-version range it
needs, the cluster it needs, the probe that observes it, what the KIP
documents for pairs in range (``[[claim.expect]]``) and for pairs below it
(``[[claim.fallback]]``, per side that is short), each with the verbatim quote
it rests on.  What one cell expects is derived from these and the versions
the two sides can use (``verdict.documented_for``); nothing is written per cell.
A fallback several claims of a file share is written once, as a named
``[fallbacks.NAME]`` table, and taken by ``use = "NAME"`` where a claim's
``[[claim.fallback]]`` would stand: the loaded claim is the same as with the
table copied in.  docs/CLAIMS.md is the schema for authors.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import html
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from kio.schema.errors import ErrorCode

from ..clients.base import AclSpec, ResourceType
from ..clients.kinds import kind_names
from ..errors import ConfigError
from ..protocol import FORMER_NAMES, api_names
from ..versions import KafkaVersion
from ..records import DOCUMENT_ID, LIMITED_BY, document_order
from ..spec import MAX_LOG_DIRS, Quorum
from ..tomlfile import read_toml
from . import overrides
from .observables import PROBES, check_matcher
from .overrides import Override

CLIENT_KINDS = kind_names()
_ID = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
_KIP = re.compile(rf"{DOCUMENT_ID}\Z")
_BROKERS = re.compile(r">=\s*(?P<since>\d+(?:\.\d+){1,3})\Z")
SASL_USERS = ("alice", "bob", "carol", "dave", "erin")
"""The principals every SASL cluster has (besides the super user): one user set, so every SASL claim of a
broker shares one cluster; a claim names the ones it acts as, and its ACLs say what each may do."""
JAVADOC = "javadoc:"
"""``source = "javadoc:Admin"``: the document is the Admin interface's javadoc of each kafka-clients release."""
BOUND_QUOTE = "(the statement of the cell's kafka-clients release)"
"""The quote of a javadoc claim's entries until ``admin_docs.bind`` puts the release's own sentence there."""
REFUSED = "refused"
"""The observable a javadoc claim's generated fallback documents: the client refused to make the call (its
kind's refusal of a version the broker lacks, or the method missing from its release)."""
_VERSIONS = re.compile(r"(?P<min>\d+)(?:\+|-(?P<max>\d+))\Z")
ERROR_NAMES = frozenset({"NONE"} | {e.name.upper() for e in ErrorCode})
API_KEYS = {**{name: key for key, name in api_names().items()}, **{name: key for key, name in FORMER_NAMES.items()}}


class ClaimError(ConfigError):
    """A claims file that does not follow the schema: names the file, the line and the reason."""


@dataclass(frozen=True)
class Documented:
    """One documented observable with the KIP's words for it."""

    quote: str
    observe: Mapping[str, Any]
    clients: tuple[str, ...] = ()
    """Client kinds this applies to; empty = every client."""
    limited_by: tuple[str, ...] = ()
    """For fallbacks: the short side(s) this documents."""


@dataclass(frozen=True)
class BrokerPlugin:
    """A broker plug-in a claim's cluster runs: sources under ``src/kcompat/fixtures/plugins/<name>``, compiled per broker."""

    name: str
    property: str
    """The server property naming the class (``create.topic.policy.class.name``)."""
    class_name: str


BROKER_PLUGINS: dict[str, BrokerPlugin] = {p.name: p for p in (
    BrokerPlugin("create_topic_policy", "create.topic.policy.class.name", "kcompat.plugins.RejectPrefixPolicy"),
)}


@dataclass(frozen=True)
class ClusterNeeds:
    nodes: int = 1
    users: tuple[str, ...] = ()
    """SASL users besides the super user; any user makes the cluster SASL with an authorizer."""
    acls: tuple[str, ...] = ()
    """``resource_type:name:principal:operation:permission`` bindings the super user creates first."""
    plugins: tuple[str, ...] = ()
    """Broker plug-ins (names in ``BROKER_PLUGINS``) on the cluster's classpath and in its properties."""
    log_dirs: int = 1
    """Log directories per broker: two for a claim that moves a replica between them (alterReplicaLogDirs)."""
    quorum: Quorum = "static"
    """KRaft's voter set: ``dynamic`` (KIP-853, kraft.version 1) for a claim that adds or removes voters; a
    broker that can't have one (ZooKeeper, KRaft before 3.9) runs with its static quorum."""
    shared: bool = True
    """Whether the claim may run on its shape's shared cluster (``ClaimBook.shared_needs``), which may carry
    log dirs or a dynamic quorum it does not name; ``False``: only what it names."""

    @property
    def sasl(self) -> bool:
        return bool(self.users)

    @property
    def profile(self) -> str:
        return "sasl" if self.sasl else "plaintext"

    @property
    def key(self) -> str:
        """What distinguishes one cluster from another: nodes, security profile, plug-ins, log dirs, quorum."""
        dirs = [f"{self.log_dirs}dirs"] if self.log_dirs > 1 else []
        quorum = ["dynamic"] if self.quorum == "dynamic" else []
        return "-".join([f"{self.nodes}n", self.profile, *sorted(self.plugins), *dirs, *quorum])

    @property
    def shape(self) -> tuple[int, str]:
        """What sharing never crosses: node count and security profile."""
        return self.nodes, self.profile

    def covers(self, other: ClusterNeeds) -> bool:
        """Whether a cluster of these needs has everything ``other`` asks for (same shape, a superset of
        plug-ins, at least as many log dirs, a dynamic quorum if asked)."""
        return (self.shape == other.shape and set(other.plugins) <= set(self.plugins)
                and self.log_dirs >= other.log_dirs and (other.quorum == "static" or self.quorum == "dynamic"))


@dataclass(frozen=True)
class Claim:
    id: str
    kip: str
    section: str
    api: str
    min_version: int
    max_version: int | None
    probe: str
    args: Mapping[str, Any]
    expect: tuple[Documented, ...]
    fallback: tuple[Documented, ...]
    cluster: ClusterNeeds = ClusterNeeds()
    clients: tuple[str, ...] = ()
    source: str = ""
    """The claims file and line, for messages."""
    brokers_since: KafkaVersion | None = None
    """A release bound the document states (``brokers = ">=2.0"``): older brokers are short of the claim."""
    method: str | None = None
    """DOCS-admin: the Admin method whose javadoc, in the cell's client release, is the documented side
    (``admin_docs.bind`` fills the quotes and the release bound per cell)."""
    statement: str = "method"
    """DOCS-admin: which of the method's sentences: its own (``method``) or an option's (``validateOnly``)."""
    bound: Mapping[str, Any] | None = None
    """Once bound to a cell's client: the release whose javadoc was read, the sentence or schema line, its path,
    and whether the client release has the method at all (``admin_docs.bind``)."""
    requires: tuple[str, ...] = ()
    """APIs the broker must offer for what the claim is about to exist at all (share groups need
    ShareGroupDescribe): on a broker without one, the call must not succeed, and nothing else is asked."""
    overrides: tuple[Override, ...] = ()
    """Other documents' statements about the claim's older pairs (``overrides.attach``), which decide them
    before the javadoc minimum and the generated refusal."""

    @property
    def api_key(self) -> int:
        return API_KEYS[self.api]

    @property
    def keys(self) -> frozenset[str]:
        """Every key any documented side of this claim names: what its probe must observe."""
        return frozenset(k for d in (*self.expect, *self.fallback) for k in d.observe)

    @property
    def quotes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(d.quote for d in (*self.expect, *self.fallback)))

    def applies_to(self, client_kind: str) -> bool:
        return not self.clients or client_kind in self.clients

    @property
    def versions_text(self) -> str:
        return f"{self.api} v{self.min_version}" + ("+" if self.max_version is None else f"-v{self.max_version}")


@dataclass(frozen=True)
class Statement:
    """A statement of a KIP's interface or compatibility sections that no claim can test, and why."""

    kip: str
    section: str
    statement: str
    reason: str


@dataclass(frozen=True)
class KipClaims:
    kip: str
    title: str
    source: str
    """The document's text file: beside the claims file, else in the installed ``src/kcompat/scenarios/sources``."""
    claims: tuple[Claim, ...]
    not_testable: tuple[Statement, ...]
    path: Path
    overrides: tuple[Override, ...] = ()
    """Its statements about other documents' claims (``[[overrides]]``)."""
    provenance: Provenance | None = None
    """Where and when its text was retrieved, and the text's sha256 (checked on load)."""

    @property
    def is_docs(self) -> bool:
        """An excerpt of Apache Kafka's documentation (``DOCS-*``), not a KIP."""
        return self.kip.startswith("DOCS-")

    @property
    def is_javadoc(self) -> bool:
        """A document whose text is each kafka-clients release's own javadoc (``source = "javadoc:Admin"``):
        its quotes are bound per cell, from the sources jar of the cell's client release."""
        return self.source.startswith(JAVADOC)


@dataclass(frozen=True)
class Provenance:
    """Where a document's text came from: the page, the day it was read, and the sha256 of the stored text, so
    a text edited after its claims were written is caught on load rather than quoted."""

    url: str
    retrieved: str
    sha256: str


@dataclass(frozen=True)
class ClaimBook:
    """Every KIP's claims, by KIP and by claim id."""

    kips: Mapping[str, KipClaims]

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(c for k in self.kips.values() for c in k.claims)

    def claim(self, claim_id: str) -> Claim:
        for claim in self.claims:
            if claim.id == claim_id:
                return claim
        raise ConfigError(f"unknown claim {claim_id!r}; known: {', '.join(c.id for c in self.claims)}")

    def select(self, kips: Sequence[str] = ()) -> tuple[Claim, ...]:
        chosen = [normalise_kip(k) for k in kips] or list(self.kips)
        unknown = [k for k in chosen if k not in self.kips]
        if unknown:
            raise ConfigError(f"unknown KIP {unknown[0]}; the matrix has: {', '.join(self.kips)}")
        return tuple(c for c in self.claims  # and the claims a chosen document's [[overrides]] speak of
                     if c.kip in chosen or any(o.document in chosen for o in c.overrides))

    def shared_needs(self, nodes: int, profile: str) -> ClusterNeeds:
        """What the shared cluster of one shape carries: the most log dirs and the dynamic quorum that any
        shareable claim of that shape in the whole book asks for.  Layout only: a plug-in changes what every
        cell observes of its API (a create-topic policy sees every CreateTopics), so plug-in claims keep their
        own cluster.  From the book, not the selection, so a cell runs on the same broker whatever else a run
        selects (a repro of one cell too)."""
        mine = [c.cluster for c in self.claims if c.cluster.shared and c.cluster.shape == (nodes, profile)]
        return ClusterNeeds(nodes, log_dirs=max((n.log_dirs for n in mine), default=1),
                            quorum="dynamic" if any(n.quorum == "dynamic" for n in mine) else "static")

    def coverage(self) -> list[dict[str, Any]]:
        """Every statement of every KIP: the claims resting on it, or why none can (coverage.json)."""
        rows: list[dict[str, Any]] = []
        for kip in self.kips.values():
            if kip.is_javadoc:
                continue  # its statements are each release's: admin_docs.coverage lists them per release
            by_quote: dict[str, dict[str, Any]] = {}
            for claim in kip.claims:
                for quote in claim.quotes:
                    row = by_quote.setdefault(quote, {"kip": kip.kip, "section": claim.section, "statement": quote,
                                                      "claims": [], "testable": True, "reason": None})
                    row["claims"].append(claim.id)
            for override in kip.overrides:  # statements about other documents' claims: the claims they decide
                row = by_quote.setdefault(override.quote, {"kip": kip.kip, "section": override.section,
                                                           "statement": override.quote, "claims": [],
                                                           "testable": True, "reason": None})
                row["claims"].extend(c.id for c in self.claims if override in c.overrides)
            rows.extend(by_quote.values())
            rows.extend({"kip": s.kip, "section": s.section, "statement": s.statement, "claims": [],
                         "testable": False, "reason": s.reason} for s in kip.not_testable)
        return rows


def normalise_kip(text: str) -> str:
    """``kip525``, ``525``, ``KIP-525`` -> ``KIP-525``; ``docs-authorization`` -> ``DOCS-authorization``."""
    digits = re.sub(r"(?i)^kip-?", "", text.strip())
    if digits.isdigit():
        return f"KIP-{digits}"
    return re.sub(r"(?i)^docs-", "DOCS-", text.strip())


_HEADER = re.compile(r"\[\[?\s*[A-Za-z_][\w.\-\"' ]*\]\]?\s*(#.*)?\Z")
"""A table header line (``[[claim]]``, ``[fallbacks.new-api]``): where a block of keys ends."""


class _Where:
    """Finds the line of a claim, a named table or a key inside one, for error messages."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines = text.splitlines()
        self.headers = [i for i, line in enumerate(self.lines) if line.strip() == "[[claim]]"]

    def _end(self, start: int) -> int:
        """The line after a block's last: the next header that does not open one of its sub-tables."""
        for i in range(start + 1, len(self.lines)):
            line = self.lines[i].strip()
            if _HEADER.match(line) and not re.match(r"\[\[?\s*claim\.", line):
                return i
        return len(self.lines)

    def _key(self, start: int, end: int, key: str | None) -> str:
        line = start
        if key is not None:
            pattern = re.compile(rf"(^|[\s{{,])\"?{re.escape(key)}\"?\s*=")
            line = next((i for i in range(start, end) if pattern.search(self.lines[i])), start)
        return f"{self.path}:{line + 1}"

    def __call__(self, index: int | None = None, key: str | None = None) -> str:
        if index is None or index >= len(self.headers):
            return self._key(0, len(self.lines), key)
        return self._key(self.headers[index], self._end(self.headers[index]), key)

    def table(self, name: str, key: str | None = None) -> str:
        """A named table's header line (``[fallbacks.NAME]``), or the line of ``key`` inside it."""
        quoted = re.escape(name)
        header = re.compile(rf"\[\s*fallbacks\s*\.\s*(\"{quoted}\"|'{quoted}'|{quoted})\s*\]")
        start = next((i for i, line in enumerate(self.lines) if header.match(line.strip())), None)
        if start is None:  # written inline (fallbacks = { NAME = { ... } }): its name's line
            return self._key(0, len(self.lines), name)
        return self._key(start, self._end(start), key)

    def use(self, index: int, name: str) -> str:
        """The line of claim ``index`` that says ``use = "NAME"``, else the claim's line."""
        pattern = re.compile(rf"(^|[\s{{,])use\s*=\s*[\"']{re.escape(name)}[\"']")
        start = self.headers[index]
        line = next((i for i in range(start, self._end(start)) if pattern.search(self.lines[i])), start)
        return f"{self.path}:{line + 1}"


def _fail(where: str, reason: str) -> ClaimError:
    return ClaimError(f"{where}: {reason}")


def key_source(claim: Claim, key: str) -> str:
    """``file:line`` of ``key`` in a loaded claim's ``[[claim]]`` block (its header's where the key is not
    written): for checks made after loading, such as a javadoc claim's names against each release."""
    path, _, line = claim.source.rpartition(":")
    try:
        where = _Where(Path(path), Path(path).read_text())
        return where(where.headers.index(int(line) - 1), key)
    except (OSError, UnicodeDecodeError, ValueError):
        return claim.source


def _strings(value: Any, where: str, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(where, f"{what} is a list of strings")
    return tuple(value)


def _names_error(key: str) -> bool:
    """Keys whose values are Kafka error names (``error``, ``topic_config_error``, ``other_error``)."""
    return key == "error" or key.endswith("_error")


Locate = Callable[[str | None], str]
"""``file:line`` of a documented table (None) or of a key in it: a claim's own table, or a named one."""
_DOCUMENTED_KEYS = ("quote", "observe", "clients", "limited_by")


def _documented(raw: Any, at: Locate, table: str, probe: str, *, what: str | None = None,
                bound_quote: bool = False) -> Documented:
    """One ``[[claim.expect]]`` or ``[[claim.fallback]]`` (``table``), checked against the claim's probe.

    ``what`` names a shared table (``[fallbacks.NAME]``) in messages, so a mistake in it points at it,
    whichever claim uses it.  A fallback without ``limited_by`` documents every short side.
    """
    name = what or f"[[claim.{table}]]"
    here = at(None)

    def fail(where: str, reason: str) -> ClaimError:
        return _fail(where, reason if what is None or what in reason else f"{what}: {reason}")

    if not isinstance(raw, dict):
        raise fail(here, f"{name} entries are tables")
    unknown = set(raw) - set(_DOCUMENTED_KEYS)
    if unknown:
        key = sorted(unknown)[0]
        raise fail(at(key), f"unknown key {key!r} in {name}; known: {', '.join(_DOCUMENTED_KEYS)}"
                            + (", or use alone" if table == "fallback" and what is None else ""))
    quote = raw.get("quote", BOUND_QUOTE if bound_quote else None)
    if not isinstance(quote, str) or not quote.strip():
        raise fail(here, f"every {name} has the KIP's verbatim words in `quote`")
    observe = raw.get("observe")
    if not isinstance(observe, dict) or not observe:
        raise fail(here, f"{name} needs `observe`, a table of key = value or matcher")
    spec = PROBES[probe]
    for key, matcher in observe.items():
        if not spec.knows(key):
            raise fail(at(key), f"probe {probe} does not observe {key!r}; it observes "
                                f"{', '.join(sorted(spec.keys))}"
                                + (", config.<name>.<attribute>" if spec.config_keys else ""))
        if (problem := check_matcher(matcher)) is not None:
            raise fail(at(key), f"{key}: {problem}")
        if _names_error(key) and isinstance(matcher, str) and matcher not in ERROR_NAMES:
            raise fail(at(key), f"{key}: unknown Kafka error name {matcher!r}")
    clients = _strings(raw.get("clients", []), here, "clients")
    for kind in clients:
        if kind not in CLIENT_KINDS:
            raise fail(at("clients"), f"unknown client kind {kind!r}; known: {', '.join(CLIENT_KINDS)}")
    limited_by = _strings(raw.get("limited_by", []), here, "limited_by")
    if table == "fallback":
        if "limited_by" in raw and not limited_by:
            raise fail(at("limited_by"), f"limited_by names the short side(s) ({', '.join(LIMITED_BY)}); "
                                         "leave it out for every side")
        for side in limited_by:
            if side not in LIMITED_BY:
                raise fail(at("limited_by"), f"limited_by is one of {', '.join(LIMITED_BY)}, not {side!r}")
        limited_by = limited_by or LIMITED_BY
    elif limited_by:
        raise fail(at("limited_by"), "limited_by belongs to [[claim.fallback]]")
    return Documented(" ".join(quote.split()), dict(observe), clients, limited_by)


def _shared(data: Mapping[str, Any], where: _Where) -> dict[str, Any]:
    """The file's named fallbacks (``[fallbacks.NAME]``), as written: each is checked where a claim uses it,
    against that claim's probe."""
    shared = data.get("fallbacks", {})
    if not isinstance(shared, dict):
        raise _fail(where(None, "fallbacks"), "fallbacks is a table of named fallbacks ([fallbacks.NAME])")
    for name, raw in shared.items():
        if not _ID.match(name):
            raise _fail(where.table(name), f"fallback name {name!r} is lower-case words joined by '-'")
        if not isinstance(raw, dict):
            raise _fail(where.table(name), f"fallbacks.{name} is a table of quote, observe, clients, limited_by")
    return dict(shared)


def _fallback(raw: Any, where: _Where, index: int, probe: str, shared: Mapping[str, Any], used: set[str],
              claim: str) -> Documented:
    """A claim's ``[[claim.fallback]]``: its own table, or ``use = "NAME"`` taking the file's named one."""
    if not isinstance(raw, dict) or "use" not in raw:
        return _documented(raw, lambda key: where(index, key or "fallback"), "fallback", probe)
    name = raw["use"]
    if not isinstance(name, str):
        raise _fail(where(index, "use"), "use names a fallback of this file ([fallbacks.NAME]), a string")
    at = where.use(index, name)
    if set(raw) != {"use"}:
        raise _fail(at, f"a [[claim.fallback]] with use = {name!r} takes fallbacks.{name} as written; "
                        f"{', '.join(sorted(set(raw) - {'use'}))} belong in it, or in a fallback of the claim's own")
    if name not in shared:
        raise _fail(at, f"unknown fallback {name!r}; this file names "
                        + (", ".join(shared) if shared else "none (declare it as [fallbacks.NAME])"))
    used.add(name)
    return _documented(shared[name], lambda key: where.table(name, key), "fallback", probe,
                       what=f"[fallbacks.{name}] (used by {claim})")


def parse_acl(text: str) -> AclSpec:
    """A claim's ``resource:name:User:principal:OPERATION:PERMISSION`` as an AclSpec: the one parser of it."""
    parts = text.split(":")
    if len(parts) != 6 or parts[0] not in ("cluster", "topic", "group") or parts[5] not in ("ALLOW", "DENY"):
        raise ConfigError(f"ACL {text!r} is not resource:name:User:principal:OPERATION:ALLOW|DENY")
    resource_type, name, kind, principal, operation, permission = parts
    return AclSpec(cast(ResourceType, resource_type), name, f"{kind}:{principal}", operation,
                   cast(Literal["ALLOW", "DENY"], permission))


def _cluster(raw: Any, where: str) -> ClusterNeeds:
    if raw is None:
        return ClusterNeeds()
    if not isinstance(raw, dict) or set(raw) - {"nodes", "users", "acls", "plugins", "log_dirs", "quorum", "shared"}:
        raise _fail(where, "cluster is a table of nodes, users, acls, plugins, log_dirs, quorum, shared")
    nodes = raw.get("nodes", 1)
    if not isinstance(nodes, int) or not 1 <= nodes <= 9:
        raise _fail(where, "cluster.nodes is 1 to 9")
    users = _strings(raw.get("users", []), where, "cluster.users")
    acls = _strings(raw.get("acls", []), where, "cluster.acls")
    for user in users:
        if user not in SASL_USERS:
            raise _fail(where, f"unknown SASL user {user!r}; every SASL cluster has {', '.join(SASL_USERS)}")
    for acl in acls:
        try:
            parse_acl(acl)
        except ConfigError as exc:
            raise _fail(where, str(exc)) from exc
    if acls and not users:
        raise _fail(where, "ACLs need SASL users (cluster.users)")
    plugins = _strings(raw.get("plugins", []), where, "cluster.plugins")
    for plugin in plugins:
        if plugin not in BROKER_PLUGINS:
            raise _fail(where, f"unknown broker plug-in {plugin!r}; known: {', '.join(BROKER_PLUGINS)}")
    log_dirs = raw.get("log_dirs", 1)
    if not isinstance(log_dirs, int) or isinstance(log_dirs, bool) or not 1 <= log_dirs <= MAX_LOG_DIRS:
        raise _fail(where, f"cluster.log_dirs is 1 to {MAX_LOG_DIRS}")
    quorum = raw.get("quorum", "static")
    if quorum not in ("static", "dynamic"):
        raise _fail(where, "cluster.quorum is \"static\" or \"dynamic\"")
    shared = raw.get("shared", True)
    if not isinstance(shared, bool):
        raise _fail(where, "cluster.shared is true or false")
    return ClusterNeeds(nodes, users, acls, tuple(sorted(set(plugins))), log_dirs, cast(Quorum, quorum), shared)


def _claim(raw: Any, where: _Where, index: int, kip: str, shared: Mapping[str, Any], used: set[str],
           javadoc: bool = False) -> Claim:
    here = where(index)
    if not isinstance(raw, dict):
        raise _fail(here, "[[claim]] entries are tables")
    known = {"id", "section", "api", "versions", "probe", "args", "expect", "fallback", "cluster", "clients",
             "brokers", "requires"} | ({"method", "statement"} if javadoc else set())
    unknown = set(raw) - known
    if unknown:
        key = sorted(unknown)[0]
        raise _fail(where(index, key), f"unknown key {key!r} in [[claim]] (known: {', '.join(sorted(known))})")
    for key in ("id", "section", "api", "versions", "probe"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise _fail(here, f"[[claim]] needs `{key}` (a string)")
    if not _ID.match(raw["id"]):
        raise _fail(where(index, "id"), f"claim id {raw['id']!r} is lower-case words joined by '-'")
    if raw["api"] not in API_KEYS:
        raise _fail(where(index, "api"), f"unknown API {raw['api']!r} (Kafka's names: CreateTopics, "
                                         "DescribeConfigs, ...)")
    versions = _VERSIONS.match(raw["versions"])
    if versions is None:
        raise _fail(where(index, "versions"), f"versions is 'N+' or 'N-M', not {raw['versions']!r}")
    if versions["max"] is not None:
        raise _fail(where(index, "versions"), "a range with an upper bound ('N-M') needs documented behaviour "
                                              "above it, which the schema does not have yet; write 'N+'")
    if raw["probe"] not in PROBES:
        raise _fail(where(index, "probe"), f"unknown probe {raw['probe']!r}; known: {', '.join(PROBES)}")
    args = raw.get("args", {})
    spec = PROBES[raw["probe"]]
    if not isinstance(args, dict):
        raise _fail(where(index, "args"), "args is a table")
    for key, value in args.items():
        if key not in spec.args:
            raise _fail(where(index, key), f"probe {spec.name} takes no argument {key!r} "
                                           f"(it takes {', '.join(spec.args)})")
        if not isinstance(value, spec.args[key]):
            raise _fail(where(index, key), f"argument {key} of probe {spec.name} has the wrong type")
        if isinstance(value, list) and (len({type(v) for v in value}) > 1 or any(isinstance(v, dict) for v in value)):
            raise _fail(where(index, key), f"argument {key} of probe {spec.name} is a list of one kind of value "
                                           "(strings, integers or lists), not tables")
    for table in ("expect", "fallback"):
        if not isinstance(raw.get(table, []), list):
            raise _fail(where(index, table), f"{table} is a list of tables ([[claim.{table}]])")
    method = raw.get("method")
    statement = raw.get("statement", "method")
    if javadoc:
        if not isinstance(method, str) or not re.fullmatch(r"[a-z]\w*", method):
            raise _fail(where(index, "method"), "a javadoc claim names its Admin method: method = \"deleteTopics\"")
        if not isinstance(statement, str) or not re.fullmatch(r"[a-zA-Z][\w:-]*(?:\|[a-zA-Z][\w:-]*)*", statement):
            raise _fail(where(index, "statement"), "statement is \"method\" or the option the sentence is about "
                                                   "(\"validateOnly\"), or options tried in order "
                                                   "(\"inGroupStates|inStates\"), or a sentence kind "
                                                   "(\"result:clusterId\")")
        if "brokers" in raw:
            raise _fail(where(index, "brokers"), "a javadoc claim's release bound is its release's sentence; "
                                                 "leave brokers out")
    expect = tuple(_documented(d, lambda key: where(index, key or "expect"), "expect", spec.name,
                               bound_quote=javadoc)
                   for d in raw.get("expect", []))
    fallback = tuple(_fallback(d, where, index, spec.name, shared, used, f"{kip}/{raw['id']}")
                     for d in raw.get("fallback", []))
    if not expect:
        raise _fail(here, "a claim documents what a pair in range observes: at least one [[claim.expect]]")
    clients = _strings(raw.get("clients", []), where(index, "clients"), "clients")
    for kind in clients:
        if kind not in CLIENT_KINDS:
            raise _fail(where(index, "clients"), f"unknown client kind {kind!r}; known: {', '.join(CLIENT_KINDS)}")
    if javadoc:  # below the sentence's release, or a client without the method: the call is refused, where the
        # claim's own fallbacks (the sentence's word for older brokers) do not say what is observed instead
        own = {side for f in fallback if not f.clients for side in f.limited_by}
        if rest := tuple(side for side in LIMITED_BY if side not in own):
            fallback = (*fallback, Documented(BOUND_QUOTE, {REFUSED: True}, (), rest))
    for side in LIMITED_BY:
        if not any(side in f.limited_by and not f.clients for f in fallback):
            raise _fail(here, f"no [[claim.fallback]] for every client documents pairs limited by {side}; "
                              "what does the KIP say happens there?")
    if not any(not e.clients for e in expect):
        raise _fail(here, "no [[claim.expect]] applies to every client (add one without `clients`)")
    cluster = _cluster(raw.get("cluster"), where(index, "cluster"))
    since = None
    if "brokers" in raw:
        bound = _BROKERS.match(str(raw["brokers"]).strip())
        if not isinstance(raw["brokers"], str) or bound is None:
            raise _fail(where(index, "brokers"), f"brokers is a release bound like \">=2.0\", not {raw['brokers']!r}")
        since = KafkaVersion.parse(bound["since"])
    requires = _strings(raw.get("requires", []), where(index, "requires"), "requires")
    for api in requires:
        if api not in API_KEYS:
            raise _fail(where(index, "requires"), f"unknown API {api!r} in requires (Kafka's names: "
                                                  "ShareGroupDescribe, ...)")
    return Claim(f"{kip}/{raw['id']}", kip, raw["section"], raw["api"], int(versions["min"]), None,
                 raw["probe"], dict(args), expect, fallback, cluster, clients, here, since,
                 method if javadoc else None, statement if javadoc else "method", requires=tuple(requires))


def load_claims_file(path: Path) -> KipClaims:
    text, data = read_toml(path, ClaimError, "a claims file")
    where = _Where(path, text)
    kip = data.get("kip")
    if not isinstance(kip, str) or not _KIP.match(kip):
        raise _fail(where(), "the file starts with kip = \"KIP-NNN\" (or \"DOCS-<name>\" for a docs excerpt)")
    if path.stem != kip:
        raise _fail(where(), f"claims of {kip} live in {kip}.toml, not {path.name}")
    unknown = set(data) - {"kip", "title", "source", "fallbacks", "claim", "not_testable", "overrides",
                           *_PROVENANCE}
    if unknown:
        raise _fail(where(), f"unknown top-level key {sorted(unknown)[0]!r}")
    for table in ("claim", "not_testable"):
        if not isinstance(data.get(table, []), list):
            raise _fail(where(None, table), f"{table} is a list of tables ([[{table}]])")
    source = data.get("source")
    javadoc = isinstance(source, str) and source.startswith(JAVADOC)
    shared, used = _shared(data, where), set[str]()
    claims = [(where, i, _claim(raw, where, i, kip, shared, used, javadoc))
              for i, raw in enumerate(data.get("claim", []))]
    for name in shared:
        if name not in used:
            raise _fail(where.table(name), f"fallbacks.{name} is used by no claim "
                                           f"(a [[claim.fallback]] takes it with use = \"{name}\")")
    claims.extend(_parts(path.with_suffix(""), kip, javadoc))
    seen: set[str] = set()
    for at, i, claim in claims:
        if claim.id in seen:
            raise _fail(at(i, "id"), f"claim id {claim.id} is used twice")
        seen.add(claim.id)
    statements = []
    for raw in data.get("not_testable", []):
        if javadoc:  # a method (or one statement of it) no claim can judge, and why (listed for every release)
            if (not isinstance(raw, dict) or not {"method", "reason"} <= set(raw) <= {"method", "statement", "reason"}
                    or not all(isinstance(value, str) for value in raw.values())):
                raise _fail(where(None, "not_testable"), "[[not_testable]] of a javadoc document has method, "
                                                         "reason and optionally statement (strings)")
            named = " ".join(raw[key] for key in ("method", "statement") if key in raw)
            statements.append(Statement(kip, f"Admin.{raw['method']}", named, raw["reason"]))
            continue
        if (not isinstance(raw, dict) or set(raw) != {"section", "statement", "reason"}
                or not all(isinstance(value, str) for value in raw.values())):
            raise _fail(where(None, "not_testable"), "[[not_testable]] has section, statement and reason (strings)")
        statements.append(Statement(kip, raw["section"], " ".join(raw["statement"].split()), raw["reason"]))
    if javadoc and source != f"{JAVADOC}Admin":
        raise _fail(where(None, "source"), f"a javadoc document's source is \"{JAVADOC}Admin\" (the Admin "
                                           "interface of each kafka-clients release)")
    if not isinstance(source, str) or not (javadoc or _SOURCE_NAME.fullmatch(source)):
        raise _fail(where(None, "source"), "source is the file name of the document's text (e.g. KIP-525-x.md: "
                                           "letters, digits, '.', '_', '-', ending .md or .txt), beside the claims "
                                           "or in src/kcompat/scenarios/sources; never a path")
    if javadoc and ("overrides" in data or any(key in data for key in _PROVENANCE)):
        key = next(k for k in ("overrides", *_PROVENANCE) if k in data)
        raise _fail(where(None, key), f"a javadoc document's text is each release's own: no {key}")
    document = KipClaims(kip, str(data.get("title", "")), source, tuple(c for _, _, c in claims),
                         tuple(statements), path,
                         overrides.parse(data, where.lines, str(path), kip, ClaimError),
                         _provenance(data, where))
    if not javadoc:  # a javadoc document's quotes are its releases' own sentences, bound per cell
        _check_quotes(document, where)
    return document


_PROVENANCE = ("source_url", "retrieved", "source_sha256")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


def _provenance(data: Mapping[str, Any], where: _Where) -> Provenance | None:
    """``source_url``, ``retrieved`` and ``source_sha256``: all three or none."""
    given = [key for key in _PROVENANCE if key in data]
    if not given:
        return None
    if len(given) < len(_PROVENANCE):
        missing = next(key for key in _PROVENANCE if key not in data)
        raise _fail(where(None, given[0]), f"{', '.join(given)} without {missing}: a document's provenance is "
                                           "source_url, retrieved and source_sha256 together")
    url, day, digest = (data[key] for key in _PROVENANCE)
    if not isinstance(url, str) or not re.fullmatch(r"https?://[^\s]+", url):
        raise _fail(where(None, "source_url"), f"source_url is the http(s) address the text was read from, "
                                               f"not {url!r}")
    day = day.isoformat() if hasattr(day, "isoformat") else day
    if not isinstance(day, str) or not _DAY.match(day) or not _is_day(day):
        raise _fail(where(None, "retrieved"), f"retrieved is the day the text was read, YYYY-MM-DD, not {day!r}")
    if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise _fail(where(None, "source_sha256"), "source_sha256 is the stored text's sha256, 64 lower-case hex "
                                                  "digits (sha256sum FILE)")
    return Provenance(url, day, digest)


def _is_day(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _parts(folder: Path, kip: str, javadoc: bool) -> list[tuple[_Where, int, Claim]]:
    """The claims of a document's part files (``DOCS-admin/*.toml`` beside ``DOCS-admin.toml``): claims and
    the fallbacks they share, nothing else, so a document with many claims is split by topic."""
    found: list[tuple[_Where, int, Claim]] = []
    if not folder.is_dir():
        return found
    for part in sorted(folder.glob("*.toml")):
        text, data = read_toml(part, ClaimError, "a claims part file")
        where = _Where(part, text)
        unknown = set(data) - {"fallbacks", "claim"}
        if unknown:
            raise _fail(where(None, sorted(unknown)[0]), f"a part of {kip} holds [[claim]] and [fallbacks.NAME] "
                                                         f"only, not {sorted(unknown)[0]!r}")
        if not isinstance(data.get("claim", []), list):
            raise _fail(where(None, "claim"), "claim is a list of tables ([[claim]])")
        shared, used = _shared(data, where), set[str]()
        found.extend((where, i, _claim(raw, where, i, kip, shared, used, javadoc))
                     for i, raw in enumerate(data.get("claim", [])))
        for name in shared:
            if name not in used:
                raise _fail(where.table(name), f"fallbacks.{name} is used by no claim of {part.name}")
    return found


_LATEX = {"leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "lt": "<", "gt": ">", "times": "×"}


def verbatim_form(text: str) -> str:
    """Text with its markup normalised, so a quote and its document compare word for word.

    KIP pages carry Markdown (code spans, emphasis, escapes, links), javadoc (``*`` at each line's
    start) and LaTeX (``$\\leq$``, ``${\\tt Name}$``); a quote may write ``≤`` for ``$\\leq$`` and drop
    the backticks, but never change, add or drop a word.
    """
    text = re.sub(r"\$\s*\{\\tt\s+([^}$]*)\}\s*\$", r"\1", text)
    text = re.sub(r"\$\s*\\([a-z]+)\s*\$", lambda m: _LATEX.get(m[1], m[0]), text)
    text = re.sub(r"\[([^\]\n]*)\]\([^)\s]*\)", r"\1", text)
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", text)
    text = html.unescape(text.replace("`", "").replace("*", ""))
    return " ".join(text.split())


_SOURCE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.(md|txt)")
"""A document's text is named, never pathed: nothing climbs out of the book's folder or reads a device."""
MAX_SOURCE_BYTES = 4 << 20
"""A KIP page is tens of kilobytes; a bigger 'source' is not a document's text."""


def source_path(document: KipClaims) -> Path:
    """The document's text: beside the claims file (a user's book), else in the installed sources."""
    beside = document.path.parent / document.source
    return beside if beside.is_file() else sources_dir() / document.source


@functools.lru_cache(maxsize=32)
def _document_text(path: Path, size: int, mtime: int) -> tuple[str, str]:
    """The text in its verbatim form, and the sha256 of its bytes."""
    if not path.is_file() or size > MAX_SOURCE_BYTES:
        raise OSError(f"{path} is not a regular file of at most {MAX_SOURCE_BYTES} bytes")
    data = path.read_bytes()
    return verbatim_form(data.decode("utf-8")), hashlib.sha256(data).hexdigest()


def _check_quotes(document: KipClaims, where: _Where) -> None:
    """Every quote and untestable statement is in the document's text: a claim never shows invented words."""
    path = source_path(document)
    try:
        stat = path.stat()
        text, digest = _document_text(path, stat.st_size, stat.st_mtime_ns)
    except OSError:
        raise _fail(where(None, "source"), f"source {document.source!r} is neither beside the claims "
                                           f"({document.path.parent}) nor in {sources_dir()}") from None
    except UnicodeDecodeError:
        raise _fail(where(None, "source"), f"source {path} is not UTF-8") from None
    if document.provenance is not None and document.provenance.sha256 != digest:
        raise _fail(where(None, "source_sha256"), f"{path.name}'s sha256 is {digest}, not the {document.provenance.sha256} "
                                                  "its claims were written against: check the quotes, then update "
                                                  "source_sha256")
    for override in document.overrides:
        if verbatim_form(override.quote) not in text:
            raise _fail(override.where, f"overrides: quote not found in {path.name}: {_short(override.quote)}")
    for index, claim in enumerate(document.claims):
        for quote in claim.quotes:
            if verbatim_form(quote) not in text:
                raise _fail(_line_of_quote(where, index, quote), f"{claim.id}: quote not found in {path.name}: "
                                                                 f"{_short(quote)}")
    for statement in document.not_testable:
        if verbatim_form(statement.statement) not in text:
            raise _fail(_line_of_quote(where, None, statement.statement),
                        f"not_testable statement not found in {path.name}: {_short(statement.statement)}")


def _line_of_quote(where: _Where, index: int | None, quote: str) -> str:
    head = quote[:24]
    start = 0 if index is None else where.headers[index]
    for number in (*range(start, len(where.lines)), *range(start)):  # a shared fallback's quote is above it
        if head in " ".join(where.lines[number].split()):
            return f"{where.path}:{number + 1}"
    return where(index)


def _short(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


def claim_files(directory: Path) -> list[Path]:
    """The book's files in document order: every ``KIP-*.toml`` and ``DOCS-*.toml`` (the one list that the
    loader, the digest and run.json read)."""
    return sorted((*directory.glob("KIP-*.toml"), *directory.glob("DOCS-*.toml")), key=_file_order)


@functools.cache
def load_claim_book(directory: Path) -> ClaimBook:
    files = claim_files(directory)
    if not files:
        raise ConfigError(f"no claims files (KIP-*.toml, DOCS-*.toml) in {directory}")
    book = ClaimBook({kip.kip: kip for kip in map(load_claims_file, files)})
    said = overrides.attach(book.claims, [o for kip in book.kips.values() for o in kip.overrides], ClaimError)
    if not said:
        return book
    return ClaimBook({kip: dataclasses.replace(document, claims=tuple(
        dataclasses.replace(c, overrides=said.get(c.id, ())) for c in document.claims))
        for kip, document in book.kips.items()})


def _file_order(path: Path) -> tuple[int, int, str]:
    return document_order(path.stem)


def sources_dir() -> Path:
    """Where the excerpts of Apache Kafka's documentation live: ``src/kcompat/scenarios/sources``."""
    return claims_dir().parent / "sources"


def claims_dir(given: Path | str | None = None) -> Path:
    """Where the claims live: ``given`` (``kcompat run --claims DIR``), else ``src/kcompat/scenarios/claims``.

    A book from elsewhere (a KIP author's draft, a fork's release qualification) is checked
    here for being a directory with claims files; its files go through the same schema.  The
    scenarios package is located, never imported: the harness runs it as a pytest target in a
    child process and reads its claims as data.
    """
    if given is not None:
        path = Path(given).expanduser().absolute()
        if not path.is_dir():
            raise ConfigError(f"claims directory {path} does not exist" if not path.exists()
                              else f"claims directory {path} is not a directory")
        if not claim_files(path):
            raise ConfigError(f"claims directory {path} holds no claims files (KIP-*.toml, DOCS-*.toml)")
        return path
    import importlib.util

    spec = importlib.util.find_spec("kcompat.scenarios")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("the scenarios package is not installed beside the harness; reinstall kcompat")
    return Path(next(iter(spec.submodule_search_locations))) / "claims"


def scenarios_dir() -> Path:
    """The scenario modules pytest runs: always the installed ones, whichever claim book they judge by."""
    return claims_dir().parent


def claims_digest(directory: Path) -> str:
    """sha256 over the book's files and their parts (names and bytes, in name order): which claims a run
    judged by."""
    digest = hashlib.sha256()
    for path in sorted(claim_files(directory), key=lambda p: p.name):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        for part in sorted(path.with_suffix("").glob("*.toml")):
            digest.update(f"{path.stem}/{part.name}".encode() + b"\0" + part.read_bytes() + b"\0")
    return digest.hexdigest()


def iter_quotes(book: ClaimBook) -> Iterator[tuple[str, str, str]]:
    """(KIP, where, quote) of every documented word the claims rest on, for the verbatim test (a javadoc
    document's quotes are its releases' own sentences, read when a cell binds them: none here)."""
    for kip in book.kips.values():
        if kip.is_javadoc:
            continue
        for claim in kip.claims:
            for quote in claim.quotes:
                yield kip.kip, claim.source, quote
        for statement in kip.not_testable:
            yield kip.kip, str(kip.path), statement.statement


__all__ = ["BROKER_PLUGINS", "SASL_USERS", "BrokerPlugin", "Claim", "ClaimBook", "ClaimError", "ClusterNeeds", "Documented",
           "KipClaims", "Statement", "claims_digest", "claims_dir", "document_order", "load_claim_book", "load_claims_file",
           "normalise_kip", "parse_acl", "scenarios_dir", "sources_dir"]

