#!/usr/bin/env bash
# Proves that the working tree's otvar CLI writes exactly what a base commit's writes (issue 19,
# "Parse each format once": every output unchanged). The same list of commands runs with both
# binaries over every test font, the bundled font and the real fonts of the font cache: info,
# tables, normalize, full and partial instances (.ttf/.otf, one WOFF2, --all-named,
# --update-names), outlines and metrics of every glyph at the default, named instances and random
# locations, compress/decompress, render and specimen. Each command's stdout, stderr, exit code
# and the files it writes are compared byte for byte (cmp). Exit status 0 only when every case is
# identical, 1 when some differ, 2 when it could not run (bad usage, a build failed).
#
# usage: scripts/check-identical.sh [--base REV] [--cur BUILD_DIR] [--fonts DIR]
#                                   [--keep-outputs DIR] [--jobs N] [--only REGEX] [--list]
#   --base REV          the commit to compare against (default: BASE_REV below). Its CLI is
#                       built once in a git worktree under .identical/<commit>/ and reused.
#   --cur BUILD_DIR     an existing build directory holding the otvar to check (default: the
#                       working tree's CLI, built Release into build-identical/)
#   --fonts DIR         the real fonts (default: build-test/fonts-cache, else build/fonts-cache;
#                       tests/fetch-fonts.sh DIR fetches them). Missing fonts are skipped, said so.
#   --keep-outputs DIR  keep every output (DIR/base/CASE, DIR/cur/CASE) to inspect differences
#   --jobs N            cases run in parallel (default 2)
#   --only REGEX        only the cases whose name matches (grep -E), e.g. 'SourceSerif.*partial'
#   --list              print the cases (name, then the command) and exit
#   --show N            list up to N differing cases (default 20)
#
# The commands come from scripts/identical_cases.py: fixed seeds, the fonts' axes read with the
# BASE binary's `info --json`, so both binaries run the same list. Normalized before comparing,
# the only things that vary from run to run: the "N.N ms" timings `otvar instance` prints, and
# the order of the lines `instance --all-named -j 2` prints (its threads finish in any order).

# The baseline: outputs must stay byte-identical to this commit's. When an issue changes output
# bytes on purpose, compare against the new behaviour with --base REV, or change this default to
# that commit (and say here which commit did and why).
#   b08d998: baseline of issue 19 ("Parse each format once", a refactor: no output may change).
BASE_REV=b08d998

set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CALLER_PWD=$PWD
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
CMD_TIMEOUT=300 # seconds per command: a hang is reported (exit 124), not waited for forever

die() { echo "check-identical: $*" >&2; exit 2; }
usage() { sed -n '/^# usage:/,/^#   --show/p' "$0" | sed 's/^# \{0,1\}//'; }
. "$ROOT/bench/compare-common.sh" # base_worktree, out_dir

BASE=$BASE_REV CUR_DIR="" FONTS="" KEEP="" JOBS=2 ONLY="" LIST=0 SHOW=20
while [ $# -gt 0 ]; do
  case "$1" in
    --base|--cur|--fonts|--keep-outputs|--jobs|--only|--show)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)"
      case "$1" in
        --base) BASE=$2 ;; --cur) CUR_DIR=$2 ;; --fonts) FONTS=$2 ;; --keep-outputs) KEEP=$2 ;;
        --jobs) JOBS=$2 ;; --only) ONLY=$2 ;; --show) SHOW=$2 ;;
      esac
      shift 2 ;;
    --list) LIST=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number, not '$JOBS'"
[[ $SHOW =~ ^[0-9]+$ ]] || die "--show needs a number, not '$SHOW'"
for tool in cmake ninja timeout cmp git; do
  command -v "$tool" >/dev/null || die "needs $tool"
