"""One verdict per cell, from the claim, the versions both sides can use, and the observation.

Pure logic (no broker, no client): what a cell expects is derived here and
only here, from the claim's documented sides and the request versions the
broker advertised and the client can send.  A client whose version is below
what the broker still accepts (Kafka 4.x removed old versions, KIP-896), or
a pinned one above the broker's newest, is ``unsupported`` limited by the
broker whatever the claim documents: what is asserted there is the broker's
refusal.  A library client that actually sent a request outside the broker's
range is a deviation naming it instead (``sent_outside``), unless a claim
documents that; a broker whose newest version is
below the client's oldest (kafka-clients 4.x dropped old versions too) is
``unsupported`` limited by the client, asserting the client's refusal.  A claim a document bounds by broker
release (``brokers = ">=2.0"``) is short on the broker side below it, like a
request version below its range.  ``fail`` and ``infra_error`` are
not decided here: they mean no observation could be judged, and the cell
runner records them with the reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..clients.kinds import kind
from ..records import ACCEPTED, LimitedBy, Outcome
from ..versions import KafkaVersion
from . import overrides
from .claims import REFUSED, Claim, Documented
from .observables import ABSENT, OUT_OF_RANGE, PROBES, match, result_field, shown


def refusal_observed(observed: Mapping[str, Any], client_kind: str) -> bool:
    """Whether the observation is a refusal of the request's version in the client's words (its kind's
    ``refusal``: the wire client's record, kafka-clients' exception, librdkafka's error) or Kafka's."""
    return kind(client_kind).refuses(observed.get("exception"), observed.get("error"))


ABSENT_METHOD = frozenset({"NoSuchMethodException", "NotImplementedError", "ClassNotFoundException"})
"""How a client release without an admin method says so (the sidecar's reflection, confluent-kafka's absence)."""


def lacks_asked_option(claim: Claim, observed: Mapping[str, Any]) -> bool:
    """The client made the call without an option the claim asks for (its ``unsupported_options`` names an
    argument the claim sets: ``include_authorized_operations = true``, a ``states`` filter): it can't express
    the claim at all, as a release without the method can't.  A false flag or an empty filter asks nothing."""
    asked = {key for key, value in claim.args.items()
             if value is not False and value is not None and value != [] and value != ()}
    named = observed.get("unsupported_options")
    return bool(asked & set(named)) if isinstance(named, list) else False


LACKING = "unsupported_fields"
"""The observed key naming result fields the client's API has no way to carry, each with the API type lacking it."""
DEADLINE = "deadline_reached"
"""The observed key of a call that returned only when its deadline expired: the deadline's seconds."""


def lacked_fields(claim: Claim, client_kind: str, observed: Mapping[str, Any]) -> dict[str, str]:
    """The keys the claim documents where both sides can express it that read a result field the client declares
    its API lacks (``config.retention.ms.type`` -> ``kadm.Config``): the client is short of the claim, as a
    release without the method is; its library returned nothing other than documented."""
    declared = observed.get(LACKING)
    if not isinstance(declared, dict):
        return {}
    expect = documented_for(claim, client_kind, None)["expect"]
    return {key: str(declared[field]) for key in expect if (field := field_read(claim, key)) in declared}


def field_read(claim: Claim, key: str) -> str:
    """The result field an observed key of the claim's probe reads (``ProbeSpec.reads``, else its own name)."""
    spec = PROBES.get(claim.probe)
    return dict(spec.reads).get(key, result_field(key)) if spec is not None else result_field(key)


def call_refused(observed: Mapping[str, Any], client_kind: str) -> bool:
    """A javadoc claim's ``refused``: the client did not make the call, refusing the broker's versions or
    lacking the method in its release."""
    return refusal_observed(observed, client_kind) or observed.get("exception") in ABSENT_METHOD


@dataclass(frozen=True)
class Limits:
    """The newest request version of the claim's API each side can use (None: not at all), and the
    oldest the broker still accepts (None: not known, or the API is not offered)."""

    broker_max: int | None
    client_max: int | None
    broker_min: int | None = None
    broker_version: KafkaVersion | None = None
    """The broker's release, for claims bounded by release; None: not known (no release bound applies)."""
    client_min: int | None = None
    """The oldest version the client still sends (kafka-clients 4.x dropped many); None: not known."""
    client_at_least: bool = False
    """``client_max`` is the stub broker's ceiling, a lower bound (``ClientLimits.at_least``): the client may
    send newer, and what it sends is judged."""
    pinned: bool = False
    """``client_max`` is a pin (``wire@v5``): the client sends that version whatever the broker offers, so it is
    judged by these limits, not by what it sent (``OUT_OF_RANGE``)."""

    @property
    def usable(self) -> int | None:
        if self.broker_max is None or self.client_max is None:
            return None
        return self.broker_max if self.client_at_least else min(self.broker_max, self.client_max)

    @property
    def refused(self) -> bool:
        """The version the client would send is below the broker's minimum, or a pin above its newest: the
        broker refuses it."""
        return self.above or (self.usable is not None and self.broker_min is not None
                              and self.usable < self.broker_min)

    @property
    def above(self) -> bool:
        """A pinned client's version is above the broker's newest: it sends it anyway, and the broker refuses."""
        return (self.pinned and self.client_max is not None and self.broker_max is not None
                and self.client_max > self.broker_max)

    @property
    def absent(self) -> bool:
        """The broker offers no version of the API (0.10.2 has no DescribeConfigs) while the client has one."""
        return self.broker_max is None and self.client_max is not None

    @property
    def client_refuses(self) -> bool:
        """The broker's newest version is below the client's oldest: the client refuses to send it."""
        return self.broker_max is not None and self.client_min is not None and self.broker_max < self.client_min


def limited_by(min_version: int, limits: Limits, since: KafkaVersion | None = None, *,
               sends_request: bool = True) -> LimitedBy | None:
    """Which side is below the claim's range (or the broker, refusing the client's version, or older than
    the release the claim is documented ``since``), or None when the pair can express the claim."""
    if sends_request and (limits.refused or limits.client_refuses):
        return "broker" if limits.refused else "client"
    broker_short = (limits.broker_max is None or limits.broker_max < min_version
                    or (since is not None and limits.broker_version is not None and limits.broker_version < since))
    client_short = limits.client_max is None or (limits.client_max < min_version and not limits.client_at_least)
    if broker_short and client_short:
        return "both"
    if broker_short:
        return "broker"
    if client_short:
        return "client"
    return None


def refusal_documented(claim: Claim, limits: Limits, client_kind: str = "") -> dict[str, Any]:
    """What a cell outside the other side's range asserts: a version outside what a side supports is refused,
    by the broker (below its minimum) or by the client (the broker's newest is below the client's oldest), in
    the words of the document that removed it (KIP-896's ``[[overrides]]``, ``case = "removed"``) where one
    says so, else as the protocol's rule, with no quote: ApiVersions is the documented side."""
    versions = {"broker_versions": {"min": limits.broker_min, "max": limits.broker_max},
                "client_versions": {"min": limits.client_min, "max": limits.client_max}}
    side = "broker" if limits.refused else "client"
    removal = None if limits.above else overrides.deciding(claim.overrides, "removed", side, client_kind,
                                                           limits.broker_version)
    if removal:
        return {**overrides.documented(removal, "refused"), **versions}
    return {"case": "refused", "section": claim.section, "quotes": [], **versions,
            "expect": {"refused": True}, "decided_by": None, "precedence": "generated"}


def documented_for(claim: Claim, client_kind: str, short: LimitedBy | None,
                   broker: KafkaVersion | None = None) -> dict[str, Any]:
    """What the documents say of this cell: in range, the claim's expectations; short, the first word in
    ``overrides.PRECEDENCE`` order: the claim's own fallbacks or another KIP's statement about older pairs,
    then the javadoc minimum's generated refusal.  Entries that apply come generic first, specific overriding."""
    if short is not None and claim.bound is not None:
        stated = overrides.deciding(claim.overrides, "short", short, client_kind, broker)
        if stated:
            return {**overrides.documented(stated, "below"), "javadoc": dict(claim.bound)}
    entries: tuple[Documented, ...] = (claim.expect if short is None
                                       else tuple(f for f in claim.fallback if short in f.limited_by))
    applicable = [e for e in entries if not e.clients] + [e for e in entries if client_kind in e.clients]
    expect: dict[str, Any] = {}
    for entry in applicable:
        expect.update(entry.observe)
    precedence = "claim" if short is None else "javadoc" if claim.bound is not None else "introduced"
    documented = {"case": "supported" if short is None else "below", "section": claim.section,
                  "quotes": list(dict.fromkeys(e.quote for e in applicable)), "expect": expect,
                  "decided_by": claim.kip, "precedence": precedence}
    if claim.bound is not None:  # whose javadoc (release, source path, line) the quotes are
        documented["javadoc"] = dict(claim.bound)
    return documented


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    limited_by: LimitedBy | None
    documented: dict[str, Any]
    differences: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None


def judge_without(claim: Claim, missing: Sequence[str], observed: Mapping[str, Any], *,
                  pinned: bool = False) -> Verdict:
    """A cell whose broker lacks an API the claim ``requires`` (share groups without ShareGroupDescribe): what
    the claim is about can't exist there, so the call must not succeed (an error or the client's refusal,
    ``unsupported``, limited by the broker); a call that succeeds is a deviation, and so is a library client
    that sent a request outside the broker's range (``sent_outside``)."""
    documented = {"case": "requires", "requires": list(missing), "expect": {"succeeded": False},
                  "decided_by": claim.kip, "precedence": "claim"}
    succeeded = observed.get("error") in (None, "NONE") and not observed.get("exception")
    if not succeeded:  # a client that lacks the method is short too
        verdict = Verdict("unsupported", "both" if observed.get("exception") in ABSENT_METHOD else "broker",
                          documented)
    else:
        verdict = Verdict("deviation", None, documented,
                          [{"key": "succeeded", "documented": False, "observed": True}],
                          reason=f"succeeded on a broker without {', '.join(missing)}")
    return verdict if pinned else sent_outside(verdict, observed)


def observe_again(verdicts: Sequence[Verdict], limit: int) -> bool:
    """Whether to observe the cell once more: its first observation deviated, every one so far was judged,
    and fewer than ``limit`` (observations in all) were made.  A pass or an unsupported is never repeated:
    it held, and repeating every cell would multiply the matrix's time; nor is a call that reached its deadline,
    which would wait the deadline out again each time, nor one that sent outside the broker's range: what it
    sent stays sent (each observation's ``OUT_OF_RANGE`` counts from the client's start)."""
    return (bool(verdicts) and verdicts[0].outcome == "deviation" and len(verdicts) < limit
            and all(v.outcome in ACCEPTED for v in verdicts)
            and not any(d["key"] in (DEADLINE, OUT_OF_RANGE) for d in verdicts[0].differences))


@dataclass(frozen=True)
class Settled:
    """The cell's verdict from all its observations: the first one's, and whether they disagree."""

    verdict: Verdict
    intermittent: bool = False


def settle(verdicts: Sequence[Verdict]) -> Settled:
    """One verdict from a cell's observations, in order (the first judged, the others from ``observe_again``).

    A deviation stays a deviation when a later observation held: the documented behaviour did not hold
    every time.  It is ``intermittent`` when at least one judged observation held; an observation that
    could not be judged (the probe raised) counts for neither side.
    """
    if not verdicts:
        raise ValueError("settle needs at least one observation")
    first = verdicts[0]
    if first.outcome != "deviation":
        return Settled(first)
    return Settled(first, any(v.outcome in ACCEPTED and v.outcome != "deviation" for v in verdicts[1:]))


def judge(claim: Claim, client_kind: str, limits: Limits, observed: Mapping[str, Any]) -> Verdict:
    """pass / unsupported when every documented key matches, deviation (with each difference) otherwise.

    A probe that sends no request (the client's classes) is judged by the claim alone: no side can refuse it.
    A broker without the API at all leaves the client two documented courses: the claim's fallback (a
    client that lists through Metadata where DescribeTopicPartitions is missing) or the protocol's refusal
    (a client with nothing else to send); either is ``unsupported``, anything else a deviation from the
    fallback.  A javadoc claim (DOCS-admin) documents its release's sentence: below its broker release, or
    with a client release lacking the method, the call is ``refused``; at or above it the call works, and a
    refusal there is a deviation (the javadoc promised the pair), never ``unsupported``.
    """
    sends = PROBES[claim.probe].sends_request
    short = limited_by(claim.min_version, limits, claim.brokers_since, sends_request=sends)
    bound = claim.bound  # a javadoc claim, bound to the cell's kafka-clients release
    has_method = bound is None or bool(bound.get("has_method", True))
    if bound is not None and not kind(client_kind).documents_itself and observed.get("exception") in ABSENT_METHOD:
        has_method = False  # the documenting release has it, this client's library does not: asserted by absence
    lacked = lacked_fields(claim, client_kind, observed)
    lacking = bound is not None and (lacks_asked_option(claim, observed) or bool(lacked))
    if lacking:
        has_method = False  # it made the call without the option (or the result) the claim is about: short
    if bound is not None:
        observed = {**observed, REFUSED: call_refused(observed, client_kind) or lacking}
        if not has_method:  # the release lacks the method: the client is short
            short = "both" if short in ("broker", "both") else "client"
    # the javadoc says this broker supports the call and both sides have the API: a client that refuses it
    # anyway (kafka-clients 4.x below broker 2.1) deviates from its own documentation, a finding
    in_range = (bound is not None and has_method and claim.brokers_since is not None and short in (None, "client")
                and limited_by(claim.min_version, limits, claim.brokers_since, sends_request=False) is None)
    if in_range:
        short = None
    if lacked:  # its API can't carry what the claim observes: the client is short
        short = "both" if short in ("broker", "both") else "client"
    refused = sends and (limits.refused or (limits.client_refuses and not in_range))
    refusal = call_refused if bound is not None else refusal_observed  # a javadoc claim: a missing method too
    documented = (refusal_documented(claim, limits, client_kind) if refused
                  else documented_for(claim, client_kind, short, limits.broker_version))
    verdict = _judged(documented, short,
                      {**observed, "refused": refusal(observed, client_kind) or lacking} if refused else observed)
    stated_elsewhere = documented["decided_by"] not in (None, claim.kip)  # a KIP said what older pairs see
    if (sends and limits.absent and not in_range and verdict.outcome == "deviation" and not stated_elsewhere
            and refusal_observed(observed, client_kind)):
        verdict = Verdict("unsupported", short, refusal_documented(claim, limits, client_kind))
    if lacked and verdict.outcome == "unsupported" and verdict.reason is None:
        fields = sorted({f"{api} has no {field_read(claim, key)}" for key, api in lacked.items()})
        verdict = dataclasses.replace(verdict, reason=f"the client's API can't carry it: {'; '.join(fields)}")
    verdict = reached_deadline(verdict, observed)
    return verdict if limits.pinned else sent_outside(verdict, observed)


def reached_deadline(verdict: Verdict, observed: Mapping[str, Any]) -> Verdict:
    """A call that returned only when its deadline expired did not behave as documented, whatever it returned
    then (a validate-only create waiting for a topic that will never exist): a deviation naming the deadline,
    unless the client is short of the claim anyway (``unsupported``, limited by the client)."""
    seconds = observed.get(DEADLINE)
    if not isinstance(seconds, (int, float)) or (verdict.outcome == "unsupported"
                                                 and verdict.limited_by in ("client", "both")):
        return verdict
    note = f"the call returned only when its {seconds:g} s deadline expired"
    difference = {"key": DEADLINE, "documented": {"absent": True}, "observed": seconds}
    return Verdict("deviation", verdict.limited_by, verdict.documented, [*verdict.differences, difference],
                   note if verdict.reason is None else f"{verdict.reason}; {note}")


def sent_outside(verdict: Verdict, observed: Mapping[str, Any]) -> Verdict:
    """A library client that sent a request outside the broker's range (``OUT_OF_RANGE``: its negotiation or
    a setting chose a version the broker lacks) is never ``pass`` nor ``unsupported``: a deviation naming each
    request and the broker's range, unless the cell's documents name the key (then it was judged like any
    other).  This replaces, for library clients, "below the broker's minimum is the broker's refusal": a pinned
    client, which sends what it is told, is judged by ``Limits.refused`` instead."""
    sent = observed.get(OUT_OF_RANGE)
    if not isinstance(sent, list) or not sent or OUT_OF_RANGE in verdict.documented.get("expect", {}):
        return verdict
    note = "sent outside the broker's range: " + ", ".join(_outside(request) for request in sent)
    difference = {"key": OUT_OF_RANGE, "documented": [], "observed": list(sent)}
    return Verdict("deviation", verdict.limited_by, verdict.documented, [*verdict.differences, difference],
                   note if verdict.reason is None else f"{verdict.reason}; {note}")


def _outside(request: Mapping[str, Any]) -> str:
    """``Metadata v0 (the broker offers v4-v13)``: one entry of ``OUT_OF_RANGE`` as a reason names it."""
    low, high = request.get("broker_min"), request.get("broker_max")
    offers = "none" if low is None or high is None else f"v{low}-v{high}"
    return f"{request.get('api')} v{request.get('version')} (the broker offers {offers})"


def _judged(documented: dict[str, Any], short: LimitedBy | None, observed: Mapping[str, Any]) -> Verdict:
    differences = [{"key": key, "documented": expected, "observed": shown(observed.get(key, ABSENT))}
                   for key, expected in documented["expect"].items()
                   if not match(expected, observed.get(key, ABSENT))]
    if differences:
        summary = "; ".join(f"{d['key']}: documented {_text(d['documented'])}, observed {_text(d['observed'])}"
                            for d in differences)
        return Verdict("deviation", short, documented, differences, summary)
    return Verdict("pass" if short is None else "unsupported", short, documented)


def _text(value: Any) -> str:
    if isinstance(value, dict) and len(value) == 1:
        (kind, argument), = value.items()
        return kind if argument is True else f"{kind} {argument}"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
