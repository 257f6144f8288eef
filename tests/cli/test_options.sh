#!/usr/bin/env bash
# test_options.sh - the one option parser every subcommand uses (tools/util_opts.c) and "-" as
# standard input and output: --opt=VALUE is --opt VALUE, -- ends the options, repeated list
# options merge (--var: a tag given twice takes the later value), single-value options given
# twice are usage errors, FONT - reads standard input, -o - writes standard output (never a
# binary to a terminal), every usage error has the same wording and exit 2, and --help lists
# exactly what the parser accepts.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (repository root).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
OTVAR=$(abs "$OTVAR") FONTS=$(abs "$FONTS") ROOT=$(abs "$ROOT")
KARLA=$ROOT/fonts/Karla-VF.ttf
R=$FONTS/Roboto-Variable.ABC.ttf       # wght, wdth
S=$FONTS/STATInstancerTest.ttf         # wght, wdth, ital
O=$TMP/o
mkdir "$O"
cd "$O" || exit 1 # whatever a command writes by mistake (-o -, -d -, default names) stays here

# same DESC A B: files A and B exist, are not empty and are byte-identical
same() {
  if [ -s "$2" ] && cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ (or are empty)"; fi
}
# err_is DESC TEXT: stderr is exactly TEXT (one line)
err_is() {
  if [ "$(cat "$TMP/err")" = "$2" ]; then ok; else bad "$1: stderr is '$(cat "$TMP/err")', expected '$2'"; fi
}
# run CMD... >FILE: the CLI's stdout into a file, its exit code checked (0)
out() {
  local f=$1; shift
  "$OTVAR" "$@" >"$f" 2>"$TMP/err" || bad "otvar $*: exit $? ($(head -c 200 "$TMP/err"))"
}

# ---- --opt=VALUE is --opt VALUE, for value and list options of several commands ----
out "$O/a1" outline "$R" --var wght=650,wdth=90 --glyphs 1-5 --format svg
out "$O/a2" outline "$R" --var=wght=650,wdth=90 --glyphs=1-5 --format=svg
same "outline --opt=VALUE" "$O/a1" "$O/a2"
out "$O/b1" info --json "$KARLA" --named Bold --index 0
out "$O/b2" info --json "$KARLA" --named=Bold --index=0
same "info --opt=VALUE" "$O/b1" "$O/b2"
out "$O/c1" render "$KARLA" --text Hi --size 30 --slant 0.1 --fg 102030 -o "$O/c1.png"
out "$O/c2" render "$KARLA" --text=Hi --size=30 --slant=0.1 --fg=102030 -o "$O/c2.png"
same "render --opt=VALUE" "$O/c1.png" "$O/c2.png"
# a short option's value attached (-j2) or in the next argument; options before FONT
out "$O/d" instance "$R" --all-named -d "$O/j1" -j 2 -q
out "$O/d" instance --all-named -qj2 -d"$O/j2" "$R"
if [ -n "$(ls "$O/j1")" ] && diff -r "$O/j1" "$O/j2" >/dev/null; then ok; else bad "-j 2 -d DIR vs -qj2 -dDIR: different files"; fi
# positionals in any order, whatever POSIXLY_CORRECT says
out "$O/e1" metrics "$R" --glyphs 0-3 --round
POSIXLY_CORRECT=1 out "$O/e2" metrics --glyphs 0-3 "$R" --round
same "FONT before and after options (POSIXLY_CORRECT)" "$O/e1" "$O/e2"

# ---- -- ends the options: a font file named like an option ----
cp "$R" "$O/-x.ttf"
out "$O/f1" tables "$R"
(cd "$O" && "$OTVAR" tables -- -x.ttf >"$O/f2" 2>"$TMP/err") || bad "tables -- -x.ttf: exit $?"
same "tables -- -x.ttf" "$O/f1" "$O/f2"
(cd "$O" && "$OTVAR" outline --glyphs 2 -- -x.ttf >"$O/f3" 2>"$TMP/err") || bad "outline --glyphs 2 -- -x.ttf: exit $?"
out "$O/f4" outline --glyphs 2 "$R"
same "outline -- -x.ttf" "$O/f3" "$O/f4"
(cd "$O" && expect 2 "-x.ttf without --" -- "$OTVAR" tables -x.ttf)
err_is "-x.ttf without --" "otvar: tables: unknown option '-x' (in '-x.ttf') (see 'otvar tables --help')"

