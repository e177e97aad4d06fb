#!/usr/bin/env bash
# Creates or deletes the kind cluster `kube-harness` from kube-harness's node image:
#   hack/kind/cluster.sh create KUBECONFIG [IMAGE]   (the node on our own Docker network)
#   hack/kind/cluster.sh delete                      (cluster, node container and network)
# IMAGE defaults to kube-harness/kind-node:v<the harness's Kubernetes version> (make kind-image).
# KIND and KUBECTL name the executables (default: on the PATH, else built into the cache).
set -euo pipefail
cd "$(dirname "$0")/../.."
CLI=target/kube-harness.jar
KIND=${KIND:-$(command -v kind || bash hack/kind/install-kind.sh)}
name=kube-harness
network=kube-harness-kind
subnet=172.30.0.0/24
say() { echo "[kube-harness] $*"; }

case "${1:-}" in
  create)
    kubeconfig=${2:?usage: cluster.sh create KUBECONFIG [IMAGE]}
    provisioned=$(java -jar "$CLI" provision --profile minimal --with-kubectl)
    image=${3:-kube-harness/kind-node:v$(sed -n 's/^# Kubernetes v\([^ ]*\) .*/\1/p' <<<"$provisioned")}
    KUBECTL=${KUBECTL:-$(command -v kubectl || sed -n 's/^kubectl=//p' <<<"$provisioned")}
    # Our node image (it carries its inputs' hash) has its CNI baked in; an upstream one uses kind's.
    config=harness/src/main/resources/io/github/kubeharness/kind/upstream-node.yaml
    if docker image inspect "$image" >/dev/null 2>&1; then
      [ -z "$(docker image inspect -f '{{ index .Config.Labels "io.github.kubeharness.inputs" }}' "$image")" ] \
        || config=harness/src/main/resources/io/github/kubeharness/kind/kube-harness-node.yaml
    elif [[ "$image" == kube-harness/* ]]; then
      echo "node image $image not found: build it with make kind-image"; exit 1
    fi
    [ "$(docker info --format '{{.DefaultRuntime}}' 2>/dev/null)" = runc-without-sys-resource ] \
      || [ "$(awk '/^CapBnd:/ {print $2}' /proc/self/status)" = 000001ffffffffff ] \
      || { echo "this machine's root cannot grant every capability, so Docker cannot start kind's privileged node: run hack/kind/docker-runtime.sh first (see docs/kind.md)"; exit 1; }
    # kind's nodes on a network of ours, IPv4 only, no masquerading: nothing leaves the machine.
    if ! docker network inspect "$network" >/dev/null 2>&1; then
      docker network create --driver bridge --subnet "$subnet" \
        -o com.docker.network.bridge.enable_ip_masquerade=false "$network" >/dev/null
    fi
    mkdir -p "$(dirname "$kubeconfig")"
    start=$(date +%s)
    KIND_EXPERIMENTAL_DOCKER_NETWORK=$network "$KIND" create cluster --name "$name" --image "$image" \
      --config "$config" --kubeconfig "$kubeconfig" --wait 180s
    export KUBECONFIG=$kubeconfig
    # CoreDNS answers the cluster's names only: it forwards nothing off the machine (its reload
    # plugin picks the change up within 30 s; the kind backend does the same).
    "$KUBECTL" -n kube-system get configmap coredns -o json \
      | jq '.data.Corefile |= (gsub("\\n *forward [^{]*\\{[^}]*\\}"; "") | gsub("\\n *loop\\n"; "\n"))' \
      | "$KUBECTL" replace -f - >/dev/null
    # `kind create` returns before the default ServiceAccount exists; pods cannot be created until then.
    for _ in $(seq 1 120); do
      "$KUBECTL" get serviceaccount default >/dev/null 2>&1 && break
      sleep 0.5
    done
    say "kind cluster $name ready in $(( $(date +%s) - start )) s; export KUBECONFIG=$kubeconfig"
    ;;
  delete)
    "$KIND" delete cluster --name "$name"
    docker network rm "$network" >/dev/null 2>&1 || true
    ;;
  *)
    echo "usage: $0 create KUBECONFIG [IMAGE] | delete"; exit 2 ;;
esac
