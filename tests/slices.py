"""What CI runs of a test parametrized over brokers, and what only the nightly does.

An admin group's integration test drives every operation through every client kind on an old ZooKeeper and a
new KRaft broker.  CI (scripts/test.sh, at most 20 minutes) runs the new broker; the old one, whose verdicts
CI's DOCS-admin matrix slice (tests/integration/test_admin_slice.py) already asserts from 0.11 to 4.4, runs
in the nightly workflow (``-m nightly``).  The adapter kinds' integration tests likewise drive every operation
against their newer broker in CI (issue 18's conformance kit on one broker) and the 2.3 one in the nightly;
CI's adapter matrix slice (tests/integration/test_adapter_slice.py) judges them on 2.3 and 3.9."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest


def new_in_ci(brokers: Mapping[str, Any], new: str = "new") -> list[Any]:
    """``pytest.param`` per key of ``brokers`` (``old``, ``new``): every one but ``new`` marked nightly."""
    return [pytest.param(key, marks=() if key == new else (pytest.mark.nightly,)) for key in sorted(brokers)]
