#!/usr/bin/env bash
# test_woff_bombs.sh - hostile WOFF/WOFF2 files (built by make_woff_bombs.py): the decoding cap
# (64 x the input + 1 MiB, docs/woff.md) is checked before allocating, so decompression bombs
# fail at once in a few MB; work stays linear in the input (no tables x glyphs blow-up); size
# sums that would pass 2^32 are errors, in the decoder and the encoder.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (repository root).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
PY=/usr/bin/python3
MAKE="$(dirname "$0")/make_woff_bombs.py"

if ! "$PY" -c 'import brotli' 2>/dev/null; then
  echo "test_woff_bombs: SKIP (no Python brotli module)"
  exit 0
fi
# peak memory and CPU time of one run: /usr/bin/time (package `time`), else ulimit -v only
TIMER=/usr/bin/time
[ -x "$TIMER" ] || TIMER=
# A decoder run stays under this many KB of peak RSS: the sanitized CLI's ~20 MB baseline plus
# room, far below what the bombs below would take (100 MiB and more) if decoded.
MAX_KB=65536

# run_measured DESC WANT_RC CMD...: run under ulimit -v (an over-allocation fails) and, when
# available, /usr/bin/time; sets KB (peak RSS) and CPU (user+sys seconds)
run_measured() {
  local desc=$1 want=$2
  shift 2
  KB=0 CPU=0
  if [ -n "$TIMER" ]; then
    expect "$want" "$desc" -- "$TIMER" -o "$TMP/time" -f '%M %U %S' "$@"
    read -r KB u s < <(tail -n 1 "$TMP/time")
    CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
  else
    expect "$want" "$desc" -- "$@"
  fi
}
mem_ok() {
  if [ "$KB" -le "$MAX_KB" ]; then ok; else bad "$1: peak memory ${KB} KB (at most $MAX_KB)"; fi
}

# ---- (a) decompression bombs: exit 1 at once, one line naming the cap, little memory ----
"$PY" "$MAKE" bomb2 "$TMP/bomb.woff2" 100   # 100 MiB of zeros in ~220 bytes
"$PY" "$MAKE" total2 "$TMP/total.woff2"     # a 54-byte font claiming totalSfntSize 500000000
"$PY" "$MAKE" bomb1 "$TMP/bomb.woff" 100    # WOFF 1.0: 100 MiB of zeros in ~100 KB of zlib
for f in bomb.woff2 total.woff2 bomb.woff; do
  rm -f "$TMP/out.ttf"
  run_measured "decompress $f" 1 "$OTVAR" decompress "$TMP/$f" -o "$TMP/out.ttf"
  one_line_err "decompress $f"
  err_has "decompress $f" "is more than 64 x the [0-9]*-byte input + 1 MiB (the decoding cap)"
  mem_ok "decompress $f"
  if [ ! -e "$TMP/out.ttf" ]; then ok; else bad "decompress $f: wrote output"; fi
  # the same with the address space capped (the sanitized CLI reserves terabytes of shadow, so
  # only without ASan): an allocation of the announced size fails the run with another message
  if ! nm "$OTVAR" 2>/dev/null | grep -q __asan_init; then
    expect 1 "decompress $f under ulimit -v" -- bash -c "ulimit -v 200000; exec \"\$0\" \"\$@\"" \
      "$OTVAR" decompress "$TMP/$f" -o "$TMP/out.ttf"
    err_has "decompress $f under ulimit -v" "decoding cap"
  fi
done
err_has "totalSfntSize named" "totalSfntSize" # the last WOFF2 case above was bomb.woff
expect 1 "info on a WOFF2 bomb" -- "$OTVAR" info "$TMP/bomb.woff2"
one_line_err "info on a WOFF2 bomb"
err_has "info on a WOFF2 bomb" "decoding cap"

