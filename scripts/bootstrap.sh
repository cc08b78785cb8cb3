#!/usr/bin/env bash
# Installs what groundwire needs on a fresh Debian machine: system packages (Redis, Maven,
# Prometheus for promtool and the live metrics test, git, Chromium and its driver for the
# review page's browser tests) and a virtualenv with the project.
# Safe to run again: it only installs what is missing.
#
#   GROUNDWIRE_VENV   where the virtualenv goes (default: <repo>/.venv)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${GROUNDWIRE_VENV:-$repo/.venv}"

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v redis-cli >/dev/null || need+=(redis-tools)  # redis-cli --cluster create (tests)
command -v mvn >/dev/null || need+=(maven)
command -v java >/dev/null || need+=(openjdk-17-jre-headless)
command -v prometheus >/dev/null || need+=(prometheus)
command -v git >/dev/null || need+=(git)
# The review page's tests drive Debian's headless Chromium through chromium-driver
# (Selenium from the test extra); no browser or driver is ever downloaded.
command -v chromium >/dev/null || need+=(chromium)
command -v chromedriver >/dev/null || need+=(chromium-driver)
# Helm (scripts/helm.sh) is built from the Go module proxy; this machine kind ships Go.
command -v go >/dev/null || need+=(golang-go)
if [ ${#need[@]} -gt 0 ]; then
  echo "[bootstrap] apt-get install ${need[*]}"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# Debian's redis-server package starts a system instance on 6379; the stack script reuses
# a Redis that already answers, so that is fine.

python=""
for candidate in python3.11 python3.12 python3.13 python3; do
  if command -v "$candidate" >/dev/null; then python="$candidate"; break; fi
done
[ -n "$python" ] || { echo "[bootstrap] error: python3 (>= 3.11) not found" >&2; exit 1; }
if [ ! -x "$venv/bin/python" ]; then
  echo "[bootstrap] creating virtualenv $venv"
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
echo "[bootstrap] pip install -e .[test]"
"$venv/bin/python" -m pip install -q -e "$repo[test]"
echo "[bootstrap] ready: $venv/bin/groundwire"
