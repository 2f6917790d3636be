#!/usr/bin/env bash
# Installs one Debian package the tests need (as root, with apt), refusing an install that
# would remove any package — Debian's nodejs-doc, for one, removes Node.
#   scripts/apt-install.sh PACKAGE "what it is for"
set -euo pipefail
package="$1" purpose="$2"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "$purpose needs Debian's $package: install it (as root: apt-get install --no-install-recommends $package)" >&2
  exit 1
fi
echo "installing Debian's $package for $purpose"
apt-get update -qq
if apt-get -s install --no-install-recommends "$package" | grep '^Remv' >&2; then
  echo "installing $package would remove the packages above; refusing" >&2
  exit 1
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null
