"""One cell, end to end and without pytest: cluster, ACLs, client, limits, observations, verdict, record.

``run_cell(planned, env)`` returns the cell's record after appending it to
``records.jsonl`` in the run directory; the claim's probe comes from the
probes' registry (``kcompat.harness.matrix.probes``).  The pytest plugin
(src/kcompat/fixtures/cells.py) calls it for each parametrized cell; a script can call
it with a ``CellEnv`` of its own.

A cell whose first observation deviates is observed again on the same
cluster (``observations`` setting, 3 in all by default; kcompat.harness.matrix.verdict
settles them into one verdict, ``intermittent`` when they disagree) and its
record keeps every observation.

The cell's client connects through the worker's request recorder for its
cluster (``CellEnv.recorders``); the record's ``request_version`` is the one
the recorder read off the wire since the cell's mark, checked against the
client's own report (``kcompat.harness.recorder.cross_check``).  Set-ups and
checks (the super user's wire client) go to the brokers directly.

Outcomes: a HarnessError is ``infra_error`` after one retry on a fresh
cluster; a probe's ``ProbeFailed`` (a set-up step refused) is ``fail``, except
``Disowned`` (refused UNSUPPORTED_VERSION at a version the broker advertises),
after which the claim's call is made bare and judged; any
other exception is a bug of ours, ``infra_error`` naming its type, message
and place, never a finding.  ``pass``, ``unsupported`` and ``deviation`` are
judged cells.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..clients import install_client
from ..clients.wire import WireClient
from ..errors import HarnessError, NotOffered
from .limits import (broker_max_version, broker_min_version, client_at_least, client_max_version, client_min_version,
                     stale_measurement)
from ..providers import Cluster
from ..records import RECORDS_FILE, RUN_FILE, Record, append_record
from ..recorder import Mark, Traffic, cross_check, out_of_range
from ..spec import ClusterSpec
from .admin_docs import bind
from .claims import API_KEYS, REFUSED, parse_acl
from .observables import OUT_OF_RANGE
from .env import AdminClientFactory, CellEnv, endpoint_of
from .plan import PlannedCell
from .probe import Disowned, Probe, ProbeContext, ProbeFailed, grant_acls
from .probes import implementation
from .probes._shared import bare_call
from .verdict import (Limits, Verdict, call_refused, judge, judge_without, lacks_asked_option, observe_again,
                      settle)

_PACKAGE = Path(__file__).resolve().parents[2]
_SOURCE_ROOT = _PACKAGE.parents[1] if _PACKAGE.parent.name == "src" else _PACKAGE.parent
"""The checkout (or site-packages) holding kcompat: a bug's place is named relative to it."""


class ClientUnavailable(HarnessError):
    """The cell's client could not be made (a release that can't be resolved, compiled or started)."""


class ClusterUnavailable(HarnessError):
    """The cell's cluster could not be booted (a broker that exits during boot, a boot past its deadline)."""


@dataclass(frozen=True)
class Observation:
    """One run of the cell's probe and its judgement (a record's ``observations`` entry)."""

    verdict: Verdict
    observed: dict[str, Any]
    context: ProbeContext
    started_at: str

    def as_json(self) -> dict[str, Any]:
        return {"outcome": self.verdict.outcome, "observed": self.observed, "differences": self.verdict.differences,
                "reason": self.verdict.reason, "call_ms": round(self.context.call_ms, 3),
                "started_at": self.started_at}


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")