# ---- repeated --var merges: the same as one list; a tag given twice takes the later value ----
out "$O/g1" outline "$R" --var wght=700,wdth=80
out "$O/g2" outline "$R" --var wght=700 --var wdth=80
same "outline --var merged" "$O/g1" "$O/g2"
out "$O/g3" metrics "$R" --var wdth=80 --var=wght=700
out "$O/g4" metrics "$R" --var wght=700,wdth=80
same "metrics --var merged" "$O/g3" "$O/g4"
out "$O/g5" info "$R" --var wght=700 --var wdth=80
out "$O/g11" info "$R" --var wght=700,wdth=80
same "info --var merged" "$O/g5" "$O/g11"
if grep -q '^location: wght=700 ([0-9]*) wdth=80 (-13107)$' "$O/g5"; then ok; else bad "info --var merged: $(tail -1 "$O/g5")"; fi
out "$O/g6" outline "$R" --var wght=300 --var wdth=80 --var wght=700
same "later --var tag wins" "$O/g1" "$O/g6"
out "$O/g7" outline "$R" --var wght=300,wdth=80,wght=700
same "later tag in one --var wins" "$O/g1" "$O/g7"
out "$O/g8" normalize "$R" wght=300 wdth=80 wght=700
out "$O/g10" normalize "$R" wght=700,wdth=80
same "normalize: later tag wins" "$O/g8" "$O/g10"
# an overridden value is not the one checked: the later one is the location
expect 0 "overridden out-of-range --var" -- "$OTVAR" outline "$R" --var wght=5000 --var wght=700,wdth=80
cp "$TMP/out" "$O/g9"
same "overridden out-of-range --var" "$O/g1" "$O/g9"
out "$O/h1" instance "$R" --var wght=700,wdth=80 -o "$O/h1.ttf" -q
out "$O/h2" instance "$R" --var wdth=80 --var wght=300 --var wght=700 -o "$O/h2.ttf" -q
same "instance --var merged, later wins" "$O/h1.ttf" "$O/h2.ttf"
# --glyphs and --keep merge too ("all" may be one item of the list)
out "$O/i1" outline "$R" --glyphs 1-2,5
out "$O/i2" outline "$R" --glyphs 1-2 --glyphs=5
same "outline --glyphs merged" "$O/i1" "$O/i2"
out "$O/i3" metrics "$R" --glyphs all --glyphs 3
out "$O/i4" metrics "$R"
out "$O/i5" metrics "$R" --glyphs 3
cat "$O/i4" "$O/i5" >"$O/i6"
same "metrics --glyphs all --glyphs 3" "$O/i3" "$O/i6"
out "$O/k1" instance "$S" --keep wght,wdth --var ital=1 -o "$O/k1.ttf" -q
out "$O/k2" instance "$S" --keep wght --var ital=1 --keep wdth -o "$O/k2.ttf" -q
same "instance --keep merged" "$O/k1.ttf" "$O/k2.ttf"

# ---- a single-value option given twice: exit 2, one line naming it ----
for args in "instance $R -o $O/x1.ttf -o $O/x2.ttf" "instance $R --named 0 --named 1 -o $O/x3.ttf" \
            "info $R --index 0 --index=0" "outline $R --format svg --format svg" \
            "render $KARLA --text a --text b -o $O/x4.png" "specimen $KARLA --size 20 --size=30 -o $O/x5.png" \
            "compress $KARLA -o $O/x6.woff2 -o $O/x7.woff2"; do
  set -- $args
  expect 2 "$args" -- "$OTVAR" "$@"
  one_line_err "$args"; err_has "$args" "given twice"
