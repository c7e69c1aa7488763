"""KIP-142: a ListTopics request (never adopted): listTopics rests on Metadata.

Claims: scenarios/claims/KIP-142.toml.  One test, parametrized with every
cell of the selection (fixtures/matrix.py); the probes are shared (harness/matrix/probes/).
"""

from __future__ import annotations

from fixtures.matrix import CellRunner

KIP = "KIP-142"


def test_kip142(matrix_cell: CellRunner) -> None:
    matrix_cell.run()
