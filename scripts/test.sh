#!/usr/bin/env bash
# The whole test suite: unit tests, then e2e against a production build.
# This is what `npm test` runs and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

echo "== types and lint (tsc --noEmit: TypeScript 7; ESLint; the import rules: .dependency-cruiser.cjs)"
npx tsc --noEmit
npm run -s lint

echo "== unit tests (vitest; the store tests start a throwaway PostgreSQL; the language eval reads Debian's translated docs)"
bash scripts/ensure-postgres.sh
bash scripts/ensure-debian-docs.sh
npx vitest run
npm run -s kb:check

echo "== production build"
npx next build

echo "== e2e (playwright, Debian chromium)"
bash scripts/ensure-chromium.sh
npx playwright test
