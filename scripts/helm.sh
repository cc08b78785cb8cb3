#!/usr/bin/env bash
# Helm for CI and developers, built from source at a pinned version (no binary downloads).
#   scripts/helm.sh path                 print the helm binary (installing it if missing)
#   scripts/helm.sh lint                 helm lint the chart (default and all-features values)
#   scripts/helm.sh template [ARGS...]   helm template the chart, extra ARGS passed through
#   scripts/helm.sh package OUTDIR       helm package the chart into OUTDIR
#   scripts/helm.sh check                lint + template + package + template the package
# Install: `go install helm.sh/helm/v3/cmd/helm@$HELM_VERSION` into
# $GROUNDWIRE_TOOLS_DIR (default ~/.cache/groundwire/tools), via the Go module proxy.
set -euo pipefail

HELM_VERSION="${HELM_VERSION:-v3.19.5}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
chart="$root/helm/groundwire"
tools="${GROUNDWIRE_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/groundwire/tools}"
bindir="$tools/helm-$HELM_VERSION/bin"
helm="$bindir/helm"
all_features=(--set prometheusRule.enabled=true --set serviceMonitor.enabled=true
  --set grafanaDashboard.enabled=true)

ensure_helm() {
  [[ -x "$helm" ]] && return 0
  if ! command -v go > /dev/null; then
    echo "helm.sh: Go toolchain not found; needed to build helm $HELM_VERSION" >&2
    exit 2
  fi
  mkdir -p "$bindir"
  echo "helm.sh: building helm $HELM_VERSION into $bindir (first run only, a few minutes)" >&2
  # Build outside the repository so no go.mod of ours is consulted.
  (cd "$tools" && GOBIN="$bindir" GOFLAGS=-mod=mod go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION") >&2
}

# Helm warns on stderr about the rules/ and dashboards/ symlinks; they are intended.
quiet_links() { grep -v 'found symbolic link in path' >&2 || true; }

cmd="${1:-check}"
shift || true
ensure_helm
case "$cmd" in
  path) echo "$helm" ;;
  lint)
    "$helm" lint --strict "$chart" 2> >(quiet_links)
    "$helm" lint --strict "$chart" "${all_features[@]}" 2> >(quiet_links)
    ;;
  template) "$helm" template groundwire "$chart" "$@" 2> >(quiet_links) ;;
  package)
    out="${1:?usage: helm.sh package OUTDIR}"
    "$helm" package "$chart" --destination "$out" 2> >(quiet_links)
    ;;
  check)
    "$0" lint
    "$0" template "${all_features[@]}" > /dev/null
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    "$0" package "$tmp" > /dev/null
    "$helm" template groundwire "$tmp"/groundwire-*.tgz "${all_features[@]}" > /dev/null
    echo "helm.sh: lint, template and package OK (helm $HELM_VERSION)"
    ;;
  *) echo "helm.sh: unknown command $cmd" >&2; exit 2 ;;
esac
