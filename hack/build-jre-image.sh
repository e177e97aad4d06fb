#!/usr/bin/env bash
# Builds kube-harness/jre:17, a FROM-scratch Java runtime (jlink of this JDK plus the few glibc
# libraries it links), as the base image for `make docker-build` on machines that cannot pull
# eclipse-temurin. Usage: make jre-image; make docker-build JIB_FROM=docker://kube-harness/jre:17
set -euo pipefail
image=${1:-kube-harness/jre:17}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The operator's modules (jdeps --print-module-deps on its jar) plus what TLS and JMX need.
jlink --add-modules java.base,java.compiler,java.desktop,java.naming,java.net.http,java.sql,jdk.httpserver,java.logging,java.management,jdk.crypto.ec,jdk.unsupported \
  --strip-debug --no-header-files --no-man-pages --output "$work/jre" >/dev/null
mkdir -p "$work/rootfs/opt" "$work/rootfs/tmp"
chmod 1777 "$work/rootfs/tmp"
cp -a "$work/jre" "$work/rootfs/opt/java"
# Shared libraries of the launcher and the JVM (AWT's X11/font/sound libraries are never loaded
# by a headless server, so they are left out).
for f in "$work/jre/bin/java" $(find "$work/jre/lib" -name '*.so' | grep -vE 'awt|fontmanager|jsound|splashscreen|lcms|javajpeg|mlib_image'); do
  ldd "$f" 2>/dev/null | grep -o '/[^ ]*' || true
done | grep -v "^$work" | sort -u | while read -r lib; do
  mkdir -p "$work/rootfs$(dirname "$lib")"
  cp -L "$lib" "$work/rootfs$lib"
done
printf 'FROM scratch\nCOPY rootfs/ /\nENV PATH=/opt/java/bin JAVA_HOME=/opt/java\nUSER 65532:65532\n' > "$work/Dockerfile"
docker build -q -t "$image" "$work" >/dev/null
echo "[kube-harness] built $image: $(docker run --rm "$image" java -version 2>&1 | sed -n 1p)"
