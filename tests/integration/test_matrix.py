"""`kcompat run` end to end on real brokers: the golden slice kip-525-569, resume, kill -9, repro, the page.

The slice (tests/golden/kip-525-569) straddles both KIPs' boundaries: 2.3 (before KIP-525), 2.5 (KIP-525,
before KIP-569), 2.6 (both), 3.9 in KRaft and 4.4; the wire client, the installed confluent-kafka, and
kafka-clients 2.3.1 (before both) and 4.4.0.  One run serves every assertion of this module; its verdicts are
compared with the slice's golden records (the claim book says what each cell should see, not this module).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from kcompat.harness.records import RECORDS_FILE, Record, read_records

pytestmark = pytest.mark.timeout(1800)  # the module's run (a fixture) boots ten clusters

from tests.console import KCOMPAT as CONSOLE_SCRIPT  # noqa: E402
from tests.console import run_workers  # noqa: E402
from tests import goldens  # noqa: E402

KCOMPAT = [CONSOLE_SCRIPT]  # the installed console script, as users type it
SLICE = "kip-525-569"
ARGS = goldens.run_args(SLICE)
BROKERS = ARGS[ARGS.index("--brokers") + 1]
CLIENTS = ARGS[ARGS.index("--clients") + 1]


def kcompat(*args: str, timeout: float = 1500) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*KCOMPAT, *args], capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    out = tmp_path_factory.mktemp("matrix") / "run"
    done = kcompat("run", *ARGS, "-n", run_workers(), "--quiet", "--out", str(out))
    return done, out


@pytest.fixture(scope="module")
def cells(run: tuple[subprocess.CompletedProcess[str], Path]) -> dict[str, Record]:
    return {r.cell_id: r for r in read_records(run[1] / RECORDS_FILE).records}


def _cell(cells: dict[str, Record], cell_id: str) -> Record:
    assert cell_id in cells, f"no record for {cell_id}"
    return cells[cell_id]


def test_every_cell_is_judged_and_the_run_exits_0(run: tuple[subprocess.CompletedProcess[str], Path],
                                                  cells: dict[str, Record]) -> None:
    done, out = run
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert len(cells) > 250
    assert {r.outcome for r in cells.values()} <= {"pass", "unsupported", "deviation"}
    assert "KIP-525:" in done.stdout and "KIP-569:" in done.stdout and f"run directory: {out}" in done.stdout
    meta = json.loads((out / "run.json").read_text())
    assert meta["exit_code"] == 0 and meta["ended_at"] and meta["selection"]["brokers"] == BROKERS.split(",")
    java = [client.split(":", 1)[1] for client in CLIENTS.split(",") if client.startswith("java:")]
    assert meta["java_clients"] == java and meta["machine"]["cpus"] == os.cpu_count()
    started = len(list((out / "logs").glob("*/kafka-*")))
    distinct = {(r.broker_version, r.broker_mode, r.broker_nodes, r.security) for r in cells.values()}
    assert started == len(distinct) + sum(r.attempt == 2 for r in cells.values())  # one boot per cluster
    coverage = json.loads((out / "coverage.json").read_text())
    assert any(not row["testable"] and row["reason"] for row in coverage)


def test_the_run_judges_every_cell_as_its_golden_records(run: tuple[subprocess.CompletedProcess[str], Path]
                                                         ) -> None:
    assert not (differences := goldens.differences(SLICE, run[1])), differences


def test_records_carry_the_contract(cells: dict[str, Record]) -> None:
    """What docs/RECORDS.md promises of a kafka-clients cell whose call was made: the version the recorder saw,
    within both sides' newest; the document's case and words; the call's time within the cell's; the log."""
    record = _cell(cells, "KIP-525/create-returns-configs[2.6.3-zk|java:4.4.0]")
    assert record.broker_max_version is not None and record.client_max_version is not None
    assert record.request_version is not None
    assert record.request_version <= min(record.broker_max_version, record.client_max_version)
    assert record.documented["case"] and record.documented["quotes"]
    assert record.call_ms is not None and 0 < record.call_ms < record.duration_ms
    assert record.client_version == "4.4.0" and record.java_version and record.log


def test_resume_keeps_every_recorded_cell(run: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    _, out = run
    before = (out / RECORDS_FILE).read_bytes()
    again = kcompat("run", "--resume", "--quiet", "--out", str(out), timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    assert (out / RECORDS_FILE).read_bytes() == before


def test_resume_runs_an_infra_error_cell_again(run: tuple[subprocess.CompletedProcess[str], Path],
                                               cells: dict[str, Record]) -> None:
    """An infra_error is the harness's failure, not a verdict: a resumed run judges that cell again (its new
    line is the cell's verdict) and leaves every other cell as it was."""
    import dataclasses

    from kcompat.harness.records import append_record

    _, out = run
    judged = _cell(cells, "KIP-525/create-returns-configs[4.4.0-kraft|wire]")
    append_record(out / RECORDS_FILE, dataclasses.replace(
        judged, outcome="infra_error", reason="crafted: the broker died", limited_by=None, differences=[],
        observations=[], intermittent=False))
    before = read_records(out / RECORDS_FILE).records
    again = kcompat("run", "--resume", "--quiet", "--out", str(out), timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    after = read_records(out / RECORDS_FILE).records
    assert after[:len(before)] == before and [r.cell_id for r in after[len(before):]] == [judged.cell_id]
    assert after[-1].outcome == judged.outcome and after[-1].run_id == judged.run_id


def _descendants_gone(out: Path, timeout: float = 60) -> list[str]:
    deadline = time.monotonic() + timeout
    while True:
        left = []
        for proc in psutil.process_iter(["cmdline"]):
            try:
                if any(str(out) in part for part in proc.info["cmdline"] or ()):
                    left.append(" ".join(proc.info["cmdline"])[:160])
            except psutil.Error:
                continue
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.5)


