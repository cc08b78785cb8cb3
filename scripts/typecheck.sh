#!/usr/bin/env bash
# Type-checks the package `groundwire` with mypy (configuration: [tool.mypy] in
# pyproject.toml). The folders guards/, topics/, streams/ and metrics/ install as
# groundwire.guards, ... (setup.py); mypy cannot follow the editable install's import hook,
# so this builds the same layout as relative symlinks in build/typecheck/groundwire/ and
# checks it from there, each file once under its import name. Arguments go to mypy.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
tree="build/typecheck/groundwire"
rm -rf "$tree"
mkdir -p "$tree"
for name in groundwire/*; do
  case "$name" in */__pycache__) continue ;; esac
  ln -s "../../../$name" "$tree/${name#groundwire/}"
done
for root in guards topics streams metrics; do
  ln -s "../../../$root" "$tree/$root"
done
exec mypy "$@"
