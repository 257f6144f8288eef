#!/usr/bin/env bash
# Runs every libFuzzer target built in BUILD_DIR for SECONDS each, on a copy of its seed corpus
# (fuzz/corpus/<target>/ plus the test fonts), after replaying fuzz/regressions/<target>/.
# Fails when a replay or the fuzzer finds a crash, leak, hang or undefined behaviour.
# Usage: fuzz/smoke.sh BUILD_DIR SECONDS
set -euo pipefail
B=$(cd "$1" && pwd); SECS=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
status=0
for bin in "$B"/fuzz_*; do
  [ -x "$bin" ] || continue
  t=$(basename "$bin"); short=${t#fuzz_}
  work=$(mktemp -d)
  mkdir -p "$work/corpus"
  cp "$ROOT"/tests/fonts/*.ttf "$ROOT"/tests/fonts/*.otf "$ROOT"/fonts/*.ttf "$work/corpus/" 2>/dev/null || true
  [ -d "$ROOT/fuzz/corpus/$short" ] && cp "$ROOT/fuzz/corpus/$short"/* "$work/corpus/" 2>/dev/null || true
  dict=()
  [ -f "$ROOT/fuzz/otvar.dict" ] && dict=(-dict="$ROOT/fuzz/otvar.dict")
  # first the saved regressions, under this build's sanitizers (clang's UBSan checks more than
  # gcc's, e.g. a zero offset applied to a null pointer)
  if [ -d "$ROOT/fuzz/regressions/$short" ] && ls "$ROOT/fuzz/regressions/$short"/* >/dev/null 2>&1; then
    if ! "$bin" -runs=1 "$ROOT/fuzz/regressions/$short"/* >"$work/replay.log" 2>&1; then
      echo "fuzz smoke: $t regression replay FAILED"; tail -40 "$work/replay.log"; status=1
    else
      echo "fuzz smoke: $t replayed $(ls "$ROOT/fuzz/regressions/$short" | wc -l) regressions"
    fi
  fi
  echo "fuzz smoke: $t for ${SECS}s"
  if ! (cd "$work" && "$bin" "${dict[@]}" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -max_len=262144 -print_final_stats=1 corpus >"$work/log" 2>&1); then
    echo "fuzz smoke: $t FAILED"; tail -40 "$work/log"; status=1
    ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* 2>/dev/null || true
  else
    grep -E 'stat::number_of_executed_units|cov:' "$work/log" | tail -2
  fi
  rm -rf "$work"
done
exit $status
