"""Crafted histories for the history job's tests: run directories written with harness.records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.records import RECORDS_FILE, RUN_FILE, Cell, Record, append_record

JAVA = "KIP-525/validate-only-returns-configs[2.4.1-zk|java:3.7.0]"
WIRE = "KIP-525/validate-only-returns-configs[2.4.1-zk|wire]"
CONFLUENT = "KIP-525/validate-only-returns-configs[2.4.1-zk|confluent]"
OLD_JAVA = "KIP-525/validate-only-returns-configs[2.3.1-zk|java:3.7.0]"
ACL = "KIP-140/describe-acls[1.0.2-zk|wire]"


def record(run_id: str, cell_id: str, outcome: str, *, day: int, **overrides: Any) -> Record:
    cell = Cell.parse(cell_id)
    kind = cell.client.split(":")[0].split("@")[0]
    values: dict[str, Any] = {
        "run_id": run_id, "cell_id": cell_id, "kip": cell.kip, "claim_id": cell.claim_id, "api": "CreateTopics",
        "broker_version": cell.broker_version, "broker_mode": cell.broker_mode, "provider": "process",
        "client_kind": kind, "client": cell.client, "outcome": outcome,
        "client_version": {"java": "3.7.0", "wire": "0.5.0", "confluent": "2.16.1"}[kind],
        "librdkafka_version": "2.16.1" if kind == "confluent" else None, "java_version": "17.0.15",
        "limited_by": "client" if outcome == "unsupported" else None,
        "documented": {"case": "below" if cell.broker_version < "2.4" or kind == "confluent" else "supported",
                       "quotes": ["CreateTopics validate-only returns the configs"]},
        "started_at": f"2025-01-{day:02d}T02:00:00Z",
    }
    values.update(overrides)
    return Record(**values)


def run_dir(root: Path, run_id: str, day: int, cells: dict[str, str], **overrides: Any) -> Path:
    """A run directory: run.json started on 2025-01-DAY and one record per cell."""
    path = root / run_id
    path.mkdir(parents=True)
    (path / RUN_FILE).write_text(json.dumps({"schema_version": 1, "run_id": run_id,
                                             "started_at": f"2025-01-{day:02d}T01:00:00+00:00"}))
    for cell_id, outcome in cells.items():
        append_record(path / RECORDS_FILE, record(run_id, cell_id, outcome, day=day, **overrides.get(cell_id, {})))
    return path


def nightly(root: Path) -> list[Path]:
    """Six nights: JAVA regresses on night 4 when Java changed; WIRE flips pass/deviation with nothing
    changed; CONFLUENT and OLD_JAVA are unsupported throughout; ACL has an infra error on night 3."""
    wire = ["pass", "deviation", "pass", "deviation", "pass", "pass"]
    dirs = []
    for night in range(1, 7):
        java_env = {"java_version": "21.0.4"} if night >= 4 else {}
        dirs.append(run_dir(root, f"run-{night}", night, {
            JAVA: "pass" if night < 4 else "deviation", WIRE: wire[night - 1], CONFLUENT: "unsupported",
            OLD_JAVA: "unsupported", ACL: "infra_error" if night == 3 else "pass"}, **{JAVA: java_env}))
    return dirs


def malformed_run(root: Path) -> Path:
    path = run_dir(root, "run-bad", 7, {ACL: "pass"})
    with (path / RECORDS_FILE).open("a") as out:
        out.write("this is not json\n")
        out.write(json.dumps({"schema_version": 99, "run_id": "run-bad"}) + "\n")
        out.write('{"schema_version": 1, "run_id": "run-bad", "cell_id": "KIP-1/x[1.0.0-zk|wire]"')  # torn
    return path
