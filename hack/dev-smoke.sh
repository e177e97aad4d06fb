#!/usr/bin/env bash
# make dev as a newcomer uses it (make dev-smoke): starts it in a process group of its own with
# SIGINT handled as in a terminal, runs exactly the steps it prints, requires that they write
# nothing to stderr (no warning) and that the sample Guestbook is Ready 1, and that make dev's own
# output holds no WARN line; then presses Ctrl-C (SIGINT to the group) and requires nothing left:
# no process naming the run directory, the run directory gone, no process of the group alive.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
kubectl=$(java -jar target/kube-harness.jar provision --profile minimal --with-kubectl | sed -n 's/^kubectl=//p')
export PATH="$(dirname "$kubectl"):$PATH" # the steps say `kubectl`, as a user with one would type

# A background job of a script starts with SIGINT ignored; env resets it so Ctrl-C works as typed.
setsid env --default-signal=INT make dev >"$work/dev.log" 2>&1 &
dev=$! # setsid without a fork (the job is no group leader): this pid is the group's id
fail() {
  echo "[dev-smoke] $*" >&2
  sed 's/^/  make dev| /' "$work/dev.log" >&2
  exit 1
}
cleanup() { kill -TERM -- "-$dev" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# A cold machine builds the jars and the simulated profile's binaries first: allow for it.
for _ in $(seq 1 900); do
  grep -q '^# --- docs/guestbook.md' "$work/dev.log" && break
  kill -0 "$dev" 2>/dev/null || fail "make dev exited before printing its steps"
  sleep 1
done
grep -q '^# --- docs/guestbook.md' "$work/dev.log" || fail "no steps printed within 15 min"
run=$(sed -n 's/^# control plane .* logs in \(.*\)$/\1/p' "$work/dev.log")
[ -n "$run" ] || fail "no run directory in make dev's output"

sed -n '/^# --- the tutorial/,/^# --- docs/p' "$work/dev.log" | grep -v '^#' >"$work/steps.sh"
echo "[dev-smoke] the steps make dev printed:"
sed 's/^/  $ /' "$work/steps.sh"
bash -euo pipefail "$work/steps.sh" >"$work/steps.out" 2>"$work/steps.err" ||
  fail "a step failed: $(cat "$work/steps.err")"
cat "$work/steps.out"
[ ! -s "$work/steps.err" ] || fail "the steps wrote to stderr: $(cat "$work/steps.err")"
ready=$(awk '$2 == "guestbook-sample" { print $NF }' "$work/steps.out")
[ "$ready" = 1 ] || fail "guestbook-sample READY '$ready', expected 1"
if grep -n 'WARN' "$work/dev.log" >&2; then fail "make dev logged a warning (above)"; fi

kill -INT -- "-$dev"
for _ in $(seq 1 60); do kill -0 "$dev" 2>/dev/null || break; sleep 1; done
! kill -0 "$dev" 2>/dev/null || fail "make dev still running 60 s after Ctrl-C"
grep -q '^# control plane stopped' "$work/dev.log" || fail "no '# control plane stopped' after Ctrl-C"
left=$(ps -eo pid=,args= | grep -F "$run" | grep -v grep || true)
[ -z "$left" ] || fail "processes left naming $run: $left"
[ ! -e "$run" ] || fail "run directory $run left behind"
# Zombies do not count: the watchdog's sh exits with the JVM and waits for init to reap it.
group=$(ps -eo pid=,pgid=,stat=,args= | awk -v g="$dev" '$2 == g && $3 !~ /^Z/' || true)
[ -z "$group" ] || fail "processes of make dev's group left: $group"
echo "[dev-smoke] make dev: the printed steps ran without a warning, guestbook-sample Ready 1; Ctrl-C left nothing"
