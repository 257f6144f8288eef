#!/usr/bin/env bash
# Installs the Debian packages otvar needs, when they are missing.
# Usage: scripts/deps.sh [--run] [--check]
#   --run    only what building and running otvar needs (README command (1): compiler, CMake,
#            libpng, zlib, Brotli); without it, also the whole test toolchain (command (2))
#   --check  report what is missing, install nothing
set -euo pipefail
run_only=0 check=0
for a in "$@"; do
  case "$a" in
    --run) run_only=1 ;;
    --check) check=1 ;;
    *) echo "usage: scripts/deps.sh [--run] [--check]" >&2; exit 2 ;;
  esac
done
# build and run: the library (libc, libm), the CLI's PNG, WOFF and WOFF2 support
pkgs=(build-essential cmake ninja-build pkg-config libpng-dev zlib1g-dev libbrotli-dev
      libharfbuzz-dev libfribidi-dev) # + the CLI's text shaping (render, specimen, shape)
pkgs+=(libexpat1-dev) # `otvar build` reads designspace documents (issue 27)
if [ "$run_only" = 0 ]; then
  pkgs+=(libfreetype-dev libharfbuzz-dev libharfbuzz-bin python3-fonttools # the oracles
         opentype-sanitizer woff2 python3-brotli # instance and WOFF checks
         afdko-bin # tx: reads the CFF instances (tests/oracle/test_instance_cff1.py)
         clang clang-format llvm libclang-rt-14-dev valgrind # fuzzing, format, TSan, valgrind
         gcc-multilib # the 32-bit (i386) build of scripts/test.sh
         python3-pytest python3-venv python3-setuptools # the Python package's tests
         wasi-libc libclang-rt-14-dev-wasm32 lld chromium # the WebAssembly page's test
         man-db # scripts/check-install.sh reads the installed manual pages
         time strace) # the CLI tests' peak-memory and fsync checks (skipped without them)
  # node + npm: tests/fetch-fonts.sh packs fonts and harfbuzzjs with npm, and the harfbuzzjs
  # oracles run it in node (any install of them will do)
  command -v node >/dev/null || pkgs+=(nodejs)
  command -v npm >/dev/null || pkgs+=(npm)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$check" = 1 ]; then echo "missing: ${missing[*]}"; exit 1; fi
echo "installing: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
