#!/usr/bin/env bash
# A second local user, kh-stranger, for the tests that need a file of someone else's (RunRootTest:
# a run root another user made first must be refused). Idempotent; creating the user needs root.
# Run by that test when the user is missing, and by .ci/run.
set -euo pipefail
user=kh-stranger
if id "$user" >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "cannot create the user $user: not root (run: sudo bash $0)" >&2
  exit 1
fi
# A system account: no home, no login, nothing but a uid that is not ours.
useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
echo "created the user $user (uid $(id -u "$user"))"
