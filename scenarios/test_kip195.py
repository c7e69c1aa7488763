"""KIP-195: CreatePartitions, the AdminClient's createPartitions (1.0).

Claims: scenarios/claims/KIP-195.toml.  One test, parametrized with every
cell of the selection (fixtures/matrix.py); the probes are shared (harness/matrix/probes/).
"""

from __future__ import annotations

from fixtures.matrix import CellRunner

KIP = "KIP-195"


def test_kip195(matrix_cell: CellRunner) -> None:
    matrix_cell.run()