done
if ls "$O"/x* >/dev/null 2>&1; then bad "a duplicate option wrote a file: $(ls "$O"/x*)"; else ok; fi
expect 2 "instance -o twice" -- "$OTVAR" instance "$R" -o a.ttf -o b.ttf
err_is "instance -o twice" "otvar: instance: '-o' given twice (see 'otvar instance --help')"
expect 2 "info --named twice" -- "$OTVAR" info "$R" --named 0 --named=1
err_is "info --named twice" "otvar: info: '--named' given twice (see 'otvar info --help')"
# flags may repeat (nothing changes)
expect 0 "--json twice" -- "$OTVAR" info "$KARLA" --json --json
cp "$TMP/out" "$O/l1"
out "$O/l2" info --json "$KARLA"
same "--json twice" "$O/l1" "$O/l2"

# ---- usage errors: one wording everywhere, exit 2 ----
expect 2 "unknown option" -- "$OTVAR" instance "$R" --foo -o "$O/y.ttf"
err_is "unknown option" "otvar: instance: unknown option '--foo' (see 'otvar instance --help')"
expect 2 "unknown option with a value" -- "$OTVAR" metrics "$R" --foo=3
err_is "unknown option with a value" "otvar: metrics: unknown option '--foo' (see 'otvar metrics --help')"
expect 2 "abbreviated option" -- "$OTVAR" outline "$R" --glyph 1
err_is "abbreviated option" "otvar: outline: unknown option '--glyph' (see 'otvar outline --help')"
expect 2 "unknown short option" -- "$OTVAR" compress "$KARLA" -z
err_is "unknown short option" "otvar: compress: unknown option '-z' (see 'otvar compress --help')"
expect 2 "missing value" -- "$OTVAR" render "$KARLA" --text Hi --size
err_is "missing value" "otvar: render: option '--size' needs a value (see 'otvar render --help')"
expect 2 "missing short value" -- "$OTVAR" outline "$R" -o
err_is "missing short value" "otvar: outline: option '-o' needs a value (see 'otvar outline --help')"
expect 2 "flag with a value" -- "$OTVAR" decompress "$KARLA" --force=yes
err_is "flag with a value" "otvar: decompress: option '--force' takes no value (see 'otvar decompress --help')"
for cmd in info normalize outline metrics instance render specimen tables compress decompress; do
  expect 2 "$cmd without FONT" -- "$OTVAR" $cmd
  err_is "$cmd without FONT" "otvar: $cmd: missing FONT (see 'otvar $cmd --help')"
  expect 2 "$cmd unknown option" -- "$OTVAR" $cmd "$KARLA" --no-such-option
  err_is "$cmd unknown option" "otvar: $cmd: unknown option '--no-such-option' (see 'otvar $cmd --help')"
done
expect 2 "two fonts" -- "$OTVAR" outline "$R" "$KARLA"
err_is "two fonts" "otvar: outline: unexpected argument '$KARLA' (see 'otvar outline --help')"
expect 2 "instance without -o" -- "$OTVAR" instance "$R" --var wght=700
err_is "instance without -o" "otvar: instance: missing -o OUT (or --all-named -d DIR) (see 'otvar instance --help')"
expect 2 "render without --text" -- "$OTVAR" render "$KARLA"
err_is "render without --text" "otvar: render: missing --text STR (see 'otvar render --help')"
expect 2 "-d - for --all-named" -- "$OTVAR" instance "$R" --all-named -d -
one_line_err "-d - for --all-named"
expect 2 "--woff2 with --woff" -- "$OTVAR" instance "$R" --woff2 --woff -o -
one_line_err "--woff2 with --woff"

# ---- --help lists what the parser takes, and only that ----
for cmd in info normalize outline metrics instance render specimen tables compress decompress; do
  "$OTVAR" $cmd --help >"$O/help" 2>"$TMP/err" || bad "$cmd --help: exit $?"
  # the option column: "  -q, --quiet", "  --var TAG=...", "  -o OUT"
  opts=$(sed -n '/^options:$/,/^$/p' "$O/help" | grep -oE '^  (-[a-zA-Z], )?--?[a-zA-Z][a-zA-Z0-9-]*' |
         sed 's/^  //; s/^-[a-zA-Z], //')
  [ -n "$opts" ] && ok || bad "$cmd --help: no options listed"
  for o in $opts; do
    [ "$o" = --help ] && continue
    # each listed option is known: any error it gives is not "unknown option"
    (cd "$O" && "$OTVAR" $cmd "$TMP/none.ttf" "$o" 1 >/dev/null 2>"$TMP/err" </dev/null)
    if grep -q "unknown option" "$TMP/err"; then bad "$cmd --help lists $o, the parser refuses it"; else ok; fi
  done
