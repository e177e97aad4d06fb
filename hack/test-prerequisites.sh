#!/usr/bin/env bash
# What `make test` needs, prepared here or named within its first seconds, so that a fresh machine
# never fails 18 minutes into the suite for want of a Docker engine:
#   - Java 17+ and Go (the Kubernetes binaries are built from Go modules);
#   - the second local user the lockdown tests act as (hack/second-user.sh);
#   - a Docker engine for the container backend's tests: as root, Debian's docker.io is installed
#     and dockerd started as .ci/run does (no bridge, no iptables); otherwise the fix is printed;
#   - the Kubernetes binaries of every version the suite runs on (a Go build the first time);
#   - the container backend's images, built FROM scratch out of those binaries (make images).
# Writes target/test-env: the environment the suite runs in on this machine (what a user has set
# wins). Idempotent: on a prepared machine it takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=target/kube-harness.jar
say() { printf '[make test] %s\n' "$*"; }
missing() { printf '[make test] missing: %s\n' "$*" >&2; exit 1; }
is_root() { [ "$(id -u)" = 0 ]; }

# Tools first: each takes milliseconds to check, and without them nothing else helps.
command -v java >/dev/null || missing "java (JDK 17 or newer) on the PATH"
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${java_major:-0}" -ge 17 ] || missing "Java 17 or newer (java on the PATH is $java_major)"
command -v go >/dev/null || missing "go (1.22 or newer): the Kubernetes binaries are built from Go modules (https://go.dev/doc/install)"
# compat/junit-6.0 also runs its tests on Java 25 when one is at the path its pom names.
[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] ||
  say "note: no Java 25 at /usr/lib/jvm/temurin-25-jdk-amd64: compat/junit-6.0 runs on Java 17 alone"
[ -f "$CLI" ] || missing "$CLI (make builds it first: run make test, not this script alone)"

bash hack/second-user.sh

# The Docker engine: 7 tests of the harness use the container backend, and its images are built here.
if ! docker info >/dev/null 2>&1; then
  if ! is_root; then
    [[ "$(docker info 2>&1)" == *"permission denied"* ]] &&
      missing "access to the Docker engine at ${DOCKER_HOST:-/var/run/docker.sock} (permission denied):
  add yourself to its group (sudo usermod -aG docker $(id -un), then log in again)"
    missing "a running Docker engine (docker info fails): the container backend's tests need one.
  Start yours (e.g. sudo systemctl start docker), or run make test once as root, which installs
  Debian's docker.io and starts dockerd the way .ci/run does."
  fi
  if ! command -v dockerd >/dev/null || ! command -v jq >/dev/null; then
    say "installing Debian's docker.io and jq (about a minute)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io jq >/dev/null
  fi
  # Privileged containers (kind's nodes) on machines whose root lacks CAP_SYS_RESOURCE.
  bash hack/kind/docker-runtime.sh
  # No bridge and no iptables: this machine's traffic stays on loopback and the project's own
  # networks. The log lives under /var/log, where no other user can plant a symlink.
  say "starting dockerd (log: /var/log/kube-harness-dockerd.log)"
  dockerd --bridge=none --iptables=false >/var/log/kube-harness-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || {
    tail -20 /var/log/kube-harness-dockerd.log >&2
    missing "a Docker engine: dockerd did not answer within 60 s (its log is above)"
  }
fi

# Binaries: cached under ~/.cache/kube-harness after the first build. The CLI reports each Go build
# as it goes; this line says how long the wait may be before the first of them.
say "Kubernetes binaries (cached after the first Go build: about 11 min for 1.37, 5 min for each other minor, on 2 cores)"
java -jar "$CLI" provision --profile simulated --with-kubectl >/dev/null
make -s provision-matrix >/dev/null

say "the container backend's images (built FROM scratch out of the binaries when missing)"
bash hack/build-images.sh --if-missing

# The suite's environment on this machine; each line keeps a value the user has set.
mkdir -p target
{
  echo ': "${KUBE_HARNESS_OFFLINE:=true}"'
  # Testcontainers' Ryuk is an image pulled from a registry; the harness's watchdog removes the
  # containers instead, and the start-up checks pull an image too.
  echo ': "${TESTCONTAINERS_RYUK_DISABLED:=true}"'
  echo ': "${TESTCONTAINERS_CHECKS_DISABLE:=true}"'
  # Inside a container (/.dockerenv) Testcontainers would look for the engine at the gateway.
  [ -f /.dockerenv ] && echo ': "${TESTCONTAINERS_HOST_OVERRIDE:=127.0.0.1}"'
  # An engine without its default bridge (the one started above): containers on the host network.
  docker network inspect bridge >/dev/null 2>&1 || echo ': "${KUBE_HARNESS_NETWORK:=host}"'
  echo 'export KUBE_HARNESS_OFFLINE TESTCONTAINERS_RYUK_DISABLED TESTCONTAINERS_CHECKS_DISABLE TESTCONTAINERS_HOST_OVERRIDE KUBE_HARNESS_NETWORK'
} >target/test-env
say "ready: $(grep -c := target/test-env) settings in target/test-env; running the suite"