done
# paths given are relative to the caller's directory; everything else to the repository's
abs() { case "$1" in "" | /*) printf '%s' "$1" ;; *) printf '%s' "$CALLER_PWD/$1" ;; esac; }
CUR_DIR=$(abs "$CUR_DIR") FONTS=$(abs "$FONTS") KEEP=$(abs "$KEEP")
cd "$ROOT"
if [ -n "$CUR_DIR" ]; then [ -x "$CUR_DIR/otvar" ] || die "--cur: no otvar in '$CUR_DIR'"; fi

T0=$(date +%s)
BUILD_LOG=$(mktemp "${TMPDIR:-/tmp}/check-identical-build.XXXXXX")
WORK="" XPID=""
cleanup() {
  set +e
  # the jobs run in their own process group (XPID's): stop them before removing their files
  if [ -n "$XPID" ]; then
    kill -TERM -- -"$XPID" 2>/dev/null
    wait "$XPID" 2>/dev/null
  fi
  rm -f "$BUILD_LOG"
  [ -n "$WORK" ] && rm -rf "$WORK"
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- the two binaries ----

# configure (once) and build the CLI target only; the log is shown when it fails
build_cli() { # source dir, build dir
  local src=$1 bld=$2
  {
    [ -f "$bld/CMakeCache.txt" ] ||
      cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOTV_ORACLE=OFF -DOTV_BENCH=OFF
    ninja -C "$bld" otvar_cli
  } >"$BUILD_LOG" 2>&1 || { tail -n 40 "$BUILD_LOG" >&2; die "building $src into $bld failed"; }
  [ -x "$bld/otvar" ] || die "$bld/otvar missing after the build"
}

BASE_SHA=$(git rev-parse --verify --quiet "$BASE^{commit}") || die "--base: no commit '$BASE'"
BASE_SHORT=$(git rev-parse --short=12 "$BASE_SHA")
CACHE="$ROOT/.identical/$BASE_SHORT"
BASE_BIN="$CACHE/build/otvar"
if [ ! -x "$BASE_BIN" ]; then
  echo "check-identical: building $BASE ($BASE_SHORT) in $CACHE"
  base_worktree "$CACHE/src" "$BASE_SHA" "$BUILD_LOG"
  build_cli "$CACHE/src" "$CACHE/build"
fi

# ---- the cases ----

if [ -z "$FONTS" ]; then
  FONTS=build-test/fonts-cache
  [ -d "$FONTS" ] || [ ! -d build/fonts-cache ] || FONTS=build/fonts-cache
fi

out_dir check-identical --keep-outputs "$KEEP" base cur verdict cases differing-kinds
mkdir -p "$OUT/cases" "$OUT/verdict"

"$PY" "$ROOT/scripts/identical_cases.py" --otvar "$BASE_BIN" --root "$ROOT" --fonts "$FONTS" \
  >"$OUT/cases.tsv" || die "scripts/identical_cases.py failed"
if [ -n "$ONLY" ]; then
  awk -F '\t' -v re="$ONLY" '$1 ~ re' "$OUT/cases.tsv" >"$OUT/cases.sel"
  mv "$OUT/cases.sel" "$OUT/cases.tsv"
fi
[ -s "$OUT/cases.tsv" ] || die "no cases${ONLY:+ match '$ONLY'}"
if [ "$LIST" = 1 ]; then
  awk -F '\t' '{ print $1 ":  otvar " $2 }' "$OUT/cases.tsv"
  exit 0
fi

if [ -n "$CUR_DIR" ]; then
  CUR_BIN="$(cd "$CUR_DIR" 2>/dev/null && pwd)/otvar" || die "--cur: no directory '$CUR_DIR'"
  [ -x "$CUR_BIN" ] || die "--cur: no otvar in '$CUR_DIR'"
else
  echo "check-identical: building the working tree's CLI in build-identical/"
  build_cli "$ROOT" "$ROOT/build-identical"
  CUR_BIN="$ROOT/build-identical/otvar"
fi
T_BUILT=$(date +%s)

# one file of commands per case (CASE.cmd, a shell-quoted argument list per line), case names in
# order (names are [A-Za-z0-9._+-/], made so by identical_cases.py)
cut -f1 "$OUT/cases.tsv" | uniq >"$OUT/order"
[ "$(sort -u "$OUT/order" | wc -l)" = "$(wc -l <"$OUT/order")" ] || die "case lines not grouped"
awk -F '\t' -v d="$OUT/cases" '{
  f = d "/" $1 ".cmd"; sub(/\/[^\/]*$/, "", f)
  if (!(f in made)) { made[f] = 1; system("mkdir -p \"" f "\"") }
  print $2 >> (d "/" $1 ".cmd"); close(d "/" $1 ".cmd")
}' "$OUT/cases.tsv"
NCASES=$(wc -l <"$OUT/order")
NCMDS=$(wc -l <"$OUT/cases.tsv")

# ---- running and comparing (one case per job: base, cur, compare) ----

# Run a case's commands with one binary in OUT/LABEL/CASE/w (outputs by relative path):
# N.out, N.err and N.rc beside w/ for the N-th command.
run_with() { # label, binary, case
  local dir="$OUT/$1/$3" bin=$2 line k=0 rc
  mkdir -p "$dir/w"
  (
    cd "$dir/w"
    while IFS= read -r line; do
      k=$((k + 1))
      eval "set -- $line"
      rc=0
      timeout --foreground "$CMD_TIMEOUT" "$bin" "$@" >"../$k.out" 2>"../$k.err" </dev/null || rc=$?
      echo "$rc" >"../$k.rc"
      if [ "$1" = instance ]; then # timings: "wrote ... in 12.3 ms", "..., 4.5 ms"
        sed -E -i 's/[0-9]+(\.[0-9]+)? ms$/(time) ms/' "../$k.out"
        case " $* " in *" --all-named "*) # threads print in any order
          sort -o "../$k.out" "../$k.out"; sort -o "../$k.err" "../$k.err" ;;
        esac
      fi
    done <"$OUT/cases/$3.cmd"
  )
}

# Compare OUT/base/CASE and OUT/cur/CASE file by file; the verdict (OUT/verdict/CASE) is "same"
# or the differences, one per line.
compare_case() { # case
  local a="$OUT/base/$1" b="$OUT/cur/$1" v="$OUT/verdict/$1" f why=""
  mkdir -p "$(dirname "$v")"
  (cd "$a" && find . -type f | sort) >"$v.la"
  (cd "$b" && find . -type f | sort) >"$v.lb"
  while IFS= read -r f; do why+="only base: ${f#./}"$'\n'; done < <(comm -23 "$v.la" "$v.lb")
  while IFS= read -r f; do why+="only cur: ${f#./}"$'\n'; done < <(comm -13 "$v.la" "$v.lb")
  while IFS= read -r f; do
    cmp -s "$a/$f" "$b/$f" && continue
    f=${f#./}
    case "$f" in
      *.rc) why+="exit code (command ${f%.rc}): $(<"$a/$f") vs $(<"$b/$f")"$'\n' ;;
      *.out | *.err)
        local n=${f%.*} what=stdout line
        [ "${f##*.}" = out ] || what=stderr
        line=$(cmp "$a/$f" "$b/$f" 2>&1 | sed -nE 's/.*line ([0-9]+).*/\1/p')
        line=${line:-1}
        why+="$what (command $n), line $line: '$(sed -n "${line}p" "$a/$f" | cut -c1-90)'"
        why+=" vs '$(sed -n "${line}p" "$b/$f" | cut -c1-90)'"$'\n' ;;
      *) why+="${f#w/}: $(wc -c <"$a/$f") vs $(wc -c <"$b/$f") bytes, $(cmp "$a/$f" "$b/$f" 2>&1 |
          sed -E 's/^cmp: EOF on .* after (byte|char) ([0-9]+).*/the shorter ends after byte \2/
                  s/.* differ: (byte|char) ([0-9]+).*/first difference at byte \2/')"$'\n' ;;
    esac
  done < <(comm -12 "$v.la" "$v.lb")
  rm -f "$v.la" "$v.lb"
  if [ -z "$why" ]; then echo same >"$v"; else printf '%s' "$why" >"$v"; fi
}

