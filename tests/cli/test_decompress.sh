#!/usr/bin/env bash
# test_decompress.sh - `otvar decompress` and WOFF2 input on the command line: --help, exit codes
# (0 ok, 1 bad font or failed write, 2 bad usage or an existing output), default output names,
# no partial files, and commands reading a WOFF2 font as its source font. (Decoding itself is
# compared with the source fonts in tests/oracle/test_woff.py.)
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (repository root).
set -u
OTVAR=${OTVAR:-build/otvar}
FONTS=${OTV_FONTS:-tests/fonts}
ROOT=${OTV_ROOT:-.}
KARLA=$ROOT/fonts/Karla-VF.ttf
TMP=$(mktemp -d)
trap 'chmod -R u+w "$TMP"; rm -rf "$TMP"' EXIT
. "$(dirname "$0")/lib.sh"
no_file() { if [ ! -e "$2" ]; then ok; else bad "$1: $2 exists"; fi; }

expect 0 "decompress --help" -- "$OTVAR" decompress --help
has "decompress --help" "usage: otvar decompress"
empty_err "decompress --help"
expect 0 "otvar --help lists decompress" -- "$OTVAR" --help
has "otvar --help lists decompress" "decompress"

# a WOFF2 of the bundled font, made by Google's encoder (it writes next to its input)
cp "$KARLA" "$TMP/k.ttf"
woff2_compress "$TMP/k.ttf" >/dev/null 2>&1
if [ -s "$TMP/k.woff2" ]; then ok; else bad "woff2_compress made no k.woff2"; fi
rm "$TMP/k.ttf"

expect 2 "no FONT" -- "$OTVAR" decompress
one_line_err "no FONT"
expect 2 "two fonts" -- "$OTVAR" decompress "$TMP/k.woff2" "$TMP/k.woff2"
one_line_err "two fonts"
expect 2 "unknown option" -- "$OTVAR" decompress --frobnicate "$TMP/k.woff2"
one_line_err "unknown option"
expect 1 "missing file" -- "$OTVAR" decompress "$TMP/none.woff2"
one_line_err "missing file"
expect 1 "not a WOFF" -- "$OTVAR" decompress "$KARLA" -o "$TMP/x.ttf"
one_line_err "not a WOFF"; err_has "not a WOFF" "not a WOFF"; no_file "not a WOFF" "$TMP/x.ttf"

# default name: the extension replaced by .ttf (TrueType flavour)
expect 0 "default output" -- "$OTVAR" decompress "$TMP/k.woff2"
empty_err "default output"
if [ -s "$TMP/k.ttf" ]; then ok; else bad "no k.ttf written"; fi
cp "$TMP/k.ttf" "$TMP/keep.ttf"
expect 2 "existing output" -- "$OTVAR" decompress "$TMP/k.woff2"
one_line_err "existing output"
cmp -s "$TMP/k.ttf" "$TMP/keep.ttf" && ok || bad "existing output changed without --force"
expect 0 "--force" -- "$OTVAR" decompress "$TMP/k.woff2" --force
expect 2 "the input as output" -- "$OTVAR" decompress "$TMP/k.woff2" -o "$TMP/k.woff2" --force
one_line_err "the input as output"
expect 1 "unwritable path" -- "$OTVAR" decompress "$TMP/k.woff2" -o "$TMP/no/such/dir/x.ttf"
one_line_err "unwritable path"
# cut short: exit 1, one line naming WOFF2, no output and no temp file
mkdir "$TMP/cut"
head -c 20000 "$TMP/k.woff2" >"$TMP/cut/c.woff2"
expect 1 "truncated WOFF2" -- "$OTVAR" decompress "$TMP/cut/c.woff2"
one_line_err "truncated WOFF2"; err_has "truncated WOFF2" "WOFF2"
no_file "truncated WOFF2" "$TMP/cut/c.ttf"
if ls "$TMP/cut" | grep -qv '^c.woff2$'; then bad "truncated WOFF2: files left: $(ls "$TMP/cut")"; else ok; fi

# the decoded font is a valid font for ots-sanitize, as the source is
if command -v ots-sanitize >/dev/null; then
  expect 0 "ots-sanitize of the decoded font" -- ots-sanitize "$TMP/k.ttf"
fi

# commands read the WOFF2 itself: the same answers as on the source font
for args in "info" "tables" "normalize wght=650" "metrics --glyphs 0-40 --var wght=300" \
            "outline --glyphs 5-60 --var wght=777"; do
  set -- $args
  cmd=$1; shift
  # woff2_compress drops DSIG (its signature would no longer hold): left out of both
  "$OTVAR" "$cmd" "$KARLA" "$@" 2>&1 | sed "s#$KARLA#FONT#; s# DSIG##; s#^tables ([0-9]*)#tables#" |
    grep -v '^DSIG' >"$TMP/a"
  "$OTVAR" "$cmd" "$TMP/k.woff2" "$@" 2>&1 | sed "s#$TMP/k.woff2#FONT#; s#^tables ([0-9]*)#tables#" >"$TMP/b"
  if [ "$cmd" = tables ]; then
    # offsets follow the layout; glyf/loca are rebuilt and head carries WOFF2's flag: tags, lengths
    # and checksums of the others are the font's
    awk '$1 != "glyf" && $1 != "loca" && $1 != "head" {print $1, $3, $4}' "$TMP/a" >"$TMP/a2"
    awk '$1 != "glyf" && $1 != "loca" && $1 != "head" {print $1, $3, $4}' "$TMP/b" >"$TMP/b2"
    mv "$TMP/a2" "$TMP/a"; mv "$TMP/b2" "$TMP/b"
  fi
  if cmp -s "$TMP/a" "$TMP/b" && [ -s "$TMP/a" ]; then ok; else bad "$cmd on WOFF2 differs: $(diff "$TMP/a" "$TMP/b" | head -5)"; fi
done
expect 0 "render from WOFF2" -- "$OTVAR" render "$TMP/k.woff2" --text Hi -o "$TMP/h.png"
expect 0 "instance from WOFF2" -- "$OTVAR" instance "$TMP/k.woff2" --named 0 -o "$TMP/i.ttf"
expect 0 "instance from the source" -- "$OTVAR" instance "$KARLA" --named 0 -o "$TMP/j.ttf"
# the same instance but for head (WOFF2's flags bit 11) and the DSIG the encoder dropped
"$OTVAR" tables "$TMP/i.ttf" | awk '$1 != "head" {print $1, $3, $4}' >"$TMP/ti"
"$OTVAR" tables "$TMP/j.ttf" | awk '$1 != "head" && $1 != "DSIG" {print $1, $3, $4}' >"$TMP/tj"
if cmp -s "$TMP/ti" "$TMP/tj" && [ -s "$TMP/ti" ]; then ok; else bad "instance from WOFF2 differs from the source's: $(diff "$TMP/ti" "$TMP/tj" | head -5)"; fi

cli_summary test_decompress.sh
