#!/usr/bin/env bash
# make dev's --run command: prints the tutorial's next steps once the control plane is up (so they
# are not scrolled away by its start-up lines), then becomes the command it is given (the
# operator), which the CLI stops at Ctrl-C. hack/dev-smoke.sh runs exactly the lines printed here.
set -euo pipefail
kubectl=kubectl
if ! command -v kubectl >/dev/null; then
  # Only when one is cached already: provisioning one could mean a Go build of minutes right here.
  cached=$(ls "${KUBE_HARNESS_CACHE_DIR:-$HOME/.cache/kube-harness}"/k8s/*/kubectl 2>/dev/null | sed -n '$p')
  kubectl=${cached:-kubectl}
  [ -n "$cached" ] || echo "# no kubectl on the PATH: java -jar target/kube-harness.jar provision --with-kubectl prints where it builds one"
fi
cat <<STEPS
# --- the tutorial, in another terminal (Ctrl-C here stops everything) ---
export KUBECONFIG=$KUBECONFIG
$kubectl apply -k sample-operator/config/samples
$kubectl wait guestbook/guestbook-sample --for=condition=Ready --timeout=60s
$kubectl get guestbooks -A
# --- docs/guestbook.md goes on: edit it, break it, delete it ---
STEPS
exec "$@"
