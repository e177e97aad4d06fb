#!/usr/bin/env bash
# Builds the container backend's images FROM scratch out of the provisioned static binaries and
# tags them with the upstream names (registry.k8s.io/...), so Testcontainers finds them locally
# and never pulls. For machines without access to registry.k8s.io.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=target/kube-harness.jar

assets=$(java -jar "$CLI" provision --profile standard | sed -n 's/^export KUBEBUILDER_ASSETS=//p')
version=$(java -jar "$CLI" env | sed -n 's/^KUBE_HARNESS_KUBERNETES_VERSION=//p')
etcd_version=$("$assets/etcd" --version | sed -n 's/^etcd Version: //p')

# --if-missing: build only the images Docker does not have yet (make test's preparation).
if_missing=false
[ "${1:-}" = --if-missing ] && if_missing=true

build() { # image binary
  local image=$1 binary=$2 context
  if $if_missing && docker image inspect "$image" >/dev/null 2>&1; then
    return
  fi
  context=$(mktemp -d)
  cp "$assets/$binary" "$context/$binary"
  printf 'FROM scratch\nCOPY %s /usr/local/bin/%s\nENTRYPOINT ["/usr/local/bin/%s"]\n' \
    "$binary" "$binary" "$binary" > "$context/Dockerfile"
  echo "[kube-harness] docker build -t $image (FROM scratch + $assets/$binary)"
  docker build -q -t "$image" "$context" >/dev/null
  rm -rf "$context"
}

build "registry.k8s.io/etcd:${etcd_version}-0" etcd
build "registry.k8s.io/kube-apiserver:v${version}" kube-apiserver
build "registry.k8s.io/kube-controller-manager:v${version}" kube-controller-manager
docker images --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep '^registry.k8s.io/'
