"""The history on real runs: two `kcompat run`s where one cell's verdict differs, ingested and reported.

Run 1 judges KIP-525 by the installed claims on 2.3 (before the KIP) and 2.4 through java:4.4.0, the
wire probe and confluent-kafka; run 2 judges 2.4 x java:4.4.0 again by a copy of the claim book
(``kcompat run --claims``) in which one claim's documented side is revised, so that one cell reads as a
deviation.  The history must name exactly that cell, with run 2's id, and rebuild the KIP's table:
configs returned from 2.4 through Java and wire, never through confluent-kafka (librdkafka's
CreateTopics stops below v5).  Three claims and two brokers keep it to three cluster boots.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyspark")
pytest.importorskip("delta")
pytestmark = pytest.mark.timeout(900)

from tests.console import kcompat  # noqa: E402
from tests.history_builders import jsonl, revised_book  # noqa: E402

CONFIGS_RETURNED = ("KIP-525/create-returns-configs", "KIP-525/validate-only-returns-configs")
REVISED = "KIP-525/config-entries-read-only-and-sensitive"
# The wire probe's pinned cells (wire@v4, wire@v5) are left out: the KIP table keys a client by kind and
# release, and the pins share the wire probe's release.
CLAIMS = "(create-returns-configs or validate-only-returns-configs or config-entries-read-only-and-sensitive)" \
         " and not v4] and not v5]"
BEFORE = 'observe = { entry_fields = { contains = ["sensitive"] } }'
AFTER = 'observe = { entry_fields = { contains = ["sensitive", "sensitivity"] } }'
"""The revision: the claim now documents a field no broker sends, so 2.4 x java reads as a deviation."""


def kcompat_run(*args: str) -> str:
    done = kcompat("run", "--kip", "KIP-525", "-k", CLAIMS, "--quiet", *args)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = Path(args[args.index("--out") + 1])
    return str(json.loads((out / "run.json").read_text())["run_id"])


def history(*args: str) -> None:
    """``kcompat history ARGS`` as typed: the console script (its own Spark session, as a user's)."""
    done = kcompat("history", *args, timeout=900)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout[-3000:] + done.stderr[-3000:]


def test_one_revised_claim_is_one_regression_and_the_kip_table_is_rebuilt(tmp_path: Path) -> None:
    book = revised_book(tmp_path, "KIP-525", BEFORE, AFTER)

    first = kcompat_run("--brokers", "2.3,2.4", "--clients", "java:4.4.0,wire,confluent", "-n", "2",
                        "--out", str(tmp_path / "run-1"))
    second = kcompat_run("--brokers", "2.4", "--clients", "java:4.4.0", "--claims", str(book),
                         "--out", str(tmp_path / "run-2"))
    noted = json.loads((tmp_path / "run-2" / "run.json").read_text())["claims"]
    assert noted["dir"] == str(book) and noted["files"] == ["KIP-525.toml"]

    store, out = tmp_path / "store", tmp_path / "report"
    history("ingest", str(tmp_path / "run-1"), str(tmp_path / "run-2"), "--store", str(store))
    history("report", "--store", str(store), "--out", str(out))

    regressions = jsonl(out / "regressions.jsonl")
    assert [(r["cell_id"], r["from_outcome"], r["to_outcome"], r["run_id"], r["from_run_id"], r["changed"])
            for r in regressions] == [
        (f"{REVISED}[2.4.1-zk|java:4.4.0]", "pass", "deviation", second, first, {})]

    kip = json.loads((out / "kips" / "KIP-525.json").read_text())
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
    markdown = (out / "kips" / "KIP-525.md").read_text()
    assert "| 2.4.1-zk | unsupported (client) / below | holds / supported | holds / supported |" in markdown