def bug_reason(exc: BaseException) -> str:
    """An exception of our own code as an ``infra_error`` reason: type, message, and the innermost frame."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        path = Path(frames[-1].filename)
        shown = path.relative_to(_SOURCE_ROOT) if path.is_relative_to(_SOURCE_ROOT) else path
        where = f" at {shown}:{frames[-1].lineno}"
    return f"harness error: {type(exc).__name__}: {exc}{where} (a bug of kcompat, not a finding)"


def run_cell(planned: PlannedCell, env: CellEnv) -> Record:
    """Run one cell (retrying once on a fresh cluster after a HarnessError), append its record, return it."""
    unavailable = _install(planned, env)  # before the cell's clock: a first build takes a minute
    started = time.perf_counter()
    started_at = _now()
    run = _Run(planned, env, started, started_at)
    record: Record | None = None
    closing: AdminClientFactory | None = None
    if str(planned.client) in env.broken:  # it failed twice for an earlier cell: don't pay for it again
        record = run.failed("infra_error", env.broken[str(planned.client)], 2)
    elif unavailable is not None:  # its adapter can't be built: no later cell of it tries again
        env.broken[str(planned.client)] = unavailable
        record = run.failed("infra_error", unavailable, 1)
    for attempt in (1, 2) if record is None else ():
        clients = env.clients()
        spec: ClusterSpec | None = None
        try:
            spec = env.specs.spec(planned)  # compiles the cluster's plug-ins: a javac error is infra
            if (broken := env.broken.get(_cluster_key(spec))) is not None:
                record = run.failed("infra_error", broken, 2)  # it failed to boot twice for an earlier cell
                break
            try:
                cluster = env.clusters(spec)
            except HarnessError as exc:
                raise ClusterUnavailable(str(exc)) from exc
            record = run.attempt(cluster, clients, attempt)
            closing = clients
            break
        except HarnessError as exc:
            if attempt == 1:
                clients.close()
                if spec is not None and not isinstance(exc, ClientUnavailable):
                    with contextlib.suppress(Exception):
                        env.clusters.discard(spec)  # the retry gets a fresh cluster
                continue
            if isinstance(exc, ClientUnavailable):
                env.broken[str(planned.client)] = str(exc)
            if isinstance(exc, ClusterUnavailable) and spec is not None:
                env.broken[_cluster_key(spec)] = str(exc)
            record = run.failed("infra_error", str(exc), attempt)
        except ProbeFailed as exc:  # a set-up step refused: no observation to judge
            record = run.failed("fail", f"{type(exc).__name__}: {exc}", attempt)
            break
        except Exception as exc:  # our own code broke: never a finding
            record = run.failed("infra_error", bug_reason(exc), attempt)
            break
        finally:
            if closing is None:
                clients.close()
    assert record is not None
    env.run_dir.mkdir(parents=True, exist_ok=True)
    append_record(env.run_dir / RECORDS_FILE, record)
    if closing is not None:  # after the record: a client library that kills the process closing its client
        closing.close()      # leaves the verdict behind, and the run adds the death to it (matrix.runner)
    return record


def _install(planned: PlannedCell, env: CellEnv) -> str | None:
    """Build (or find built) the cell's adapter, so that its ``duration_ms`` holds the cell alone; why the
    client is unavailable when it can't be."""
    if str(planned.client) in env.broken:
        return None
    try:
        install_client(planned.client, env.config, quiet=True)
    except HarnessError as exc:
        return f"client {planned.client} unavailable: {exc}"
    return None


def _cluster_key(spec: ClusterSpec) -> str:
    """A cluster's name in ``CellEnv.broken``: its label and plug-ins (never its SASL passwords)."""
    return f"cluster {spec.label} {' '.join(str(p) for p in spec.extra_classpath)}".rstrip()


