"""The documented side of DOCS-admin: each kafka-clients release's own ``Admin`` javadoc, method by method.

Kafka's ``Admin`` interface (``AdminClient``, an abstract class, before 2.4)
says in each method's javadoc which brokers support it: "This operation is
supported by brokers with version 1.0.0 or higher.", with option-level
sentences beside it ("The validateOnly option is supported from version
0.10.2.0.", "When using topic IDs, ... inter-broker protocol 2.8 or
higher.").  The sentences change between releases, so they are read from the
release's own ``kafka-clients-<release>-sources.jar`` (Maven Central, through
the same Maven and cache as every jar) and kept verbatim with the release,
the source path and the line: nothing is copied by hand, and a new release
brings its own documented side.

A method without such a sentence still has a documented side: the API's
request schema in the same jar (``common/message/<Api>Request.json``), whose
``validVersions`` line is the quote; the broker must offer the API.  A
sentence that speaks of brokers but that no rule here reads is kept as
``unparsed``: the coverage list shows it with the reason, never a traceback.

Other sentences say what a pair observes rather than whether the call works, each a statement
``KIND:NAME``: ``older-brokers:includeAuthorizedOperations`` (an options class's "some older brokers cannot
supply this information"), ``result:clusterId`` (a result class's getter, or that of a class its getters
return: "non-null if the broker version is 0.10.1.0 or higher"), and ``interface:minimum`` (the interface's
own "The minimum broker version required is 0.10.0.0.").
"""

from __future__ import annotations

import difflib
import html
import json
import os
import re
import time
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..artifacts import ArtifactStore
from ..clients.kinds import kind, kind_names
from ..config import HarnessConfig
from ..errors import ArtifactError, ConfigError
from ..locking import exclusive
from ..versions import KafkaVersion
from .claims import BOUND_QUOTE, Claim, ClaimBook, ClaimError, Documented, KipClaims, key_source, verbatim_form

if TYPE_CHECKING:
    from .plan import PlannedCell

FORMAT = 4
"""Bumped when what is extracted changes: a cached extraction of another format is extracted again."""
ADMIN_SOURCES = ("org/apache/kafka/clients/admin/Admin.java", "org/apache/kafka/clients/admin/AdminClient.java")
"""Where the documented interface lives: ``Admin`` from 2.4, ``AdminClient`` (then an abstract class) before."""
METHOD = "method"
"""The statement a claim takes by default: the method's own broker sentence."""

_COMMENT = re.compile(r"/\*\*(?P<body>.*?)\*/", re.S)
_DECLARATION = re.compile(
    r"\s*(?:@[\w.]+(?:\([^)]*\))?\s*)*"                       # annotations
    r"(?P<modifiers>(?:(?:public|protected|private|static|default|abstract|final|synchronized)\s+)*)"
    r"(?:<[^>]*>\s*)?"                                           # type parameters
    r"(?P<returns>[\w.]+(?:<[^;{}()]*?>)?(?:\[\])*)\s+(?P<name>\w+)\s*\((?P<params>[^)]*)\)")
_VERSION = r"(\d+(?:\.\d+){1,3})"
_OR_HIGHER = re.compile(rf"(?:version|protocol)\s+{_VERSION}\s+or\s+(?:higher|later)")
_OPTION_FROM = re.compile(rf"\bThe (?P<option>\w+) option is supported from version {_VERSION}")
_WHEN_USING = re.compile(r"^When using (?P<what>[\w\s]+?),")
_ELECTION = re.compile(rf"{_VERSION} or later if (?P<first>\w+) election is use;\s*otherwise the brokers? "
                       rf"m[ou]st be {_VERSION} or higher")
