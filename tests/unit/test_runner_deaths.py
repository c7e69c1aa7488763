"""What a run knows when a test process dies: the cell it was running and the library's last words."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kcompat.harness.matrix import runner


def test_the_marker_names_the_cell_in_flight_and_is_gone_once_read(tmp_path: Path) -> None:
    marker = runner.mark_inflight(tmp_path, "KIP-1/c[2.3.1-zk|wire]")
    assert json.loads(marker.read_text())["cell_id"] == "KIP-1/c[2.3.1-zk|wire]"
    (tmp_path / runner.INFLIGHT_DIR / "99999999.json").write_text('{"cell_')  # torn by the death itself
    assert runner._inflight(tmp_path) == ["KIP-1/c[2.3.1-zk|wire]"]
    assert runner._inflight(tmp_path) == [] and not list((tmp_path / runner.INFLIGHT_DIR).iterdir())


def test_the_death_is_told_in_the_librarys_words_from_this_attempt_only(tmp_path: Path) -> None:
    log = tmp_path / "pytest-main.log"
    log.write_text("*** old.c:1: assert: earlier attempt ***\n")
    since = log.stat().st_size
    with log.open("a") as out:
        out.write("....F\n.*** rdkafka_queue.h:233:rd_kafka_q_destroy0: assert: rkq->rkq_refcnt > 0 ***\n"
                  "Fatal Python error: Aborted\n\nCurrent thread 0x1 (most recent call first):\n")
    assert runner._death(log, since) == "*** rdkafka_queue.h:233:rd_kafka_q_destroy0: assert: rkq->rkq_refcnt > 0 ***"
    with log.open("a") as out:
        out.write("Fatal Python error: Segmentation fault\n")
    assert runner._death(log, log.stat().st_size - 40) == "Fatal Python error: Segmentation fault"
    assert runner._death(tmp_path / "absent.log", 0) == "no log"


def test_a_judged_cell_whose_client_killed_the_process_closing_is_a_deviation_keeping_its_call() -> None:
    from kcompat.harness.records import Record

    judged = Record(run_id="r", cell_id="DOCS-admin/x[0.10.2.2-zk|confluent:2.16.1]", kip="DOCS-admin",
                    claim_id="x", api="DeleteGroups", broker_version="0.10.2.2", broker_mode="zk", provider="process",
                    client_kind="confluent", client_version="2.16.1", outcome="unsupported", limited_by="broker",
                    observed={"refused": True})
    died = runner.died_closing(judged, "*** a.c:1: assert ***", "pytest-main.log")
    assert died.outcome == "deviation" and died.limited_by is None and died.observed == {
        "refused": True, "closed": "*** a.c:1: assert ***"}
    assert died.differences[-1] == {"key": "closed", "documented": "the client closes",
                                    "observed": "*** a.c:1: assert ***"}
    assert "the call itself: unsupported" in str(died.reason)
    failed = runner.died_closing(judged.__class__(**{**judged.__dict__, "outcome": "fail", "limited_by": None}),
                                 "x", "l")
    assert failed.outcome == "fail"


def test_a_death_closing_the_last_cell_keeps_that_cells_verdict_and_starts_nothing(tmp_path: Path,
                                                                                   monkeypatch: Any) -> None:
    """The process died closing the client of the group's last cell: its record becomes the deviation the
    death makes of it (before, the run returned at once with the cell's plain verdict), and nothing is
    started again, since no cell is left."""
    from kcompat.harness.records import RECORDS_FILE, Record, append_record, read_records

    cell_id = "DOCS-admin/x[0.10.2.2-zk|confluent:2.16.1]"
    judged = Record(run_id="r", cell_id=cell_id, kip="DOCS-admin", claim_id="DOCS-admin/x", api="DeleteGroups",
                    broker_version="0.10.2.2", broker_mode="zk", provider="process", client_kind="confluent",
                    client_version="2.16.1", outcome="unsupported", limited_by="broker", observed={"refused": True})
    log = tmp_path / "pytest-main.log"
    started: list[int] = []

    def dies_closing(*_: Any) -> int:
        started.append(1)
        runner.mark_inflight(tmp_path, cell_id)
        append_record(tmp_path / RECORDS_FILE, judged)
        log.write_text("*** rdkafka_queue.h:233:rd_kafka_q_destroy0: assert: rkq->rkq_refcnt > 0 ***\n")
        return 3

    monkeypatch.setattr(runner, "_pytest", dies_closing)
    cells = [SimpleNamespace(cell=SimpleNamespace(id=cell_id))]
    code, deaths = runner._pytest_until_done("python", SimpleNamespace(out=tmp_path), ["confluent:2.16.1"], log,
                                             None, cells, {}, None)  # type: ignore[arg-type]
    assert started == [1] and code == 3 and len(deaths) == 1 and "rkq_refcnt" in deaths[0]
    latest = {r.cell_id: r for r in read_records(tmp_path / RECORDS_FILE).records}
    assert latest[cell_id].outcome == "deviation" and "rkq_refcnt" in latest[cell_id].observed["closed"]


def test_a_close_that_never_returns_ends_the_process_with_a_line_the_run_reads_as_its_death(tmp_path: Path) -> None:
    """librdkafka once deadlocked destroying a client instead of aborting: the worker sat idle for good.  A close
    bounded by ``close_bounded`` ends the process instead, and the run's death reader names the hang."""
    import subprocess
    import sys

    script = ("import threading\n"
              "from kcompat.harness.matrix.env import close_bounded\n"
              "close_bounded(threading.Event().wait, 'a confluent 2.16.1 client', timeout=0.5)\n"
              "print('returned')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    from kcompat.harness.matrix.env import CLOSE_HUNG_EXIT

    assert done.returncode == CLOSE_HUNG_EXIT and "returned" not in done.stdout, done
    log = tmp_path / "pytest-main.log"
    log.write_text("....\n" + done.stderr)
    assert runner._death(log, 0) == ("*** kcompat: closing a confluent 2.16.1 client had not returned after 0.5 s "
                                     "(the client library hangs in its close); kcompat ends the test process ***")


def test_a_bounded_close_that_fails_raises_in_the_callers_thread() -> None:
    from kcompat.harness.matrix.env import close_bounded

    def fails() -> None:
        raise OSError("the sidecar's pipe is closed")

    with pytest.raises(OSError, match="pipe is closed"):
        close_bounded(fails, "a java 4.4.0 client")
    close_bounded(lambda: None, "a wire client")  # a close that returns: nothing happens


def test_a_cell_whose_library_aborts_the_process_every_time_is_a_deviation_in_its_words(tmp_path: Path,
                                                                                         monkeypatch: Any) -> None:
    """librdkafka asserting during the call, on every attempt, is what an application meets: the cell is a
    deviation with the library's words; a death nobody told stays the harness's, an infra_error."""
    from kcompat.harness.clients.ref import ClientRef
    from kcompat.harness.records import RECORDS_FILE, read_records

    cell_id = "DOCS-admin/delete-consumer-groups[1.0.2-zk|confluent:2.0.2]"
    claim = SimpleNamespace(kip="DOCS-admin", id="DOCS-admin/delete-consumer-groups", api="DeleteGroups",
                            cluster=SimpleNamespace(nodes=1, profile="plaintext"), min_version=0, max_version=None)
    planned = SimpleNamespace(cell=SimpleNamespace(id=cell_id, broker_features=()), claim=claim, version="1.0.2", mode="zk",
                              client=ClientRef("confluent", "2.0.2"))
    log = tmp_path / "pytest-main.log"
    words = {"abort": "*** rdkafka_op.c:1: rd_kafka_enq_once_del_source_return: assert: eonce->refcnt > 0 ***",
             "silent": ""}
    for case, said in words.items():
        out = tmp_path / case
        out.mkdir()

        def dies(*_: Any, out: Path = out, said: str = said) -> int:
            if (out / RECORDS_FILE).exists():
                return 0  # a resumed pytest skips a recorded cell
            runner.mark_inflight(out, cell_id)
            with log.open("a") as written:  # pytest's log grows across attempts
                written.write(said + "\n")
            return 134

        monkeypatch.setattr(runner, "_pytest", dies)
        runner._pytest_until_done("python", SimpleNamespace(out=out), ["confluent:2.0.2"], log, None, [planned],
                                  {"run_id": "r"}, SimpleNamespace(provider="process"))  # type: ignore[arg-type]
        record = read_records(out / RECORDS_FILE).records[-1]
        if case == "abort":
            assert record.outcome == "deviation" and record.observed == {"aborted": said}
            assert record.differences == [{"key": "aborted", "documented": "the call returns", "observed": said}]
        else:
            assert record.outcome == "infra_error" and not record.observed
