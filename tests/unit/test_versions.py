import pytest

from kcompat.harness import KafkaVersion, UnknownVersionError
from kcompat.harness.versions import CAPABILITIES, version_key


@pytest.mark.parametrize(
    ("lower", "higher"),
    [("2.9", "2.10"), ("0.11.0.3", "1.0"), ("2.4", "2.4.1"), ("3.9.2", "4.0"), ("0.10.2.2", "0.11.0.0")],
)
def test_versions_are_ordered_numerically(lower: str, higher: str) -> None:
    assert KafkaVersion.parse(lower) < KafkaVersion.parse(higher)
    assert sorted([KafkaVersion.parse(higher), KafkaVersion.parse(lower)])[0] == KafkaVersion.parse(lower)


def test_trailing_zero_is_the_same_version() -> None:
    assert KafkaVersion.parse("2.4") == KafkaVersion.parse("2.4.0")
    assert len({KafkaVersion.parse("2.4"), KafkaVersion.parse("2.4.0")}) == 1


@pytest.mark.parametrize(
    ("text", "line", "is_line"),
    [("2.4", "2.4", True), ("2.4.1", "2.4", False), ("0.11", "0.11.0", True), ("0.11.0", "0.11.0", True),
     ("0.11.0.3", "0.11.0", False), ("4.4.0", "4.4", False)],
)
def test_line_and_patch(text: str, line: str, is_line: bool) -> None:
    version = KafkaVersion.parse(text)
    assert version.line == line
    assert version.is_line is is_line
    assert str(version) == text


@pytest.mark.parametrize("text", ["", "abc", "3", "3.9.0-rc1", "3.9.0.dev1", "1!2.0", "3.9+local"])
def test_malformed_versions_are_a_clear_error(text: str) -> None:
    with pytest.raises(UnknownVersionError, match="Kafka version|malformed"):
        KafkaVersion.parse(text)


@pytest.mark.parametrize(
    ("version", "capability", "expected"),
    [("3.2", "kraft", False), ("3.3", "kraft", True), ("3.9", "zookeeper", True), ("4.0", "zookeeper", False),
     ("2.3.1", "create_topics_configs", False), ("2.4.0", "create_topics_configs", True),
     ("2.5", "describe_configs_documentation", False), ("2.6", "describe_configs_documentation", True),
     ("0.11", "create_partitions", False), ("1.0", "create_partitions", True),
     ("2.8", "simple_acl_authorizer", True), ("3.0", "simple_acl_authorizer", False)],
)
def test_capabilities(version: str, capability: str, expected: bool) -> None:
    assert KafkaVersion.parse(version).supports(capability) is expected


def test_unknown_capability_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="kraft"):
        KafkaVersion.parse("3.9").supports("time_travel")


def test_every_capability_names_its_source() -> None:
    assert all(cap.source for cap in CAPABILITIES.values())


ORDERED = ["", "java:2.3.1", "latest", "0.10.2.2", "0.11.0.3", "2.3.1", "2.4", "2.8.2", "2.9.1", "2.10",
           "3.9.0rc2", "3.9.0-rc10", "3.9.0", "4.0.0-rc1", "4.0.0", "4.4.0"]


def test_version_key_is_one_order_for_any_text() -> None:
    """Numbers as numbers, pre-releases before their release, text that is no version first; never an error."""
    assert sorted(reversed(ORDERED), key=version_key) == ORDERED
    assert version_key("2.4") == version_key("2.4.0") == version_key(" 2.4.0.0 ")
    assert version_key(None) == version_key("")


def test_kafka_versions_order_as_their_text_does() -> None:
    """KafkaVersion's order is version_key's: comparing parsed versions and sorting their text agree."""
    texts = ["0.10.2.2", "0.11.0", "1.0", "2.4", "2.4.1", "2.10", "3.9.2", "4.0", "4.4.0"]
    parsed = sorted(KafkaVersion.parse(text) for text in reversed(texts))
    assert [str(version) for version in parsed] == sorted(texts, key=version_key) == texts