_ABOUT_BROKERS = re.compile(r"supported (?:by|on) (?:the )?brokers?|brokers? m[ou]st be|supported from version")
_SENTENCE_END = re.compile(r"(?<=[.!?])\*?\s+(?=[A-Z])")
OLDER_BROKERS, RESULT, INTERFACE = "older-brokers", "result", "interface"
"""The sentence kinds of statements ``KIND:NAME``: not about whether the call works, but what a pair observes."""
_OLDER = re.compile(r"\bolder brokers? can(?:not|'t)\b")
_MINIMUM = re.compile(rf"The minimum broker version required is {_VERSION}\.")
_RESULT = re.compile(rf"broker version is {_VERSION} or higher|broker is earlier than version {_VERSION}"
                     r"|broker version doesn't support|if the broker (?:supplied|did not return)")
_TYPE = re.compile(r"\s*(?:@[\w.]+(?:\([^)]*\))?\s*)*public\s+(?:abstract\s+)?(?:interface|class)\s")
_OPTIONS_PARAM = re.compile(r"\b([A-Z]\w*Options)\s+\w+\s*(?:,|\)|$)")
_RETURNS = re.compile(r"\bpublic\s+(?!class\b|interface\b)([\w<>,.?\s]+?)\s+\w+\s*\(")


def is_kind(selector: str) -> bool:
    """Whether a statement names a sentence kind (``result:clusterId``): a release without it says nothing of
    what the claim observes, and its client is not short for that (as it is without an option)."""
    return ":" in selector


@dataclass(frozen=True)
class Statement:
    """One documented sentence about brokers: what it is about (``method`` or an option), and its minimum."""

    selector: str
    sentence: str
    minimum: str
    """The broker release it names (``1.0.0``; an inter-broker protocol ``2.8`` is that release's)."""
    line: int
    source: str = ""
    """The file it is in when not the Admin interface's: an option's sentence in the method's options class
    (``ListConsumerGroupsOptions.java``)."""


@dataclass(frozen=True)
class MethodDoc:
    """A public method of the Admin interface (all its overloads) and its broker statements."""

    name: str
    line: int
    signatures: tuple[str, ...]
    statements: tuple[Statement, ...] = ()
    unparsed: tuple[str, ...] = ()
    """Sentences about brokers no rule reads: shown in the coverage list with that reason."""
    static: bool = False
    text: str = ""
    """The javadoc of every overload as prose: where a claim's own quote (an exception the javadoc lists for a
    case) is looked for, per release."""

    def statement(self, selector: str) -> Statement | None:
        return next((s for s in self.statements if s.selector == selector), None)


RENAMED = {"ListClientMetricsResources": "ListConfigResources"}
"""API name (kio's, as claims name it) -> the name a newer release's schema has for the same key: KIP-1142
renamed key 74 in kafka-clients 4.1."""


@dataclass(frozen=True)
class AdminDocs:
    """One release's Admin interface as its sources say it."""

    release: str
    source: str
    """The source path inside the sources jar (``org/apache/kafka/clients/admin/Admin.java``)."""
    methods: Mapping[str, MethodDoc]
    schemas: Mapping[str, str] = field(default_factory=dict)
    """API name -> its request schema's ``"validVersions": ...`` line, verbatim."""
    interface: tuple[Statement, ...] = ()
    """The interface's own sentences (``interface:minimum``), which every method rests on."""

    def statement(self, method: MethodDoc, selector: str) -> Statement | None:
        """``method``'s statement ``selector``, or the interface's."""
        return method.statement(selector) or next((s for s in self.interface if s.selector == selector), None)

    def schema(self, api: str) -> tuple[str, str] | None:
        """``api``'s request schema as (file stem, ``validVersions`` line), also where this release renamed the
        API (``RENAMED``: claims name an API as kio does); None where the jar has neither name."""
        for stem in (api, RENAMED.get(api)):
            if stem is not None and (line := self.schemas.get(stem)) is not None:
                return stem, line
        return None

    def as_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "release": self.release, "source": self.source,
                "methods": [asdict(m) for m in self.methods.values()], "schemas": dict(self.schemas),
                "interface": [asdict(s) for s in self.interface]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AdminDocs:
        methods = {}
        for raw in data["methods"]:
            statements = tuple(Statement(**s) for s in raw["statements"])
            methods[raw["name"]] = MethodDoc(raw["name"], raw["line"], tuple(raw["signatures"]), statements,
                                             tuple(raw["unparsed"]), raw["static"], raw["text"])
        return cls(data["release"], data["source"], methods, data["schemas"],
                   tuple(Statement(**s) for s in data["interface"]))


