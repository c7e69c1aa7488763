"""KIP-108: the create-topic policy plug-in, POLICY_VIOLATION and validate_only (0.10.2).

Claims: scenarios/claims/KIP-108.toml.  One test, parametrized with every
cell of the selection (fixtures/matrix.py); the probes are shared (harness/matrix/probes/).
"""

from __future__ import annotations

from fixtures.matrix import CellRunner

KIP = "KIP-108"


def test_kip108(matrix_cell: CellRunner) -> None:
    matrix_cell.run()
