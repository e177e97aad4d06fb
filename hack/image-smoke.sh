#!/usr/bin/env bash
# Runs the operator image (make docker-build IMG=...) against a local control plane, as its
# container would run in a cluster, and checks it becomes ready and reconciles the sample.
set -euo pipefail
cd "$(dirname "$0")/.."
img=${1:?usage: image-smoke.sh IMAGE}
work=$(mktemp -d)
cli=harness/target/kube-harness.jar
kubectl=$(java -jar "$cli" provision --profile minimal --with-kubectl | sed -n 's/^kubectl=//p')
java -jar "$cli" up --profile standard --kubeconfig "$work/kubeconfig" \
  --install sample-operator/config/crd/bases \
  --install sample-operator/config/samples/webapp_v1_guestbook.yaml >"$work/up.log" 2>&1 &
up=$!
cleanup() { docker rm -f guestbook-smoke >/dev/null 2>&1 || true; kill "$up" 2>/dev/null || true; wait "$up" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 1 120); do grep -q '^export KUBECONFIG' "$work/up.log" && break; sleep 1; done
chmod 644 "$work/kubeconfig"
port=18081
docker run -d --name guestbook-smoke --network host -v "$work/kubeconfig:/kubeconfig:ro" \
  -e KUBECONFIG=/kubeconfig "$img" --health-probe-bind-address=127.0.0.1:$port >/dev/null
for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 1; done
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { docker logs guestbook-smoke | tail -20; exit 1; }
for _ in $(seq 1 60); do
  KUBECONFIG="$work/kubeconfig" "$kubectl" get deployment guestbook-sample >/dev/null 2>&1 && break; sleep 1
done
KUBECONFIG="$work/kubeconfig" "$kubectl" get guestbook,deployment,service,configmap guestbook-sample
echo "[kube-harness] image $img: ready, reconciled guestbook-sample"