def _clean(body: str) -> str:
    """A javadoc comment as prose: no leading ``*``, no block tags, inline tags as their text."""
    lines = []
    for line in body.splitlines():
        text = re.sub(r"^\s*\*\s?", "", line)
        if text.lstrip().startswith("@"):
            break  # @param, @return, @throws: the description is over
        lines.append(text)
    text = " ".join(lines)
    text = re.sub(r"\{@(?:link|linkplain)\s+#?([^}\s]+)(?:\s+([^}]*))?\}", lambda m: m.group(2) or m.group(1), text)
    text = re.sub(r"\{@(?:code|literal)\s+([^}]*)\}", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def sentences(body: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(_clean(body)) if s.strip()]


def _option_name(what: str) -> str:
    """``topic IDs`` -> ``topicIds``: a javadoc's words for an option as a claim's ``statement`` names it."""
    words = what.split()
    return words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])


def read_statements(sentence: str, line: int) -> tuple[list[Statement], bool]:
    """The statements one sentence makes, and whether it speaks of broker support at all."""
    about_brokers = _ABOUT_BROKERS.search(sentence) is not None
    if (election := _ELECTION.search(sentence)) is not None:
        first = election["first"]
        other = "unclean" if first == "preferred" else f"not-{first}"
        return [Statement(first, sentence, election.group(1), line),
                Statement(other, sentence, election.group(3), line)], True
    if (option := _OPTION_FROM.search(sentence)) is not None:
        return [Statement(option["option"], sentence, option.group(2), line)], True
    if _OLDER.search(sentence):  # no release named: the options class's setter names it (``with_options``)
        return [Statement(OLDER_BROKERS, sentence, "", line)], True
    higher = _OR_HIGHER.search(sentence)
    if higher is None or not about_brokers:
        return [], about_brokers
    when = _WHEN_USING.match(sentence)
    return [Statement(_option_name(when["what"]) if when else METHOD, sentence, higher.group(1), line)], True


def read_result(sentence: str, line: int) -> tuple[list[Statement], bool]:
    """A result class's sentence about what older brokers leave out (``result``, named after its getter by
    ``with_options``), with the release it names if any."""
    found = _RESULT.search(sentence)
    if found is None:
        return [], False
    return [Statement(RESULT, sentence, found.group(1) or found.group(2) or "", line)], True


def read_interface(text: str) -> tuple[Statement, ...]:
    """The interface's (or abstract class's) own broker minimum, from the comment above its declaration."""
    for comment in _COMMENT.finditer(text):
        if _TYPE.match(text, comment.end()) is None:
            continue
        for sentence in sentences(comment["body"]):
            if (found := _MINIMUM.search(sentence)) is not None:
                quote = sentence[found.start():found.end()]
                at = text.count("\n", 0, comment.start()) + 1 + _line_in(comment.group(0).splitlines(), quote)
                return (Statement(f"{INTERFACE}:minimum", quote, found.group(1), at),)
    return ()


def _line_in(lines: list[str], sentence: str) -> int:
    """The index of the comment line where ``sentence`` starts: the first holding its first five words (or as
    many as fit on one line)."""
    words = sentence.split()
    for count in range(min(5, len(words)), 0, -1):
        head = " ".join(words[:count])
        found = next((i for i, raw in enumerate(lines) if head in " ".join(raw.split())), None)
        if found is not None:
            return found
    return 0


Reader = Callable[[str, int], tuple[list[Statement], bool]]