run_case() { # case
  set -euo pipefail
  run_with base "$BASE_BIN" "$1"
  run_with cur "$CUR_BIN" "$1"
  compare_case "$1"
  # identical outputs are not kept (disk) unless asked
  if [ -z "$KEEP" ] && [ "$(<"$OUT/verdict/$1")" = same ]; then
    rm -rf "${OUT:?}/base/$1" "${OUT:?}/cur/$1"
  fi
}
export OUT BASE_BIN CUR_BIN CMD_TIMEOUT KEEP
# specimen's label font: the same file for both (else each binary finds the Karla of its sources)
if [ -f "$ROOT/fonts/Karla-VF.ttf" ]; then export OTVAR_LABEL_FONT="$ROOT/fonts/Karla-VF.ttf"; fi
export -f run_with compare_case run_case

echo "check-identical: base $BASE ($BASE_SHORT): $BASE_BIN"
echo "check-identical: cur: $CUR_BIN"
echo "check-identical: $NCASES cases ($NCMDS commands per binary), $JOBS jobs"
# the slow cases (Brotli at quality 11) first, so that the jobs end together
{ grep -E '/(compress|instance-woff2)$' "$OUT/order" || true
  grep -vE '/(compress|instance-woff2)$' "$OUT/order" || true; } >"$OUT/run-order"
