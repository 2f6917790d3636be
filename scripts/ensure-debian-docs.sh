#!/usr/bin/env bash
# The translated documentation the language eval reads (eval/kbs.ts TRANSLATED_KBS): Debian's
# packages of the Debian Reference and the Debian FAQ, the missing ones installed in one go.
set -euo pipefail
missing=()
for package in debian-reference-en debian-reference-de debian-reference-fr debian-reference-es debian-faq-de debian-faq-fr; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then missing+=("$package"); fi
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
exec bash "$(dirname "$0")/apt-install.sh" "the language eval (translated Debian documentation)" "${missing[@]}"