def parse_admin(text: str, source: str, reader: Reader = read_statements) -> dict[str, MethodDoc]:
    """Every public method of the interface (or abstract class) with its javadoc's broker statements, overloads
    merged: the first sentence for a selector wins, in source order (the overloads say the same)."""
    public_by_default = source.endswith("/Admin.java")
    found: dict[str, dict[str, Any]] = {}
    for comment in _COMMENT.finditer(text):
        declaration = _DECLARATION.match(text, comment.end())
        if declaration is None:
            continue
        modifiers = declaration["modifiers"].split()
        if not public_by_default and "public" not in modifiers:
            continue
        if "private" in modifiers or "protected" in modifiers:
            continue
        name = declaration["name"]
        line = text.count("\n", 0, declaration.start("name")) + 1
        entry = found.setdefault(name, {"line": line, "signatures": [], "statements": {}, "unparsed": [],
                                        "static": "static" in modifiers, "text": []})
        if (prose := _clean(comment["body"])) not in entry["text"]:
            entry["text"].append(prose)
        params = re.sub(r"\s+", " ", declaration["params"].strip())
        entry["signatures"].append(f"{name}({params})")
        first_line = text.count("\n", 0, comment.start()) + 1
        raw_lines = comment.group(0).splitlines()
        for sentence in sentences(comment["body"]):
            at = first_line + _line_in(raw_lines, sentence)
            statements, about_brokers = reader(sentence, at)
            for statement in statements:
                entry["statements"].setdefault(statement.selector, statement)
            if about_brokers and not statements and sentence not in entry["unparsed"]:
                entry["unparsed"].append(sentence)
    return {name: MethodDoc(name, e["line"], tuple(dict.fromkeys(e["signatures"])),
                            tuple(e["statements"].values()), tuple(e["unparsed"]), e["static"], " ".join(e["text"]))
            for name, e in found.items()}


def with_options(method: MethodDoc, options: Mapping[str, MethodDoc], source: str) -> MethodDoc:
    """A method with the broker sentences of its options class (``ListConsumerGroupsOptions.inStates``: "This
    operation is supported by brokers with version 2.6.0 or later."), each under the option method's name; a
    selector the Admin javadoc already has keeps the Admin's sentence."""
    known = {s.selector for s in method.statements}
    added = [replace(s, selector=_named(s.selector, option.name), source=source)
             for option in options.values() if not option.static for s in option.statements]
    fresh: list[Statement] = []
    for statement in added:  # the first overload's sentence for a selector, as in parse_admin
        if statement.selector not in known:
            known.add(statement.selector)
            fresh.append(statement)
    unparsed = [u for option in options.values() for u in option.unparsed if u not in method.unparsed]
    text = " ".join([method.text, *(o.text for o in options.values() if o.text)])
    return replace(method, statements=(*method.statements, *fresh), unparsed=(*method.unparsed, *unparsed),
                   text=text)


def _named(selector: str, name: str) -> str:
    """A sentence's selector in its class under the getter or setter it documents: ``inStates``,
    ``result:clusterId``."""
    if selector == METHOD:
        return name
    return f"{selector}:{name}" if selector in (OLDER_BROKERS, RESULT) else selector


def _classes(method: MethodDoc, folder: str, names: set[str], read: Callable[[str], str]) -> list[tuple[str, Reader]]:
    """The classes documenting ``method`` besides the interface, each with its reader: its options class, by
    name (``CreateTopicsOptions``) and by its overloads' parameters (``incrementalAlterConfigs`` takes
    ``AlterConfigsOptions``); its result class (``DescribeClusterResult``) and the classes of this package its
    getters return (``ListGroupsResult`` -> ``GroupListing``)."""
    stem = method.name[:1].upper() + method.name[1:]
    options = [f"{stem}Options", *(found for signature in method.signatures
                                  for found in _OPTIONS_PARAM.findall(signature.partition("(")[2]))]
    found: list[tuple[str, Reader]] = [(f"{folder}/{name}.java", read_statements) for name in dict.fromkeys(options)]
    result = f"{folder}/{stem}Result.java"
    if result in names:
        returned = {word for types in _RETURNS.findall(read(result)) for word in re.findall(r"\b[A-Z]\w*", types)}
        found += [(path, read_result) for path in (result, *(f"{folder}/{w}.java" for w in sorted(returned)))]
    return [(path, reader) for path, reader in dict(found).items() if path in names]


