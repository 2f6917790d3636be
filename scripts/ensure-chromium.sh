#!/usr/bin/env bash
# Playwright cannot download its own browser here: use Debian's chromium, installing it when missing.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then exit 0; fi
if [ -n "${CHROMIUM_PATH:-}" ]; then echo "no Chromium at CHROMIUM_PATH=$CHROMIUM_PATH" >&2; exit 1; fi
exec bash "$(dirname "$0")/apt-install.sh" "the e2e tests (Chromium)" chromium
