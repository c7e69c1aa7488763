"""`kcompat run`'s closing words: the verdicts said once, and pytest's own line never contradicting them."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kcompat.harness.records import RECORDS_FILE, read_records
from tests.console import kcompat

pytestmark = pytest.mark.timeout(900)

SLICE = "create-returns-configs or admin-topic-config-method"
"""On 2.6: pass and unsupported through the wire client, and java:4.4.0's config() where KIP-525 names
topicConfig(), a deviation."""
CLOSING = re.compile(r"^=*\s*(\d+ [a-z_]+(?:, \d+ [a-z_]+)*) in [\d.]+s")


def test_the_verdicts_are_said_once_in_kcompats_words(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = kcompat("run", "--brokers", "2.6", "--clients", "wire,java:4.4.0", "--kip", "KIP-525", "-k", SLICE,
                   "--out", str(out), timeout=850)  # not --quiet: pytest's progress and closing line are shown
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    verdicts = Counter(r.outcome for r in read_records(out / RECORDS_FILE).records)
    assert verdicts["deviation"] >= 1, verdicts  # the slice's point: a deviation beside passing cells
    lines = done.stdout.splitlines()
    assert sum(line.startswith("all: ") for line in lines) == 1, done.stdout
    assert sum(line.startswith("KIP-525: ") for line in lines) == 1, done.stdout
    closing = [found.group(1) for line in lines if (found := CLOSING.match(line))]
    assert len(closing) == 1, done.stdout
    said = {word: int(n) for n, word in (part.split(" ") for part in closing[0].split(", "))}
    words = {"passed": "pass", "unsupported": "unsupported", "deviation": "deviation"}
    assert {words[w]: n for w, n in said.items() if w in words} == dict(verdicts), (closing, verdicts)
