"""Every cell of the claim book: one test, parametrized with each planned cell of every document.

The cells come from the book (``src/kcompat/scenarios/claims``, or ``--kc-claims DIR``) and the
``--kc-*`` selection (src/kcompat/fixtures/cells.py), so a document with claims runs without a
module of its own, and none is left out.  Each cell carries its document's marker
(``-m kip525``, ``-m docsauthorization``) and its API's (``-m createtopics``); each
cell's probe comes from src/kcompat/harness/matrix/probes/.
"""

from __future__ import annotations

from kcompat.fixtures.cells import CellRunner


def test_cell(matrix_cell: CellRunner) -> None:
    matrix_cell.run()
