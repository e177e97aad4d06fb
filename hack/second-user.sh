#!/usr/bin/env bash
# The second, unprivileged local user the lockdown tests act as (kh-stranger): they check that
# another user of the machine can read none of a run's files and get nothing from its etcd, API
# server, kept control plane or run root, and RunRootTest chowns a hostile run root to it.
# Idempotent; needs root. Shared by .ci/run and make test.
set -euo pipefail
user=kh-stranger
if id -u "$user" >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "the lockdown tests act as a second local user, $user, which is missing; create it once as root: sudo bash $0" >&2
  exit 1
fi
useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
echo "created the local user $user for the lockdown tests"
