"""Re-observation on a real broker: a cell whose first observation deviates is observed again on its cluster.

One `kcompat run` through the console script on Kafka 4.4 (KRaft) with kafka-clients 4.4.0: KIP-195's
``count-rises-when-the-call-returns`` as the installed book claims it (it passes, or deviates only
sometimes), and a claim added to a copy of the book that documents 4 partitions where
the call makes 3, so its first observation deviates every time and the run must observe it twice more.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kcompat.harness.matrix.claims import claims_dir
from kcompat.harness.records import RECORDS_FILE, SCHEMA_VERSION, read_records
from tests.console import kcompat

pytestmark = pytest.mark.timeout(1200)

STEADY = "KIP-195/count-rises-to-four[4.4.0-kraft|java:4.4.0]"
REAL = "KIP-195/count-rises-when-the-call-returns[4.4.0-kraft|java:4.4.0]"
FOUR = '''
[[claim]]
id = "count-rises-to-four"
section = "Proposed Changes / AdminClient: createPartitions(); Network Protocol"
api = "CreatePartitions"
versions = "0+"
probe = "create_partitions"
args = { initial = 1, count = 3 }

  [[claim.expect]]
  quote = "The controller then waits for the change to the number of partitions to be reflected in its metadata cache before sending the `CreatePartitionsResponse`."
  observe = { partitions_after = 4 }

  [[claim.fallback]]
  limited_by = ["broker", "client", "both"]
  quote = "This is a new API and won't directly affect existing users."
  observe = { changed = false, partitions_after = 1 }
'''


def test_a_deviating_cell_is_observed_again_with_fresh_topics(tmp_path: Path) -> None:
    book = tmp_path / "book"
    book.mkdir()
    shutil.copy(claims_dir(None) / "KIP-195.toml", book / "KIP-195.toml")
    with (book / "KIP-195.toml").open("a", encoding="utf-8") as out:
        out.write(FOUR)
    out_dir = tmp_path / "run"
    done = kcompat("run", "--brokers", "4.4", "--clients", "java:4.4.0", "--kip", "KIP-195", "--claims", str(book),
                   "-k", "count-rises", "--observations", "3", "--allure", "--quiet", "--out", str(out_dir),
                   timeout=1100)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    cells = {r.cell_id: r for r in read_records(out_dir / RECORDS_FILE).records}
    assert sorted(cells) == sorted([STEADY, REAL])

    steady = cells[STEADY]
    assert steady.schema_version == SCHEMA_VERSION and steady.outcome == "deviation" and not steady.intermittent
    assert [o["outcome"] for o in steady.observations] == ["deviation"] * 3
    # every observation made its own topic (a reused name would fail the probe's set-up) and saw the 3
    # partitions it asked for, or still 1: on KRaft the call may return before Metadata has the change (the
    # flip, seen here in CI once: [3, 3, 1]); either way the documented 4 never holds
    assert all(o["observed"]["partitions_after"] in (1, 3) for o in steady.observations), steady.observations
    assert [o["differences"][0]["key"] for o in steady.observations] == ["partitions_after"] * 3
    assert steady.held == (0, 3) and steady.observed == steady.observations[0]["observed"]
    assert all(o["call_ms"] > 0 for o in steady.observations)

    labels = {}
    for result in (out_dir / "allure-results").glob("*-result.json"):
        data = json.loads(result.read_text())
        labels[data["name"]] = {(label["name"], label["value"]) for label in data["labels"]}
    four = next(found for name, found in labels.items() if "count-rises-to-four" in name)
    assert ("observations", "held 0 of 3") in four and ("intermittent", "false") in four
    assert ("tag", "intermittent") not in four

    real = cells[REAL]  # the claim the issue saw flip: one observation if it held, three if it did not
    assert real.outcome in ("pass", "deviation")
    if real.outcome == "pass":
        assert real.observations == [] and not real.intermittent
    else:
        assert len(real.observations) == 3 and real.observations[0]["outcome"] == "deviation"
        assert real.intermittent == any(o["outcome"] == "pass" for o in real.observations)
