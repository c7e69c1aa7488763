#!/usr/bin/env bash
# The project's own tests: unit, plugin and integration (real brokers, the
# three clients) on two xdist workers, then the confluent-kafka axis through
# tox for the oldest and newest lines.  Exit code 5 (no tests collected) is a
# failure, not a pass.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh || exit 1

.venv/bin/python -m pytest -n 2 --dist loadfile "$@"
rc=$?
if [ "$rc" = 5 ]; then
  echo "scripts/test.sh: pytest collected no tests; that is a failure" >&2
  exit 1
fi
[ "$rc" = 0 ] || exit "$rc"

# The client axis: same client tests, other confluent-kafka releases (tox.ini).
.venv/bin/tox -e "${KCOMPAT_TOX_ENVS:-ck2_0,ck2_16}"
rc=$?
if [ "$rc" = 5 ]; then
  echo "scripts/test.sh: a tox env collected no tests; that is a failure" >&2
  exit 1
fi
exit "$rc"