_VALID_VERSIONS = re.compile(r'^\s*"validVersions"\s*:\s*"[^"]*"', re.M)


def extract(jar: Path, release: str) -> AdminDocs:
    """The Admin interface's documentation and the request schemas' valid versions, from a sources jar."""
    try:
        with zipfile.ZipFile(jar) as archive:
            names = set(archive.namelist())
            source = next((s for s in ADMIN_SOURCES if s in names), None)
            if source is None:
                raise ArtifactError(f"{jar.name} has neither {' nor '.join(ADMIN_SOURCES)}")
            def read(name: str) -> str:
                return archive.read(name).decode("utf-8", errors="replace")

            text = read(source)
            methods = parse_admin(text, source)
            for name, method in list(methods.items()):
                for path, reader in _classes(method, str(Path(source).parent), names, read):
                    methods[name] = with_options(methods[name], parse_admin(read(path), path, reader), path)
            schemas = {}
            for name in sorted(n for n in names if re.fullmatch(r"common/message/\w+Request\.json", n)):
                found = _VALID_VERSIONS.search(archive.read(name).decode("utf-8", errors="replace"))
                if found is not None:
                    schemas[Path(name).stem[:-len("Request")]] = found.group(0).strip()
    except (OSError, zipfile.BadZipFile) as exc:
        raise ArtifactError(f"kafka-clients {release}'s sources jar {jar} can't be read: {exc}") from exc
    if source == ADMIN_SOURCES[0] and "createTopics" not in methods:
        raise ArtifactError(f"{jar.name}: no Admin method could be read from {source}")
    return AdminDocs(release, source, methods, schemas, read_interface(text))


_READ: dict[tuple[str, Path], AdminDocs] = {}
"""What this process has read, by (release, cache dir): every cell of a run binds its claim, and re-reading the
cached extraction per cell would be I/O on the hot path."""


def admin_docs(release: str, config: HarnessConfig) -> AdminDocs:
    """``release``'s Admin documentation: extracted once from its sources jar, then from the cache."""
    key = (release, config.cache_dir)
    if key not in _READ:
        _READ[key] = _admin_docs(release, config)
    return _READ[key]


def _admin_docs(release: str, config: HarnessConfig) -> AdminDocs:
    version = KafkaVersion.parse(release)
    if version < KafkaVersion.parse("0.11.0"):
        raise ConfigError(f"kafka-clients {release} has no AdminClient (it came in 0.11.0, KIP-117)")
    cached = config.cache_dir / "admin-docs" / f"kafka-clients-{release}.json"
    if cached.is_file():
        try:
            data = json.loads(cached.read_text())
            if data.get("format") == FORMAT:
                return AdminDocs.from_json(data)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # damaged or older: extracted again below
    jar = ArtifactStore(config).resolve_client_sources(release)
    docs = extract(jar, release)
    cached.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(cached, timeout=60, waiting_for=f"to write kafka-clients {release}'s Admin documentation"):
        tmp = cached.with_suffix(".tmp")
        tmp.write_text(json.dumps(docs.as_json(), indent=1))
        tmp.replace(cached)
    return docs


def documenting_release(client_kind: str, client_release: str | None, config: HarnessConfig) -> str:
    """Whose javadoc documents a cell: the cell's own kafka-clients release for a Java client; for any other
    client the newest kafka-clients release of the catalog (the Admin interface as Kafka documents it now)."""
    if kind(client_kind).documents_itself and client_release:
        return client_release
    from ..catalog import load_catalog

    return str(load_catalog().java_clients[-1].version)


_DOCUMENTED: dict[tuple[str, Path], tuple[AdminDocs, str | None]] = {}
"""``docs_or_older``'s answers in this process: a sources jar that does not resolve is asked of Maven once, not
once per cell."""


