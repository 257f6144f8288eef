#!/usr/bin/env bash
# Installs what otvar's build, tests and tools need on a Debian machine, when it is missing.
# Usage: scripts/deps.sh [--check]   (--check: report what is missing, install nothing)
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config libpng-dev
      libfreetype-dev libharfbuzz-dev libharfbuzz-bin python3-fonttools
      opentype-sanitizer woff2 clang clang-format llvm libclang-rt-14-dev valgrind
      gcc-multilib # the 32-bit (i386) build of scripts/test.sh
      zlib1g-dev libbrotli-dev python3-brotli) # WOFF/WOFF2 input; test_woff.py re-packs WOFF2
# node + npm: tests/fetch-fonts.sh packs fonts and harfbuzzjs with npm, and
# tests/oracle/test_instance_hbjs.py runs harfbuzzjs in node (any install of them will do)
command -v node >/dev/null || pkgs+=(nodejs)
command -v npm >/dev/null || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "${1:-}" = "--check" ]; then echo "missing: ${missing[*]}"; exit 1; fi
echo "installing: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
