"""Long steps (src/kcompat/harness/progress.py): a start and an end line off a terminal, one rewritten line on one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kcompat.harness.progress import elapsed, report, step


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_a_step_is_a_start_line_and_an_end_line_naming_its_log(tmp_path: Path) -> None:
    out = io.StringIO()
    with step("the sarama 1.61.1 adapter", stream=out):
        report("go mod tidy (1/3)", log=tmp_path / "build.log")
        report("go build (3/3)")
    start, end = out.getvalue().splitlines()
    assert start == "… the sarama 1.61.1 adapter"
    assert end.startswith("✓ the sarama 1.61.1 adapter (") and end.endswith(f"s; log: {tmp_path / 'build.log'})")
    assert "\r" not in out.getvalue() and "go build" not in out.getvalue()  # how far is for a terminal only


def test_a_failed_step_ends_with_a_line_saying_so() -> None:
    out = io.StringIO()
    with pytest.raises(RuntimeError), step("Kafka 4.4.0's admin tools", stream=out):
        raise RuntimeError("maven")
    assert out.getvalue().splitlines()[-1].startswith("✗ Kafka 4.4.0's admin tools: failed after ")


def test_on_a_terminal_a_step_is_one_line_rewritten_and_left_as_its_end() -> None:
    out = _Terminal()
    with step("the franz-go 1.22.2 adapter", stream=out):
        report("go build (3/3)")
    text = out.getvalue()
    assert text.count("\n") == 1 and text.startswith("\r\x1b[K")
    assert text.rsplit("\r\x1b[K", 1)[1].startswith("✓ the franz-go 1.22.2 adapter (")


def test_quiet_shows_nothing_and_report_outside_a_step_is_nothing() -> None:
    out = io.StringIO()
    report("nobody watches")
    with step("measuring", quiet=True, stream=out):
        report("still nothing")
    assert out.getvalue() == ""


def test_elapsed_reads_as_seconds_then_minutes() -> None:
    assert (elapsed(4.25), elapsed(65.2), elapsed(600)) == ("4.2s", "1m05s", "10m00s")
