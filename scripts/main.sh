#!/usr/bin/env bash
# The main job on the embedded default: a matrix run of every KIP with claims over the default
# axes (src/kcompat/harness/matrix/default_axes.toml: the broker lines where verdicts change most,
# chosen from data by `kcompat axes choose`, docs/MATRIX.md), then its page.  It prints the verdict summary,
# the run directory (records.jsonl, run.json, coverage.json, logs) and, last, where the page is.
# Arguments go to `kcompat run` (e.g. --brokers all, --kip KIP-525); KCOMPAT_OUT names the run
# directory.  The exit code is the run's (0: every cell judged).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh || exit 1
out=${KCOMPAT_OUT:-runs/matrix-$(date +%Y%m%d-%H%M%S)}
.venv/bin/kcompat run -n 2 --quiet --out "$out" "$@"
code=$?
[ -f "$out/records.jsonl" ] || exit "$code"
.venv/bin/kcompat matrix "$out" --out "$out/page" >/dev/null || code=1
echo "matrix page: $(cd "$out/page" && pwd)/index.html"
exit "$code"
