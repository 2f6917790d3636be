#!/usr/bin/env bash
# Installs Debian packages the tests need (as root, with apt), in one transaction, refusing an
# install that would remove any package — Debian's nodejs-doc, for one, removes Node.
#   scripts/apt-install.sh "what they are for" PACKAGE…
set -euo pipefail
purpose="$1"
shift
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "$purpose needs Debian's $*: install it (as root: apt-get install --no-install-recommends $*)" >&2
  exit 1
fi
echo "installing Debian's $* for $purpose"
apt-get update -qq
if apt-get -s install --no-install-recommends "$@" | grep '^Remv' >&2; then
  echo "installing $* would remove the packages above; refusing" >&2
  exit 1
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
