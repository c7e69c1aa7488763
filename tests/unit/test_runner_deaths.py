"""What a run knows when a test process dies: the cell it was running and the library's last words."""

from __future__ import annotations

import json
from pathlib import Path

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
        out.write("....F\n*** rdkafka_queue.h:233:rd_kafka_q_destroy0: assert: rkq->rkq_refcnt > 0 ***\n"
                  "Fatal Python error: Aborted\n\nCurrent thread 0x1 (most recent call first):\n")
    assert runner._death(log, since) == "*** rdkafka_queue.h:233:rd_kafka_q_destroy0: assert: rkq->rkq_refcnt > 0 ***"
    with log.open("a") as out:
        out.write("Fatal Python error: Segmentation fault\n")
    assert runner._death(log, log.stat().st_size - 40) == "Fatal Python error: Segmentation fault"
    assert runner._death(tmp_path / "absent.log", 0) == "no log"
