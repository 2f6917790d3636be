#!/usr/bin/env bash
# The translated documentation the language eval reads (eval/kbs.ts TRANSLATED_KBS): Debian's
# packages of the Debian Reference and the Debian FAQ, installed when missing (skipped when present).
set -euo pipefail
here="$(dirname "$0")"
for package in debian-reference-en debian-reference-de debian-reference-fr debian-reference-es debian-faq-de debian-faq-fr; do
  if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then continue; fi
  bash "$here/apt-install.sh" "$package" "the language eval (translated Debian documentation)"
done
