"""Shared by the harness's own tests (not the scenarios)."""

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """kcompat's own tests always ask for its plugin, which stays quiet in other projects' sessions until
    asked: the run id, SIGTERM unwinding like Ctrl-C (CI cancelled, tox killed) and the reaping at session
    start, in the xdist controller as in every worker."""
    from kcompat.fixtures.options import ASKED_KEY, activate

    config.stash[ASKED_KEY] = True
    activate(config)
