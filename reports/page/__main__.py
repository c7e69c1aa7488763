"""``python -m reports.page RUN_DIR... --out DIR``: the matrix command without the kcompat CLI."""

from reports.page.cli import matrix

matrix(prog_name="python -m reports.page")