done

# ---- FONT - reads standard input ----
expect 0 "info -" -- sh -c '"$1" info - <"$2"' sh "$OTVAR" "$KARLA"
sed 's#^file: -$#file: FONT#' "$TMP/out" >"$O/m1"
out "$O/m2" info "$KARLA"
sed -i "s#^file: $KARLA\$#file: FONT#" "$O/m2"
same "info - < font" "$O/m1" "$O/m2"
expect 0 "info --json -" -- sh -c '"$1" info --json - --var wght=300 --metrics <"$2"' sh "$OTVAR" "$KARLA"
sed 's#"file": "-"#"file": "F"#' "$TMP/out" >"$O/m3"
out "$O/m4" info --json "$KARLA" --var wght=300 --metrics
sed -i "s#\"file\": \"$KARLA\"#\"file\": \"F\"#" "$O/m4"
same "info --json - < font" "$O/m3" "$O/m4"
expect 0 "outline -" -- sh -c '"$1" outline - --var wght=444 <"$2"' sh "$OTVAR" "$KARLA"
cp "$TMP/out" "$O/n1"
out "$O/n2" outline "$KARLA" --var wght=444
same "outline - < font" "$O/n1" "$O/n2"
for args in "normalize - wght=650" "metrics - --glyphs 0-9 --var wght=300" "tables -"; do
  expect 0 "$args" -- sh -c '"$1" $2 <"$3"' sh "$OTVAR" "$args" "$KARLA"
  cp "$TMP/out" "$O/p1"
  out "$O/p2" ${args/-/$KARLA}
  same "$args < font" "$O/p1" "$O/p2"
done
expect 0 "instance - -o" -- sh -c '"$1" instance - --named 1 -q -o "$3" <"$2"' sh "$OTVAR" "$KARLA" "$O/q1.ttf"
out "$O/q" instance "$KARLA" --named 1 -q -o "$O/q2.ttf"
same "instance - < font" "$O/q1.ttf" "$O/q2.ttf"
# a WOFF2 on standard input is decoded as a WOFF2 file is
out "$O/r" compress "$KARLA" -q -o "$O/k.woff2"
expect 0 "outline - < woff2" -- sh -c '"$1" outline - --glyphs 0-40 <"$2"' sh "$OTVAR" "$O/k.woff2"
cp "$TMP/out" "$O/r1"
out "$O/r2" outline "$O/k.woff2" --glyphs 0-40
same "outline - < woff2" "$O/r1" "$O/r2"
# a bad font on standard input: exit 1, one line naming stdin
expect 1 "info - < junk" -- sh -c 'printf "not a font" | "$1" info -' sh "$OTVAR"
one_line_err "info - < junk"; err_has "info - < junk" "^otvar: stdin: "
# --all-named from standard input names the files after the family (Karla)
expect 0 "--all-named from stdin" -- sh -c '"$1" instance - --all-named -d "$3" -q <"$2"' sh "$OTVAR" "$KARLA" "$O/s"
out "$O/s3" instance "$KARLA" --all-named -d "$O/s2" -q
same "--all-named from stdin" "$O/s/Karla-Bold.ttf" "$O/s2/Karla-VF-Bold.ttf"