# In the background in a process group of its own (set -m), waited for: a signal (Ctrl-C) runs
# the trap at once, and cleanup stops the whole group (timeout --foreground stays in it).
set -m
xargs -a "$OUT/run-order" -d '\n' -n 1 -P "$JOBS" bash -c \
  'run_case "$1" || { echo "check-identical: case $1 could not run" >&2; exit 1; }' _ &
XPID=$!
set +m
XSTATUS=0
wait "$XPID" || XSTATUS=$?
XPID=""
[ "$XSTATUS" -eq 0 ] || echo "check-identical: some cases could not run (see above)" >&2
T_RUN=$(date +%s)

# ---- summary ----

same=0 differ=0 broken=0 shown=0
DIFFS=""
while IFS= read -r c; do
  v="$OUT/verdict/$c" first=""
  if [ ! -f "$v" ]; then
    broken=$((broken + 1))
    DIFFS+="  $c: not run"$'\n'
    continue
  fi
  read -r first <"$v" || true
  if [ "$first" = same ]; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "${c#*/}" >>"$OUT/differing-kinds"
    if [ "$shown" -lt "$SHOW" ]; then
      shown=$((shown + 1))
      DIFFS+="  $c"$'\n'
      while IFS= read -r line; do DIFFS+="      \$ otvar $line"$'\n'; done <"$OUT/cases/$c.cmd"
      DIFFS+="$(sed 's/^/      /' "$v" | head -n 8)"$'\n'
    fi
  fi
done <"$OUT/order"

echo
echo "check-identical: $BASE ($BASE_SHORT) vs ${CUR_DIR:-the working tree (build-identical)}"
echo "  cases:     $NCASES ($NCMDS commands per binary)"
echo "  identical: $same"
echo "  differing: $differ"
[ "$broken" -eq 0 ] || echo "  not run:   $broken"
if [ -s "$OUT/differing-kinds" ]; then # partial-keep-wght, outline-named3: partial-keep, outline-named
  echo "  by kind:   $(sed -E 's/^(partial-keep|partial-all-but|normalize)-.*/\1/; s/[0-9]+(-round)?$/\1/' \
    "$OUT/differing-kinds" | sort | uniq -c | sort -rn | awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')"
fi
if [ -n "$DIFFS" ]; then
  [ "$differ" -le "$SHOW" ] || echo "  (the first $SHOW of $differ differing cases; --show N for more)"
  printf '%s' "$DIFFS"
  if [ -n "$KEEP" ]; then
    echo "  outputs: $OUT/base/CASE and $OUT/cur/CASE (w/: the files written; N.out N.err N.rc)"
  else
    echo "  (rerun with --keep-outputs DIR --only REGEX to inspect the outputs)"
  fi
fi
echo "  elapsed:   $((T_RUN - T0)) s (builds and case list $((T_BUILT - T0)) s, runs and comparison" \
  "$((T_RUN - T_BUILT)) s)"
[ "$differ" -eq 0 ] && [ "$broken" -eq 0 ]