def docs_or_older(release: str, config: HarnessConfig) -> tuple[AdminDocs, str | None]:
    """``release``'s documentation, or when its sources jar does not resolve (kafka-clients 4.4.0's is not
    served here) the nearest older published release whose jar does (three tried), and a note saying so."""
    key = (release, config.cache_dir)
    if key not in _DOCUMENTED:
        _DOCUMENTED[key] = _docs_or_older(release, config)
    return _DOCUMENTED[key]


OLDER_FOR = 24 * 3600
"""Seconds an older release stands in for one whose sources jar did not resolve before Maven is asked again
(offline: for good).  Every process binding a cell, and every ``run --plan``, would ask it otherwise."""


def _stand_in(release: str, config: HarnessConfig) -> Path:
    return config.cache_dir / "admin-docs" / f"kafka-clients-{release}.older.json"


def _remembered(release: str, config: HarnessConfig) -> tuple[AdminDocs, str] | None:
    """The older release's documentation that stood in for ``release`` lately, and its note."""
    try:
        data = json.loads(_stand_in(release, config).read_text())
        if config.offline or time.time() - float(data["at"]) < OLDER_FOR:
            return admin_docs(str(data["older"]), config), str(data["note"])
    except (OSError, ValueError, KeyError, TypeError, ArtifactError, ConfigError):
        pass
    return None


def _docs_or_older(release: str, config: HarnessConfig) -> tuple[AdminDocs, str | None]:
    if (remembered := _remembered(release, config)) is not None:
        return remembered
    try:
        return admin_docs(release, config), None
    except ArtifactError as exc:
        if config.offline:
            raise
        from ..catalog import load_catalog
        from ..central import published_clients

        wanted = KafkaVersion.parse(release)
        published = published_clients(config)
        candidates = sorted({*published, *(c.version for c in load_catalog().java_clients)}, reverse=True)
        for older in [v for v in candidates if v < wanted][:3]:
            try:
                docs = admin_docs(str(older), config)
            except ArtifactError:
                continue
            note = (f"kafka-clients {release}'s sources jar did not resolve (Maven's log: {exc.log}); "
                    f"documented by {older}'s javadoc")
            stand_in = _stand_in(release, config)
            tmp = stand_in.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"older": str(older), "note": note, "at": time.time()}))
            tmp.replace(stand_in)
            return docs, note
        raise


def bind(claim: Claim, client_kind: str, client_release: str | None, config: HarnessConfig) -> Claim:
    """A javadoc claim as one cell documents it: the quote is the sentence of the documenting release (or,
    for a method without one, its API's ``validVersions`` line), the release bound the sentence's minimum;
    a client release without the method (or the option) documents the call's absence."""
    if claim.method is None:
        return claim
    release = documenting_release(client_kind, client_release, config)
    docs, note = docs_or_older(release, config)
    method = docs.methods.get(claim.method)
    selectors = claim.statement.split("|")  # options tried in order: the first this release documents
    statement = next((s for sel in selectors if (s := docs.statement(method, sel)) is not None), None) \
        if method else None
    bound: dict[str, Any] = {"release": docs.release, "source": docs.source, "note": note, "method": claim.method,
                             "has_method": method is not None,
                             "statement": statement.selector if statement is not None else claim.statement}
    since: KafkaVersion | None = None
    if statement is not None:
        quote, since = statement.sentence, KafkaVersion.parse(statement.minimum) if statement.minimum else None
        bound.update(line=statement.line, minimum=statement.minimum, source=statement.source or docs.source)
    elif method is None:
        quote = f"kafka-clients {docs.release}'s {Path(docs.source).stem} has no method {claim.method}"
    elif claim.statement != METHOD:
        quote = f"kafka-clients {docs.release}'s {claim.method} says nothing of {' or '.join(selectors)}"
        # the release can't express the option: the client is short; of a sentence kind it is silent, and the
        # claim's expectation stands without its words
        bound["has_method"] = all(map(is_kind, selectors))
    elif (schema := docs.schema(claim.api)) is not None:
        stem, quote = schema
        bound.update(source=f"common/message/{stem}Request.json")
    else:
        quote = f"kafka-clients {docs.release} documents no broker release for {claim.method}"
    documented = tuple(replace(d, quote=quote) if d.quote == BOUND_QUOTE else _quoted(d, method, docs.release)
                       for d in (*claim.expect, *claim.fallback))
    expect, fallback = documented[:len(claim.expect)], documented[len(claim.expect):]
    return replace(claim, expect=expect, fallback=fallback, brokers_since=since, bound=bound)


