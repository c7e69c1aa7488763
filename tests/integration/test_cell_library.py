"""A cell runs from the library alone: no pytest in the process, a real broker, a judged verdict."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = '''
import json, sys
from pathlib import Path

from kcompat.harness.catalog import load_catalog
from kcompat.harness.config import HarnessConfig
from kcompat.harness.matrix.cell import run_cell
from kcompat.harness.matrix.claims import claims_dir, load_claim_book
from kcompat.harness.matrix.env import CellEnv
from kcompat.harness.matrix.plan import Selection, plan

config = HarnessConfig.resolve(provider="process", run_root=sys.argv[1])
cells = plan(Selection.of("4.4", None, "wire", "KIP-195"), load_claim_book(claims_dir()), load_catalog())
with CellEnv.open(config, run_dir=Path(sys.argv[1]) / "run") as env:
    record = run_cell(cells[0], env)
print(json.dumps({"record": record.as_json(), "pytest": "pytest" in sys.modules}))
'''


def test_a_cell_runs_from_the_library_without_pytest(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["pytest"] is False
    record = out["record"]
    assert record["outcome"] in ("pass", "deviation", "unsupported"), record["reason"]
    assert record["cell_id"].startswith("KIP-195/") and record["cell_id"].endswith("[4.4.0-kraft|wire]")
    assert record["request_version"] is not None and record["observed"]
    written = (tmp_path / "run" / "records.jsonl").read_text().splitlines()
    assert [json.loads(line)["cell_id"] for line in written] == [record["cell_id"]]
