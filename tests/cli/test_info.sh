#!/usr/bin/env bash
# test_info.sh - the `otvar info` and `otvar normalize` command lines: --help, exit codes
# (0 ok, 1 bad font, 2 bad usage), one-line errors on stderr, output shapes.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (repository root).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
KARLA=$ROOT/fonts/Karla-VF.ttf

# ---- help ----
for cmd in info normalize; do
  expect 0 "$cmd --help" -- "$OTVAR" $cmd --help
  has "$cmd --help" "usage: otvar $cmd"
  empty_err "$cmd --help"
  expect 0 "$cmd -h" -- "$OTVAR" $cmd -h
done

# ---- usage errors: exit 2, one line ----
expect 2 "info without FONT" -- "$OTVAR" info
one_line_err "info without FONT"
expect 2 "info unknown option" -- "$OTVAR" info --frobnicate "$KARLA"
one_line_err "info unknown option"
expect 2 "info two fonts" -- "$OTVAR" info "$KARLA" "$KARLA"
one_line_err "info two fonts"
expect 2 "info --index without value" -- "$OTVAR" info "$KARLA" --index
one_line_err "info --index without value"
expect 2 "info --index not a number" -- "$OTVAR" info "$KARLA" --index x
one_line_err "info --index not a number"
expect 2 "info --var unknown axis" -- "$OTVAR" info "$KARLA" --var wdth=100
one_line_err "info --var unknown axis"
expect 2 "info --var malformed" -- "$OTVAR" info "$KARLA" --var wght
one_line_err "info --var malformed"
expect 2 "info --named missing" -- "$OTVAR" info "$KARLA" --named NoSuchInstance
one_line_err "info --named missing"
expect 2 "normalize without FONT" -- "$OTVAR" normalize
one_line_err "normalize without FONT"
expect 2 "normalize unknown option" -- "$OTVAR" normalize --frobnicate "$KARLA"
one_line_err "normalize unknown option"
expect 2 "normalize unknown axis" -- "$OTVAR" normalize "$KARLA" wdth=100
one_line_err "normalize unknown axis"
expect 2 "normalize malformed value" -- "$OTVAR" normalize "$KARLA" wght=abc
one_line_err "normalize malformed value"
# not finite: refused like an overflowing 1e400, not clamped to the axis end
for v in inf -inf nan 1e400; do
  expect 2 "normalize value $v" -- "$OTVAR" normalize "$KARLA" wght=$v
  one_line_err "normalize value $v"; err_has "normalize value $v" "finite"
done

# ---- bad fonts: exit 1, one line naming the file ----
printf 'this is not a font at all' >"$TMP/bad.ttf"
head -c 100 "$KARLA" >"$TMP/truncated.ttf"
for f in "$TMP/bad.ttf" "$TMP/truncated.ttf" "$TMP/missing.ttf" "$TMP"; do
  expect 1 "info $f" -- "$OTVAR" info "$f"
  one_line_err "info $f"
  if grep -qF "$f" "$TMP/err"; then ok; else bad "info $f: error does not name the file"; fi
  expect 1 "info --json $f" -- "$OTVAR" info --json "$f"
  if [ ! -s "$TMP/out" ]; then ok; else bad "info --json $f: wrote output for a bad font"; fi
  expect 1 "normalize $f" -- "$OTVAR" normalize "$f" wght=300
  one_line_err "normalize $f"
done
expect 1 "info --index 1 of a single font" -- "$OTVAR" info "$KARLA" --index 1
one_line_err "info --index 1"

