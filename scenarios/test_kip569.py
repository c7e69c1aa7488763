"""KIP-569: DescribeConfigs returns each config's type, and its documentation when asked (2.6).

Claims: scenarios/claims/KIP-569.toml, including each row of the KIP's
compatibility table.  One test, parametrized with every cell of the selection.
"""

from __future__ import annotations

from fixtures.matrix import CellRunner

KIP = "KIP-569"


def test_kip569(matrix_cell: CellRunner) -> None:
    matrix_cell.run()
