#!/usr/bin/env bash
# coverage.sh - llvm-cov line coverage of src/ by (1) the test suite and (2) the fuzz corpora.
#
# Builds with clang -fprofile-instr-generate -fcoverage-mapping in build-cov (no sanitizers),
# then:
#   suite: runs ctest (every test: unit, oracle, CLI, fuzz replay) with one profile per process;
#   fuzz:  runs each replay_<target> over fuzz/corpus/<target>/, fuzz/regressions/<target>/, the
#          test fonts and any extra corpus directories given as CORPUS_ROOT/<target>/ (e.g. the
#          corpora a long fuzzing run left, kept out of git).
# Prints the per-file table and the TOTAL line of `llvm-cov report` for each, restricted to src/.
# Usage: scripts/coverage.sh [suite|fuzz|both] [CORPUS_ROOT...]   (default: both)
# Env: OTV_COV_BUILD (default build-cov), CTEST_ARGS (extra ctest arguments, e.g. "-E oracle").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
mode=${1:-both}
[ $# -gt 0 ] && shift
B=${OTV_COV_BUILD:-build-cov}
PROFDATA=$(command -v llvm-profdata || ls /usr/bin/llvm-profdata-* 2>/dev/null | sort -V | tail -1)
COV=$(command -v llvm-cov || ls /usr/bin/llvm-cov-* 2>/dev/null | sort -V | tail -1)
[ -n "$PROFDATA" ] && [ -n "$COV" ] || { echo "coverage.sh: llvm-profdata/llvm-cov not found" >&2; exit 2; }

oracle=ON
pkg-config --exists harfbuzz freetype2 2>/dev/null || oracle=OFF
CC=clang cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOTV_SANITIZE=OFF -DOTV_FUZZ=OFF \
  -DOTV_ORACLE=$oracle -DOTV_BENCH=OFF \
  -DCMAKE_C_FLAGS="-fprofile-instr-generate -fcoverage-mapping" \
  -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fprofile-instr-generate" >/dev/null
ninja -C "$B" -j2 >/dev/null

# every executable that links the library: llvm-cov needs them as objects
objects() {
  local args=() first=1
  for f in "$B"/test_* "$B"/replay_* "$B"/otvar; do
    [ -x "$f" ] && [ -f "$f" ] || continue
    if [ $first = 1 ]; then args+=("$f"); first=0; else args+=(-object "$f"); fi
  done
  printf '%s\n' "${args[@]}"
}

report() { # report NAME PROFDIR
  local name=$1 dir=$2
  "$PROFDATA" merge -sparse "$dir"/*.profraw -o "$dir/merged.profdata"
  mapfile -t objs < <(objects)
  echo "== line coverage of src/ by $name"
  "$COV" report "${objs[@]}" -instr-profile="$dir/merged.profdata" \
    -ignore-filename-regex='(tests|tools|fuzz|bench|include)/' "$ROOT/src" 2>/dev/null |
    awk 'NR == 1 {printf "%-28s %8s %8s %8s\n", "file", "lines", "missed", "cover"; next} NF >= 10 {printf "%-28s %8s %8s %8s\n", $1, $8, $9, $10}'
  "$COV" report "${objs[@]}" -instr-profile="$dir/merged.profdata" \
    -ignore-filename-regex='(tests|tools|fuzz|bench|include)/' "$ROOT/src" 2>/dev/null | awk '/TOTAL/ {
      # columns: regions, missed, cover, functions, missed, executed, lines, missed, cover, ...
      print "TOTAL line coverage: " $10 " (" $8 - $9 " of " $8 " lines)"}'
}

if [ "$mode" = suite ] || [ "$mode" = both ]; then
  rm -rf "$B/prof-suite" && mkdir -p "$B/prof-suite"
  mkdir -p "$B/fonts-cache"
  [ -f tests/fetch-fonts.sh ] && bash tests/fetch-fonts.sh "$B/fonts-cache" >/dev/null 2>&1 || true
  LLVM_PROFILE_FILE="$ROOT/$B/prof-suite/%p-%m.profraw" \
    ctest --test-dir "$B" -j2 ${CTEST_ARGS:-} >"$B/prof-suite/ctest.log" 2>&1 ||
    echo "(some tests failed: see $B/prof-suite/ctest.log; coverage still counts them)"
  report "the test suite" "$B/prof-suite"
fi

if [ "$mode" = fuzz ] || [ "$mode" = both ]; then
  rm -rf "$B/prof-fuzz" && mkdir -p "$B/prof-fuzz"
  for bin in "$B"/replay_*; do
    t=$(basename "$bin"); t=${t#replay_}
    dirs=("$ROOT/fuzz/corpus/$t" "$ROOT/fuzz/regressions/$t" "$ROOT/tests/fonts")
    for extra in "$@"; do dirs+=("$extra/$t"); done
    n=0
    for d in "${dirs[@]}"; do [ -d "$d" ] && n=$((n + $(find "$d" -type f | wc -l))); done
    echo "fuzz corpus $t: $n inputs"
    LLVM_PROFILE_FILE="$ROOT/$B/prof-fuzz/%p-%m.profraw" "$bin" "${dirs[@]}" >/dev/null 2>&1 ||
      echo "  (replay_$t failed on some input)"
  done
  report "the fuzz corpora" "$B/prof-fuzz"
fi
