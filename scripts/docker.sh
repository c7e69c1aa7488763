#!/usr/bin/env bash
# A Docker engine for the container provider, on a fresh machine: install
# docker.io from Debian's packages when dockerd is missing, start dockerd when
# no engine answers, and wait (bounded) until it does.  The engine runs with
# --bridge=none --iptables=false: containers use host networking only, so
# broker traffic stays on loopback and no address outside 127.0.0.0/8 is made
# or routed.  Exits non-zero with a one-line reason when no engine can be had;
# container tests then fail with that reason (they are never skipped).
set -uo pipefail

log=${KCOMPAT_DOCKERD_LOG:-/tmp/kcompat-dockerd.log}
wait_seconds=${KCOMPAT_DOCKERD_WAIT:-60}

answers() { timeout 10 docker info >/dev/null 2>&1 || timeout 10 curl -sf --unix-socket /var/run/docker.sock http://d/_ping >/dev/null 2>&1; }

if answers; then
  exit 0
fi
if [ -n "${DOCKER_HOST:-}" ]; then
  echo "docker.sh: DOCKER_HOST=$DOCKER_HOST does not answer; not starting a local engine" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "docker.sh: no Docker engine answers and starting one needs root (sudo bash scripts/docker.sh)" >&2
  exit 1
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "docker.sh: installing docker.io from Debian's packages" >&2
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null; }; then
    echo "docker.sh: apt-get install docker.io failed" >&2
    exit 1
  fi
fi
echo "docker.sh: starting dockerd --bridge=none --iptables=false (log: $log)" >&2
# setsid: the engine outlives this script and is not in the caller's process group.
setsid nohup dockerd --bridge=none --iptables=false >"$log" 2>&1 </dev/null &
for _ in $(seq "$wait_seconds"); do
  if answers; then
    exit 0
  fi
  sleep 1
done
echo "docker.sh: dockerd did not answer within ${wait_seconds}s; see $log ($(tail -n 1 "$log" 2>/dev/null))" >&2
exit 1
