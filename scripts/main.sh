#!/usr/bin/env bash
# The main job on the embedded default: a matrix run of every KIP with claims over the default
# brokers (2.3, 2.6, 3.9 KRaft, 4.4 KRaft) and clients (the wire probe, the installed
# confluent-kafka, kafka-clients 2.3.1 and 4.4.0).  It prints the verdict summary and the run
# directory (records.jsonl, run.json, coverage.json, logs).  Arguments go to `kcompat run`
# (e.g. --brokers all, --kip KIP-525); KCOMPAT_OUT names the run directory.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
out=${KCOMPAT_OUT:-runs/matrix-$(date +%Y%m%d-%H%M%S)}
exec .venv/bin/kcompat run -n 2 --quiet --out "$out" "$@"
