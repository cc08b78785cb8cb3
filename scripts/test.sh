#!/usr/bin/env bash
# The README's test command: install what is missing, start the real stack (Kafka KRaft +
# Redis) unless one already answers, lint, type-check (mypy), run every test (unit +
# integration + promtool + deployment checks), and stop the stack again if this script
# started it. Then, after the main suite, the `llm_server` tests: the LLM verifier against
# a real model server (scripts/stack.sh llm start installs it, the first time building
# llama.cpp, ~7 min on 2 cores; cached afterwards), started and stopped here.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k dedup`); with them the LLM
# phase is skipped unless GROUNDWIRE_TEST_LLM=1 (GROUNDWIRE_TEST_LLM=0 always skips it).
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
llm_started=0
cleanup() {
  if [ "$llm_started" = 1 ]; then bash scripts/stack.sh llm stop || true; fi
  if [ "$started" = 1 ]; then bash scripts/stack.sh stop || true; fi
}
trap cleanup EXIT
run_llm="${GROUNDWIRE_TEST_LLM:-$([ $# -eq 0 ] && echo 1 || echo 0)}"

echo "[test] ruff"
ruff check .
ruff format --check .
echo "[test] mypy"
bash scripts/typecheck.sh
echo "[test] pytest"
python -m pytest -q -p no:cacheprovider -m "not llm_server" "$@"
if [ "$run_llm" = 1 ]; then
  echo "[test] pytest -m llm_server: the LLM verifier against a real model server"
  llm_t0=$SECONDS
  if ! bash scripts/stack.sh llm status >/dev/null 2>&1; then
    llm_started=1
    bash scripts/stack.sh llm start
  fi
  echo "[test] model server ready after $((SECONDS - llm_t0)) s"
  python -m pytest -q -p no:cacheprovider -m llm_server tests/llm
  echo "[test] LLM phase took $((SECONDS - llm_t0)) s"
fi
