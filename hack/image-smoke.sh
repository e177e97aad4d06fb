#!/usr/bin/env bash
# Runs the operator image (make docker-build IMG=...) against a local control plane, as its
# container would run in a cluster, and checks it becomes ready and reconciles the sample.
set -euo pipefail
cd "$(dirname "$0")/.."
img=${1:?usage: image-smoke.sh IMAGE}
work=$(mktemp -d)
cli=target/kube-harness.jar
kubectl=$(java -jar "$cli" provision --profile minimal --with-kubectl | sed -n 's/^kubectl=//p')
java -jar "$cli" up --profile standard --kubeconfig "$work/kubeconfig" \
  --install sample-operator/config/crd/bases \
  --install sample-operator/config/samples/webapp_v1_guestbook.yaml >"$work/up.log" 2>&1 &
up=$!
cleanup() { docker rm -f guestbook-smoke >/dev/null 2>&1 || true; kill "$up" 2>/dev/null || true; wait "$up" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 1 120); do grep -q '^export KUBECONFIG' "$work/up.log" && break; sleep 1; done
# The kubeconfig holds the cluster-admin key: it stays readable by one uid, the container's.
# Run by root (CI), the container keeps the image's own non-root user (Jib's 65532) and gets an
# owner-only copy made out to that uid; run by anyone else, the container runs as that user, who
# owns the file already (with rootless Docker the container's root is that user).
mounted="$work/kubeconfig"
run_as=()
if [ "$(id -u)" = 0 ]; then
  image_user=$(docker image inspect -f '{{.Config.User}}' "$img")
  image_uid=${image_user%%:*}
  case "${image_uid:-0}" in
    *[!0-9]*) echo "[kube-harness] image $img runs as user '$image_user': image-smoke.sh needs a numeric USER (uid or uid:gid) to hand it the kubeconfig privately" >&2; exit 1 ;;
  esac
  mounted="$work/container-kubeconfig"
  install -m 0400 -o "${image_uid:-0}" "$work/kubeconfig" "$mounted"
elif docker info -f '{{.SecurityOptions}}' | grep -q rootless; then
  run_as=(--user 0:0)
else
  run_as=(--user "$(id -u):$(id -g)")
fi
port=18081
docker run -d --name guestbook-smoke --network host "${run_as[@]}" -v "$mounted:/kubeconfig:ro" \
  -e KUBECONFIG=/kubeconfig "$img" --health-probe-bind-address=127.0.0.1:$port >/dev/null
for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 1; done
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || { docker logs guestbook-smoke | tail -20; exit 1; }
for _ in $(seq 1 60); do
  KUBECONFIG="$work/kubeconfig" "$kubectl" get deployment guestbook-sample >/dev/null 2>&1 && break; sleep 1
done
KUBECONFIG="$work/kubeconfig" "$kubectl" get guestbook,deployment,service,configmap guestbook-sample
echo "[kube-harness] image $img: ready, reconciled guestbook-sample"
