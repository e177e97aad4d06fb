#!/usr/bin/env bash
# The seed's release path on the kind cluster of `make kind`: the operator image built with Jib,
# loaded into kind with the Guestbook's web-server image, `make deploy`, the e2e suite against
# the cluster (operator as a pod, Guestbook pods Running and Ready, HTTP through the Service,
# scaling), then `make undeploy`, checked to remove everything.
#   hack/kind/e2e-on-kind.sh IMG        (JIB_FROM passes through to make docker-build)
set -euo pipefail
cd "$(dirname "$0")/../.."
img=${1:?usage: e2e-on-kind.sh IMG}
web=kube-harness/guestbook-web:1
export KUBECONFIG=$PWD/target/kind/kubeconfig
[ -f "$KUBECONFIG" ] || { echo "no kind cluster: run make kind first"; exit 1; }
KIND=${KIND:-$(command -v kind || bash hack/kind/install-kind.sh)}
KUBECTL=${KUBECTL:-$(command -v kubectl || java -jar target/kube-harness.jar provision --profile minimal --with-kubectl | sed -n 's/^kubectl=//p')}
say() { printf '\n[kube-harness] %s\n' "$*"; }

say "operator image $img (Jib) and the web-server image $web"
make --no-print-directory docker-build IMG="$img" ${JIB_FROM:+JIB_FROM="$JIB_FROM"}
bash hack/kind/build-web-image.sh "$web"
"$KIND" load docker-image "$img" "$web" --name kube-harness

say "make deploy IMG=$img"
make --no-print-directory deploy IMG="$img"
"$KUBECTL" -n guestbook-system rollout status deployment guestbook-controller-manager --timeout=180s

say "a Guestbook to look at: its pods next to the operator's and the control plane's"
"$KUBECTL" create namespace guestbook-demo --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
sed "s|^  serviceType: ClusterIP|  serviceType: ClusterIP\n  image: $web|" sample-operator/config/samples/webapp_v1_guestbook.yaml \
  | "$KUBECTL" -n guestbook-demo apply -f -
"$KUBECTL" -n guestbook-demo wait guestbook/guestbook-sample --for=condition=Ready --timeout=180s
"$KUBECTL" get pods -A -o wide

say "the e2e suite against the cluster (USE_EXISTING_CLUSTER=true)"
USE_EXISTING_CLUSTER=true E2E_GUESTBOOK_IMAGE=$web make --no-print-directory e2e

say "make undeploy removes everything it deployed"
make --no-print-directory undeploy
"$KUBECTL" wait namespace/guestbook-system --for=delete --timeout=180s
if "$KUBECTL" get crd guestbooks.webapp.example.com >/dev/null 2>&1; then
  echo "the Guestbook CRD is still there after make undeploy"; exit 1
fi
"$KUBECTL" delete namespace guestbook-demo --wait=false >/dev/null
say "kind e2e passed"
