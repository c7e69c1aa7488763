"""Crafted run directories with realistic values: KIP-525/KIP-569 claims, five brokers, four clients.

Every outcome occurs, and ``unsupported`` is limited by the broker, by the
client and by both.  Versions are the real newest request versions of each
side (CreateTopics v5 and DescribeConfigs v3 are where KIP-525 and KIP-569
begin).
"""

from __future__ import annotations

import json
from pathlib import Path

from kcompat.harness.records import Record, append_record

CLAIMS = {  # claim -> (api, min request version, quote)
    "KIP-525/validate-only-returns-configs": ("CreateTopics", 5, "CreateTopics v5 returns the topic's configs, "
                                             "also with validateOnly."),
    "KIP-525/returns-partitions-and-replication": ("CreateTopics", 5, "The response carries NumPartitions and "
                                                   "ReplicationFactor."),
    "KIP-569/config-documentation": ("DescribeConfigs", 3, "DescribeConfigs v3 adds IncludeDocumentation and "
                                     "returns each config's documentation."),
    "KIP-569/config-types": ("DescribeConfigs", 3, "Each config carries its type (ConfigType)."),
}
BROKERS = {  # (version, mode) -> newest CreateTopics, DescribeConfigs
    ("2.3.1", "zk"): (3, 2), ("2.4.1", "zk"): (5, 2), ("2.6.3", "zk"): (5, 3),
    ("3.9.2", "kraft"): (7, 4), ("4.4.0", "kraft"): (7, 4),
}
CLIENTS = {  # client -> kind, version, newest CreateTopics, DescribeConfigs
    "wire": ("wire", "0.5.0", 7, 4), "confluent": ("confluent", "2.16.1", 4, 1),
    "java:2.3.1": ("java", "2.3.1", 3, 2), "java:4.4.0": ("java", "4.4.0", 7, 4),
}
DEVIATION = "KIP-525/validate-only-returns-configs[2.4.1-zk|wire]"
FAIL = "KIP-569/config-types[3.9.2-kraft|wire]"
INFRA = "KIP-569/config-documentation[4.4.0-kraft|java:4.4.0]"
BELOW_DEVIATION = "KIP-569/config-types[2.4.1-zk|java:4.4.0]"
CHANGED = "KIP-525/validate-only-returns-configs[3.9.2-kraft|java:4.4.0]"
INTERMITTENT = "KIP-525/returns-partitions-and-replication[4.4.0-kraft|java:4.4.0]"
"""Deviated in the first of three observations, held in the other two (records schema_version 3)."""


