#!/usr/bin/env bash
# Builds kind's node image for this project, kube-harness/kind-node:v<version>, from what these
# machines can get: a Debian bookworm root (debootstrap: systemd, containerd, runc, CNI plugins,
# iptables), the Kubernetes binaries the kube-harness CLI provisions (a Go build of kubelet,
# kubeadm, kube-scheduler and kube-proxy besides the control plane's), kind's node files from
# its Go module (entrypoint, kubelet units), and every image kubeadm asks for, built here and
# preloaded into the node's containerd: the control-plane programs, etcd, CoreDNS (Go module)
# and pause (C, from the Kubernetes module). No image is pulled.
#
# The result is cached: the image carries a hash of its inputs and is rebuilt only when one of
# them changes. Needs root (debootstrap), Docker with privileged containers (hack/kind/
# docker-runtime.sh on these VMs), Go and gcc.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=hack/kind
CLI=target/kube-harness.jar
KIND_MODULE_VERSION=${KIND_MODULE_VERSION:-v0.33.0}
POD_SUBNET=10.244.0.0/24
cache="${XDG_CACHE_HOME:-$HOME/.cache}/kube-harness"
say() { echo "[kube-harness] $*"; }
# docker build, quiet: its output only when it fails (Debian's docker.io has no buildx, so the
# classic builder prints a deprecation banner on every build).
build() { docker build -q "$@" > /dev/null 2> "$work/docker-build.err" || { cat "$work/docker-build.err"; exit 1; }; }
took() { say "$1 took $(( $(date +%s) - $2 )) s"; }

# --- inputs -----------------------------------------------------------------------------------
declare -A bin
while IFS='=' read -r name path; do
  bin[$name]=$path
done < <(java -jar "$CLI" provision --profile standard --with-kubectl --with-node | grep -E '^[a-z-]+=/')
version=$("${bin[kube-apiserver]}" --version | sed -n 's/^Kubernetes v//p')
image=${1:-kube-harness/kind-node:v$version}
kind_files=$(go mod download -json "sigs.k8s.io/kind@$KIND_MODULE_VERSION" | jq -r .Dir)/images/base/files
kubernetes_dir=$(go mod download -json "k8s.io/kubernetes@v$version" | jq -r .Dir)

