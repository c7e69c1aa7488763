"""The matrix page: one self-contained HTML page and a Markdown summary from run directories.

``kcompat matrix RUN_DIR... --out DIR`` (``kcompat.reports.page.cli``).  Reads only
what docs/RECORDS.md defines; imports ``kcompat.harness.records`` and nothing else of
the harness, no pytest and no Kafka client.
"""

from kcompat.reports.page.model import Matrix, load
from kcompat.reports.page.render import repro_command, write

__all__ = ["Matrix", "load", "repro_command", "write"]
