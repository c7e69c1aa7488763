"""The golden slices (tests/golden/NAME) that no other module runs, each run through the console script and
compared verdict by verdict with its checked-in records (``kcompat.reports.compare``, the comparison
``scripts/compare_runs.py`` makes of two runs): KIP-525, KIP-569 and DOCS-admin's topic, ACL and group methods on
2.3 and 3.9 through every kind (admin-2.3-3.9); DOCS-admin's javadoc boundaries from 0.11 to 4.4
(docs-admin-0.11-4.4); DOCS-admin's group, share and streams group, replica, security and transaction methods
on 3.9 and 4.4 (admin-groups-3.9-4.4).

The claim book says what each cell should see; a golden file pins what the harness judged, so a change of
engine, client or probe that judges one cell differently fails here, naming the cell.  After a reviewed change
``python scripts/golden.py refresh NAME`` writes the new verdicts (docs/TESTING.md).  Beside it, what follows
from measurements and the records' contract alone: checks derived from the data, not typed by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcompat.harness.clients.limits import checked_in
from kcompat.harness.matrix.claims import REFUSED, claims_dir, load_claim_book
from kcompat.harness.matrix.probes import specs
from kcompat.harness.matrix.verdict import ABSENT_METHOD, DEADLINE, LACKING
from kcompat.harness.records import RECORDS_FILE, Record, read_records
from tests import goldens
from tests.console import kcompat, ok, run_workers

pytestmark = pytest.mark.timeout(1800)
RUN_KEYS = frozenset({REFUSED, LACKING, DEADLINE, "set_up", "closed", "request_version_reported",
                      "request_version_recorded", "recorder_problems"})
"""The keys of a record's ``observed`` that are the run's own, not its probe's (docs/RECORDS.md, ``observed``)."""


@pytest.fixture(scope="module", params=[name for name in goldens.names() if "run_by" not in goldens.about(name)])
def slice_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """(slice name, its run directory): the slice run once through the console script."""
    out = tmp_path_factory.mktemp(f"golden-{request.param}") / "run"
    ok(kcompat("run", *goldens.run_args(request.param), "-n", run_workers(), "--quiet", "--out", str(out),
               timeout=1700))
    return request.param, out


@pytest.fixture(scope="module")
def run(slice_run: tuple[str, Path]) -> Path:
    return slice_run[1]


def test_the_slice_judges_every_cell_as_its_golden_records(slice_run: tuple[str, Path]) -> None:
    assert not (differences := goldens.differences(*slice_run)), differences


def test_every_docs_admin_cell_quotes_the_javadoc_of_its_release(run: Path) -> None:
    """A cell judged by the javadoc (``supported`` or ``below`` its boundary) carries its words and whose they
    are: a kafka-clients cell its own release's unless a note says which release stood in."""
    for record in read_records(run / RECORDS_FILE).records:
        if record.kip != "DOCS-admin" or record.documented.get("case") not in ("supported", "below"):
            continue
        javadoc = record.documented.get("javadoc")
        assert javadoc and javadoc["release"] and record.documented["quotes"], record.cell_id
        if record.client.startswith("java:") and javadoc["note"] is None:
            assert javadoc["release"] == record.client.split(":", 1)[1], record.cell_id


def test_every_observation_is_in_its_probes_words(run: Path) -> None:
    """A probe observes only the keys its spec declares (the claims' keys are checked against them on load); the
    run adds only the keys docs/RECORDS.md names as its own (``RUN_KEYS``)."""
    book = load_claim_book(claims_dir())
    probes = specs()
    for record in read_records(run / RECORDS_FILE).records:
        spec = probes[book.claim(record.claim_id).probe]
        unknown = {key for key in record.observed if not spec.knows(key)} - RUN_KEYS
        assert not unknown, (record.cell_id, unknown)


def test_verdicts_follow_the_measured_limits(run: Path) -> None:
    """A measured client's cell follows from two measurements: the newest request version it sends
    (src/kcompat/harness/clients/limits.jsonl, measured against the stub broker) and the broker's ApiVersions.  Below the
    claim's range on one side, an unsupported cell is limited by that side (``both`` when both); within it on
    both, the call was made: ``pass`` or ``deviation`` with the request version the recorder saw, or a deviation
    where the library threw before sending."""
    measured = checked_in()
    judged = 0
    for record in read_records(run / RECORDS_FILE).records:
        claim_min = record.required_versions["min"]
        if record.client not in measured or claim_min is None or record.documented.get("case") == "requires":
            continue
        newest = measured[record.client].newest.get(record.api)
        assert record.client_max_version == newest, record.cell_id  # the cell used the measurement
        client_short = newest is None or newest < claim_min
        broker_short = record.broker_max_version is None or record.broker_max_version < claim_min
        if record.outcome == "unsupported" and record.documented.get("case") != "below":
            assert record.limited_by == _limited_by(client_short, broker_short), record.cell_id
        if not client_short and not broker_short and not _short_of_an_option(record):
            assert record.outcome in ("pass", "deviation"), (record.cell_id, record.outcome, record.observed)
            # the recorder saw the request, unless the library threw before sending one (a finding: kafkajs
            # 2.2.4's deleteTopicRecords looks up the partitions' leaders before it loads the topic's metadata)
            assert record.request_version is not None or (
                record.outcome == "deviation" and record.observed.get("exception")), record.cell_id
            judged += 1
    assert judged, "no measured client's cell within both sides' ranges: the check checked nothing"


def _limited_by(client_short: bool, broker_short: bool) -> str:
    return "both" if client_short and broker_short else "client" if client_short else "broker"


def _short_of_an_option(record: Record) -> bool:
    """The client's API lacks the method (limits are per API, a library's methods are not), or an option or a
    field the claim needs: short whatever its request version."""
    return record.observed.get("exception") in ABSENT_METHOD or "unsupported_options" in record.observed or (
        record.limited_by == "client" and "unsupported_fields" in record.observed)
