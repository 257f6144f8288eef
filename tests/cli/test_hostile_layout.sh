#!/usr/bin/env bash
# test_hostile_layout.sh - the layout family of the hostile corpus (GSUB/GPOS/GDEF/BASE cases
# lay_* of tests/hostile/gen_hostile.py: offset cycles, the same bytes read as different types,
# counts of 0xFFFF, fan-outs, deep and out-of-range structure, BASE stores) through the CLI.
#
# Every case goes through `otvar info`, a static instance at a named instance and at --var, and a
# partial instance keeping one axis. Each run must:
#   - exit 0 (silent stderr), or 1 with one line `otvar: FILE: TAG+0x..: ...` naming a table the
#     case allows (the manifest's detail; a well-formed case must not fail at all). Crashes and
#     sanitizer reports (the ASan/UBSan build of scripts/test.sh) show as another exit code or as
#     more lines on stderr;
#   - stay under a memory bound: peak RSS <= the process floor (peak RSS of `otvar info` on the
#     well-formed case, so a sanitized build is measured against itself) + 64 MiB + 64 x the font,
#     and at most 256 MiB. That is the budget test_hostile.c gives the library's own allocations
#     (64 MiB + 64 x the input): a decoder that keeps each distinct sub-table once needs a bounded
#     multiple of the table's bytes; one that materializes every reference does not (the fan-outs
#     below hold 20000 references to one 60 KB sub-table, or 5000 overlapping 60 KB tables);
#   - write a bounded output: an instance is at most 4 x the input + 1 MiB (promoting every 16-bit
#     offset of a layout table to an Extension costs 8 bytes per 2-byte offset; resolving
#     FeatureVariations copies at most a FeatureList), and it opens again, static or variable;
#   - finish within `timeout` (OTV_HANG_SECONDS, 120 s: ASan runs quadratic cases in tens of
#     seconds, which the growth check below reports as such): a hang detector, not a time bound.
# Work is bounded by growth, not by seconds: each fan-out family is generated at n and 4n, and the
# CPU time (user + sys, the least of three runs when the first comparison fails) of the bigger must
# stay within 8 x the smaller (0.05 s floor), as in test_woff_bombs.sh: linear work passes, the
# quadratic walks these fonts are built to provoke (16x) do not.
# A well-formed case's static instance must also be free of variation data (fontTools reads it:
# no FeatureVariations, no GDEF or BASE ItemVariationStore, no VariationIndex device left).
# Env: OTVAR (the CLI), OTV_ROOT (repository root); OTV_HOSTILE_FILTER=substr runs matching cases;
# OTV_HOSTILE_VERBOSE=1 prints one line per case (exit codes, peak RSS, CPU).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
PY=/usr/bin/python3
HANG=${OTV_HANG_SECONDS:-120}
FILTER=${OTV_HOSTILE_FILTER:-}
VERBOSE=${OTV_HOSTILE_VERBOSE:-}

TIMER=/usr/bin/time
[ -x "$TIMER" ] || TIMER=
# ASan keeps freed blocks in a 256 MiB quarantine by default, which RSS then counts: keep it
# small so that peak RSS follows what the program holds (use-after-free is still caught)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"

C="$TMP/c"
if ! "$PY" "$ROOT/tests/hostile/gen_hostile.py" "$C" --only lay_ >"$TMP/gen.log" 2>&1; then
  bad "gen_hostile.py --only lay_: $(tail -3 "$TMP/gen.log")"
  cli_summary test_hostile_layout
  exit 1
fi

# measure CMD...: run under the hang detector; sets RC, KB (peak RSS), CPU (user + sys seconds);
# stdout and stderr in $TMP/out, $TMP/err
measure() {
  KB=0 CPU=0
  if [ -n "$TIMER" ]; then
    "$TIMER" -o "$TMP/time" -f '%M %U %S' timeout -k 5 "$HANG" "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    local u s
    read -r KB u s < <(tail -n 1 "$TMP/time")
    CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
  else
    timeout -k 5 "$HANG" "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
  fi
}

