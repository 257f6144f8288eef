#!/usr/bin/env bash
# test_work_budget.sh - whole-font CLI walks under the face's work budget (docs/limits.md "Work
# budgets"): on the three bombs of tests/unit/test_work_budget.c (a composite fan-out, one gvar
# blob and one HVAR row shared by every glyph; that program writes them) `metrics` and `outline`
# over every glyph of the first two stop with one error line naming the table and exit 1 (before
# the budget they ran for ~270 s and ~36 s), the third goes through (its row read once: before,
# ~3.6 s); instancing them succeeds; every test font (tests/fonts and
# the font cache) goes through `metrics` (default and a named instance) and `outline` without a
# budget error. A CPU-time ulimit turns a run that would take minutes into a failure.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_FONT_CACHE (real fonts, optional).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
CACHE=${OTV_FONT_CACHE:-}

GEN="$(dirname "$OTVAR")/test_work_budget"
if [ ! -x "$GEN" ]; then
  echo "test_work_budget: SKIP (no $GEN to write the fonts)"
  exit 0
fi
"$GEN" --write "$TMP" || { echo "cannot write the bombs"; exit 1; }

# run under a CPU-time limit (the sanitized CLI takes well under a second per bomb with the
# budget; without it the fan-out alone runs for minutes)
lim() { (ulimit -t 60; "$@"); }

for spec in fanout:glyf gvar:gvar; do
  name=${spec%%:*} tab=${spec#*:}
  F=$TMP/bomb_$name.ttf
  expect 1 "metrics $name" -- lim "$OTVAR" metrics "$F" --var wght=420
  one_line_err "metrics $name"
  err_has "metrics $name" "$tab+0x[0-9a-f]*: resource limit exceeded (glyph [0-9]*: work budget of [0-9]* units spent)"
  expect 1 "outline $name" -- lim "$OTVAR" outline "$F" --var wght=420
  one_line_err "outline $name"
  err_has "outline $name" "work budget"
  expect 0 "instance $name" -- lim "$OTVAR" instance "$F" --var wght=420 -o "$TMP/inst_$name.ttf"
done
# the HVAR row is read once per location (metrics.c's row memo): the walk goes through, every
# glyph with the same advance
F=$TMP/bomb_hvar.ttf
expect 0 "metrics hvar" -- lim "$OTVAR" metrics "$F" --var wght=900
if [ "$(wc -l <"$TMP/out")" -eq 65535 ] && [ "$(cut -d' ' -f2 "$TMP/out" | sort -u)" = 4595 ]; then ok; else bad "metrics hvar: $(wc -l <"$TMP/out") lines, advances $(cut -d' ' -f2 "$TMP/out" | sort -u | head -3 | tr '\n' ' ')"; fi
expect 0 "instance hvar" -- lim "$OTVAR" instance "$F" --var wght=420 -o "$TMP/inst_hvar.ttf"

# real fonts: never a budget error
n=0
for F in "$FONTS"/*.ttf "$FONTS"/*.otf ${CACHE:+"$CACHE"/*.ttf "$CACHE"/*.otf}; do
  [ -f "$F" ] || continue
  n=$((n + 1))
  expect 0 "metrics $(basename "$F")" -- "$OTVAR" metrics "$F"
  expect 0 "metrics --vertical $(basename "$F")" -- "$OTVAR" metrics "$F" --vertical
  if "$OTVAR" info "$F" 2>/dev/null | grep -q "^named instances ([1-9]"; then
    expect 0 "metrics --named 0 $(basename "$F")" -- "$OTVAR" metrics "$F" --named 0
  fi
  expect 0 "outline $(basename "$F")" -- "$OTVAR" outline "$F"
done
echo "$n fonts walked"
cli_summary test_work_budget