def check_cells(cells: Iterable[PlannedCell], book: ClaimBook, config: HarnessConfig) -> None:
    """The javadoc documents a selection's cells bind: each claim's names checked (``check_names``) against the
    releases its cells bind it to besides those of the catalog."""
    releases: dict[str, set[str]] = {}
    for cell in cells:
        if cell.claim.method is not None:
            releases.setdefault(cell.claim.id, set()).add(
                documenting_release(cell.client.kind, cell.client.version, config))
    for document in book.kips.values():
        if document.is_javadoc and any(c.id in releases for c in document.claims):
            check_names(document, config, lambda claim: releases.get(claim.id, ()))


def check_names(document: KipClaims, config: HarnessConfig,
                extra: Callable[[Claim], Iterable[str]] = lambda claim: ()) -> None:
    """Each claim's ``method`` and ``statement`` name something in at least one kafka-clients release it binds to
    (``binding_releases`` and ``extra``), else one ``file:line`` error with the nearest names per release: a
    name no release has would only make every cell expect a refusal.  A name one release lacks is not one:
    the method came later, or went (a cell of that release expects the refusal by design).  A release whose
    javadoc can't be read here (offline, not cached) proves nothing, so its claims are left to their cells."""
    for claim in document.claims:
        if claim.method is None:
            continue
        read = _readable({*binding_releases(claim), *extra(claim)}, config)
        if read is None:
            continue
        having = [(docs, m) for docs in read if (m := docs.methods.get(claim.method)) is not None]
        if not having:
            near = _nearest(claim.method, {d.release: d.methods for d in read})
            raise ClaimError(f"{key_source(claim, 'method')}: {claim.id}: method {claim.method!r} is in no "
                             f"Admin javadoc it binds to; nearest: {near}")
        for selector in claim.statement.split("|"):
            if selector != METHOD and not any(d.statement(m, selector) for d, m in having):
                near = _nearest(selector, {d.release: [METHOD, *(s.selector for s in (*m.statements, *d.interface))]
                                           for d, m in having})
                raise ClaimError(f"{key_source(claim, 'statement')}: {claim.id}: statement {selector!r} is in no "
                                 f"javadoc of {claim.method} it binds to; nearest: {near}")


def binding_releases(claim: Claim) -> list[str]:
    """The kafka-clients releases documenting a claim's cells on the catalog's client axis: each of the
    catalog's for a kind that documents itself (java), the newest for any other kind."""
    from ..catalog import load_catalog

    catalog = [str(c.version) for c in load_catalog().java_clients]
    itself = {kind(k).documents_itself for k in kind_names() if claim.applies_to(k)}
    return [*(catalog if True in itself else []), *(catalog[-1:] if False in itself else [])]


def _readable(releases: Iterable[str], config: HarnessConfig) -> list[AdminDocs] | None:
    """Each release's documentation in release order (one read per documenting release); None if one can't
    be read."""
    found: dict[str, AdminDocs] = {}
    for release in sorted(set(releases), key=KafkaVersion.parse):
        try:
            docs = docs_or_older(release, config)[0]
        except (ArtifactError, ConfigError):
            return None
        found.setdefault(docs.release, docs)
    return list(found.values())


