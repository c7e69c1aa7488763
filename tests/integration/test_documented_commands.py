"""The README's and docs/' commands that no other test runs, as a user types them: the console script.

tests/unit/test_documented_commands.py maps every documented command to the test that runs it; these
are the ones that live nowhere else (the broker, client and image nouns, ``up`` and ``repro --keep``
until Ctrl-C, the main job's script).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from kcompat.harness.reaper import labelled_processes
from kcompat.harness.records import RECORDS_FILE, read_records
from tests.console import KCOMPAT, kcompat
from tests.console import ok as _ok

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(900)


def test_the_broker_nouns(tmp_path: Path) -> None:
    listed = _ok(kcompat("brokers", "list"))
    assert "3.9" in listed and "4.4" in listed
    _ok(kcompat("brokers", "fetch", "3.9", "4.4"))
    probe = json.loads(_ok(kcompat("brokers", "probe", "4.4", "--json", timeout=300)))
    assert probe["version"] == "4.4.0" and {"ApiVersions", "CreateTopics"} <= {a["name"] for a in probe["api_versions"]}
    offline = json.loads(_ok(kcompat("--offline", "brokers", "probe", "3.9", "--json", timeout=300)))
    assert offline["version"] == "3.9.2"
    _ok(kcompat("brokers", "reap"))
    drift = kcompat("brokers", "check-catalog", timeout=300)  # asks Maven Central: current (0) or drift (1)
    assert drift.returncode in (0, 1) and "Traceback" not in drift.stderr, drift.stderr
    assert drift.stdout.strip(), "check-catalog says nothing"


def test_check_catalog_derive_prints_an_entry_for_each_release_the_catalog_lacks(tmp_path: Path) -> None:
    """``check-catalog --derive`` asks Maven Central: stdout is catalog.toml entries only (none when the
    catalog is current), each for a release the catalog can't name; what drifted goes to stderr."""
    import tomllib

    from kcompat.harness import UnknownVersionError, load_catalog

    done = kcompat("--cache-dir", str(tmp_path), "brokers", "check-catalog", "--derive", timeout=600)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    lines = tomllib.loads(done.stdout).get("line", [])
    assert set(tomllib.loads(done.stdout)) <= {"line"}
    for line in lines:
        with pytest.raises(UnknownVersionError):
            load_catalog().release(line["newest"])
        assert line["modes"] and line["java"] and line["scala"] and line["newest"] in done.stderr + done.stdout
    if done.returncode == 0:
        assert not lines and "catalog is current" in done.stderr
    else:
        assert done.stderr.strip(), "drift, and nothing says which"


