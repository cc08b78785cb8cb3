#!/usr/bin/env bash
# Type-checks the package `groundwire` with mypy (configuration: [tool.mypy] in
# pyproject.toml). The folders guards/, topics/, streams/ and metrics/ install as
# groundwire.guards, ... (setup.py); mypy cannot follow the editable install's import hook,
# so this builds the same layout as relative symlinks in build/typecheck/groundwire/ and
# checks it from there, each file once under its import name. Arguments go to mypy.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
export PATH="${GROUNDWIRE_VENV:-$repo/.venv}/bin:$PATH"
tree="build/typecheck/groundwire"
mkdir -p "$tree"
# Updated in place (a run in another shell may be reading the tree); links whose target
# is gone are dropped.
for name in groundwire/*; do
  case "$name" in */__pycache__) continue ;; esac
  ln -sfn "../../../$name" "$tree/${name#groundwire/}"
done
for root in guards topics streams metrics; do
  ln -sfn "../../../$root" "$tree/$root"
done
find "$tree" -maxdepth 1 -xtype l -delete
exec mypy "$@"