# ---- (b) many fonts: work linear in the input ----
# NFONTS fonts each with its own transformed hmtx (3 stored bytes rebuilding to 2 x NGLYPHS
# bytes): before the cap, work and memory grew as fonts x glyphs (1.3 s and 260 MB at 2000
# fonts of 65535 glyphs). Now the rebuilt bytes are charged against the cap: a clean error.
cpu_min() { # cpu_min DESC WANT_RC CMD...: the least CPU time of three runs (noise: shared machine)
  local best=
  for _ in 1 2 3; do
    run_measured "$@"
    if [ -z "$best" ] || awk -v a="$CPU" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$CPU; fi
  done
  CPU=$best
}
"$PY" "$MAKE" hmtx "$TMP/hmtx1.woff2" 500 16384
"$PY" "$MAKE" hmtx "$TMP/hmtx4.woff2" 2000 65535
cpu_min "hmtx x 500" 1 "$OTVAR" decompress "$TMP/hmtx1.woff2" -o "$TMP/h1.ttc"
t1=$CPU
err_has "hmtx x 500" "WOFF2 'hmtx'.*decoding cap"
mem_ok "hmtx x 500"
cpu_min "hmtx x 2000" 1 "$OTVAR" decompress "$TMP/hmtx4.woff2" -o "$TMP/h4.ttc"
t4=$CPU
one_line_err "hmtx x 2000"
err_has "hmtx x 2000" "WOFF2 'hmtx'.*decoding cap"
mem_ok "hmtx x 2000"
# a real collection: Muli's tables shared by 2000 and 8000 fonts decode
"$PY" "$MAKE" collection "$TMP/col1.woff2" "$FONTS/Muli-ABC.ttf" 2000
"$PY" "$MAKE" collection "$TMP/col4.woff2" "$FONTS/Muli-ABC.ttf" 8000
cpu_min "collection x 2000" 0 "$OTVAR" decompress "$TMP/col1.woff2" -o "$TMP/c1.ttc" --force
c1=$CPU
cpu_min "collection x 8000" 0 "$OTVAR" decompress "$TMP/col4.woff2" -o "$TMP/c4.ttc" --force
c4=$CPU
if "$PY" -c 'import struct, sys; h = open(sys.argv[1], "rb").read(12); assert h[:4] == b"ttcf" and struct.unpack(">I", h[8:])[0] == 8000' "$TMP/c4.ttc"; then ok; else bad "collection x 8000: not a TTC of 8000 fonts"; fi
expect 0 "info on the last font of 8000" -- "$OTVAR" info "$TMP/c4.ttc" --index 7999
if [ -n "$TIMER" ]; then
  echo "cpu: hmtx 500/2000 fonts ${t1}s/${t4}s, collection 2000/8000 fonts ${c1}s/${c4}s"
  # generous: the machine is shared; 4x the input may take 8x the time (n log n and noise),
  # with 0.05 s as the floor below which times are noise
  for pair in "hmtx $t1 $t4" "collection $c1 $c4"; do
    set -- $pair
    if awk -v a="$2" -v b="$3" 'BEGIN { exit !(b <= 10 && b <= 8 * (a > 0.05 ? a : 0.05)) }'; then
      ok
    else
      bad "$1: CPU ${2}s for n, ${3}s for 4n (at most 8x and 10 s)"
    fi
  done
fi

# ---- (c) sums past 2^32 ----
# WOFF2: glyf origLength 0xFFFFFFF0 (transformed: not stored), then tables of 2^31
"$PY" "$MAKE" sum32 "$TMP/sum32.woff2"
expect 1 "decompress sum32" -- "$OTVAR" decompress "$TMP/sum32.woff2" -o "$TMP/out.ttf"
one_line_err "decompress sum32"
err_has "decompress sum32" "WOFF2 table 'glyf' (directory entry 0, offset 48): origLength 4294967280"
err_has "decompress sum32" "decoding cap"
# the encoder: 256 table records sharing one 17 MiB table sum past 2^32 (and past 256 MiB)
"$PY" "$MAKE" overlap "$TMP/overlap.ttf"
for fmt in --woff ""; do
  run_measured "compress $fmt overlap" 1 timeout 120 "$OTVAR" compress $fmt "$TMP/overlap.ttf" -o "$TMP/ov.w"
  one_line_err "compress $fmt overlap"
  err_has "compress $fmt overlap" "table directory: table 'T0[0-9]*' .* more than 256 MiB"
  if [ ! -e "$TMP/ov.w" ]; then ok; else bad "compress $fmt overlap: wrote output"; fi
done

# ---- (d) WOFF 1.0: origLength values summing past 2^32 ----
"$PY" "$MAKE" orig1 "$TMP/orig1.woff"
expect 1 "decompress orig1" -- "$OTVAR" decompress "$TMP/orig1.woff" -o "$TMP/out.ttf"
one_line_err "decompress orig1"
err_has "decompress orig1" "WOFF table 'zzz1' (directory entry at offset 44): origLength 2147483648"
err_has "decompress orig1" "decoding cap"

# ---- real fonts still decode under the cap (tests/oracle/test_woff.py checks them all) ----
for f in "$ROOT"/fonts/Karla-VF.ttf "$FONTS"/Handjet.ttf "$FONTS"/NotoSansJP-VF.subset.otf; do
  b=$(basename "$f")
  for fmt in woff2 woff; do
    flag=; [ $fmt = woff ] && flag=--woff
    expect 0 "compress $b.$fmt" -- "$OTVAR" compress $flag -q "$f" -o "$TMP/$b.$fmt"
    expect 0 "decompress $b.$fmt" -- "$OTVAR" decompress "$TMP/$b.$fmt" -o "$TMP/$b.$fmt.ttf"
  done
done

cli_summary test_woff_bombs