def _record(run_id: str, claim: str, version: str, mode: str, client: str, started: str) -> Record:
    api, minimum, quote = CLAIMS[claim]
    kind, client_version, client_ct, client_dc = CLIENTS[client]
    broker_ct, broker_dc = BROKERS[(version, mode)]
    broker_max, client_max = (broker_ct, client_ct) if api == "CreateTopics" else (broker_dc, client_dc)
    cell_id = f"{claim}[{version}-{mode}|{client}]"
    key = "configs" if api == "CreateTopics" else ("documentation" if "documentation" in claim else "config_type")
    below = min(broker_max, client_max) < minimum
    limited = None
    if below:
        limited = "both" if broker_max < minimum and client_max < minimum else (
            "broker" if broker_max < minimum else "client")
    documented = {"case": "below" if below else "supported", "quotes": [quote],
                  "expect": {key: {"absent": True} if below else {"present": True}, "error": None}}
    observed: dict[str, object] = {key: "<absent>" if below else ["cleanup.policy=delete"], "error": None}
    outcome, reason, differences = ("unsupported" if below else "pass"), None, []
    extra: dict[str, object] = {}
    if cell_id in (DEVIATION, BELOW_DEVIATION):
        observed = {key: None, "error": None}
        differences = [{"key": key, "documented": documented["expect"][key], "observed": None}]  # type: ignore[index]
        outcome, reason = "deviation", f"{key} is null where KIP says present"
    elif cell_id == INTERMITTENT:
        held = dict(observed)
        observed = {key: None, "error": None}
        differences = [{"key": key, "documented": documented["expect"][key], "observed": None}]  # type: ignore[index]
        outcome, reason = "deviation", f"{key} is null where KIP says present"
        extra = {"intermittent": True, "observations": [
            {"outcome": "deviation", "observed": observed, "differences": differences, "reason": reason,
             "call_ms": 12.5, "started_at": started},
            *({"outcome": "pass", "observed": held, "differences": [], "reason": None, "call_ms": 11.0,
               "started_at": started} for _ in range(2))]}
    elif cell_id == FAIL:
        outcome, reason, observed = "fail", "set-up: CreateTopics returned POLICY_VIOLATION (log: logs/c1/broker.log)", {}
    elif cell_id == INFRA:
        outcome, reason, observed = "infra_error", "broker 0 died during boot (log: logs/c2/broker.log)", {}
    return Record(run_id=run_id, cell_id=cell_id, kip=claim.split("/")[0], claim_id=claim, api=api,
                  broker_version=version, broker_mode=mode, provider="process", client_kind=kind,
                  client_version=client_version, outcome=outcome, client=client,  # type: ignore[arg-type]
                  librdkafka_version="2.16.1" if kind == "confluent" else None, java_version="17.0.15",
                  request_version=min(broker_max, client_max), required_versions={"min": minimum, "max": None},
                  broker_max_version=broker_max, client_max_version=client_max, limited_by=limited,  # type: ignore[arg-type]
                  documented=documented, observed=observed, differences=differences, reason=reason,
                  duration_ms=1234.5, call_ms=12.5, started_at=started, log=f"logs/{version}-{mode}/broker.log",
                  **extra)  # type: ignore[arg-type]


def records(run_id: str = "run-b", started: str = "2026-11-23T02:00:00Z") -> list[Record]:
    return [_record(run_id, claim, version, mode, client, started)
            for claim in CLAIMS for (version, mode) in BROKERS for client in CLIENTS]


COVERAGE = [
    {"kip": "KIP-525", "section": "Public Interfaces", "statement": "CreateTopics v5 returns configs",
     "claims": ["KIP-525/validate-only-returns-configs"], "testable": True, "reason": None},
    {"kip": "KIP-525", "section": "Compatibility", "statement": "Older clients see no change",
     "claims": [], "testable": False, "reason": "a statement about absence, covered by the below case"},
    {"kip": "KIP-569", "section": "Public Interfaces", "statement": "Documentation may be null for dynamic configs",
     "claims": [], "testable": True, "reason": "no broker in the catalog has a dynamic config without docs"},
]


def write_run(path: Path, recs: list[Record], run_id: str = "run-b", started: str = "2026-11-23T02:00:00Z",
              coverage: bool = True) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "run.json").write_text(json.dumps({
        "schema_version": 1, "run_id": run_id, "started_at": started, "ended_at": started.replace("02:", "03:"),
        "command": ["kcompat", "run"], "kcompat_version": "0.1.0", "git_sha": "f6cc4b0aa1b2c3d4", "exit_code": 0}))
    for record in recs:
        append_record(path / "records.jsonl", record)
    if coverage:
        (path / "coverage.json").write_text(json.dumps(COVERAGE))
    for version, mode in BROKERS:
        log = path / "logs" / f"{version}-{mode}" / "broker.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("[2026-11-23 02:00:01,000] INFO started (kafka.server.KafkaServer)\n")
    return path


def two_runs(tmp: Path) -> tuple[Path, Path]:
    """An older run where CHANGED passed... and the newer one where it deviates; all else equal."""
    older = records("run-a", "2026-11-22T02:00:00Z")
    newer = []
    for record in records("run-b", "2026-11-23T02:00:00Z"):
        if record.cell_id == CHANGED:
            record = Record(**{**record.as_json(), "outcome": "deviation", "observed": {"configs": None, "error": None},
                               "differences": [{"key": "configs", "documented": {"present": True}, "observed": None}],
                               "reason": "configs is null where KIP says present"})
        newer.append(record)
    return (write_run(tmp / "run-a", older, "run-a", "2026-11-22T02:00:00Z"),
            write_run(tmp / "run-b", newer, "run-b", "2026-11-23T02:00:00Z"))
