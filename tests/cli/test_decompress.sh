#!/usr/bin/env bash
# test_decompress.sh - `otvar decompress`, `otvar compress` and WOFF2 input and output on the command line: --help, exit codes
# (0 ok, 1 bad font or failed write, 2 bad usage or an existing output), default output names,
# no partial files, and commands reading a WOFF2 font as its source font. (Decoding itself is
# compared with the source fonts in tests/oracle/test_woff.py.)
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (repository root).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
trap 'chmod -R u+w "$TMP"; rm -rf "$TMP"' EXIT
KARLA=$ROOT/fonts/Karla-VF.ttf

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

# a WOFF whose directory lists one tag twice: the sfnt writer refuses it, one line naming the tag
python3 - "$TMP/cut/dup.woff" <<'PY'
import struct, sys
data = b"abcd"  # two 4-byte tables 'abcd', stored (compLength == origLength)
n = 2
off = 44 + 20 * n
head = struct.pack(">4sIIHHIHHIIIII", b"wOFF", 0x00010000, off + 4 * n, n, 0, 12 + 16 * n + 4 * n,
                   1, 0, 0, 0, 0, 0, 0)
dirs = b"".join(struct.pack(">4sIIII", b"abcd", off + 4 * i, 4, 4, 0) for i in range(n))
open(sys.argv[1], "wb").write(head + dirs + data * n)
PY
expect 1 "WOFF with a tag twice" -- "$OTVAR" decompress "$TMP/cut/dup.woff"
one_line_err "WOFF with a tag twice"; err_has "WOFF with a tag twice" "table 'abcd' given twice"
no_file "WOFF with a tag twice" "$TMP/cut/dup.ttf"

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

# ---- otvar compress ----
expect 0 "compress --help" -- "$OTVAR" compress --help
has "compress --help" "usage: otvar compress"
expect 2 "compress without FONT" -- "$OTVAR" compress
one_line_err "compress without FONT"
mkdir "$TMP/c"
cp "$KARLA" "$TMP/c/k.ttf"
expect 0 "compress, default name" -- "$OTVAR" compress "$TMP/c/k.ttf" -q
empty_err "compress, default name"
if [ "$(head -c 4 "$TMP/c/k.woff2")" = wOF2 ]; then ok; else bad "compress wrote no WOFF2 k.woff2"; fi
expect 2 "compress over an existing output" -- "$OTVAR" compress "$TMP/c/k.ttf"
one_line_err "compress over an existing output"
expect 0 "compress --woff" -- "$OTVAR" compress "$TMP/c/k.ttf" --woff -q
if [ "$(head -c 4 "$TMP/c/k.woff")" = wOFF ]; then ok; else bad "compress --woff wrote no k.woff"; fi
# a WOFF2 input is decoded and encoded again: the same glyphs come back
expect 0 "compress a WOFF2" -- "$OTVAR" compress "$TMP/c/k.woff2" -o "$TMP/c/again.woff2" -q
"$OTVAR" outline "$TMP/c/again.woff2" --glyphs all --var wght=650 >"$TMP/a"
"$OTVAR" outline "$KARLA" --glyphs all --var wght=650 >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" && [ -s "$TMP/a" ] && ok || bad "outlines of the re-encoded WOFF2 differ"
# a collection and a non-font are refused with one line, and nothing is written
"$OTVAR" decompress "$ROOT/fuzz/corpus/woff/pair-ttc.woff2" -o "$TMP/c/pair.ttc" --force >/dev/null 2>&1
expect 1 "compress a collection" -- "$OTVAR" compress "$TMP/c/pair.ttc" -o "$TMP/c/pair.woff2"
one_line_err "compress a collection"; err_has "compress a collection" "collection"
no_file "compress a collection" "$TMP/c/pair.woff2"
head -c 5000 /dev/urandom >"$TMP/c/junk.ttf"
expect 1 "compress junk" -- "$OTVAR" compress "$TMP/c/junk.ttf"
one_line_err "compress junk"; no_file "compress junk" "$TMP/c/junk.woff2"
# a table past the end of the file: the library's directory check says which
head -c 20000 "$KARLA" >"$TMP/c/cut.ttf"
expect 1 "compress a cut font" -- "$OTVAR" compress "$TMP/c/cut.ttf"
one_line_err "compress a cut font"; err_has "compress a cut font" "runs past the end of the file"
no_file "compress a cut font" "$TMP/c/cut.woff2"
# a font of DSIG alone: nothing would be left to encode (a WOFF2 without tables decodes to nothing)
python3 - "$TMP/c/dsig.ttf" <<'PY'
import struct, sys
dsig = struct.pack(">IHH", 1, 0, 0)  # version 1, no signatures, flags
sfnt = struct.pack(">IHHHH4sIII", 0x00010000, 1, 16, 0, 0, b"DSIG", 0, 28, len(dsig))
open(sys.argv[1], "wb").write(sfnt + dsig)
PY
expect 1 "compress a font of DSIG alone" -- "$OTVAR" compress "$TMP/c/dsig.ttf"
one_line_err "compress a font of DSIG alone"; err_has "compress a font of DSIG alone" "DSIG"
no_file "compress a font of DSIG alone" "$TMP/c/dsig.woff2"
# instance -o X.woff2 writes WOFF2; --woff2 belongs to --all-named
expect 0 "instance -o .woff2" -- "$OTVAR" instance "$KARLA" --named 1 -o "$TMP/c/i.woff2" -q
if [ "$(head -c 4 "$TMP/c/i.woff2")" = wOF2 ]; then ok; else bad "instance -o i.woff2 is not WOFF2"; fi
expect 2 "--woff2 with -o" -- "$OTVAR" instance "$KARLA" --named 1 --woff2 -o "$TMP/c/j.woff2"
one_line_err "--woff2 with -o"

cli_summary test_decompress.sh
