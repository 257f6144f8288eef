#!/usr/bin/env bash
# README command (2): build everything and run the whole test suite.
#  1. installs missing Debian packages (scripts/deps.sh)
#  2. fetches the real variable fonts the differential tests use (tests/fetch-fonts.sh, cached)
#  3. builds with AddressSanitizer + UndefinedBehaviorSanitizer and runs every CTest test:
#     unit, oracle (HarfBuzz, FreeType, fontTools), CLI, and the replay of fuzz regressions
#  4. builds the portable code (OTV_NO_SIMD: what CPUs without SSE2, such as ARM, run) the same
#     way and runs every test on it again
#  5. builds the library for i386 (32-bit size_t, x87 floats, no SSE2) with clang's ASan+UBSan
#     and runs the unit, hostile-font and fuzz-regression tests on it (skipped on kernels that
#     cannot run 32-bit programs)
#  6. builds the library and test_threads (one face shared by 4 threads) with clang's
#     ThreadSanitizer and runs it
#  7. runs valgrind memcheck on a sanitizer-free build of the CLI over the test fonts, then
#     installs that build and uses it as users do (scripts/check-install.sh)
#  8. builds the libFuzzer targets with clang and runs each for a short smoke period
# Environment: OTV_FUZZ_SECONDS (default 30 per target; 0 skips the smoke run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
B=build-test
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOTV_SANITIZE=ON -DOTV_ORACLE=ON -DOTV_BENCH=ON \
  >/dev/null
ninja -C "$B"
bash tests/fetch-fonts.sh "$B/fonts-cache"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$B" --output-on-failure -j2
# the portable code in place of the SSE2/AVX2 paths (glyf, gvar, raster): same tests, same fonts
P=build-portable
cmake -S . -B "$P" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOTV_SANITIZE=ON -DOTV_NO_SIMD=ON \
  -DOTV_ORACLE=ON -DOTV_BENCH=OFF >/dev/null
ninja -C "$P"
ln -sfn "$PWD/$B/fonts-cache" "$P/fonts-cache"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$P" --output-on-failure -j2
# i386: what 32-bit arithmetic on sizes and offsets does with hostile fonts (the CLI and the
# oracles need i386 builds of libpng, FreeType, HarfBuzz: left out)
# Some kernels cannot run 32-bit programs (no IA32 emulation): a probe decides, and the step is
# skipped there with a line saying so (the 64-bit builds above still ran everything).
T=build-i386
mkdir -p "$T"
printf 'int main(void) { return 0; }\n' >"$T/probe32.c"
if clang -m32 "$T/probe32.c" -o "$T/probe32" 2>/dev/null && "$T/probe32" 2>/dev/null; then
  CC=clang cmake -S . -B "$T" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOTV_SANITIZE=ON -DOTV_ORACLE=OFF \
    -DOTV_BENCH=OFF -DCMAKE_C_FLAGS=-m32 -DCMAKE_EXE_LINKER_FLAGS=-m32 \
    -DCMAKE_SHARED_LINKER_FLAGS=-m32 >/dev/null
  ninja -C "$T" $(ninja -C "$T" -t targets all | sed -n 's/^\(\(test\|replay\)_[a-z0-9_]*\): .*/\1/p' | sort -u)
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$T" -L "unit|fuzz" --output-on-failure -j2
else
  echo "SKIP: the i386 build: this machine cannot build or run 32-bit programs ($(uname -r))"
fi
# ThreadSanitizer: the face-sharing contract of otvar.h (any report fails the test)
S=build-tsan
CC=clang cmake -S . -B "$S" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOTV_TSAN=ON -DOTV_ORACLE=OFF \
  -DOTV_BENCH=OFF >/dev/null
ninja -C "$S" test_threads
# clang 14's TSan aborts on kernels that randomize mmap with more than 28 bits; without address
# space randomization its layout always fits (setarch -R, when the machine allows it)
norand=()
if setarch "$(uname -m)" -R true 2>/dev/null; then norand=(setarch "$(uname -m)" -R); fi
TSAN_OPTIONS=halt_on_error=1 "${norand[@]}" ctest --test-dir "$S" -R '^unit/test_threads$' \
  --output-on-failure
# valgrind memcheck needs binaries without sanitizers: a plain build of the CLI, same tests/fonts
V=build-valgrind
cmake -S . -B "$V" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOTV_ORACLE=OFF -DOTV_BENCH=OFF \
  -DCMAKE_C_FLAGS=-gdwarf-4 >/dev/null
ninja -C "$V" otvar_cli
OTVAR="$PWD/$V/otvar" OTV_FONTS="$PWD/tests/fonts" bash tests/cli/test_valgrind.sh
# the same build installed: pkg-config and find_package users (C and C++), a subproject, the
# installed CLI's data and manual pages, a build without the optional libraries
ninja -C "$V" otvar otvar_shared otvar_woff
bash scripts/check-install.sh "$V"
secs=${OTV_FUZZ_SECONDS:-30}
if [ "$secs" != 0 ]; then
  F=build-fuzz
  CC=clang cmake -S . -B "$F" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOTV_FUZZ=ON -DOTV_ORACLE=OFF -DOTV_BENCH=OFF >/dev/null
  # only the fuzz targets: the gcc build above already builds and runs everything else
  ninja -C "$F" $(ninja -C "$F" -t targets all | sed -n 's/^\(fuzz_[a-z0-9_]*\): .*/\1/p' | sort -u)
  bash fuzz/smoke.sh "$F" "$secs"
fi
