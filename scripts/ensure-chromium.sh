#!/usr/bin/env bash
# Playwright cannot download its own browser here: use Debian's chromium, installing it
# when missing (needs root and Debian's apt). Refuses an install that would remove any
# package — Debian's nodejs-doc, for one, removes Node.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "e2e needs Chromium at $chromium_path (set CHROMIUM_PATH, or install Debian's chromium as root)" >&2
  exit 1
fi
echo "installing Debian's chromium for the e2e tests"
apt-get update -qq
if apt-get -s install --no-install-recommends chromium | grep '^Remv' >&2; then
  echo "installing chromium would remove the packages above; refusing" >&2
  exit 1
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
