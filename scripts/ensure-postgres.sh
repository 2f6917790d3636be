#!/usr/bin/env bash
# The PostgreSQL tests start a throwaway server themselves (lib/testing/postgres.ts) from
# Debian's server binaries: install them when missing. TEST_DATABASE_URL (a server of yours) skips this.
set -euo pipefail
if [ -n "${TEST_DATABASE_URL:-}" ]; then exit 0; fi
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then exit 0; fi
exec bash "$(dirname "$0")/apt-install.sh" "the PostgreSQL store tests" postgresql
