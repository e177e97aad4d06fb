#!/usr/bin/env bash
# Makes Docker able to run privileged containers (kind's nodes) on machines whose root lacks
# CAP_SYS_RESOURCE in its bounding set: installs runc-without-sys-resource as dockerd's default
# runtime (/etc/docker/daemon.json) and restarts a running dockerd so that it takes effect. For
# containers that ask for no missing capability nothing changes. Idempotent; run as root; .ci/run
# runs it before it starts dockerd. (Debian 12's docker.io 20.10.24: `docker run --privileged`
# and `docker exec` into such a container fail without it.)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
wrapper=/usr/local/libexec/kube-harness/runc-without-sys-resource
install -D -m 0755 "$here/runc-without-sys-resource" "$wrapper"
command -v jq >/dev/null || { echo "jq is needed (apt-get install jq)"; exit 1; }
config=/etc/docker/daemon.json
mkdir -p /etc/docker
current='{}'
[ -s "$config" ] && current="$(cat "$config")"
jq --arg path "$wrapper" \
  '.runtimes["runc-without-sys-resource"] = {path: $path}
   | .["default-runtime"] = "runc-without-sys-resource"' <<<"$current" >"$config.new"
mv "$config.new" "$config"
if docker info >/dev/null 2>&1 \
    && [ "$(docker info --format '{{.DefaultRuntime}}')" != "runc-without-sys-resource" ]; then
  if systemctl is-active --quiet docker 2>/dev/null; then
    systemctl restart docker
  else
    args="$(tr '\0' ' ' </proc/"$(pgrep -xo dockerd)"/cmdline)"
    pkill -x dockerd
    for _ in $(seq 1 30); do pgrep -x dockerd >/dev/null || break; sleep 1; done
    # The log where .ci/run keeps it: under /var/log, where no other user can plant a symlink.
    # shellcheck disable=SC2086 # the recorded command line, word-split as it was started
    nohup $args >/var/log/kube-harness-dockerd.log 2>&1 &
  fi
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
fi
echo "dockerd default runtime: $(docker info --format '{{.DefaultRuntime}}' 2>/dev/null || echo 'not running')"
