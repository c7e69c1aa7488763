"""Which ACL each admin request needs, as Apache Kafka's documentation tables it (no KIP documents it).

Claims: scenarios/claims/DOCS-authorization.toml, resting on the excerpt
scenarios/sources/kafka-docs-authorization.md.  One test, parametrized with
every cell of the selection (fixtures/matrix.py); the probes are shared (harness/matrix/probes/).
"""

from __future__ import annotations

from fixtures.matrix import CellRunner

KIP = "DOCS-authorization"


def test_docs_authorization(matrix_cell: CellRunner) -> None:
    matrix_cell.run()
