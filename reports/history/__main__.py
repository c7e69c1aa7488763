"""``python -m reports.history``: the history commands without the ``kcompat`` front door."""

from reports.history.cli import history

history(prog_name="kcompat history")
