#!/usr/bin/env bash
# The nightly, end to end (docs/HISTORY.md, "The nightly"): tonight's shards into the history store
# that persists across nights, the history report, the matrix page with each cell's history, and a
# failure naming every cell whose verdict tonight's runs changed.
#
#   scripts/nightly.sh --store STORE [--out DIR] [--conf KEY=VALUE]... [--screenshot] SHARD... [-- RUN_ARGS...]
#
# SHARD is a run directory a shard job already produced, or a broker line to run now
# (`kcompat run -n 2 --quiet --brokers SHARD --out DIR/runs/run-SHARD RUN_ARGS...`).  STORE is a local
# directory the workflow restores and saves between nights, or an object-store URI Delta Lake writes
# itself (s3a://bucket/kcompat-history: its connector's jars through --conf, which goes to the history's
# Spark; docs/HISTORY.md).  DIR (default nightly-<UTC time>) gets history/ (`kcompat history ingest
# --report`: the ingest and the report in one Spark session) and page/ (`kcompat matrix --history`).  Exit 0 when every step ran, every shard's cells were
# judged and tonight's runs regressed nothing; else 1, each regressed cell on its own line at the end
# (`kcompat history gate`); 2 for a usage error.  Needs the venv scripts/bootstrap.sh makes.
set -uo pipefail

usage() { echo "usage: scripts/nightly.sh --store STORE [--out DIR] [--conf KEY=VALUE]... [--screenshot] SHARD... [-- RUN_ARGS...]" >&2; exit 2; }
fail() { echo "scripts/nightly.sh: $*" >&2; code=1; }

kcompat="$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/kcompat"
python="$(dirname "$kcompat")/python"
[ -x "$kcompat" ] || { echo "scripts/nightly.sh: no $kcompat; hint: bash scripts/bootstrap.sh" >&2; exit 1; }

store="" out="nightly-$(date -u +%Y%m%d-%H%M%S)" screenshot=() shards=() run_args=() conf=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --store) [ "$#" -ge 2 ] || usage; store=$2; shift 2 ;;
    --out) [ "$#" -ge 2 ] || usage; out=$2; shift 2 ;;
    --conf) [ "$#" -ge 2 ] || usage; conf+=(--conf "$2"); shift 2 ;;
    --screenshot) screenshot=(--screenshot); shift ;;
    --) shift; run_args=("$@"); break ;;
    -*) echo "scripts/nightly.sh: unknown option $1" >&2; usage ;;
    *) shards+=("$1"); shift ;;
  esac
done
[ -n "$store" ] && [ "${#shards[@]}" -gt 0 ] || usage

code=0 runs=()
for shard in "${shards[@]}"; do
  if [ -d "$shard" ]; then
    runs+=("$shard")  # produced by a shard job: ingested as it is; a run that did not end well still fails the night
    ended=$("$python" -c 'import json, sys
try:
    run = json.load(open(sys.argv[1], encoding="utf-8"))
    print("ok" if isinstance(run, dict) and run.get("ended_at") and run.get("exit_code") == 0
          else "its run ended with exit code %r" % run.get("exit_code") if isinstance(run, dict) and run.get("ended_at")
          else "its run never ended (killed?)")
except (OSError, ValueError) as exc:
    print("its run.json is unreadable (%s)" % exc)' "$shard/run.json" 2>&1 | tail -1)
    [ "$ended" = ok ] || fail "shard $shard: $ended (its cells still go into the history)"
    continue
  fi
  run="$out/runs/run-$shard"
  "$kcompat" run -n 2 --quiet --brokers "$shard" --out "$run" "${run_args[@]}" || fail "shard $shard: kcompat run exited $? (its cells still go into the history)"
  [ -f "$run/records.jsonl" ] && runs+=("$run")
done
[ "${#runs[@]}" -gt 0 ] || { fail "no shard produced a run directory"; exit 1; }

history=()
# One Spark session for both steps (`ingest --report`): exit 3 says the runs were stored but the report failed.
"$kcompat" history ingest "${runs[@]}" --store "$store" --report "$out/history" "${conf[@]}"
case $? in
  0) history=(--history "$out/history") ;;
  3) fail "the history report failed; the page has no history tonight" ;;
  *) fail "the ingest into $store failed; no report and no history on the page tonight" ;;
esac

"$kcompat" matrix "${runs[@]}" --out "$out/page" "${history[@]}" "${screenshot[@]}" || fail "the matrix page failed"

# Last, so the job's log ends with the cells that regressed.
if [ "${#history[@]}" -gt 0 ]; then
  "$kcompat" history gate "$out/history" "${runs[@]}" || code=1
fi
exit "$code"
