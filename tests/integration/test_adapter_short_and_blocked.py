"""`kcompat run` through two adapters whose libraries fall short in ways a verdict must tell from a finding.

franz-go's kadm.Config has no type or documentation (kmsg's response under it has both): KIP-569's type cells
are the client's limit, ``unsupported`` limited by the client, the record naming the API type its adapter
declares lacking, never a deviation.  kafka-go's Transport waits after a CreateTopics answer until Metadata shows
each topic created without error, validate-only or not: the call returns NONE only when its deadline expires.
That record says the deadline was reached and is not ``pass``; a short ``--adapter-deadline`` keeps the wait
short without changing what the library does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.records import RECORDS_FILE, Record, read_records
from tests.console import kcompat, ok

pytestmark = pytest.mark.timeout(1200)

FRANZ_GO = "franz-go:1.22.2"
KAFKA_GO = "kafka-go:0.4.51"
DEADLINE = 5


@pytest.fixture(scope="module")
def cells(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Record]:
    out: Path = tmp_path_factory.mktemp("short-and-blocked") / "run"
    ok(kcompat("--adapter-deadline", str(DEADLINE), "run", "--brokers", "3.9", "--clients",
               f"{FRANZ_GO},{KAFKA_GO}", "-k", "topic-config-types or validate-only-creates-nothing", "-n", "0",
               "--quiet", "--out", str(out), timeout=1100))
    return {r.cell_id: r for r in read_records(out / RECORDS_FILE).records}


def test_a_field_the_library_api_lacks_is_the_client_short(cells: dict[str, Record]) -> None:
    record = cells[f"KIP-569/topic-config-types[3.9.2-kraft|{FRANZ_GO}]"]
    assert (record.outcome, record.limited_by) == ("unsupported", "client"), (record.outcome, record.reason)
    assert record.observed["unsupported_fields"]["configs.type"] == "kadm.Config"
    assert record.reason is not None and "kadm.Config has no configs.type" in record.reason


def test_a_call_that_returns_only_at_its_deadline_is_recorded_and_not_passed(cells: dict[str, Record]) -> None:
    record = cells[f"KIP-108/validate-only-creates-nothing[3.9.2-kraft|{KAFKA_GO}]"]
    assert record.observed["deadline_reached"] == DEADLINE, record.observed
    assert record.outcome == "deviation", (record.outcome, record.reason)
    assert any(d["key"] == "deadline_reached" for d in record.differences), record.differences
    assert record.observations == []  # not observed again: each time would wait the deadline out
    assert record.call_ms is not None and DEADLINE * 1000 <= record.call_ms < (DEADLINE + 20) * 1000