# ---- -o - writes standard output: the same bytes as the file ----
expect 0 "instance -o -" -- "$OTVAR" instance "$R" --var wght=333,wdth=90 -o -
cp "$TMP/out" "$O/t1"; empty_err "instance -o -"
out "$O/t" instance "$R" --var wght=333,wdth=90 -o "$O/t2.ttf"
same "instance -o -" "$O/t1" "$O/t2.ttf"
expect 0 "instance --woff2 -o -" -- "$OTVAR" instance "$R" --named 2 --woff2 -o -
cp "$TMP/out" "$O/t3"
out "$O/t" instance "$R" --named 2 -o "$O/t4.woff2" -q
same "instance --woff2 -o -" "$O/t3" "$O/t4.woff2"
expect 0 "compress -o -" -- "$OTVAR" compress "$KARLA" -o -
cp "$TMP/out" "$O/u1"
same "compress -o -" "$O/u1" "$O/k.woff2"
expect 0 "compress - (stdin to stdout)" -- sh -c '"$1" compress - <"$2"' sh "$OTVAR" "$KARLA"
cp "$TMP/out" "$O/u2"
same "compress - < font > woff2" "$O/u2" "$O/k.woff2"
expect 0 "decompress -o -" -- "$OTVAR" decompress "$O/k.woff2" -o -
cp "$TMP/out" "$O/v1"
out "$O/v" decompress "$O/k.woff2" -o "$O/v2.ttf"
same "decompress -o -" "$O/v1" "$O/v2.ttf"
expect 0 "render -o -" -- "$OTVAR" render "$KARLA" --text Hello -o -
cp "$TMP/out" "$O/w1"
out "$O/w" render "$KARLA" --text Hello -o "$O/w2.png"
same "render -o -" "$O/w1" "$O/w2.png"
expect 0 "specimen -o -" -- "$OTVAR" specimen "$KARLA" --size 12 --steps 2 -o -
cp "$TMP/out" "$O/w3"
out "$O/w" specimen "$KARLA" --size 12 --steps 2 -o "$O/w4.png"
same "specimen -o -" "$O/w3" "$O/w4.png"
expect 0 "outline -o -" -- "$OTVAR" outline "$R" --format svg -o -
cp "$TMP/out" "$O/w5"
out "$O/w6" outline "$R" --format svg
same "outline -o -" "$O/w5" "$O/w6"
# no file called "-" and no temp file was made
if ls -- "$O"/- "$O"/*.tmp-* "$O"/-.tmp-* ./- >/dev/null 2>&1; then bad "-o - left a file"; else ok; fi

# ---- never a binary to a terminal, never a font from one (script gives a pty) ----
if command -v script >/dev/null && timeout 20 script -qec true /dev/null </dev/null >/dev/null 2>&1; then
  tty_run() { # tty_run CMD: run in a pty (stdin and stdout), exit code in $?, its output in $O/tty
    timeout 60 script -qec "$1" /dev/null </dev/null >"$O/tty" 2>&1
  }
  for c in "instance $R --var wght=700 -o -" "compress $KARLA -o -" "decompress $O/k.woff2 -o -" \
           "render $KARLA --text Hi -o -" "specimen $KARLA --size 12 -o -" "info -" "outline - --glyphs 1"; do
    tty_run "'$OTVAR' $c"
    rc=$?
    [ $rc = 2 ] && ok || bad "a terminal: otvar $c: exit $rc, expected 2"
    if grep -q "^otvar: [a-z]*: refusing to .* terminal" "$O/tty" && [ "$(wc -l <"$O/tty")" -eq 1 ]; then ok
    else bad "a terminal: otvar $c: $(head -c 200 "$O/tty" | tr -d '\0')"; fi
  done
  # the pty is not what fails: redirected, the same commands work; text may go to a terminal
  tty_run "'$OTVAR' instance $R --var wght=700 -o - >'$O/tty.ttf'"
  [ $? = 0 ] && ok || bad "in a pty, -o - redirected to a file: $(cat "$O/tty")"
  out "$O/tty2" instance "$R" --var wght=700 -o "$O/tty2.ttf"
  same "in a pty, -o - redirected" "$O/tty.ttf" "$O/tty2.ttf"
  tty_run "'$OTVAR' outline $R --glyphs 1 -o -"
  [ $? = 0 ] && grep -q '^1 ' "$O/tty" && ok || bad "outline -o - to a terminal (text) was refused: $(cat "$O/tty")"
else
  echo "SKIP terminal checks: no 'script' or no pty here"
fi

cli_summary test_options.sh
