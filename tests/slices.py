"""What CI runs of a test parametrized over brokers, and what only the nightly does.

An admin group's integration test checks the harness's side (neutral results, cluster layouts, set-ups) through
every client kind on an old ZooKeeper and a new KRaft broker.  CI (scripts/test.sh, at most 20 minutes) runs
the new broker; the old one runs in the nightly workflow (``-m nightly``).  The adapter kinds' integration
tests likewise drive every operation against their newer broker in CI and the 2.3 one in the nightly.  The
verdicts are the golden slices' (tests/golden, tests/integration/test_golden.py): DOCS-admin from 0.11 to 4.4,
its groups on 3.9 and 4.4, the adapter kinds on 2.3 and 3.9."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest


def new_in_ci(brokers: Mapping[str, Any], new: str = "new") -> list[Any]:
    """``pytest.param`` per key of ``brokers`` (``old``, ``new``): every one but ``new`` marked nightly."""
    return [pytest.param(key, marks=() if key == new else (pytest.mark.nightly,)) for key in sorted(brokers)]
