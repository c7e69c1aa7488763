"""Crafted histories for the history job's tests: run directories written with kcompat.harness.records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kcompat.harness.records import RECORDS_FILE, RUN_FILE, Cell, Record, append_record

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


SERIES = "KIP-525/validate-only-returns-configs[2.4-zk|{}]"
BUMPED = "KIP-525/validate-only-returns-configs[2.4.1-zk|java:3.7.0]"
BEFORE_BUMP = "KIP-525/validate-only-returns-configs[2.4.0-zk|java:3.7.0]"
CONFLUENT_OLD = "KIP-525/validate-only-returns-configs[2.4.1-zk|confluent:2.16.0]"
CONFLUENT_NEW = "KIP-525/validate-only-returns-configs[2.4.1-zk|confluent:2.16.1]"


def bumps(root: Path) -> list[Path]:
    """Four nights across patch bumps: the java cell's broker goes 2.4.0 -> 2.4.1 on night 3 and its
    verdict changes with it; WIRE flips every night with nothing changed; the confluent cell flips as
    often but its client release goes 2.16.0 -> 2.16.1 on night 3; ACL deviates on night 4, when its
    claim's documented side was revised."""
    wire = ["pass", "deviation", "pass", "deviation"]
    confluent = {"client_version": "2.16.0", "librdkafka_version": "2.16.0"}
    revised = {"case": "supported", "quotes": ["DescribeAcls returns the ACLs (revised)"]}
    dirs = []
    for night in range(1, 5):
        java = BEFORE_BUMP if night < 3 else BUMPED
        conf = CONFLUENT_OLD if night < 3 else CONFLUENT_NEW
        dirs.append(run_dir(root, f"run-{night}", night, {
            java: "pass" if night < 3 else "deviation", WIRE: wire[night - 1], conf: wire[night - 1],
            ACL: "deviation" if night == 4 else "pass"},
            **{CONFLUENT_OLD: confluent, ACL: {"documented": revised} if night == 4 else {}}))
    return dirs


def junit(path: Path, records: list[Record], *, full: bool = True, others: int = 0) -> Path:
    """A JUnit XML file as pytest writes it for `kcompat run` (src/kcompat/fixtures/cells.py's properties), plus
    ``others`` test cases without a cell id; ``full=False`` leaves out ``kcompat_record`` (another job)."""
    from xml.sax.saxutils import quoteattr

    cases = []
    for number, rec in enumerate(records):
        props = [("kcompat_cell_id", rec.cell_id), ("kcompat_outcome", rec.outcome), ("kcompat_run_id", rec.run_id),
                 ("kcompat_limited_by", rec.limited_by or "")]
        props += [("kcompat_record", rec.line().rstrip("\n"))] if full else [
            ("kcompat_client_version", rec.client_version), ("kcompat_started_at", rec.started_at)]
        body = "".join(f"<property name={quoteattr(k)} value={quoteattr(v)} />" for k, v in props)
        cases.append(f'<testcase classname="kcompat.scenarios.test_matrix" name="test_cell[{number}]" time="1.0">'
                     f"<properties>{body}</properties></testcase>")
    cases += [f'<testcase classname="tests.test_other" name="test_{n}" time="0.1" />' for n in range(others)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests">'
                    f'<testsuite name="pytest" errors="0" failures="0" skipped="0" tests="{len(cases)}" '
                    f'time="3.0" timestamp="2025-01-01T02:00:00.000000+00:00" hostname="ci">'
                    + "".join(cases) + "</testsuite></testsuites>")
    return path


def observations(*outcomes: str) -> dict[str, Any]:
    """A schema_version 3 record's overrides for a cell observed ``len(outcomes)`` times, first deviating."""
    seen = [{"outcome": o, "observed": {"partitions_after": 3 if o != "deviation" else 1},
             "differences": [{"key": "partitions_after", "documented": 3, "observed": 1}] if o == "deviation" else [],
             "reason": "partitions_after: documented 3, observed 1" if o == "deviation" else None, "call_ms": 5.0}
            for o in outcomes]
    return {"observations": seen, "intermittent": "deviation" in outcomes and len(set(outcomes)) > 1,
            "differences": seen[0]["differences"], "reason": seen[0]["reason"]}


def intermittent_nights(root: Path) -> list[Path]:
    """Four nights: WIRE deviates intermittently (held 2 of 3) on nights 1 and 3 and passes on 2 and 4;
    JAVA deviates steadily (held 0 of 3) every night; CONFLUENT is intermittent every night (held 1 of 3)."""
    dirs = []
    for night in range(1, 5):
        wire = ("deviation", observations("deviation", "pass", "pass")) if night % 2 else ("pass", {})
        dirs.append(run_dir(root, f"run-{night}", night, {WIRE: wire[0], JAVA: "deviation", CONFLUENT: "deviation"},
                            **{WIRE: wire[1], JAVA: observations("deviation", "deviation", "deviation"),
                               CONFLUENT: observations("deviation", "deviation", "unsupported")}))
    return dirs


def revised_book(root: Path, kip: str, before: str, after: str) -> Path:
    """A claim book (``kcompat run --claims``) that is the installed KIP's file with one claim's documented side
    revised: a verdict that changes for a known reason, how the real-run history tests plant a regression."""
    from kcompat.harness.matrix.claims import claims_dir

    original = (claims_dir() / f"{kip}.toml").read_text()
    assert original.count(before) == 1, f"{before!r} is not once in {kip}.toml"
    book = root / "claims"
    book.mkdir(parents=True)
    (book / f"{kip}.toml").write_text(original.replace(before, after))
    return book


def jsonl(path: Path) -> list[dict[str, Any]]:
    """A report's ``*.jsonl`` file, one object per line."""
    return [json.loads(line) for line in path.read_text().splitlines()]