def _until_ctrl_c(args: list[str], ready: str, timeout: float = 300) -> tuple[int, str, int]:
    """Start ``kcompat ARGS``, wait for ``ready`` in its output, press Ctrl-C; (exit code, output, its pid)."""
    process = subprocess.Popen([KCOMPAT, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    fd = process.stdout.fileno()  # read unbuffered: a buffered readline hides lines that arrived together
    seen, deadline = "", time.monotonic() + timeout
    try:
        while ready not in seen:
            left = deadline - time.monotonic()
            if left <= 0 or process.poll() is not None:
                pytest.fail(f"`kcompat {' '.join(args)}` never said {ready!r}: {seen[-2000:]}")
            if select.select([fd], [], [], min(left, 1.0))[0]:
                seen += os.read(fd, 65536).decode(errors="replace")
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=120)
        return process.returncode, seen + rest.decode(errors="replace"), process.pid
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


@pytest.mark.parametrize("args", [["4.4", "--nodes", "3"], ["2.8", "--mode", "zk", "--sasl", "--user", "alice:secret"]],
                         ids=["three-nodes", "sasl"])
def test_brokers_up_until_ctrl_c(args: list[str]) -> None:
    code, output, pid = _until_ctrl_c(["brokers", "up", *args], "own admin tools:")
    assert code == 130, output
    assert "127.0.0.1:" in output and "secret" not in output
    version = next(line.split()[1] for line in output.splitlines() if line.startswith("Kafka ") and "ready in" in line)
    lines = output.splitlines()  # not a terminal: the tools' fetch is a start line and an end line, no flood
    start = lines.index(f"… Kafka {version}'s admin tools")
    assert lines[start + 1].startswith(f"✓ Kafka {version}'s admin tools ("), lines[start:start + 3]
    time.sleep(1)
    # only this command's JVMs (labelled with its pid as owner): another xdist worker's clusters come and go
    left = [p for p in labelled_processes() if p.owner.split("-", 1)[0] == str(pid)]
    assert not left, f"up left a JVM running: {left}"


def test_clients_survey_table_and_records() -> None:
    table = _ok(kcompat("clients", "survey", "3.9", timeout=600))
    assert "CreateTopics" in table
    records = [json.loads(line) for line in _ok(kcompat("clients", "survey", "4.4", "--client", "java:4.4.0",
                                                       "--json", timeout=600)).splitlines()
               if line.startswith("{")]
    assert records and all((r["client"], r["client_version"]) == ("java", "4.4.0") for r in records)


def test_clients_check_reads_every_answer_against_the_contract() -> None:
    done = kcompat("clients", "check", "wire", "java:4.4.0", "--broker", "4.4", "--json", timeout=900)
    rows = [json.loads(line) for line in _ok(done).splitlines() if line.startswith("{")]
    by_client: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        by_client.setdefault(str(row["client"]), []).append(row)
    assert set(by_client) == {"wire", "java:4.4.0"}
    for client, checked in by_client.items():
        assert all(r["status"] in ("conforms", "lacking") for r in checked), [r for r in checked if r["problems"]]
        assert checked[-1]["operation"] == "close" and checked[-1]["status"] == "conforms"
        assert all(isinstance(r["seconds"], float) and r["seconds"] >= 0 for r in checked[:-1]
                   if r["status"] == "conforms"), checked
        assert sum(r["status"] == "conforms" for r in checked) > 40, client  # the client really was driven
    for ref, words in (("nosuch", "unknown client kind 'nosuch'"),
                       ("java:3.7.9", "Maven Central publishes no kafka-clients 3.7.9")):
        refused = kcompat("clients", "check", ref, timeout=120)  # before anything boots
        assert refused.returncode != 0 and words in refused.stderr and "Traceback" not in refused.stderr


def test_repro_keep_keeps_the_cluster_until_ctrl_c(tmp_path: Path) -> None:
    cell = "KIP-525/create-returns-configs[4.4.0-kraft|wire]"
    code, output, _ = _until_ctrl_c(["repro", cell, "--keep", "--out", str(tmp_path / "r")], "127.0.0.1:", timeout=400)
    assert code == 130, output


@pytest.mark.own_workers  # scripts/main.sh runs `kcompat run -n 2`: CI runs this test alone
def test_the_main_job_on_a_slice_ends_with_its_page(tmp_path: Path) -> None:
    """The main job as typed, and the suite's one check that its two workers boot each cluster once (xdist's
    ``--dist loadgroup`` keeps a cluster's cells on one worker; pytest-xdist#1386 once broke that)."""
    out = tmp_path / "main"
    done = subprocess.run(["bash", "scripts/main.sh", "--brokers", "3.9,4.4", "--clients", "wire", "--kip", "KIP-569"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900, check=False,
                          env={**os.environ, "KCOMPAT_OUT": str(out)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    assert last == f"matrix page: {out / 'page' / 'index.html'}", last
    assert (out / "page" / "index.html").is_file()
    records = read_records(out / RECORDS_FILE).records
    started = len(list((out / "logs").glob("*/kafka-*")))
    distinct = {(r.broker_version, r.broker_mode, r.broker_nodes, r.security) for r in records}
    assert len(distinct) > 1 and len(records) > 2 * len(distinct)  # a slice where a split group would show
    assert started == len(distinct) + sum(r.attempt == 2 for r in records)  # one boot per cluster


@pytest.mark.container
def test_images_and_a_broker_in_a_container() -> None:
    plan = _ok(kcompat("images", "build", "--plan", "3.9"))
    assert "3.9" in plan
    _ok(kcompat("images", "build", "2.8", timeout=900))
    assert "2.8" in _ok(kcompat("images", "list"))
    code, output, _ = _until_ctrl_c(["--provider", "container", "brokers", "up", "2.8", "--mode", "zk"],
                                    "admin tools", timeout=400)
    assert code == 130, output
