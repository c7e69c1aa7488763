"""KIP-525: CreateTopics returns the created topic's configs, partitions and replication factor (2.4).

Claims: scenarios/claims/KIP-525.toml.  One test, parametrized with every
cell of the selection (fixtures/matrix.py); the probes are shared (harness/matrix/probes/).
"""

from __future__ import annotations

from fixtures.matrix import CellRunner

KIP = "KIP-525"


def test_kip525(matrix_cell: CellRunner) -> None:
    matrix_cell.run()
