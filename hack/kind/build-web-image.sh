#!/usr/bin/env bash
# Builds kube-harness/guestbook-web:1, the Guestbook's web server for the e2e suite on kind: a
# static Go program (hack/kind/web) FROM scratch that serves /usr/share/nginx/html on port 80 as
# the nginx images do (as root, like nginx's master process, to bind port 80). Our own program,
# so our own name.
set -euo pipefail
cd "$(dirname "$0")/web"
image=${1:-kube-harness/guestbook-web:1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags='-s -w' -o "$work/web" .
printf 'FROM scratch\nCOPY web /web\nENTRYPOINT ["/web"]\n' > "$work/Dockerfile"
docker build -q -t "$image" "$work" >/dev/null
echo "[kube-harness] built $image"
