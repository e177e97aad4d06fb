#!/usr/bin/env bash
# Import cycles between the harness's classes, as the JDK's own jdeps sees them: nested classes are
# folded into their top-level class, and each strongly connected component of more than one class
# is printed with its size and packages. ClassCyclesTest checks the same on ArchUnit's graph; this
# is the command anyone can run against a build (docs/architecture.md).
#
#   hack/class-cycles.sh [CLASSES_DIR]     (default harness/target/classes; build it first)
#
# Exit status 1 when a cycle spans two packages or holds more than three classes.
set -euo pipefail
classes="${1:-harness/target/classes}"
if [[ ! -d "$classes" ]]; then
  echo "class-cycles: no $classes; build it first: ./mvnw -q -o -DskipTests -pl harness compile" >&2
  exit 2
fi
jdeps -verbose:class -filter:none "$classes" 2>/dev/null | python3 -c '
import sys, re
sys.setrecursionlimit(100000)
edges = {}
for line in sys.stdin:
    m = re.match(r"\s+(io\.github\.kubeharness\S*)\s+->\s+(io\.github\.kubeharness\S*)\s", line)
    if not m:
        continue
    a, b = (name.split("$")[0] for name in m.groups())
    edges.setdefault(a, set())
    edges.setdefault(b, set())
    if a != b:
        edges[a].add(b)
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(sorted(comp))
for v in list(edges):
    if v not in index:
        visit(v)
bad = 0
print(f"{len(edges)} top-level classes, {len(comps)} import cycles")
for comp in sorted(comps, key=len, reverse=True):
    packages = sorted({c.rsplit(".", 1)[0] for c in comp})
    over = len(packages) > 1 or len(comp) > 3
    bad += over
    names = ", ".join(c.rsplit(".", 1)[1] for c in comp)
    print(f"  {len(comp)} classes in {len(packages)} package(s) {packages}: {names}" + ("  <- over the bar" if over else ""))
sys.exit(1 if bad else 0)
'