def _nearest(name: str, by_release: Mapping[str, Iterable[str]]) -> str:
    """``name``'s nearest names in each release, releases with the same ones together: ``createTopics
    (kafka-clients 2.3.1, 2.5.1); nothing near (kafka-clients 0.11.0.3)``."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for release, names in by_release.items():
        groups.setdefault(tuple(difflib.get_close_matches(name, list(names), n=3)), []).append(release)
    return "; ".join(f"{', '.join(near) or 'nothing near'} (kafka-clients {', '.join(releases)})"
                     for near, releases in groups.items())


def coverage(document: KipClaims, releases: Sequence[str], config: HarnessConfig) -> list[dict[str, Any]]:
    """Every public method of each release's Admin interface: a row per broker statement (and per method
    without one) with the claims resting on it, or why none can (coverage.json, ``kcompat clients
    admin-docs``).  A release whose sources can't be read is one row saying so, never a traceback."""
    by_method: dict[tuple[str, str], list[str]] = {}
    apis: dict[str, str] = {}
    for claim in document.claims:
        if claim.method is not None:
            for selector in claim.statement.split("|"):
                by_method.setdefault((claim.method, selector), []).append(claim.id)
            apis.setdefault(claim.method, claim.api)
    reasons = {s.statement: s.reason for s in document.not_testable}
    rows: list[dict[str, Any]] = []
    for release in releases:
        try:
            docs, note = docs_or_older(release, config)
        except (ArtifactError, ConfigError) as exc:
            rows.append(_row(document.kip, release, "*", f"kafka-clients {release}", [], str(exc)))
            continue
        for method in docs.methods.values():
            documented = [*method.statements]
            # the method's own side is its API's schema where it has no sentence of its own: listed where claims rest
            # on it, or where the method has no sentence at all (electLeaders' two options cover it otherwise)
            if method.statement(METHOD) is None and (not method.statements or (method.name, METHOD) in by_method):
                schema = docs.schema(apis.get(method.name, ""))
                statement = schema[1] if schema else f"(no broker sentence in kafka-clients {docs.release}'s javadoc)"
                documented.insert(0, Statement(METHOD, statement, "", method.line))
            for found in documented:
                claims = by_method.get((method.name, found.selector), [])
                reason = None if claims else (reasons.get(f"{method.name} {found.selector}")
                                              or reasons.get(method.name) or "no claim judges it yet")
                rows.append(_row(document.kip, release, method.name, found.sentence, claims, reason,
                                 selector=found.selector, minimum=found.minimum or None, note=note,
                                 source=found.source or docs.source, line=found.line))
            rows.extend(_row(document.kip, release, method.name, sentence, [],
                             "the extractor reads no broker release in this sentence", source=docs.source)
                        for sentence in method.unparsed)
        rows.extend(_interface_row(document.kip, release, docs, found, by_method, reasons, note)
                    for found in docs.interface)
    return rows


def _interface_row(kip: str, release: str, docs: AdminDocs, found: Statement,
                   by_method: Mapping[tuple[str, str], list[str]], reasons: Mapping[str, str],
                   note: str | None) -> dict[str, Any]:
    """The interface's own sentence, under its name (``Admin``), with the claims of any method resting on it."""
    name = Path(docs.source).stem
    claims = [c for (_, selector), ids in by_method.items() if selector == found.selector for c in ids]
    reason = None if claims else (reasons.get(f"{name} {found.selector}") or "no claim judges it yet")
    return _row(kip, release, name, found.sentence, claims, reason, selector=found.selector,
                minimum=found.minimum, note=note, source=docs.source, line=found.line)


def _row(kip: str, release: str, method: str, statement: str, claims: list[str], reason: str | None,
         **extra: Any) -> dict[str, Any]:
    return {"kip": kip, "section": f"Admin.{method} (kafka-clients {release})", "statement": statement,
            "claims": claims, "testable": bool(claims), "reason": reason, "release": release, "method": method,
            **extra}


def _quoted(entry: Documented, method: MethodDoc | None, release: str) -> Documented:
    """An entry with its own quote (an exception the method's javadoc lists): kept where this release's javadoc
    of the method says it, else shown marked as not said by it (the expectation is the claim's, the words not
    this release's)."""
    if method is not None and verbatim_form(entry.quote) in verbatim_form(method.text):
        return entry
    where = f"kafka-clients {release}'s javadoc of {method.name}" if method else f"kafka-clients {release}"
    return replace(entry, quote=f"[not in {where}] {entry.quote}")
