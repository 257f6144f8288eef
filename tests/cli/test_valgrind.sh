#!/usr/bin/env bash
# test_valgrind.sh - valgrind memcheck on the CLI over every test font: zero errors and zero leaks
# (definite, indirect, possible) for each command that exists: info (text and --json), normalize,
# outline, metrics, instance. Needs a build without sanitizers (valgrind cannot run an ASan
# binary): under an ASan/UBSan build, or without valgrind, it prints SKIP and passes.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_VALGRIND_FONTS (optional font list override).
set -u
OTVAR=${OTVAR:?OTVAR not set}
FONTS=${OTV_FONTS:-$(dirname "$0")/../fonts}

if ! command -v valgrind >/dev/null 2>&1; then
  echo "SKIP: valgrind not installed"; exit 0
fi
# ASan builds: libasan is linked (gcc) or the runtime is compiled in (clang)
if ldd "$OTVAR" 2>/dev/null | grep -q 'lib[at]san' || nm -a "$OTVAR" 2>/dev/null | grep -q '__asan_init'; then
  echo "SKIP: $OTVAR is built with AddressSanitizer (valgrind needs a build without -DOTV_SANITIZE=ON)"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmds=$("$OTVAR" --help 2>&1 | awk '/^commands:/{f=1;next} f&&NF{print $1} f&&!NF{exit}')
has() { printf '%s\n' "$cmds" | grep -qx "$1"; }

fail=0 runs=0
vg() { # vg NAME ARGS...: run the CLI under memcheck; exit 0/1/2 are the CLI's own answers
  local name=$1; shift
  runs=$((runs + 1))
  valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes \
    --log-file="$tmp/vg.log" "$OTVAR" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" = 99 ] || [ -s "$tmp/vg.log" ]; then
    echo "FAIL: valgrind: otvar $* (exit $rc)"; head -60 "$tmp/vg.log"; fail=1
  elif [ "$rc" -gt 2 ]; then
    echo "FAIL: otvar $* exited $rc"; tail -5 "$tmp/err"; fail=1
  fi
}

fonts=${OTV_VALGRIND_FONTS:-$(ls "$FONTS"/*.ttf "$FONTS"/*.otf 2>/dev/null)}
n=0
for f in $fonts; do
  n=$((n + 1))
  has info && { vg info "$f"; vg info "$f" --json --metrics; }
  has normalize && vg normalize "$f"
  has outline && { vg outline "$f" --glyphs all; vg outline "$f" --named 0 --glyphs all --round; }
  has metrics && { vg metrics "$f" --glyphs all; vg metrics "$f" --glyphs all --vertical --named 0; }
  if has instance && [ $((n % 3)) = 1 ]; then # every third font: instancing is the slowest
    vg instance "$f" --named 0 -o "$tmp/inst-$n.ttf" --force
  fi
done
# hostile inputs through the CLI too (the regression corpus, if present)
root=$(cd "$(dirname "$0")/../.." && pwd)
for f in "$root"/fuzz/regressions/*/*; do
  [ -f "$f" ] || continue
  has info && vg info "$f"
  has outline && vg outline "$f" --glyphs all
done
echo "valgrind: $runs runs over $n fonts, commands: $(echo $cmds | tr '\n' ' ')"
[ $runs -gt 0 ] || { echo "FAIL: nothing ran"; exit 1; }
exit $fail
