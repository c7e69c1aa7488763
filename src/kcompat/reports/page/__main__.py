"""``python -m kcompat.reports.page RUN_DIR... --out DIR``: the matrix command without the kcompat CLI."""

from kcompat.reports.page.cli import matrix

matrix(prog_name="python -m kcompat.reports.page")