def test_kill_9_leaves_nothing_running_no_torn_line_and_resume_finishes(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    args = ["run", "--brokers", "2.6", "--clients", "wire,java:4.4.0", "--kip", "KIP-569", "--quiet", "--out", str(out)]
    process = subprocess.Popen([*KCOMPAT, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not ((out / RECORDS_FILE).exists() and (out / RECORDS_FILE).stat().st_size > 0):
        assert process.poll() is None and time.monotonic() < deadline, "no cell finished"
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    assert _descendants_gone(out) == []
    report = read_records(out / RECORDS_FILE)
    assert report.records and not report.torn_last_line and not report.malformed
    finished = kcompat("run", "--resume", "--quiet", "--out", str(out), timeout=600)
    assert finished.returncode == 0, finished.stdout[-2000:] + finished.stderr[-2000:]
    after = read_records(out / RECORDS_FILE)
    assert [r.cell_id for r in after.records[:len(report.records)]] == [r.cell_id for r in report.records]
    assert len({r.cell_id for r in after.records}) == len(after.records)  # nothing ran twice


def test_bad_input_is_one_line_before_anything_boots(tmp_path: Path) -> None:
    for args, message in [(["--brokers", "9.9"], "Kafka 9.9 is not in the catalog"),
                          (["--clients", "java:1:2"], "is not a release"),
                          (["--kip", "KIP-1"], "unknown KIP KIP-1")]:
        done = kcompat("run", *args, "--out", str(tmp_path / "x"), timeout=60)
        assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "x").exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "records.jsonl").write_text("")
    done = kcompat("run", "--out", str(tmp_path / "full"), timeout=60)
    assert done.returncode == 2 and "exists and is not empty" in done.stderr


def test_a_release_maven_central_lacks_keeps_the_catalogs_one_line_error(tmp_path: Path) -> None:
    """A release the catalog lacks is looked up on Maven Central (to run it with an entry derived from its
    jars); one Maven Central does not publish, or any offline, is the catalog's own one-line error."""
    for args, message in [(["--brokers", "4.4.99"], "Kafka 4.4.99 is newer than the catalog's newest 4.4 release"),
                          (["--brokers", "99.1.0"], "Kafka 99.1.0 is not in the catalog; known lines: 0.10.2"),
                          (["--offline", "run", "--brokers", "4.5.0"], "Kafka 4.5.0 is not in the catalog")]:
        command = args if args[0] == "--offline" else ["run", *args]
        for extra in (["--plan"], ["--out", str(tmp_path / "x")]):
            done = kcompat("--cache-dir", str(tmp_path / "cache"), *command, *extra, timeout=120)
            assert done.returncode == 2 and message in done.stderr, (done.returncode, done.stderr)
            assert len(done.stderr.strip().splitlines()) == 1 and "derived" not in done.stderr
            assert not (tmp_path / "x").exists() and not (tmp_path / "cache" / "central" / "releases").exists()


def test_a_new_document_in_a_book_runs_without_a_module_of_its_own(tmp_path: Path) -> None:
    """A ``--claims`` book's document that no scenario module names gets its cells, judged like any other:
    here KIP-525's claims filed as a new document, KIP-9525 (its text found among the installed sources), judged
    as the golden slice judges KIP-525's own cells."""
    from kcompat.harness.matrix.claims import claims_dir

    book = tmp_path / "book"
    book.mkdir()
    text = (claims_dir() / "KIP-525.toml").read_text()
    (book / "KIP-9525.toml").write_text(text.replace('kip = "KIP-525"', 'kip = "KIP-9525"'))
    out = tmp_path / "run"
    done = kcompat("run", "--claims", str(book), "--kip", "KIP-9525", "--brokers", "2.6", "--clients", "wire",
                   "-k", "create-returns-configs", "--quiet", "--out", str(out), timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    cells = {r.cell_id: r for r in read_records(out / RECORDS_FILE).records}
    assert set(cells) == {f"KIP-9525/create-returns-configs[2.6.3-zk|{client}]"
                          for client in ("wire", "wire@v4", "wire@v5")}
    golden = goldens.golden(SLICE)
    for record in cells.values():
        same = golden[record.cell_id.replace("KIP-9525/", "KIP-525/")]
        assert (record.outcome, record.limited_by) == (same["outcome"], same["limited_by"]), record.cell_id
    assert all(r.kip == "KIP-9525" and r.documented["quotes"] for r in cells.values())


def test_repro_runs_a_recorded_cell_again(run: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path) -> None:
    _, out = run
    done = kcompat("repro", "KIP-525/admin-topic-config-method[2.6.3-zk|java:4.4.0]", "--run", str(out),
                   "--out", str(tmp_path / "repro"), timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"recorded ({out}): deviation" in done.stdout and "now: deviation" in done.stdout
    assert "methods: documented" in done.stdout  # the difference, side by side
    near = kcompat("repro", "KIP-525/admin-topic-config-metod[2.6.3-zk|java:4.4.0]", timeout=60)
    assert near.returncode == 2 and "nearest: KIP-525/admin-topic-config-method" in near.stderr


def test_bisect_pins_kip525_configs_through_java_to_2_4_0(tmp_path: Path) -> None:
    done = kcompat("bisect", "KIP-525/create-returns-configs", "--client", "java:4.4.0", "--good", "2.3.1",
                   "--bad", "2.4.1", "--out", str(tmp_path / "bisect"), timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "first release that differs: 2.4.0 (after 2.3.1)" in done.stdout
    assert "releases in range: 3 (2.3.1 .. 2.4.1); booted: 3" in done.stdout


def test_qualify_fails_on_an_unreviewed_deviation_and_passes_with_the_reviewed_list(tmp_path: Path) -> None:
    known = Path(__file__).resolve().parents[2] / "src" / "kcompat" / "scenarios" / "profiles" / "known_deviations.toml"
    empty = tmp_path / "none.toml"
    empty.write_text("")
    for name, deviations, code in (("unreviewed", empty, 1), ("reviewed", known, 0)):
        profile = tmp_path / f"{name}.toml"
        profile.write_text(f'[profiles.{name}]\nbrokers = ["2.6"]\nclients = ["java:4.4.0"]\nkips = ["KIP-525"]\n'
                           f'known_deviations = "{deviations}"\n')
        done = kcompat("qualify", "--profile", str(profile), "--out", str(tmp_path / name), "-n", "0", timeout=900)
        assert done.returncode == code, done.stdout[-3000:] + done.stderr[-2000:]
        assert "KIP-525/admin-topic-config-method[2.6.3-zk|java:4.4.0]" in done.stdout
        assert (tmp_path / name / "page" / "index.html").is_file()


def test_qualify_resumes_a_profile_of_an_adapter_kind_and_judges_its_cells(tmp_path: Path) -> None:
    """Every cell of the profile recorded already: the resumed run has nothing to boot (kafka-python's release is
    checked and installed, as for any run), and the verdict is over the profile's cells."""
    from kcompat.harness.catalog import load_catalog
    from kcompat.harness.matrix.claims import claims_dir, load_claim_book
    from kcompat.harness.matrix.plan import Selection, plan
    from tests.unit.test_qualify import ADAPTER_PROFILE, resumable_run

    clients = ["wire", "kafka-python:3.0.12"]
    cells = sorted(c.cell.id for c in plan(Selection.of(["2.6"], "zk", clients, ["KIP-525"]),
                                           load_claim_book(claims_dir()), load_catalog()))
    run = resumable_run(tmp_path, clients, cells)
    (tmp_path / "p.toml").write_text(ADAPTER_PROFILE)
    done = kcompat("qualify", "--profile", str(tmp_path / "p.toml"), "--out", str(tmp_path / "q"), "--resume",
                   timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert f"qualified: {len(cells)} cells, 0 fail" in done.stdout and "without a record" not in done.stdout
    assert any(cell.endswith("|kafka-python:3.0.12]") for cell in cells)
    assert not (run / "logs").exists()  # where a cluster's logs would be: nothing booted


def test_the_page_of_this_run_in_chromium(run: tuple[subprocess.CompletedProcess[str], Path],
                                          cells: dict[str, Record]) -> None:
    """The page a person opens after the run: it loads without errors, counts right, and a click shows a cell."""
    from collections import Counter

    from kcompat.reports.page.browser import chromium

    _, out = run
    done = kcompat("matrix", str(out), "--out", str(out / "page"), "--screenshot", timeout=300)
    assert done.returncode == 0, done.stderr
    assert (out / "page" / "matrix.png").stat().st_size > 10_000  # the screenshot goes into the run directory
    counts = Counter(r.outcome for r in cells.values())
    errors: list[str] = []
    with chromium() as browser:
        view = browser.new_page(viewport={"width": 1400, "height": 900})
        view.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        view.on("pageerror", lambda exc: errors.append(str(exc)))
        view.goto((out / "page" / "index.html").as_uri())
        for outcome in ("pass", "unsupported", "deviation"):
            assert int(view.inner_text(f"#count-{outcome}")) == counts[outcome], outcome
        view.select_option("#f-client", "java:4.4.0")
        view.select_option("#f-kip", "KIP-525")
        view.locator("#matrix section.block:visible td.d").first.click()
        assert view.locator("#detail").is_visible()
        shown = view.inner_text("#d-cell")
        assert shown.startswith("KIP-525/") and shown.endswith("|java:4.4.0]")
        assert view.inner_text("#d-outcome") == "deviation" == cells[shown].outcome
        assert view.inner_text("#d-quotes").strip() and view.locator("#cmp tr.diff").count() >= 1
    assert errors == []


def test_allure_results_and_report(tmp_path: Path) -> None:
    out = tmp_path / "allure-run"
    done = kcompat("run", "--brokers", "2.6", "--clients", "java:4.4.0", "--kip", "KIP-525", "--allure", "--quiet",
                   "--out", str(out), timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    results = [json.loads(p.read_text()) for p in (out / "allure-results").glob("*-result.json")]
    deviation = next(r for r in results if "admin-topic-config-method" in r["name"])
    labels = {(label["name"], label["value"]) for label in deviation["labels"]}
    assert {("epic", "KIP-525"), ("feature", "CreateTopics"), ("story", "KIP-525/admin-topic-config-method"),
            ("tag", "deviation")} <= labels
    assert {a["name"] for a in deviation["attachments"]} >= {"documented vs observed", "record", "broker log (tail)"}
    assert (out / "allure-report" / "index.html").is_file()
    assert list(out.glob("junit-*.xml"))
