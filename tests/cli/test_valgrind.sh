#!/usr/bin/env bash
# test_valgrind.sh - valgrind memcheck on the CLI over every test font: zero errors and zero leaks
# (definite, indirect, possible) for each command that exists: info (text and --json), normalize,
# outline, metrics, instance, render, and standard input and output ("-"). Needs a build without
# sanitizers (valgrind cannot run an ASan binary): under an ASan/UBSan build, or without
# valgrind, it prints SKIP and passes.
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
# static binaries (OTV_CLI_STATIC, Release builds): valgrind cannot replace a static glibc's malloc
# (no leak checks) and reports glibc's own internals
if ldd "$OTVAR" 2>&1 | grep -q 'statically linked\|not a dynamic executable'; then
  echo "SKIP: $OTVAR is linked statically (valgrind needs a dynamic build: -DOTV_CLI_STATIC=OFF)"
  exit 0
fi

if nm -a "$OTVAR" 2>/dev/null | grep -q '__llvm_profile_runtime'; then
  echo "SKIP: $OTVAR is a coverage build (profile instrumentation)"; exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# valgrind must be able to read the binary's debug info (clang 14 emits DWARF 5 that older
# valgrind releases reject): a trial run decides
if ! valgrind -q --log-file="$tmp/probe.log" "$OTVAR" --help >/dev/null 2>&1 ||
   grep -q "Giving up" "$tmp/probe.log"; then
  echo "SKIP: valgrind cannot run $OTVAR here:"; head -5 "$tmp/probe.log"; exit 0
fi
cmds=$("$OTVAR" --help 2>&1 | awk '/^commands:/{f=1;next} f&&NF{print $1} f&&!NF{exit}')
has() { printf '%s\n' "$cmds" | grep -qx "$1"; }

fail=0 runs=0
vg() { # vg NAME ARGS...: run the CLI under memcheck; exit 0/1/2 are the CLI's own answers
  local name=$1; shift
  runs=$((runs + 1))
  valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible \
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
  # one run per command and font keeps this under ~2 minutes (valgrind is ~30x slower);
  # the options alternate between fonts so each path is covered somewhere
  has info && vg info "$f" --json --metrics --named 0
  has normalize && vg normalize "$f"
  if [ $((n % 2)) = 0 ]; then
    has outline && vg outline "$f" --glyphs all
    has metrics && vg metrics "$f" --glyphs all --named 0
  else
    has outline && vg outline "$f" --named 0 --glyphs all --round --format svg
    has metrics && vg metrics "$f" --glyphs all --vertical --round
  fi
  case $n in # the slow ones on a few fonts
    1|6|11|16) has instance && vg instance "$f" --named 0 -o "$tmp/inst-$n.ttf" --force ;;
    2|3|4|7|8|13|24) has instance && vg instance "$f" --keep wght -o "$tmp/part-$n.ttf" --force ;;
    3|9|15) has render && vg render "$f" --text "ABC abc" --size 24 -o "$tmp/r-$n.png" --force ;;
  esac
done
# "-": a font read from standard input (kept until exit), instances written to standard output
first=$FONTS/Roboto-Variable.ABC.ttf
[ -f "$first" ] || first=$(printf '%s\n' $fonts | head -1)
if [ -n "$first" ]; then
  has info && vg info - --json --metrics <"$first"
  has outline && vg outline - --glyphs all -o - <"$first"
  has instance && vg instance - --named 0 -o - <"$first"
  has instance && vg instance "$first" --var wght=300 --var wght=700 -o - </dev/null
fi
# hostile inputs through the CLI too (the regression corpus, if present)
root=$(cd "$(dirname "$0")/../.." && pwd)
for f in "$root"/fuzz/regressions/*/*; do
  [ -f "$f" ] || continue
  has info && vg info "$f"
  has outline && vg outline "$f" --glyphs all
done
# WOFF/WOFF2 input (fuzz/corpus/woff: both encoders' files, a collection, "raw" fuzz inputs that
# must fail cleanly): decoding, then a command on the decoded font
for f in "$root"/fuzz/corpus/woff/*; do
  [ -f "$f" ] || continue
  has decompress && vg decompress "$f" -o "$tmp/d.ttf" --force
  has outline && vg outline "$f" --glyphs all
done
echo "valgrind: $runs runs over $n fonts, commands: $(echo $cmds | tr '\n' ' ')"
[ $runs -gt 0 ] || { echo "FAIL: nothing ran"; exit 1; }
exit $fail
