"""Pure logic of the client adapters: names, neutral entries, option fallbacks."""

import pytest

from kcompat.harness.clients import AdminResult, ResourceOutcome, error_name
from kcompat.harness.clients.confluent import ConfluentClient, _SentRequests
from kcompat.harness.clients.wire import config_entry, plain


def test_error_names_follow_kafka() -> None:
    assert error_name(0) == "NONE"
    assert error_name(29) == "TOPIC_AUTHORIZATION_FAILED"
    assert error_name(44) == "POLICY_VIOLATION"
    assert error_name(-185).startswith("CLIENT_ERROR")


def test_config_entries_use_neutral_names_per_version() -> None:
    v0 = config_entry({"name": "a", "value": "1", "read_only": False, "is_default": True, "is_sensitive": False})
    assert v0 == {"name": "a", "value": "1", "read_only": False, "is_default": True, "sensitive": False}
    v3 = config_entry({"name": "a", "value": "1", "read_only": False, "config_source": 5, "is_sensitive": False,
                       "synonyms": [{"name": "a", "value": "1", "source": 5}], "config_type": 5,
                       "documentation": "doc"})
    assert v3["source"] == "DEFAULT_CONFIG" and v3["type"] == "LONG" and v3["documentation"] == "doc"
    assert v3["synonyms"] == [{"name": "a", "value": "1", "source": "DEFAULT_CONFIG"}]


def test_plain_turns_entities_into_data() -> None:
    import datetime
    import uuid

    assert plain((datetime.timedelta(milliseconds=1500), uuid.UUID(int=1))) == [1500, str(uuid.UUID(int=1))]


def test_records_find_resources_and_say_what_they_have() -> None:
    result = AdminResult("create_topics", "wire", "kio 0.5.0", 5, (ResourceOutcome.of("t", 36, "exists"),))
    assert result.resource("t").error_name == "TOPIC_ALREADY_EXISTS"
    with pytest.raises(KeyError, match="no result for 'u'"):
        result.resource("u")
    assert result.as_json()["resources"][0]["error_code"] == 36


class _OldExtension:
    """Behaves like an old confluent-kafka C method: refuses keywords, sometimes by count only."""

    def __init__(self, accepted: set[str], by_name: bool):
        self.accepted = accepted
        self.by_name = by_name
        self.seen: list[dict[str, object]] = []

    def __call__(self, argument: str, **kwargs: object) -> dict[str, str]:
        self.seen.append(kwargs)
        unknown = [k for k in kwargs if k not in self.accepted]
        if unknown:
            if self.by_name:
                raise TypeError(f"'{unknown[0]}' is an invalid keyword argument for this function")
            raise TypeError(f"function takes at most {len(self.accepted) + 1} arguments ({len(kwargs) + 1} given)")
        return {"ok": argument}


@pytest.mark.parametrize("by_name", [True, False])
def test_options_an_old_release_lacks_are_reported_not_hidden(by_name: bool) -> None:
    method = _OldExtension({"request_timeout"}, by_name)
    dropped: list[str] = []
    answer = ConfluentClient._invoke(method, "x", {"include_synonyms": True, "include_documentation": True,
                                                   "validate_only": False, "request_timeout": 30}, dropped)
    assert answer == {"ok": "x"}
    assert sorted(dropped) == ["include_documentation", "include_synonyms"]
    assert "validate_only" not in method.seen[0]  # false options are never sent


def test_sent_request_lines_are_parsed_and_nothing_else_kept() -> None:
    import logging

    handler = _SentRequests()
    mark = handler.mark()
    for line in ("Sent CreateTopicsRequest (v4, 48 bytes @ 0, CorrId 3)",
                 "Received CreateTopicsResponse (v4, 16 bytes, CorrId 3, rtt 5ms)",
                 "Sent SaslAuthenticateRequest (v1, 30 bytes @ 0, CorrId 4)"):
        handler.emit(logging.LogRecord("x", logging.DEBUG, "", 0, line, None, None))
    assert handler.version_since(mark, "CreateTopics") == 4
    assert handler.version_since(mark, "DescribeConfigs") is None
    assert handler.sent == [("CreateTopics", 4), ("SaslAuthenticate", 1)]


def test_an_option_that_changes_the_call_is_never_dropped() -> None:
    method = _OldExtension({"request_timeout"}, by_name=True)
    dropped: list[str] = []
    with pytest.raises(TypeError):
        ConfluentClient._invoke(method, "x", {"validate_only": True, "request_timeout": 30}, dropped)
    assert dropped == ["validate_only"]
    assert all("validate_only" in call for call in method.seen)  # never retried without it
