"""The history's one-line failures, in the harness's exception tree (docs/HISTORY.md)."""

from __future__ import annotations

from kcompat.harness.errors import HarnessError


class HistoryError(HarnessError):
    """Bad input to the history job or a store it can't use; nothing in the store was changed."""


class RunDirError(HistoryError):
    """A run directory that is missing or holds no records."""


class StoreError(HistoryError):
    """A store path that is not a history store, or a store that can't answer (``--as-of`` too early)."""


class SparkStartError(HistoryError):
    """The Spark session could not start (no Java, a port taken, jars not resolvable)."""
