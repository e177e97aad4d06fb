#!/usr/bin/env bash
# Fails a tagged or filtered Maven run (make soak, make test-kind, make e2e) that ran no test.
# Those targets select tests with -Dgroups / -Dit.test and allow an empty selection on the other
# modules of the reactor (failIfNoSpecifiedTests=false), so a renamed tag or class would pass
# silently with zero tests. This reads failsafe's summary of each MODULE written since STAMP (a
# file the target touched before Maven started: reports of an earlier run do not count) and
# requires at least one test that was not skipped in each.
#
#   hack/require-tests-ran.sh STAMP MODULE...
set -euo pipefail
stamp=${1:?usage: require-tests-ran.sh STAMP MODULE...}
shift
[ $# -gt 0 ] || { echo "usage: require-tests-ran.sh STAMP MODULE..." >&2; exit 2; }
[ -f "$stamp" ] || { echo "require-tests-ran: stamp file $stamp is missing" >&2; exit 2; }

status=0
for module in "$@"; do
  summary=$module/target/failsafe-reports/failsafe-summary.xml
  if [ ! -f "$summary" ] || [ ! "$summary" -nt "$stamp" ]; then
    # Failsafe writes no summary when nothing matched; none either when it did not run at all.
    echo "require-tests-ran: $module ran no integration test in this run (failsafe wrote no $summary since it started): the selection (-Dgroups, -Dit.test) matched nothing there, or failsafe did not run. Check the tag or class name." >&2
    status=1
    continue
  fi
  completed=$(sed -n 's:.*<completed>\([0-9]*\)</completed>.*:\1:p' "$summary")
  skipped=$(sed -n 's:.*<skipped>\([0-9]*\)</skipped>.*:\1:p' "$summary")
  ran=$(( ${completed:-0} - ${skipped:-0} ))
  if [ "$ran" -le 0 ]; then
    echo "require-tests-ran: $module ran 0 tests (completed ${completed:-0}, skipped ${skipped:-0}): the selection (-Dgroups, -Dit.test) matched nothing there. Check the tag or class name." >&2
    status=1
  else
    echo "require-tests-ran: $module ran $ran test(s)"
  fi
done
exit $status
