"""Pure-logic parts of the Kafka protocol connection; the exchanges themselves are tested against real brokers."""

import pytest

from harness import WireError
from harness.protocol import METADATA, ApiVersionRange, api_name, build_request, client_versions, pick_version


def test_api_names_follow_kafka() -> None:
    assert api_name(18) == "ApiVersions"
    assert api_name(19) == "CreateTopics"
    assert api_name(32) == "DescribeConfigs"
    assert api_name(37) == "CreatePartitions"
    assert api_name(30000) is None


def test_kio_carries_the_versions_kafka_4_removed() -> None:
    """Why kio is pinned to 0.5.0: old brokers and KIP-108's claims need these."""
    assert client_versions(19)[0] == 0  # CreateTopics v0
    assert client_versions(32)[0] == 0  # DescribeConfigs v0
    assert client_versions(METADATA)[0] == 0


def test_pick_version_is_the_highest_common_one() -> None:
    broker = {METADATA: ApiVersionRange(METADATA, 0, 5)}
    assert pick_version(METADATA, broker) == 5
    modern = {METADATA: ApiVersionRange(METADATA, 4, 99)}
    assert pick_version(METADATA, modern) == client_versions(METADATA)[-1]
    with pytest.raises(WireError, match="does not offer"):
        pick_version(METADATA, {})


def test_build_request_drops_fields_a_version_lacks() -> None:
    v0 = build_request(METADATA, 0, topics=(), allow_auto_topic_creation=False)
    v4 = build_request(METADATA, 4, topics=(), allow_auto_topic_creation=False)
    assert not hasattr(v0, "allow_auto_topic_creation")
    assert v4.allow_auto_topic_creation is False
