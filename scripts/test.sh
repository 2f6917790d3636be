#!/usr/bin/env bash
# The whole test suite: types and lint, unit tests, kb:check, then e2e against a production build.
# This is what `npm test` runs and what CI runs; it prints each step's time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

times=()
step_start=$SECONDS
step_name=""
step() {
  if [ -n "$step_name" ]; then times+=("$(printf '%5ss  %s' $((SECONDS - step_start)) "$step_name")"); fi
  step_name="$1"
  step_start=$SECONDS
  echo "== $1"
}
summary() {
  step ""
  echo "== step times"
  printf '%s\n' "${times[@]}"
}
trap summary EXIT

step "Debian packages the tests need, when missing (PostgreSQL's server, the translated docs; Chromium in the background)"
bash scripts/ensure-postgres.sh
bash scripts/ensure-debian-docs.sh
# Only e2e needs Chromium: it is installed (when missing) while the next steps run; apt runs one
# install at a time, so this starts after the two above.
chromium_log=$(mktemp)
bash scripts/ensure-chromium.sh >"$chromium_log" 2>&1 &
chromium_pid=$!

step "types and lint (tsc --noEmit: TypeScript 7; ESLint; the import rules: .dependency-cruiser.cjs; the docs' links: .remarkrc.mjs)"
npx tsc --noEmit
npm run -s lint

step "unit tests (vitest, a worker per core; the store tests start a throwaway PostgreSQL; the language eval reads Debian's translated docs)"
npx vitest run

step "kb:check on the demo KB"
npm run -s kb:check
npm run -s kb:test

step "production build"
npx next build

step "e2e (playwright, Debian chromium, two workers with servers of their own)"
if ! wait "$chromium_pid"; then cat "$chromium_log" >&2; exit 1; fi
cat "$chromium_log"
npx playwright test