# verdict DESC ALLOWED: the exit code and stderr of the last run. ALLOWED: '|'-separated tables
# an error may name ("" = none: the run must succeed).
verdict() {
  local desc=$1 allowed=$2
  case $RC in
    0)
      if [ -s "$TMP/err" ]; then bad "$desc: exit 0 with stderr: $(head -c 400 "$TMP/err")"; else ok; fi ;;
    1)
      local n
      n=$(wc -l <"$TMP/err")
      if [ -z "$allowed" ]; then
        bad "$desc: a well-formed font failed: $(head -c 400 "$TMP/err")"
      elif [ "$n" -ne 1 ] || ! grep -q '^otvar: ' "$TMP/err"; then
        bad "$desc: exit 1 without one 'otvar: ' line (crash or sanitizer report?): $(head -c 600 "$TMP/err")"
      elif ! grep -Eq ": ($allowed)\+0x[0-9a-f]+: " "$TMP/err"; then
        bad "$desc: the error does not name one of $allowed: $(cat "$TMP/err")"
      else
        ok
      fi ;;
    124 | 137)
      bad "$desc: no answer in ${HANG}s (hang)" ;;
    *)
      bad "$desc: exit $RC (crash?): $(head -c 600 "$TMP/err")" ;;
  esac
}

mem_ok() {
  if [ "$KB" -le "$MAX_KB" ]; then ok; else bad "$1: peak RSS ${KB} KB (bound $MAX_KB KB for a $SIZE-byte font)"; fi
}

# a well-formed case's static instance: no variation data left (fontTools reads every table)
cat >"$TMP/novar.py" <<'EOF'
import sys
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import otBase
f = TTFont(sys.argv[1])
bad = []
if "fvar" in f:
    bad.append("fvar kept")
for t in ("GSUB", "GPOS"):
    if t in f and getattr(f[t].table, "FeatureVariations", None) is not None:
        bad.append(t + " FeatureVariations kept")
for t in ("GDEF", "BASE"):
    if t in f and getattr(f[t].table, "VarStore", None) is not None:
        bad.append(t + " ItemVariationStore kept")
seen = set()
def walk(o, path):
    if id(o) in seen:
        return
    seen.add(id(o))
    if isinstance(o, (list, tuple)):
        for x in o:
            walk(x, path)
    elif isinstance(o, (otBase.BaseTable, otBase.ValueRecord)):
        if getattr(o, "DeltaFormat", None) == 0x8000:
            bad.append("VariationIndex device left in " + path)
        for k, v in vars(o).items():
            walk(v, path)
for t in ("GSUB", "GPOS", "GDEF", "BASE"):
    if t in f:
        walk(f[t].table, t)
if bad:
    sys.exit("; ".join(sorted(set(bad))))
EOF

# the process floor: `otvar info` on the well-formed case
measure "$OTVAR" info "$C/lay_ok.bin"
FLOOR_KB=$KB
LIMIT_KB=262144
echo "test_hostile_layout: $OTVAR, peak RSS floor ${FLOOR_KB} KB"

