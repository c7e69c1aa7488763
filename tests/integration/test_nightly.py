"""The nightly as CI runs it: ``scripts/nightly.sh`` for two simulated nights, and the history it builds.

Night 1 runs its shards itself (broker lines 2.3 and 2.4: the script calls ``kcompat run``) for three
KIP-525 claims through java:4.4.0, the wire client and confluent-kafka; night 2 hands the script a run
directory a shard job produced (as the workflow does): 2.4 x java:4.4.0 judged by a claim book
(``kcompat run --claims``) in which one claim's documented side is revised, so that one cell reads as a
deviation.  Both nights go into one store through the real default path (Spark and Delta); night 2 must
fail naming exactly that cell, and its report must rebuild the KIP's table: configs returned from 2.4
through Java and wire, never through confluent-kafka (librdkafka's CreateTopics stops below v5).  Night 2
names the store by its ``file://`` URI: the code path an object store (``s3a://``) takes, which nothing here
can reach.  Three claims and two brokers keep it to three cluster boots.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.console import kcompat
from tests.history_builders import jsonl, revised_book

pytest.importorskip("pyspark")
pytest.importorskip("delta")
pytestmark = pytest.mark.timeout(900)

ROOT = Path(__file__).resolve().parents[2]
CONFIGS_RETURNED = ("KIP-525/create-returns-configs", "KIP-525/validate-only-returns-configs")
REVISED = "KIP-525/config-entries-read-only-and-sensitive"
# The wire client's pinned cells (wire@v4, wire@v5) are left out: the KIP table keys a client by kind and
# release, and the pins share the wire client's release.
CLAIMS = "(create-returns-configs or validate-only-returns-configs or config-entries-read-only-and-sensitive)" \
         " and not v4] and not v5]"
SLICE = ("--kip", "KIP-525", "-k", CLAIMS)
BEFORE = 'observe = { entry_fields = { contains = ["sensitive"] } }'
AFTER = 'observe = { entry_fields = { contains = ["sensitive", "sensitivity"] } }'
"""The revision: the claim now documents a field no broker sends, so 2.4 x java reads as a deviation."""


def nightly(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(ROOT / "scripts" / "nightly.sh"), *args], capture_output=True, text=True,
                          timeout=800, check=False, env=dict(os.environ))


def run_id(run: Path) -> str:
    return str(json.loads((run / "run.json").read_text())["run_id"])


@pytest.mark.nightly  # two Spark ingests and reports (~100 s); CI's history tests cover ingest and report
def test_two_nights_the_second_fails_naming_its_regressed_cell_and_the_kip_table_is_rebuilt(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first = nightly("--store", str(store), "--out", str(tmp_path / "night-1"), "2.3", "2.4", "--",
                    "--clients", "java:4.4.0,wire,confluent", *SLICE)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert first.stdout.strip().splitlines()[-1] == "no regression in 2 run(s)"
    night_1 = run_id(tmp_path / "night-1" / "runs" / "run-2.4")

    shard = tmp_path / "run-2.4"  # what a shard job uploads
    book = revised_book(tmp_path, "KIP-525", BEFORE, AFTER)
    produced = kcompat("run", "--brokers", "2.4", "--clients", "java:4.4.0", *SLICE, "--quiet", "--claims", str(book),
                       "--out", str(shard))
    assert produced.returncode == 0, produced.stdout[-3000:] + produced.stderr[-3000:]
    noted = json.loads((shard / "run.json").read_text())["claims"]
    assert noted["dir"] == str(book) and noted["files"] == ["KIP-525.toml"]
    night_2 = run_id(shard)

    # the same store as a URI: the code path of an object store (s3a://...), on Hadoop's local file system
    second = nightly("--store", store.as_uri(), "--out", str(tmp_path / "night-2"), str(shard))
    assert second.returncode == 1, second.stdout[-3000:] + second.stderr[-3000:]
    assert "Traceback" not in second.stderr
    report = tmp_path / "night-2" / "history"
    regressed = f"{REVISED}[2.4.1-zk|java:4.4.0]"
    assert [(r["cell_id"], r["from_outcome"], r["to_outcome"], r["run_id"], r["from_run_id"], r["changed"])
            for r in jsonl(report / "regressions.jsonl")] == [(regressed, "pass", "deviation", night_2, night_1, {})]
    assert [line for line in second.stdout.splitlines() if line.startswith("regression: ")] == [
        f"regression: {regressed}: pass -> deviation in run {night_2} (since run {night_1}; documented side revised)"]
    assert second.stderr.strip().splitlines()[-1] == (
        f"kcompat: error: 1 regression(s) in 1 run(s); see {report / 'regressions.jsonl'}")

    summary = json.loads((report / "summary.json").read_text())
    assert summary["runs"] == 3  # the store kept night 1's two shards
    history = json.loads((report / "history.json").read_text())
    series = next(runs for runs in history.values() if runs[-1]["cell_id"] == regressed)
    assert [e["run_id"] for e in series] == [night_1, night_2]
    page = (tmp_path / "night-2" / "page" / "index.html").read_text()
    assert night_1 in page and night_2 in page  # night 1 is on the page through the history only
    kip_table(report)


def kip_table(report: Path) -> None:
    """The KIP's table as the history rebuilds it from both nights."""
    kip = json.loads((report / "kips" / "KIP-525.json").read_text())
    claims = {claim["claim_id"]: claim for claim in kip["claims"]}
    assert set(claims) == {*CONFIGS_RETURNED, REVISED}
    release = {e["client_kind"]: e["client_version"] for e in claims[CONFIGS_RETURNED[0]]["entries"]}
    wire, confluent = release["wire"], release["confluent"]
    for claim_id in CONFIGS_RETURNED:
        claim = claims[claim_id]
        assert claim["holds"] == [{"broker": "2.4.1-zk", "client": "java 4.4.0"},
                                  {"broker": "2.4.1-zk", "client": f"wire {wire}"}], claim_id
        assert claim["deviates"] == []
        assert {(u["broker"], u["client"], u["limited_by"]) for u in claim["unsupported"]} == {
            ("2.3.1-zk", f"confluent {confluent}", "both"), ("2.3.1-zk", "java 4.4.0", "broker"),
            ("2.3.1-zk", f"wire {wire}", "broker"), ("2.4.1-zk", f"confluent {confluent}", "client")}
        assert not any(e["outcome"] == "pass" for e in claim["entries"] if e["client_kind"] == "confluent")
    assert claims[REVISED]["deviates"] == [{"broker": "2.4.1-zk", "client": "java 4.4.0"}]
    markdown = (report / "kips" / "KIP-525.md").read_text()
    assert "| 2.4.1-zk | unsupported (client) / below | holds / supported | holds / supported |" in markdown
