"""The detail pane's matchers in words: every kind the claim loader accepts has them."""

from __future__ import annotations

from typing import Any

from kcompat.harness.matrix.observables import _MATCHERS, check_matcher
from kcompat.reports.page.matchers import WORDS, with_words, words

SAMPLES: dict[str, Any] = {
    "present": True, "absent": True, "null": True, "missing": True, "type": "string", "in": ["NONE", "INVALID_CONFIG"],
    "contains": ["cleanup.policy"], "raises": "UnsupportedVersionException",
}
"""One valid argument of each matcher kind: the browser test shows each in the pane."""


def every_matcher() -> dict[str, Any]:
    """``{kind: {kind: argument}}`` for every kind of the claim loader's vocabulary."""
    return {kind: {kind: SAMPLES[kind]} for kind in _MATCHERS}


def test_every_matcher_kind_the_claims_accept_has_words_and_a_sample() -> None:
    assert set(WORDS) == set(_MATCHERS), "a matcher needs words in src/kcompat/reports/page/matchers.py"
    assert set(SAMPLES) == set(_MATCHERS)
    for kind, matcher in every_matcher().items():
        assert check_matcher(matcher) is None, kind
        assert words(matcher) and "{" not in words(matcher), kind
    said = {kind: words(matcher) for kind, matcher in every_matcher().items()}
    assert (said["null"], said["in"], said["contains"]) == (
        "is null", 'is one of "NONE", "INVALID_CONFIG"', 'is a list holding "cleanup.policy"')


def test_literals_read_as_equality_and_unknown_kinds_as_their_json() -> None:
    assert [words("NONE"), words(3), words(None)] == ['is "NONE"', "is 3", "is null"]
    assert words({"someday": 1}) == '{"someday":1}'
    documented = {"case": "supported", "expect": {"error": "NONE", "configs": {"null": True}}}
    assert with_words(documented)["said"] == {"error": 'is "NONE"', "configs": "is null"}
    assert with_words({"case": "refused"}) == {"case": "refused"}