# ---- good fonts ----
expect 0 "info Karla" -- "$OTVAR" info "$KARLA"
empty_err "info Karla"
has "info Karla" "flavour: glyf"
has "info Karla" "wght \"Weight\" min 200 default 400 max 800"
has "info Karla" "named instances (6)"
has "info Karla" "STAT: version 1.1"
expect 0 "info --json Karla" -- "$OTVAR" info --json "$KARLA"
if /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["axes"][0]["tag"]=="wght" and d["otvar_info_version"]==1' "$TMP/out"; then ok; else bad "info --json Karla: not the documented JSON"; fi
expect 0 "info --var" -- "$OTVAR" info "$KARLA" --var wght=800
has "info --var" "location: wght=800 (16384)"
expect 0 "info --named" -- "$OTVAR" info --json "$KARLA" --named Bold
if /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["location"]["user"]==[700]' "$TMP/out"; then ok; else bad "info --named Bold: location"; fi
expect 0 "info --metrics" -- "$OTVAR" info --json "$KARLA" --var wght=300 --metrics
if /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d["metrics"], dict)' "$TMP/out"; then ok; else bad "info --json --metrics: not JSON with a metrics object"; fi
for f in "$FONTS"/*.ttf "$FONTS"/*.otf; do
  expect 0 "info $f" -- "$OTVAR" info "$f"
  expect 0 "info --json $f" -- "$OTVAR" info --json "$f"
done

# ---- normalize: one line per axis, TAG USER F2DOT14 FIXED REAL ----
expect 0 "normalize Karla" -- "$OTVAR" normalize "$KARLA" wght=300
empty_err "normalize Karla"
if grep -Eq '^wght 300 -?[0-9]+ -?[0-9]+ -?[0-9.]+$' "$TMP/out" && [ "$(wc -l <"$TMP/out")" -eq 1 ]; then ok; else bad "normalize Karla: $(cat "$TMP/out")"; fi
# Extremes and default are fixed by the spec (avar maps must keep -1, 0, +1); out-of-range clamps.
for pair in "200 -16384 -65536 -1" "400 0 0 0" "800 16384 65536 1" "1000 16384 65536 1" "-5 -16384 -65536 -1"; do
  set -- $pair
  expect 0 "normalize wght=$1" -- "$OTVAR" normalize "$KARLA" "wght=$1"
  if [ "$(cat "$TMP/out")" = "wght $1 $2 $3 $4" ]; then ok; else bad "normalize wght=$1: '$(cat "$TMP/out")', expected 'wght $1 $2 $3 $4'"; fi
done
# Unlisted axes default; the listed ones in font order; commas allowed.
expect 0 "normalize 2 axes" -- "$OTVAR" normalize "$FONTS/Roboto-Variable.ABC.ttf" wdth=75,wght=900
if [ "$(cat "$TMP/out")" = "$(printf 'wght 900 16384 65536 1\nwdth 75 -16384 -65536 -1')" ]; then ok; else bad "normalize Roboto: $(cat "$TMP/out")"; fi
expect 0 "normalize defaults" -- "$OTVAR" normalize "$FONTS/STATInstancerTest.ttf"
if [ "$(cat "$TMP/out")" = "$(printf 'wght 400 0 0 0\nwdth 100 0 0 0\nital 0 0 0 0')" ]; then ok; else bad "normalize defaults: $(cat "$TMP/out")"; fi
# avar 2 (hand-computed, see tests/oracle/test_normalize.c): AVWK follows AVAR.
expect 0 "normalize avar2" -- "$OTVAR" normalize "$FONTS/avar2checker.ttf" AVAR=50
if [ "$(cat "$TMP/out")" = "$(printf 'AVAR 50 8192 32768 0.5\nAVWK 0 8192 32768 0.5')" ]; then ok; else bad "normalize avar2: $(cat "$TMP/out")"; fi
# The models (normalize.c; tests/unit/test_avar.c has more cases by hand): Roboto's wdth runs
# 75..100 (default 100, an identity avar map). 58/65536 below the default: 16.16 58 / 25 = 2.32
# -> -2 -> F2Dot14 floor(0 / 4) = 0 (spec, freetype; harfbuzz: binary32 -2.32 -> -2 too); the
# exact value, -0.58 of a step, rounds to -1 in fontTools' double and HarfBuzz 6.0's binary32.
expect 0 "normalize all models" -- "$OTVAR" normalize "$FONTS/Roboto-Variable.ABC.ttf" --normalize all wdth=99.999114990234375
got=$(awk '$1 == "wdth" {print $6 "=" $3}' "$TMP/out" | tr '\n' ' ')
want="spec=0 fonttools=-1 harfbuzz6=-1 freetype=0 harfbuzz=0 "
if [ "$got" = "$want" ]; then ok; else bad "normalize --normalize all: '$got', expected '$want'"; fi
expect 2 "normalize unknown model" -- "$OTVAR" normalize "$KARLA" --normalize bogus wght=300
one_line_err "normalize unknown model"; err_has "normalize unknown model" "harfbuzz6"
for cmd in outline metrics info; do
  expect 2 "$cmd unknown model" -- "$OTVAR" $cmd "$KARLA" --var wght=300 --normalize Spec
  one_line_err "$cmd unknown model"
done

cli_summary test_info.sh
