#!/usr/bin/env bash
# build-wasm.sh - the library as a WebAssembly reactor module for the browser playground (web/,
# docs/web.md): OUTDIR/otvar.wasm plus a copy of the page, so that OUTDIR can be served as it is.
#
# Toolchain: clang with the wasm32-wasi target, wasm-ld (lld) and a WASI sysroot (wasi-libc and
# clang's wasm32 builtins; Debian: clang lld wasi-libc libclang-rt-14-dev-wasm32). Overrides:
# WASM_CC (default clang), WASI_SYSROOT (default: the first of /usr/share/wasi-sysroot,
# /opt/wasi-sdk/share/wasi-sysroot, and /usr, where Debian puts wasi-libc as a multiarch
# triple: /usr/include/wasm32-wasi, /usr/lib/wasm32-wasi).
# Exit 0: built; 1: a compile or link error; 2: bad usage; 77: no such toolchain here.
# usage: scripts/build-wasm.sh OUTDIR
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cc=${WASM_CC:-clang}

find_sysroot() {
  if [ -n "${WASI_SYSROOT:-}" ]; then echo "$WASI_SYSROOT"; return; fi
  for d in /usr/share/wasi-sysroot /opt/wasi-sdk/share/wasi-sysroot; do
    if [ -e "$d/lib/wasm32-wasi/libc.a" ]; then echo "$d"; return; fi
  done
  echo /usr
}
sysroot=$(find_sysroot)
target=(--target=wasm32-wasi "--sysroot=$sysroot")

# Compiling and linking a tiny reactor is the one test that covers every part (the compiler's
# target, the sysroot's headers, crt1-reactor.o and libc.a, clang's builtins, wasm-ld).
probe_toolchain() {
  local dir msg
  dir=$(mktemp -d)
  printf '#include <stdlib.h>\nvoid *probe(size_t n) { return malloc(n); }\n' >"$dir/probe.c"
  if ! msg=$("$cc" "${target[@]}" -mexec-model=reactor -Wl,--export=probe "$dir/probe.c" \
    -o "$dir/probe.wasm" 2>&1); then
    rm -rf "$dir"
    echo "build-wasm: SKIP: '$cc --target=wasm32-wasi --sysroot=$sysroot' cannot build a module" \
      "(needs clang, lld, wasi-libc and clang's wasm32 builtins; set WASM_CC/WASI_SYSROOT):" >&2
    echo "$msg" | head -3 | sed 's/^/  /' >&2
    exit 77
  fi
  rm -rf "$dir"
}
if ! command -v "$cc" >/dev/null; then
  echo "build-wasm: SKIP: no '$cc' (set WASM_CC to a clang with the wasm32-wasi target)" >&2
  exit 77
fi
probe_toolchain

version=$(sed -n 's/^project(otvar VERSION \([0-9][0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
if [ -z "$version" ]; then
  echo "build-wasm: no 'project(otvar VERSION X.Y.Z' line in $root/CMakeLists.txt" >&2
  exit 1
fi

# The flags of the native library (CMakeLists.txt: warnings as errors, hidden visibility so that
# only OTV_API functions are public) plus OTV_NO_SIMD: wasm32 takes the portable code path.
cflags=("${target[@]}" -O2 -std=c11 -DOTV_NO_SIMD "-DOTV_VERSION_STRING=\"$version\""
  -D_POSIX_C_SOURCE=200809L -fvisibility=hidden -I"$root/include" -I"$root/src"
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wstrict-prototypes
  -Wmissing-prototypes -Werror)

# Link: a reactor (no main; the JS wrapper calls _initialize once, then the API). Exported: every
# OTV_API function (--export-dynamic exports exactly the default-visibility symbols, so the
# public header is the one list) and malloc/free, with which the wrapper passes buffers.
# Stack: 1 MiB instead of wasm-ld's 64 KiB (stat_names in instance/names.c alone keeps ~56 KiB
# of STAT tables on the stack), placed first so that an overflow traps instead of overwriting
# data.
ldflags=(-mexec-model=reactor "-Wl,--export-dynamic" "-Wl,--export=malloc" "-Wl,--export=free"
  "-Wl,-z,stack-size=1048576" "-Wl,--stack-first")

obj="$out/obj"
rm -rf "$obj"
mkdir -p "$obj"
cd "$root"
sources=(src/core/*.c src/*.c src/instance/*.c src/raster/*.c web/glue.c)

compile_one() { # SOURCE: src/instance/cff.c -> OUT/obj/instance__cff.o (folders keep names apart)
  local name=${1#src/}
  name=${name//\//__}
  "$cc" "${cflags[@]}" -c "$1" -o "$obj/${name%.c}.o"
}

# One compiler per core; every failure is reported (its errors are on stderr) before stopping.
compile_all() {
  local f failed=0 cores
  cores=$(nproc 2>/dev/null || echo 2)
  for f in "${sources[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || failed=1; done
    compile_one "$f" &
  done
  while [ -n "$(jobs -p)" ]; do wait -n || failed=1; done
  return $failed
}

start=$EPOCHREALTIME
if ! compile_all; then
  echo "build-wasm: compile failed (errors above)" >&2
  exit 1
fi
"$cc" "${target[@]}" "${ldflags[@]}" "$obj"/*.o -lm -o "$out/otvar.wasm"
cp web/index.html web/otvar.js web/app.js web/style.css "$out/"
elapsed_ms=$(((${EPOCHREALTIME/./} - ${start/./}) / 1000))
echo "build-wasm: $out/otvar.wasm (otvar $version, $(wc -c <"$out/otvar.wasm") bytes)" \
  "in $((elapsed_ms / 1000)).$((elapsed_ms % 1000 / 100)) s"
