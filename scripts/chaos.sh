#!/usr/bin/env bash
# The chaos matrix: every scenario (broker SIGKILL / TERM, one broker down, Redis SIGKILL,
# worker SIGKILL during a broker outage, slow and dropped connections) N times on a
# three-broker KRaft cluster of its own, every claim_id accounted for. Writes
# bench/results/chaos.md.
#
#   bash scripts/chaos.sh --runs 5 [--claims 10000] [--scenarios broker-kill,redis-kill]
#                         [--brokers 3] [--max-outage 300]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
bash scripts/bootstrap.sh >/dev/null
export PATH="${GROUNDWIRE_VENV:-$repo/.venv}/bin:$PATH"
exec python -m tests.chaos.run "$@"