declare -A CPU_VAR CPU_KEEP
ncases=0
while IFS=$'\t' read -r name cls detail desc; do
  [ -n "$FILTER" ] && [[ $name != *"$FILTER"* ]] && continue
  ncases=$((ncases + 1))
  f="$C/$name.bin"
  SIZE=$(stat -c %s "$f")
  MAX_KB=$((FLOOR_KB + 65536 + 64 * SIZE / 1024))
  [ "$MAX_KB" -gt "$LIMIT_KB" ] && MAX_KB=$LIMIT_KB
  allowed=$detail
  [ "$cls" = valid ] && allowed=
  line="$name"
  peak=0 cpu_max=0
  measure "$OTVAR" info "$f"
  verdict "$name: info" "$allowed"
  mem_ok "$name: info"
  line="$line info=$RC"
  for mode in named var keep; do
    case $mode in
      named) args=(--named 1) ;;
      var) args=(--var wght=900,wdth=75) ;;
      keep) args=(--keep wght --var wdth=75) ;;
    esac
    rm -f "$TMP/o.ttf"
    measure "$OTVAR" instance "$f" "${args[@]}" -o "$TMP/o.ttf" -q
    desc_run="$name: instance ${args[*]}"
    verdict "$desc_run" "$allowed"
    mem_ok "$desc_run"
    [ "$KB" -gt "$peak" ] && peak=$KB
    cpu_max=$(awk -v a="$cpu_max" -v b="$CPU" 'BEGIN { print (b > a) ? b : a }')
    [ $mode = var ] && CPU_VAR[$name]=$CPU
    [ $mode = keep ] && CPU_KEEP[$name]=$CPU
    rc=$RC
    line="$line $mode=$RC"
    if [ $rc -eq 0 ]; then
      out_len=$(stat -c %s "$TMP/o.ttf" 2>/dev/null || echo 0)
      if [ "$out_len" -gt 0 ] && [ "$out_len" -le $((4 * SIZE + 1048576)) ]; then ok; else
        bad "$desc_run: output of $out_len bytes for a $SIZE-byte font (bound 4 x + 1 MiB)"
      fi
      measure "$OTVAR" info --json "$TMP/o.ttf"
      if [ $RC -ne 0 ]; then
        bad "$desc_run: the instance does not open again: $(head -c 300 "$TMP/err")"
      elif [ $mode = keep ]; then
        if grep -q '"variable": true' "$TMP/out"; then ok; else bad "$desc_run: the partial instance has no axis"; fi
      else
        if grep -q '"variable": false' "$TMP/out"; then ok; else bad "$desc_run: the static instance still has axes"; fi
      fi
      if [ "$cls" = valid ] && [ $mode = var ]; then
        if "$PY" "$TMP/novar.py" "$TMP/o.ttf" 2>"$TMP/novar.err"; then ok; else
          bad "$desc_run: variation data left in the static instance: $(tail -1 "$TMP/novar.err")"
        fi
      fi
    elif [ -e "$TMP/o.ttf" ]; then
      bad "$desc_run: failed but left an output"
    fi
  done
  [ -n "$VERBOSE" ] && echo "$line peak=${peak}KB cpu<=${cpu_max}s ($SIZE bytes)"
done <"$C/MANIFEST"
if [ "$ncases" -gt 0 ]; then ok; else bad "no case ran (filter '$FILTER')"; fi

# ---- work grows linearly: each fan-out family at n and 4n ----
cpu_min3() { # cpu_min3 FIRST ARGS...: the least of FIRST and two more runs' CPU
  local best=$1
  shift
  for _ in 1 2; do
    measure "$@"
    best=$(awk -v a="$best" -v b="$CPU" 'BEGIN { print (b < a) ? b : a }')
  done
  echo "$best"
}
linear() { # linear A B: B (4n) <= 8 x max(A (n), 0.05 s)
  awk -v a="$1" -v b="$2" 'BEGIN { exit !(b <= 8 * (a > 0.05 ? a : 0.05)) }'
}
if [ -n "$TIMER" ]; then
  for pair in lookups5000_shared_pairpos60k:lookups20000_shared_pairpos60k \
    lookups1250_distinct_pairpos60k:lookups5000_distinct_pairpos60k cov_overlap1250:cov_overlap5000 \
    classdef_overlap750:classdef_overlap3000 device_overlap500:device_overlap2000 \
    features2000:features8000 ext_chain1250_linked:ext_chain5000_linked fv_records7500:fv_records30000 \
    gdef_carets2500:gdef_carets10000; do
    small=lay_fan_${pair%%:*} big=lay_fan_${pair##*:}
    if [ -z "${CPU_VAR[$small]:-}" ] || [ -z "${CPU_VAR[$big]:-}" ]; then continue; fi
    for mode in var keep; do
      if [ $mode = var ]; then
        args=(--var wght=900,wdth=75)
        a=${CPU_VAR[$small]} b=${CPU_VAR[$big]}
      else
        args=(--keep wght --var wdth=75)
        a=${CPU_KEEP[$small]} b=${CPU_KEEP[$big]}
      fi
      if ! linear "$a" "$b"; then # noise on a shared machine: the least of three runs each
        a=$(cpu_min3 "$a" "$OTVAR" instance "$C/$small.bin" "${args[@]}" -o "$TMP/s.ttf" -q --force)
        b=$(cpu_min3 "$b" "$OTVAR" instance "$C/$big.bin" "${args[@]}" -o "$TMP/b.ttf" -q --force)
      fi
      echo "cpu: ${pair%%:*} ${a}s, ${pair##*:} ${b}s (instance ${args[*]})"
      if linear "$a" "$b"; then ok; else
        bad "lay_fan_${pair}: instance ${args[*]}: CPU ${a}s at n, ${b}s at 4n (at most 8x: work must grow linearly)"
      fi
    done
  done
fi

cli_summary test_hostile_layout
