"""JUnit XML -> table rows: test cases that carry a cell id become records, the rest are counted.

``kcompat run`` writes JUnit files whose test cases carry the cell as properties (src/kcompat/fixtures/cells.py):
``kcompat_cell_id``, ``kcompat_outcome``, ``kcompat_run_id``, ``kcompat_limited_by`` and
``kcompat_record`` (the whole records.jsonl line).  With ``kcompat_record`` the row is exactly the
one records.jsonl gives; without it (other jobs, older runs) the row is built from the cell id and
the ``kcompat_<field>`` properties present.  A test case without a cell id is skipped with its
reason (the ingest prints the count); a file that is not XML, or declares entities (never
expanded: other jobs' files are not trusted), is quarantined like a malformed line.
For a JUnit source the quarantine's ``line`` is the XML line of a parse error, else the test case's
number in the file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from kcompat.harness.records import SCHEMA_VERSION, Cell, Record, RecordError, loads_record

from .rows import ParsedRun, RunInfo, quarantined, run_rows

PREFIX = "kcompat_"
PROPERTY_FIELDS: tuple[str, ...] = ("api", "provider", "client_kind", "client_version", "java_version",
                                    "librdkafka_version", "limited_by", "reason", "started_at", "security", "log")
"""Record fields a ``kcompat_<field>`` property may carry as text when there is no ``kcompat_record``."""
_OPTIONAL = frozenset({"java_version", "librdkafka_version", "limited_by", "reason", "log"})


def parse_junit(data: bytes, source: str, run: RunInfo) -> ParsedRun:
    parsed = ParsedRun()
    try:
        root = SafeET.fromstring(data)
    except ET.ParseError as exc:
        parsed.quarantine.append(quarantined(run, source, exc.position[0], "malformed",
                                             f"not JUnit XML: {exc}", data))
        return parsed
    except DefusedXmlException as exc:  # a billion laughs or an external entity
        parsed.quarantine.append(quarantined(run, source, 1, "malformed",
                                             f"JUnit XML that declares entities is refused, never expanded: {exc}", data))
        return parsed
    records: list[Record] = []
    suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
    number = 0
    for suite in suites:
        for case in suite.iter("testcase"):
            number += 1
            props = {str(p.get("name")): str(p.get("value", "")) for p in case.findall("properties/property")}
            name = f"{case.get('classname', '')}::{case.get('name', '')}"
            try:
                record = _record(props, suite.get("timestamp"), run)
            except _Skip as skip:
                parsed.skipped.append({"run_id": run.run_id, "source": source, "line": number,
                                       "reason": str(skip), "text": name})
                continue
            except RecordError as exc:
                unknown = "schema_version" in str(exc)
                parsed.quarantine.append(quarantined(run, source, number, "unknown_schema" if unknown else "malformed",
                                                     f"test case {name}: {exc}", name.encode()))
                continue
            records.append(record)
    parsed.rows = run_rows(records, run, "junit")
    return parsed


class _Skip(Exception):
    """A test case that maps to no cell: counted, not quarantined (it is not a broken record)."""


def _record(props: dict[str, str], timestamp: str | None, run: RunInfo) -> Record:
    cell_id = props.get(PREFIX + "cell_id")
    if not cell_id:
        raise _Skip(f"no {PREFIX}cell_id property")
    if PREFIX + "record" in props:
        try:
            return loads_record(props[PREFIX + "record"])
        except RecordError as exc:
            raise RecordError(f"{PREFIX}record: {exc}") from None
    cell = Cell.parse(cell_id)
    run_id = props.get(PREFIX + "run_id") or (run.run_id if run.run_json else None)
    if not run_id:
        raise _Skip(f"no run id ({PREFIX}run_id property, or a run.json beside the file)")
    kind, _, rest = cell.client.partition(":")
    values: dict[str, Any] = {
        "run_id": run_id, "cell_id": cell.id, "kip": cell.kip, "claim_id": cell.claim_id, "api": "",
        "broker_version": cell.broker_version, "broker_mode": cell.broker_mode, "provider": "",
        "client": cell.client, "client_kind": kind.split("@")[0], "client_version": rest.split("@")[0],
        "outcome": props.get(PREFIX + "outcome"), "started_at": timestamp or "", "schema_version": SCHEMA_VERSION}
    for name in PROPERTY_FIELDS:
        if PREFIX + name in props:
            value = props[PREFIX + name]
            values[name] = (value or None) if name in _OPTIONAL else value
    return Record.from_json(values)
