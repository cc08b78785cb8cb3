#!/usr/bin/env bash
# The README's first command: install what is missing, then run `groundwire demo`, which
# starts the local stack if none runs, routes the bundled example claims and prints a
# table claim -> tier -> reason, then stops what it started.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$repo/scripts/bootstrap.sh"
exec "${GROUNDWIRE_VENV:-$repo/.venv}/bin/groundwire" demo "$@"
