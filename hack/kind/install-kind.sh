#!/usr/bin/env bash
# Prints the path of kind, building it from the Go module proxy into the kube-harness cache the
# first time (about a minute): KIND_VERSION (default v0.33.0).
set -euo pipefail
version=${KIND_VERSION:-v0.33.0}
tools="${XDG_CACHE_HOME:-$HOME/.cache}/kube-harness/tools"
kind="$tools/kind-$version"
if [ ! -x "$kind" ]; then
  echo "[kube-harness] building kind $version from Go modules (about a minute, once) ..." >&2
  mkdir -p "$tools"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  GOBIN="$work" CGO_ENABLED=0 GOFLAGS=-mod=mod go install "sigs.k8s.io/kind@$version" >&2
  mv "$work/kind" "$kind"
fi
echo "$kind"
