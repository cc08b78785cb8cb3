#!/usr/bin/env bash
# Validate the Prometheus rule files and run their promtool unit tests.
#   scripts/check_rules.sh            (from anywhere; uses promtool on PATH or $PROMTOOL)
# Debian's `prometheus` package ships promtool (apt-get install prometheus).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
promtool="${PROMTOOL:-$(command -v promtool || true)}"
if [[ -z "$promtool" ]]; then
  echo "check_rules: promtool not found (apt-get install prometheus, or set PROMTOOL)" >&2
  exit 2
fi

shopt -s nullglob
rules=("$root"/metrics/rules/*.yml)
tests=("$root"/metrics/rules/tests/*.yml)
if (( ${#rules[@]} == 0 || ${#tests[@]} == 0 )); then
  echo "check_rules: no rule files or no rule tests under metrics/rules" >&2
  exit 1
fi

"$promtool" check rules "${rules[@]}"
"$promtool" check config "$root/metrics/prometheus.yml"
# Test files name their rule files relative to themselves.
(cd "$root/metrics/rules/tests" && "$promtool" test rules "${tests[@]##*/}")
