#!/usr/bin/env bash
# The project's own tests: unit, plugin and integration (real brokers), on two
# xdist workers.  Exit code 5 (no tests collected) is a failure, not a pass.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh || exit 1
.venv/bin/python -m pytest -n 2 --dist loadfile "$@"
rc=$?
if [ "$rc" = 5 ]; then
  echo "scripts/test.sh: pytest collected no tests; that is a failure" >&2
  exit 1
fi
exit "$rc"
