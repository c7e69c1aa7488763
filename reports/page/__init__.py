"""The matrix page: one self-contained HTML page and a Markdown summary from run directories.

``kcompat matrix RUN_DIR... --out DIR`` (``reports.page.cli``).  Reads only
what docs/RECORDS.md defines; imports ``harness.records`` and nothing else of
the harness, no pytest and no Kafka client.
"""

from reports.page.model import Matrix, load
from reports.page.render import repro_command, write

__all__ = ["Matrix", "load", "repro_command", "write"]
