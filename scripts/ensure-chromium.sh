#!/usr/bin/env bash
# Playwright cannot download its own browsers here: use Debian's, installing them when missing.
# The suite runs in the headless shell (chromium-headless-shell); the tests of Chrome's own
# privacy settings run in the full browser (chromium). See e2e/env.ts.
set -euo pipefail
missing=()
check() { # check VARIABLE DEFAULT PACKAGE
  local value="${!1:-}"
  if [ -n "$value" ]; then
    [ -x "$value" ] || { echo "no Chromium at $1=$value" >&2; exit 1; }
  elif [ ! -x "$2" ]; then
    missing+=("$3")
  fi
}
check CHROMIUM_PATH /usr/bin/chromium-headless-shell chromium-headless-shell
check FULL_CHROMIUM_PATH /usr/bin/chromium chromium
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
exec bash "$(dirname "$0")/apt-install.sh" "the e2e tests (Chromium)" "${missing[@]}"