# The images kubeadm will ask for, by the names it uses.
mapfile -t wanted < <("${bin[kubeadm]}" config images list --kubernetes-version "v$version" 2>/dev/null)
pick() { printf '%s\n' "${wanted[@]}" | grep -E "$1" || { echo "kubeadm wants no image matching $1"; exit 1; }; }
pause_image=$(pick '/pause:')
coredns_image=$(pick '/coredns:')
etcd_image=$(pick '/etcd:')
pause_version=${pause_image##*:}
coredns_version=${coredns_image##*:}

inputs=$( {
  for name in $(printf '%s\n' "${!bin[@]}" | sort); do sha256sum < "${bin[$name]}"; done
  cat "$0" "$here"/node/* "$here/runc-without-sys-resource" "$here"/provisioner/*
  echo "$KIND_MODULE_VERSION ${wanted[*]}"
} | sha256sum | cut -c1-16)
if [ "$(docker image inspect -f '{{ index .Config.Labels "io.github.kubeharness.inputs" }}' "$image" 2>/dev/null)" = "$inputs" ]; then
  say "$image is up to date (inputs $inputs)"
  exit 0
fi
say "building $image (Kubernetes v$version; images: ${wanted[*]})"
work=$(mktemp -d)
builder=kube-harness-node-build-$$
cleanup() { docker rm -f "$builder" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

# --- base root file system (cached as an image) -----------------------------------------------
base=kube-harness/kind-base:bookworm
if ! docker image inspect "$base" >/dev/null 2>&1; then
  command -v debootstrap >/dev/null || { echo "debootstrap is needed: apt-get install debootstrap"; exit 1; }
  say "debootstrap of Debian bookworm for $base (about 2 min, once) ..."
  start=$(date +%s)
  mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase \
    --include=systemd,systemd-sysv,dbus,containerd,runc,containernetworking-plugins,iptables,nftables,conntrack,ethtool,socat,iproute2,mount,util-linux,kmod,ca-certificates,procps \
    bookworm "$work/root" ${mirror:+"$mirror"} > "$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; exit 1; }
  rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*
  tar -C "$work/root" -c . | docker import - "$base" >/dev/null
  rm -rf "$work/root"
  took "debootstrap + import" "$start"
fi

# --- the images kubeadm asks for ----------------------------------------------------------------
start=$(date +%s)
scratch_image() { # name program-path [entrypoint-path]
  local dir="$work/img-${1//[\/:]/_}"
  mkdir -p "$dir"
  cp "$2" "$dir/program"
  printf 'FROM scratch\nENV PATH=/usr/local/bin:/usr/bin:/bin\nCOPY program %s\nENTRYPOINT ["%s"]\n' "${3:-/usr/local/bin/$(basename "$2")}" "${3:-/usr/local/bin/$(basename "$2")}" > "$dir/Dockerfile"
  build -t "$1" "$dir" >/dev/null
}
# CoreDNS from its Go module, pause from the Kubernetes module's C source: each cached by version.
coredns=$cache/tools/coredns-$coredns_version/coredns
if [ ! -x "$coredns" ]; then
  say "building CoreDNS $coredns_version from Go modules (about 4 min, once) ..."
  GOBIN=$(dirname "$coredns") CGO_ENABLED=0 GOFLAGS=-mod=mod go install -trimpath -ldflags='-s -w' \
    "github.com/coredns/coredns@$coredns_version" > "$work/coredns-build.log" 2>&1 \
    || { tail -20 "$work/coredns-build.log"; exit 1; }
fi
pause=$cache/tools/pause-$pause_version/pause
if [ ! -x "$pause" ]; then
  tag=$(sed -n 's/^TAG ?= *//p' "$kubernetes_dir/build/pause/Makefile")
  [ "v$tag" = "v${pause_version}" ] || { echo "kubeadm wants pause $pause_version, the module's pause.c is $tag"; exit 1; }
  mkdir -p "$(dirname "$pause")"
  gcc -Os -Wall -Werror -static -DVERSION="v$tag-kube-harness" -o "$pause" "$kubernetes_dir/build/pause/linux/pause.c"
fi
for component in kube-apiserver kube-controller-manager kube-scheduler; do
  scratch_image "$(pick "/$component:")" "${bin[$component]}"
done
scratch_image "$etcd_image" "${bin[etcd]}"
scratch_image "$coredns_image" "$coredns" /coredns
scratch_image "$pause_image" "$pause" /pause
# kube-proxy programs iptables: it needs a root with iptables, the Debian base.
mkdir -p "$work/img-proxy" && cp "${bin[kube-proxy]}" "$work/img-proxy/kube-proxy"
printf 'FROM %s\nCOPY kube-proxy /usr/local/bin/kube-proxy\nENTRYPOINT ["/usr/local/bin/kube-proxy"]\n' "$base" > "$work/img-proxy/Dockerfile"
build -t "$(pick '/kube-proxy:')" "$work/img-proxy" >/dev/null
# The volume provisioner of default-storage.yaml: our own program, so our own name.
provisioner_image=kube-harness/kind-volume-provisioner:1
mkdir -p "$work/img-provisioner"
(cd "$here/provisioner" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags='-s -w' \
  -o "$work/img-provisioner/program" .) 2> "$work/provisioner-build.log" \
  || { tail -20 "$work/provisioner-build.log"; exit 1; }
printf 'FROM scratch\nCOPY program /volume-provisioner\nENTRYPOINT ["/volume-provisioner"]\n' > "$work/img-provisioner/Dockerfile"
build -t "$provisioner_image" "$work/img-provisioner" >/dev/null
docker save -o "$work/images.tar" "${wanted[@]}" "$provisioner_image"
took "component images ($(du -sh "$work/images.tar" | cut -f1))" "$start"

# --- the node: files, binaries, preloaded images -------------------------------------------------
start=$(date +%s)
ctx=$work/node
mkdir -p "$ctx/root/usr/local/bin" "$ctx/root/usr/bin" "$ctx/root/usr/local/libexec/kube-harness" \
  "$ctx/root/kind/bin" "$ctx/root/kind/manifests" "$ctx/root/etc/systemd/system/kubelet.service.d" \
  "$ctx/root/etc/containerd" "$ctx/root/etc/cni/net.d" "$ctx/root/etc/default" "$ctx/root/etc/sysctl.d" \
  "$ctx/root/etc/kubernetes/manifests" "$ctx/root/etc/containerd/certs.d/_default"
# kind's own contract with its node: entrypoint, kubelet units, sysctls, mount fix-ups.
install -m 0755 "$kind_files/usr/local/bin/entrypoint" "$ctx/root/usr/local/bin/entrypoint"
install -m 0755 "$kind_files"/kind/bin/*.sh "$ctx/root/kind/bin/"
install -m 0644 "$kind_files"/etc/systemd/system/{kubelet.service,kubelet.slice,undo-mount-hacks.service} "$ctx/root/etc/systemd/system/"
install -m 0644 "$kind_files"/etc/systemd/system/kubelet.service.d/* "$ctx/root/etc/systemd/system/kubelet.service.d/"
install -m 0644 "$kind_files"/etc/sysctl.d/* "$ctx/root/etc/sysctl.d/"
install -m 0644 "$kind_files/etc/default/kubelet" "$ctx/root/etc/default/kubelet"
install -m 0644 "$kind_files/etc/crictl.yaml" "$ctx/root/etc/crictl.yaml"
# Ours: containerd's unit and config (no registry but loopback), the CNI config, kubeadm's wait for containerd.
install -m 0644 "$here/node/containerd.service" "$ctx/root/etc/systemd/system/containerd.service"
sed "s|@PAUSE_IMAGE@|$pause_image|" "$here/node/containerd-config.toml" > "$ctx/root/etc/containerd/config.toml"
install -m 0644 "$here/node/registry-hosts.toml" "$ctx/root/etc/containerd/certs.d/_default/hosts.toml"
sed "s|@POD_SUBNET@|$POD_SUBNET|" "$here/node/10-kube-harness-bridge.conflist" > "$ctx/root/etc/cni/net.d/10-kube-harness-bridge.conflist"
install -m 0644 "$here/node/default-storage.yaml" "$ctx/root/kind/manifests/default-storage.yaml"
install -m 0755 "$here/node/kubeadm" "$ctx/root/usr/bin/kubeadm"
install -m 0755 "${bin[kubeadm]}" "$ctx/root/usr/local/libexec/kube-harness/kubeadm"
install -m 0755 "${bin[kubelet]}" "${bin[kubectl]}" "$ctx/root/usr/bin/"
echo "v$version" > "$ctx/root/kind/version"
cat > "$ctx/Dockerfile" <<DOCKERFILE
FROM $base
COPY root/ /
RUN find /lib/systemd/system/sysinit.target.wants/ -name systemd-tmpfiles-setup.service -delete \\
 && rm -f /lib/systemd/system/multi-user.target.wants/* /etc/systemd/system/*.wants/* \\
    /lib/systemd/system/local-fs.target.wants/* /lib/systemd/system/sockets.target.wants/*udev* \\
    /lib/systemd/system/sockets.target.wants/*initctl* /lib/systemd/system/basic.target.wants/* \\
 && echo "ReadKMsg=no" >> /etc/systemd/journald.conf \\
 && systemctl enable kubelet.service containerd.service undo-mount-hacks.service \\
 && systemctl mask systemd-binfmt.service
DOCKERFILE
build -t "$image-stage" "$ctx" >/dev/null
# Preload: run containerd in the staged node, import the images without unpacking, commit.
docker run -d --privileged --name "$builder" --entrypoint /bin/sleep "$image-stage" infinity >/dev/null
docker cp "$work/images.tar" "$builder:/images.tar"
docker exec -d "$builder" sh -c 'containerd >/var/log/containerd-build.log 2>&1'
for _ in $(seq 1 60); do docker exec "$builder" test -S /run/containerd/containerd.sock && break; sleep 0.5; done
docker exec "$builder" ctr -n k8s.io images import --no-unpack /images.tar >/dev/null
docker exec "$builder" ctr -n k8s.io images ls -q | grep -v '^sha256:' | sed 's/^/[kube-harness]   preloaded /'
docker exec "$builder" sh -c 'pkill containerd; rm -f /images.tar /var/log/containerd-build.log; rm -rf /run/containerd'
docker commit "$builder" "$image-preloaded" >/dev/null
docker rm -f "$builder" >/dev/null
printf 'FROM %s\nENV container=docker\nSTOPSIGNAL SIGRTMIN+3\nLABEL io.github.kubeharness.inputs=%s\nENTRYPOINT ["/usr/local/bin/entrypoint", "/sbin/init"]\nCMD []\n' \
  "$image-preloaded" "$inputs" > "$work/Dockerfile.final"
build -t "$image" -f "$work/Dockerfile.final" "$work/img-proxy" >/dev/null
docker rmi "$image-stage" "$image-preloaded" >/dev/null 2>&1 || true
took "node image assembly" "$start"
say "built $image ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%d MB", $1/1e6}'))"
