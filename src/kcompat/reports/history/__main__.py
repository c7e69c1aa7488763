"""``python -m kcompat.reports.history``: the history commands without the ``kcompat`` front door."""

from kcompat.reports.history.cli import history

history(prog_name="kcompat history")