@dataclass
class _Run:
    """One cell's attempts, and the record each ends in."""

    planned: PlannedCell
    env: CellEnv
    started: float
    started_at: str
    marks: list[Mark] = field(default_factory=list)
    """Positions in the recorder's traffic: before the client was made, then before each re-observation."""

    def attempt(self, cluster: Cluster, clients: AdminClientFactory, attempt: int) -> Record:
        if self.planned.claim.method is not None and self.planned.claim.bound is None:  # a javadoc claim
            self.planned = dataclasses.replace(self.planned, claim=bind(
                self.planned.claim, self.planned.client.kind, self.planned.client.version, self.env.config))
        planned, claim, env = self.planned, self.planned.claim, self.env
        admin = WireClient(endpoint_of(cluster))  # set-ups and checks go to the brokers directly: not recorded
        recorder = env.recorders(cluster)
        self.marks = [recorder.traffic.mark()]
        try:
            self._grant(cluster, admin)
            user = claim.args.get("as_user")
            try:
                client = clients(cluster, planned.client, user=user if isinstance(user, str) else None,
                                 via=recorder)
                client_max = client_max_version(client, planned.client, claim.api, env.config)
                client_min = client_min_version(client, planned.client, claim.api, env.config)
                at_least = client_at_least(client, planned.client, claim.api, env.config)
            except HarnessError as exc:
                raise ClientUnavailable(f"client {planned.client} unavailable: {exc}") from exc
            limits = Limits(broker_max_version(cluster.api_versions, claim.api), client_max,
                            broker_min_version(cluster.api_versions, claim.api), planned.version, client_min, at_least,
                            pinned=planned.client.pin is not None)
            seen = self._observe(ProbeContext(planned, client, admin, cluster, env.topic, env.store(),
                                              reach=recorder.proxy_of, traffic=recorder.traffic),
                                 limits, recorder.traffic)
        finally:
            admin.close()
        context = seen[0].context
        reported = next((r.request_version for r in reversed(context.results) if r.request_version is not None),
                        None)
        checked = cross_check(recorder.traffic, self.marks[0], claim.api, reported,
                              until=self.marks[1] if len(self.marks) > 1 else None)
        sent = checked.version
        settled = settle([o.verdict for o in seen])
        verdict = settled.verdict
        reason = verdict.reason
        outcome = verdict.outcome
        if (stale := stale_measurement(planned.client, client.version, claim.api, sent, limits.client_max,
                                       limits.client_at_least)):
            outcome, reason = "fail", stale
            seen = seen[:1]  # the observations judged a cell this check has just unjudged
        last = context.results[-1] if context.results else None
        return self.record(outcome, reason, attempt, cluster=cluster, client_version=client.version,
                           librdkafka=last.librdkafka_version if last else None,
                           request_version=sent, limits=limits, limited_by=verdict.limited_by,
                           documented=verdict.documented, observed={**seen[0].observed, **checked.observed},
                           differences=verdict.differences, call_ms=round(context.call_ms, 3),
                           observations=[o.as_json() for o in seen] if len(seen) > 1 else [],
                           intermittent=settled.intermittent and outcome == "deviation")

    def _observe(self, first: ProbeContext, limits: Limits, traffic: Traffic) -> list[Observation]:
        """The cell's observations on one cluster: the first, then again while ``observe_again`` says so, each
        with a fresh context (new topic names, its own results and time).  A re-observation whose set-up is
        refused is recorded as ``fail`` and ends the series; any other exception ends the attempt as for the
        first observation (a HarnessError is retried on a fresh cluster, a bug of ours is ``infra_error``)."""
        claim = self.planned.claim
        observe: Probe = implementation(claim.probe)
        seen: list[Observation] = []
        context = first
        while True:
            started_at = _now()
            offered = {v.api_key for v in context.cluster.api_versions}
            missing = [api for api in claim.requires if API_KEYS[api] not in offered]
            if missing:  # what the claim is about can't exist on this broker: the bare call must not succeed
                observed = {**bare_call(context, NotOffered(f"the broker offers no {', '.join(missing)}")),
                            **self._outside(context, traffic)}
                seen.append(Observation(judge_without(claim, missing, observed, pinned=limits.pinned), observed,
                                        context, started_at))
                return seen
            disowned = False
            try:
                try:
                    observed = observe(context)
                except (ProbeFailed, NotOffered) as exc:
                    disowned = isinstance(exc, Disowned)
                    if not disowned and (seen or limits.broker_max is not None):
                        raise
                    observed = bare_call(context, exc)  # refusal is documented, or the broker's own: no set-up
                observed = {**observed, **context.notes(), **self._outside(context, traffic)}
                if claim.bound is not None:  # a javadoc claim judges whether the call was refused: record it
                    observed = {**observed, REFUSED: call_refused(observed, self.planned.client.kind)
                                or lacks_asked_option(claim, observed)}
            except ProbeFailed as exc:
                if not seen:
                    raise
                seen.append(Observation(Verdict("fail", None, {}, reason=f"{type(exc).__name__}: {exc}"), {},
                                        context, started_at))
                break
            if disowned and claim.requires:  # what the claim is about can't exist here, as when not offered
                verdict = judge_without(claim, claim.requires, observed, pinned=limits.pinned)
            else:
                verdict = judge(claim, self.planned.client.kind, limits, observed)
            seen.append(Observation(verdict, observed, context, started_at))
            if not observe_again([o.verdict for o in seen], self.env.config.observations):
                return seen
            context = dataclasses.replace(first, call_ms=0.0, results=[])
            self.marks.append(traffic.mark())
        return seen

    def _outside(self, context: ProbeContext, traffic: Traffic) -> dict[str, Any]:
        """``OUT_OF_RANGE``: what the client sent outside the range the harness's own ApiVersions of the broker
        recorded, from before the client was made (its bootstrap counts, and stays counted in every
        re-observation).  A client that never asks ApiVersions (an old pinned setting) is read the same way."""
        return {OUT_OF_RANGE: out_of_range(traffic.sent_since(self.marks[0]), context.cluster.api_versions)}

    def _grant(self, cluster: Cluster, admin: WireClient) -> None:
        """The claim's cluster-level ACLs, once per cluster (``grant_acls``)."""
        granted = self.env.granted
        missing = [a for a in self.planned.claim.cluster.acls if (cluster.bootstrap_servers, a) not in granted]
        if missing:
            grant_acls(cluster, admin, [parse_acl(a) for a in missing], self.env.store())
            granted.update((cluster.bootstrap_servers, a) for a in missing)

    def failed(self, outcome: str, reason: str, attempt: int) -> Record:
        return self.record(outcome, reason, attempt)

    def record(self, outcome: Any, reason: str | None, attempt: int, *,
               cluster: Cluster | None = None, client_version: str | None = None, librdkafka: str | None = None,
               request_version: int | None = None, limits: Limits | None = None, limited_by: Any = None,
               documented: dict[str, Any] | None = None, observed: dict[str, Any] | None = None,
               differences: list[dict[str, Any]] | None = None, call_ms: float | None = None,
               observations: list[dict[str, Any]] | None = None, intermittent: bool = False) -> Record:
        planned, claim, env = self.planned, self.planned.claim, self.env
        run_dir = env.run_dir
        log = None
        if cluster is not None and cluster.brokers:
            path = cluster.brokers[0].log_path
            log = str(path.relative_to(run_dir)) if path.is_relative_to(run_dir) else str(path)
        return Record(
            run_id=run_id_of(run_dir, env.run_id), cell_id=planned.cell.id, kip=claim.kip,
            claim_id=claim.id, api=claim.api, broker_version=str(planned.version), broker_mode=planned.mode,
            broker_features=dict(planned.cell.broker_features), provider=env.config.provider, client_kind=planned.client.kind,
            client_settings=planned.client.settings_for(str(planned.version)),
            client_version=client_version or (planned.client.version or ""), outcome=outcome,
            client=str(planned.client), broker_nodes=claim.cluster.nodes, security=claim.cluster.profile,
            librdkafka_version=librdkafka, java_version=cluster.java.version if cluster is not None else None,
            request_version=request_version, required_versions={"min": claim.min_version, "max": claim.max_version},
            broker_max_version=limits.broker_max if limits else None,
            broker_min_version=limits.broker_min if limits else None,
            client_max_version=limits.client_max if limits else None, limited_by=limited_by,
            documented=documented or {}, observed=observed or {}, differences=differences or [], reason=reason,
            duration_ms=round((time.perf_counter() - self.started) * 1000, 3), call_ms=call_ms,
            started_at=self.started_at, attempt=attempt, worker=env.worker, log=log,
            observations=observations or [], intermittent=intermittent)


def run_id_of(run_dir: Path, fallback: str) -> str:
    """The run's id from run.json (``kcompat run`` writes it), else the caller's own."""
    with contextlib.suppress(OSError, ValueError, KeyError):
        return str(json.loads((run_dir / RUN_FILE).read_text())["run_id"])
    return fallback
