#!/usr/bin/env bash
# The main job on the embedded default: fetch and probe a default set of
# broker versions and print which admin API versions each one accepts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec .venv/bin/kcompat brokers survey "$@"
