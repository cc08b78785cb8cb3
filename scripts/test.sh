#!/usr/bin/env bash
# The README's test command: install what is missing, start the real stack (Kafka KRaft +
# Redis) unless one already answers, lint, type-check (mypy), run every test (unit +
# integration + promtool + deployment checks), and stop the stack again if this script
# started it.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k dedup`).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
bash scripts/bootstrap.sh
venv="${GROUNDWIRE_VENV:-$repo/.venv}"
export PATH="$venv/bin:$PATH"

started=0
if ! bash scripts/stack.sh status >/dev/null 2>&1; then
  bash scripts/stack.sh start
  started=1
fi
cleanup() { if [ "$started" = 1 ]; then bash scripts/stack.sh stop || true; fi; }
trap cleanup EXIT

echo "[test] ruff"
ruff check .
ruff format --check .
echo "[test] mypy"
bash scripts/typecheck.sh
echo "[test] pytest"
python -m pytest -q -p no:cacheprovider "$@"
