#!/usr/bin/env bash
# What the test run needs besides npm packages: Debian's Chromium (the UI tests drive it with
# playwright-core; no browser download) and PostgreSQL's server binaries (the hub's suites start a
# throwaway cluster of their own). Installed when missing and this user may (root); otherwise it
# says what to install. Run by `npm test` (pretest) and by .ci/run.
set -euo pipefail

# Debian's Chromium for the UI tests (playwright-core drives it; no browser download).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is missing and this user cannot install it; the UI tests will fail" >&2
  fi
fi

# Debian's PostgreSQL for the hub's PostgreSQL suites: the tests start a throwaway cluster of their
# own (initdb as the unprivileged postgres user in a temp folder, a loopback port); nothing else runs.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ]; then
    # policy-rc.d 101: the package's own cluster is not started (the tests never use it).
    made_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && made_policy=1; fi
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    if [ "$made_policy" = "1" ]; then rm -f /usr/sbin/policy-rc.d; fi
  else
    echo "PostgreSQL is missing and this user cannot install it; the PostgreSQL tests will fail" >&2
  fi
fi
