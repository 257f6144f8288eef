#!/usr/bin/env bash
# callgrind-compare.sh - otvar's instruction counts in bench_outline, bench_instance and
# bench_metrics under callgrind, base commit vs working tree, per benchmark and per font
# (issue 19's rule: "Performance is not worse: bench_outline, bench_instance and bench_metrics
# instruction counts under callgrind within 1% of before, per font"). Exit status 0 when no
# timed row of the current build is more than 1% above base, 1 when one is (or a result is
# missing), 2 when it could not run (bad usage, a build failed).
#
# usage: bench/callgrind-compare.sh [--base REV | --base-build DIR] [--cur DIR] [--fonts LIST]
#                                   [--jobs N] [--only REGEX] [--tolerance PCT]
#                                   [--keep DIR] [--baseline FILE] [--list]
#   --base REV        the commit to compare against (default: BASE_REV below). Its benchmarks
#                     are built (Release) once in a git worktree under .callgrind/<commit>/ and
#                     reused.
#   --base-build DIR  an existing Release build directory to use as base instead (its bench
#                     binaries are brought up to date with ninja)
#   --cur DIR         the Release build directory to check (default: the working tree, built
#                     into build-callgrind/). Its bench targets are rebuilt with ninja first.
#   --fonts LIST      comma-separated fonts instead of the default sets: paths, or names found in
#                     build-test/fonts-cache/ or tests/fonts/. bench_outline and bench_instance
#                     run on each; bench_metrics runs with them as arguments (its default run,
#                     below, is the only one with its "phantom" rows).
#   --jobs N          callgrind runs in parallel (default 2)
#   --only REGEX      only the jobs whose name matches (grep -E; --list shows them),
#                     e.g. 'outline-.*Inter' or 'metrics'
#   --tolerance PCT   flag a row when cur > base * (1 + PCT/100) (default 1)
#   --keep DIR        keep every profile and output (DIR/base/JOB/, DIR/cur/JOB/)
#   --baseline FILE   write the base build's counts (and the versions they were measured with)
#                     to FILE (bench/callgrind-baseline-<commit>.txt); without --cur only the
#                     base build runs
#   --list            print the jobs (name, benchmark, environment, arguments) and exit
#
# What runs (the same arguments, environment and working directory for both builds):
#   bench_outline -e otvar -n 4 -r 1 FONT and -n 12 -r 1 FONT, every font in its shipped
#     configuration ("shipped": glyph, component and CFF2 compile caches on) and, for TrueType
#     fonts, with OTV_BENCH_NO_GC=1 OTV_BENCH_NO_CC=1 ("no-caches"), for CFF/CFF2 fonts with
#     OTV_CFF_NO_COMPILE=1 ("no-compile"); static fonts only "shipped". Rows: "draw -n 4" (every otv_location_set_normalized
#     + otv_glyph_outline call: 4 warm-up and 4 timed location passes, so it includes the first
#     draws that fill the caches and compile CFF2 glyphs), "draw -n 12", and "draw per
#     location" = (draw -n 12 - draw -n 4) / 16, the marginal cost of one location pass of
#     every glyph once the caches are warm, as bench/README.md measures it. Both totals and the
#     marginal are flagged: a refactor can slow the cache fill without touching the hot path,
#     or the reverse.
#   bench_instance FONT with OTV_BENCH_QUICK=1 (one round of every named instance, no thread
#     runs) and BENCH_NO_FONTTOOLS=1 (no Python at all). Rows: "full" (otv_location_set_named +
#     otv_instance_create + otv_instance_free of every named instance) and "partial"
#     (otv_instance_create_partial: named instance 0 with the first axis kept, 3 rounds; the
#     bench does it for TrueType fonts with 2+ axes). hb-subset is not run: LD_LIBRARY_PATH
#     points at an empty libharfbuzz-subset.so.0 (built in the run directory), so its dlopen
#     finds no symbols and prints its "no hb-subset column" note. Otherwise it forks a child
#     for hb-subset, which callgrind follows (fork is not exec: --trace-children does not apply),
#     costing ~5x the run time for a profile that is thrown away.
#   bench_metrics with no argument (its default work: 5 real fonts, Inter with HVAR hidden, the
#     VVAR test font with and without), one process split per font by --dump-before=bench_font*.
#     Rows: "advances" (otv_location_set_normalized + otv_glyph_advances, h and v, 200
#     locations; 20 for "phantom" rows). HarfBuzz and FreeType are not counted, but they run
#     (the bench has no engine switch): 99% of its 38 G instructions, ~4.5 CPU minutes per
#     build under callgrind, the longest job by far (it starts first).
# Every row also has "setup": the other otvar calls (open, location create, close), shown but
# never flagged (not timed by the benchmarks).
# Time: 72 runs per build; base and cur together take ~8-10 minutes on the 2 cores when they are
# not shared (~17 CPU minutes), much longer when other work runs (--jobs N for more cores).
#
# What is counted: for each call the benchmark's own code makes into libotvar (callee = a
# symbol of libotvar.a, caller = a benchmark function), the inclusive instruction count (Ir) of
# that call: otvar's code and what it calls (libc: memcpy, malloc; the bench's pen and
# allocator callbacks). Not counted: process start, the bench's own loops, HarfBuzz, FreeType.
# This is what --toggle-collect='otv_glyph_outline' etc. would count, without its trap: a
# toggled function called inside another toggled one switches collection OFF (checked with
# valgrind 3.19), so a refactor making one public function call another would lose counts
# silently. bench/callgrind_calls.py reads the call arcs of the profile instead.
#
# Determinism: counts do not depend on time (fixed repeat counts and seeds: -r 1, QUICK, the
# benches' fixed random locations) or on threads (none run). They do depend, slightly, on
# addresses: glibc's memcmp/memcpy take other paths for other alignments and page offsets, and
# the stack's position moves with the size of the environment, argv and the program's path
# (measured: partial instances of RobotoFlex and Source Serif 4 moved by 2-13 thousand
# instructions, < 0.01%, with the length of the directory the binary ran from). So every run
# has the same environment (env -i, a fixed list), the same argv, the same path length (the
# binaries are copied to /tmp/callgrind-compare-run.XXXXXX/A (base) and B (cur) and run there
# as ./bench_x) and no ASLR (setarch -R). Then the same binary gives the same counts run after
# run, and two builds of the same sources give identical counts (base vs base: every row 1.0000,
# equal). A real change of the library still moves its heap and data layout, which can move a
# row by such a few thousand instructions besides the change's own effect: far below 1%.
# Counts are specific to this machine's valgrind, compiler, glibc, HarfBuzz and FreeType:
# compare numbers measured on one machine (--baseline records the versions).
#
# The benchmark sources must be the same in both builds for the rows to count the same work: if
# bench/bench_{outline,instance,metrics}.c differ, the current sources are compiled against the
# base library (the base build's own compile and link commands, another source file) and used
# for base. If that does not compile (bench_outline.c includes an internal header for its cache
# switches: a refactor that moves it changes that #include), each build runs its own sources;
# the differences are printed, with a note when they are only #include lines (same code) and a
# WARNING otherwise.

# The baseline: b08d998, before the refactor of issue 19.
BASE_REV=b08d998

set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
HELPER="$ROOT/bench/callgrind_calls.py"
BENCHES="bench_outline bench_instance bench_metrics"
RUN_TIMEOUT=3600 # seconds per callgrind run

die() { echo "callgrind-compare: $*" >&2; exit 2; }
note() { echo "callgrind-compare: $*" >&2; }
usage() { sed -n '/^# usage:/,/^#   --list/p' "$0" | sed 's/^# \{0,1\}//'; }
. "$ROOT/bench/compare-common.sh" # base_worktree, out_dir

CUR_BLD="" CUR_SRC=""
BASE=$BASE_REV BASE_BUILD="" CUR_DIR="" FONT_LIST="" JOBS=2 ONLY="" TOL=1 KEEP="" BASELINE=""
LIST=0
while [ $# -gt 0 ]; do
  case "$1" in
    --base|--base-build|--cur|--fonts|--jobs|--only|--tolerance|--keep|--baseline)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)"
      case "$1" in
        --base) BASE=$2 ;; --base-build) BASE_BUILD=$2 ;; --cur) CUR_DIR=$2 ;;
        --fonts) FONT_LIST=$2 ;; --jobs) JOBS=$2 ;; --only) ONLY=$2 ;; --tolerance) TOL=$2 ;;
        --keep) KEEP=$2 ;; --baseline) BASELINE=$2 ;;
      esac
      shift 2 ;;
    --list) LIST=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number, not '$JOBS'"
[[ $TOL =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--tolerance needs a number, not '$TOL'"
RUN_CUR=1 # --baseline without --cur: the base build only
[ -z "$BASELINE" ] || [ -n "$CUR_DIR" ] || RUN_CUR=0
for t in cmake ninja valgrind setarch nm timeout cc; do
  command -v $t >/dev/null || die "needs $t"
done

T0=$(date +%s)
BUILD_LOG=$(mktemp "${TMPDIR:-/tmp}/callgrind-compare-build.XXXXXX")
# The binaries run from here, base from A/, cur from B/: the same path length for both, and for
# every run of this script (the path reaches the client's stack, whose alignment moves memcmp's
# and memcpy's counts by a few thousand instructions: measured on partial instances).
RUNDIR=$(mktemp -d /tmp/callgrind-compare-run.XXXXXX)
WORK=""
cleanup() {
  rm -f "$BUILD_LOG"
  rm -rf "$RUNDIR"
  [ -n "$WORK" ] && rm -rf "$WORK"
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- fonts and jobs ----

FC=build-test/fonts-cache
[ -d "$FC" ] || [ ! -d build/fonts-cache ] || FC=build/fonts-cache
FC="$ROOT/$FC"
TF="$ROOT/tests/fonts"
# bench_outline: the fonts of bench/README.md's and bench/README-cff.md's tables
OUTLINE_FONTS="$FC/Inter-roman.var.ttf $FC/SourceSerif4Variable-Roman.ttf
  $FC/SourceSans3VF-Upright.ttf $FC/RobotoFlex-latin.ttf $FC/Recursive-latin.ttf
  $FC/Karla-Italic-VF.ttf $TF/Roboto-Variable.ABC.ttf $TF/Handjet.ttf
  $FC/SourceSans3VF-Upright.otf $FC/Cantarell-VF.otf $FC/SourceSerif4Variable-Roman.otf
  $TF/AdobeVFPrototype_vsindex.otf $TF/NotoSansJP-VF.subset.otf $TF/cantarell_vf_trimmed.ttf
  $TF/CFF2Instancer-VF-1.otf $FC/Karla-Regular.otf"
# bench_instance: its own default list (bench_instance.c main)
INSTANCE_FONTS="$FC/Inter-roman.var.ttf $FC/Karla-Italic-VF.ttf $FC/SourceSans3VF-Upright.ttf
  $FC/SourceSerif4Variable-Roman.ttf $FC/RobotoFlex-latin.ttf $FC/Recursive-latin.ttf
  $FC/SourceSans3VF-Upright.otf $FC/SourceSerif4Variable-Roman.otf $FC/Cantarell-VF.otf"
METRICS_FONTS="" # empty: bench_metrics' default run (OTV_FONT_CACHE, OTV_FONTS)

if [ -n "$FONT_LIST" ]; then
  OUTLINE_FONTS="" INSTANCE_FONTS=""
  IFS=, read -r -a names <<<"$FONT_LIST"
  for f in "${names[@]}"; do
    [ -n "$f" ] || continue
    if [ -f "$f" ]; then p=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
    elif [ -f "$FC/$f" ]; then p="$FC/$f"
    elif [ -f "$TF/$f" ]; then p="$TF/$f"
    else die "--fonts: no font '$f' (nor in $FC or $TF)"; fi
    [[ $p != *[[:space:]]* ]] || die "--fonts: '$p': paths with spaces are not supported"
    OUTLINE_FONTS+=" $p" INSTANCE_FONTS+=" $p" METRICS_FONTS+=" $p"
  done
fi

# JOBS.tsv: job, bench, config, font, n, nlo, nhi (read by the helper), then the environment
# and the arguments (space-separated), and how rows are named (row:NAME or stdout).
N_LO=4 N_HI=12
make_jobs() {
  local f b kind cfg envs n
  for f in $OUTLINE_FONTS; do
    [ -f "$f" ] || { note "no font $f: skipped"; continue; }
    b=$(basename "$f")
    kind=$(head -c 4 "$f" | od -An -c | tr -d ' ')
    # a static font (no 'fvar' among the table tags) has no cache switch that changes anything
    cfgs="shipped nocache"
    head -c 2048 "$f" | grep -aq fvar || cfgs=shipped
    for cfg in $cfgs; do
      if [ "$cfg" = shipped ]; then envs="-"
      elif [ "$kind" = OTTO ]; then cfg=no-compile envs="OTV_CFF_NO_COMPILE=1"
      else cfg=no-caches envs="OTV_BENCH_NO_GC=1 OTV_BENCH_NO_CC=1"; fi
      for n in $N_LO $N_HI; do
        printf 'outline-%s-%s@n%s\tbench_outline\t%s\t%s\t%s\t%s\t%s\t%s\t%s\trow:%s\n' \
          "$cfg" "$b" "$n" "$cfg" "$b" "$n" $N_LO $N_HI "$envs" "-e otvar -n $n -r 1 $f" "$b"
      done
    done
  done
  for f in $INSTANCE_FONTS; do
    [ -f "$f" ] || { note "no font $f: skipped"; continue; }
    b=$(basename "$f")
    printf 'instance-%s\tbench_instance\tquick\t%s\t-\t-\t-\t%s\t%s\trow:%s\n' "$b" "$b" \
      "OTV_BENCH_QUICK=1 BENCH_NO_FONTTOOLS=1 LD_LIBRARY_PATH=$NOHBS" "$f" "$b"
  done
  if [ -z "$FONT_LIST" ]; then
    printf 'metrics\tbench_metrics\tdefault\t-\t-\t-\t-\t%s\t-\tstdout\n' \
      "OTV_FONT_CACHE=$FC OTV_FONTS=$TF"
  else
    for f in $METRICS_FONTS; do
      b=$(basename "$f")
      printf 'metrics-%s\tbench_metrics\targs\t%s\t-\t-\t-\t-\t%s\trow:%s\n' "$b" "$b" "$f" "$b"
    done
  fi
}

CACHE_ROOT="$ROOT/.callgrind"
NOHBS="$RUNDIR/nohbs"
JOBLIST=$(make_jobs)
TAB=$'\t'
if [ -n "$ONLY" ]; then
  JOBLIST=$(grep -E -- "^[^$TAB]*(${ONLY})[^$TAB]*$TAB" <<<"$JOBLIST" || true)
fi
[ -n "$JOBLIST" ] || die "no jobs${ONLY:+ match '$ONLY'}"
if [ "$LIST" = 1 ]; then
  awk -F '\t' '{ printf "%-52s %s %s %s\n", $1, ($8 == "-" ? "" : $8), $2, $9 }' <<<"$JOBLIST"
  exit 0
fi

# ---- the builds ----

# configure (once) and build the bench targets; the log is shown when it fails
build_benches() { # source dir, build dir
  local src=$1 bld=$2
  {
    [ -f "$bld/CMakeCache.txt" ] || cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DOTV_BENCH=ON # the bench targets exist only with it
    ninja -C "$bld" $BENCHES
  } >"$BUILD_LOG" 2>&1 || { tail -n 40 "$BUILD_LOG" >&2; die "building the benchmarks of $src into $bld failed"; }
  for b in $BENCHES; do [ -x "$bld/$b" ] || die "$bld/$b missing after the build"; done
}

cache_var() { sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"; }

check_build() { # build dir, label
  local bld=$1 v
  [ -f "$bld/CMakeCache.txt" ] || die "$2: $bld is not a CMake build directory"
  v=$(cache_var "$bld" CMAKE_BUILD_TYPE)
  [ "$v" = Release ] || die "$2: $bld is a '$v' build, not Release (cmake -DCMAKE_BUILD_TYPE=Release)"
  for v in OTV_SANITIZE OTV_FUZZ OTV_TSAN; do
    [ "$(cache_var "$bld" $v)" != ON ] || die "$2: $bld is built with $v=ON"
  done
  [ -f "$bld/libotvar.a" ] || die "$2: no libotvar.a in $bld"
}

if [ -n "$BASE_BUILD" ]; then
  BASE_BLD=$(cd "$BASE_BUILD" 2>/dev/null && pwd) || die "--base-build: no directory '$BASE_BUILD'"
  check_build "$BASE_BLD" --base-build
  BASE_SRC=$(cache_var "$BASE_BLD" CMAKE_HOME_DIRECTORY)
  note "bringing the base benchmarks in $BASE_BLD up to date"
  build_benches "$BASE_SRC" "$BASE_BLD"
  BASE_SHORT=$(git -C "$BASE_SRC" describe --always --dirty 2>/dev/null || echo '?')
  BASE_LABEL="$BASE_BLD ($BASE_SHORT)"
else
  BASE_SHA=$(git rev-parse --verify --quiet "$BASE^{commit}") || die "--base: no commit '$BASE'"
  BASE_SHORT=$(git rev-parse --short=12 "$BASE_SHA")
  CACHE="$CACHE_ROOT/$BASE_SHORT"
  BASE_SRC="$CACHE/src" BASE_BLD="$CACHE/build"
  [ -e "$BASE_SRC/.git" ] || note "git worktree of $BASE ($BASE_SHORT) in $BASE_SRC"
  base_worktree "$BASE_SRC" "$BASE_SHA" "$BUILD_LOG"
  note "building the benchmarks of $BASE ($BASE_SHORT) in $BASE_BLD"
  build_benches "$BASE_SRC" "$BASE_BLD"
  check_build "$BASE_BLD" base
  BASE_LABEL="$BASE ($BASE_SHORT)"
fi

if [ "$RUN_CUR" = 1 ]; then
  if [ -n "$CUR_DIR" ]; then
    CUR_BLD=$(cd "$CUR_DIR" 2>/dev/null && pwd) || die "--cur: no directory '$CUR_DIR'"
    check_build "$CUR_BLD" --cur
    CUR_SRC=$(cache_var "$CUR_BLD" CMAKE_HOME_DIRECTORY)
    note "bringing the benchmarks in $CUR_BLD up to date"
    build_benches "$CUR_SRC" "$CUR_BLD"
    CUR_LABEL="$CUR_BLD ($(git -C "$CUR_SRC" describe --always --dirty 2>/dev/null || echo '?'))"
  else
    CUR_SRC=$ROOT CUR_BLD="$ROOT/build-callgrind"
    note "building the working tree's benchmarks in $CUR_BLD"
    build_benches "$CUR_SRC" "$CUR_BLD"
    check_build "$CUR_BLD" cur
    CUR_LABEL="working tree ($(git describe --always --dirty 2>/dev/null || echo '?'), build-callgrind/)"
  fi
  for v in CMAKE_C_COMPILER CMAKE_C_FLAGS CMAKE_C_FLAGS_RELEASE OTV_NO_SIMD; do
    [ "$(cache_var "$BASE_BLD" $v)" = "$(cache_var "$CUR_BLD" $v)" ] ||
      note "WARNING: $v differs: base '$(cache_var "$BASE_BLD" $v)', cur '$(cache_var "$CUR_BLD" $v)'"
  done
fi

# the empty libharfbuzz-subset.so.0 (see the header)
mkdir -p "$NOHBS"
echo 'int otv_callgrind_no_hb_subset;' >"$NOHBS/empty.c"
cc -shared -fPIC -o "$NOHBS/libharfbuzz-subset.so.0" "$NOHBS/empty.c" || die "cannot build $NOHBS"

out_dir callgrind-compare --keep "$KEEP" base cur results-base results-cur cross
mkdir -p "$OUT/results-base" "$OUT/results-cur"
printf '%s\n' "$JOBLIST" >"$OUT/jobs.tsv"

# Same benchmark sources on both sides? If not, the current ones built against the base library.
BASE_BIN_DIR=$BASE_BLD
if [ "$RUN_CUR" = 1 ]; then
  differ=""
  for b in $BENCHES; do
    cmp -s "$BASE_SRC/bench/$b.c" "$CUR_SRC/bench/$b.c" || differ+=" $b"
  done
  if [ -n "$differ" ]; then
    note "the benchmark sources differ between base and cur:$differ"
    mkdir -p "$OUT/cross"
    : >"$BUILD_LOG"
    cross_ok=1
    for b in $BENCHES; do
      cp "$BASE_BLD/$b" "$OUT/cross/$b"
      case " $differ " in *" $b "*) ;; *) continue ;; esac
      cc_cmd=$(ninja -C "$BASE_BLD" -t commands "$b" | grep -F -- "-c $BASE_SRC/bench/$b.c" | tail -n 1)
      ld_cmd=$(ninja -C "$BASE_BLD" -t commands "$b" | grep -F -- "-o $b " | tail -n 1)
      [ -n "$cc_cmd" ] && [ -n "$ld_cmd" ] || { cross_ok=0; break; }
      cc_cmd=$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//' <<<"$cc_cmd") # no depfile in the base build
      obj=$(sed -E 's/.* -o ([^ ]+\.o) .*/\1/' <<<"$cc_cmd")
      cc_cmd=${cc_cmd/-c $BASE_SRC\/bench\/$b.c/-c $CUR_SRC/bench/$b.c}
      cc_cmd=${cc_cmd/-o $obj/-o $OUT/cross/$b.o}
      ld_cmd=${ld_cmd/ $obj / $OUT/cross/$b.o }
      ld_cmd=${ld_cmd/-o $b /-o $OUT/cross/$b }
      (cd "$BASE_BLD" && eval "$cc_cmd" && eval "$ld_cmd") >>"$BUILD_LOG" 2>&1 || { cross_ok=0; break; }
    done
    if [ "$cross_ok" = 1 ]; then
      note "base runs the CURRENT benchmark sources, built against the base library ($OUT/cross)"
      BASE_BIN_DIR="$OUT/cross"
    else
      tail -n 20 "$BUILD_LOG" >&2
      note "the current benchmark sources do not build against the base library: each build runs"
      note "its own benchmark sources"
      code_differs=""
      for b in $differ; do
        # a refactor that moves the internal headers changes only the bench's #include lines
        if ! cmp -s <(grep -v '^#include' "$BASE_SRC/bench/$b.c") <(grep -v '^#include' "$CUR_SRC/bench/$b.c"); then
          code_differs+=" $b"
        fi
        diff -u "$BASE_SRC/bench/$b.c" "$CUR_SRC/bench/$b.c" | head -n 30 | sed 's/^/    /' >&2 || true
      done
      if [ -z "$code_differs" ]; then
        note "(only #include lines differ: the benchmarks' code is the same)"
      else
        note "WARNING: the code of$code_differs differs (not just #include lines): the rows may not"
        note "WARNING: count the same work; check the differences above"
      fi
    fi
  fi
fi

# the otvar function names (callees that count), per build
nm --defined-only "$BASE_BLD/libotvar.a" 2>/dev/null | awk '$2 ~ /^[tTwWiI]$/ { print $3 }' |
  sort -u >"$OUT/syms-base"
[ -s "$OUT/syms-base" ] || die "no symbols in $BASE_BLD/libotvar.a"
if [ "$RUN_CUR" = 1 ]; then
  nm --defined-only "$CUR_BLD/libotvar.a" 2>/dev/null | awk '$2 ~ /^[tTwWiI]$/ { print $3 }' |
    sort -u >"$OUT/syms-cur"
  [ -s "$OUT/syms-cur" ] || die "no symbols in $CUR_BLD/libotvar.a"
fi
mkdir -p "$RUNDIR/A" "$RUNDIR/B"
for b in $BENCHES; do
  cp "$BASE_BIN_DIR/$b" "$RUNDIR/A/$b"
  [ "$RUN_CUR" = 0 ] || cp "$CUR_BLD/$b" "$RUNDIR/B/$b"
done
T_BUILT=$(date +%s)

# ---- the runs ----

# One callgrind run: OUT/SIDE/JOB/ (profiles, stdout, stderr, rc), then OUT/results-SIDE/JOB.calls
run_job() { # side, job
  set -euo pipefail
  local side=$1 job=$2 line bench envs args rows bin dir rc=0 dump=()
  line=$(awk -F '\t' -v j="$job" '$1 == j' "$OUT/jobs.tsv")
  IFS=$'\t' read -r _ bench _ _ _ _ _ envs args rows <<<"$line"
  [ "$envs" = - ] && envs=""
  [ "$args" = - ] && args=""
  if [ "$side" = base ]; then bin=$RUNDIR/A; else bin=$RUNDIR/B; fi
  dir="$OUT/$side/$job"
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$rows" = stdout ] && dump=("--dump-before=bench_font*")
  # fixed environment and argv[0]; no ASLR; the bench's stdout/stderr kept
  (cd "$bin" && timeout "$RUN_TIMEOUT" env -i PATH=/usr/bin:/bin LC_ALL=C HOME=/nonexistent $envs \
    "$SETARCH" -R "$VALGRIND" --tool=callgrind --trace-children=no "${dump[@]}" \
    --callgrind-out-file="$dir/callgrind.out.%p" "./$bench" $args) \
    >"$dir/stdout" 2>"$dir/stderr" </dev/null || rc=$?
  echo "$rc" >"$dir/rc"
  if [ "$rc" != 0 ]; then
    echo "callgrind-compare: $side $job: exit status $rc (see below)" >&2
    grep -v '^==' "$dir/stderr" | tail -n 5 >&2 || true
    return 1
  fi
  local rowopt=(--rows-from "$dir/stdout")
  [ "${rows#row:}" != "$rows" ] && rowopt=(--row "${rows#row:}")
  "$PY" "$HELPER" calls --lib-syms "$OUT/syms-$side" --exe "$bin/$bench" "${rowopt[@]}" \
    "$dir"/callgrind.out.* >"$OUT/results-$side/$job.calls.tmp"
  mv "$OUT/results-$side/$job.calls.tmp" "$OUT/results-$side/$job.calls"
  [ -n "$KEEP" ] || rm -rf "$dir"
}
VALGRIND=$(command -v valgrind) SETARCH=$(command -v setarch)
export OUT RUNDIR PY HELPER RUN_TIMEOUT KEEP VALGRIND SETARCH
export -f run_job

SIDES="base cur"
[ "$RUN_CUR" = 1 ] || SIDES=base
NJOBS=$(wc -l <<<"$JOBLIST")
note "base: $BASE_LABEL"
[ "$RUN_CUR" = 0 ] || note "cur:  $CUR_LABEL"
note "$NJOBS jobs x $(wc -w <<<"$SIDES") builds, $JOBS in parallel"
# longest first (bench_metrics, then bench_instance, then the outline runs, -n 12 first), the
# two builds interleaved so that both finish together
{
  grep -E '^metrics' <<<"$JOBLIST" || true
  grep -E '^instance' <<<"$JOBLIST" || true
  grep -E "^outline.*@n$N_HI$TAB" <<<"$JOBLIST" || true
  grep -E "^outline.*@n$N_LO$TAB" <<<"$JOBLIST" || true
} | cut -f1 | while IFS= read -r j; do for s in $SIDES; do printf '%s %s\n' "$s" "$j"; done; done |
  xargs -d '\n' -n 1 -P "$JOBS" bash -c 'run_job ${1% *} "${1#* }" || echo "callgrind-compare: ${1}: could not run" >&2' _
T_RUN=$(date +%s)

# ---- the table ----

rc=0
if [ -n "$BASELINE" ]; then
  {
    echo "# otvar instruction counts under callgrind: $BASE_LABEL"
    echo "# written by bench/callgrind-compare.sh --baseline (read its header for what runs and"
    echo "# what is counted); compare a build with: bench/callgrind-compare.sh --cur BUILD_DIR"
    echo "# date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# valgrind:  $(valgrind --version)"
    echo "# compiler:  $(cache_var "$BASE_BLD" CMAKE_C_COMPILER) ($(cc --version | head -n 1))," \
      "flags: $(cache_var "$BASE_BLD" CMAKE_C_FLAGS_RELEASE) $(cache_var "$BASE_BLD" CMAKE_C_FLAGS)"
    echo "# packages:  $(dpkg-query -W -f '${binary:Package} ${Version}, ' libc6 libharfbuzz0b \
      libfreetype6 2>/dev/null | sed 's/, $//' || echo '?')"
    echo "# CPU:       $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
    echo "# Counts are exact and repeatable on one machine; another valgrind, compiler or glibc"
    echo "# moves them (memcpy variants, code generation): compare builds measured together."
    echo "# The runs, each as: env -i PATH=/usr/bin:/bin LC_ALL=C HOME=/nonexistent [ENV] setarch -R"
    echo "# valgrind --tool=callgrind ./bench_x ARGS FONT (from <run dir>/A; bench_metrics with"
    echo "# --dump-before=bench_font*); fonts from build-test/fonts-cache/ and tests/fonts/:"
    awk -F '\t' '{
      args = ($9 == "-") ? "" : $9; font = ""
      if (args != "") {
        n = split(args, w, " "); font = w[n]; sub(/.*\//, "", font); args = ""
        for (j = 1; j < n; j++) args = args (j > 1 ? " " : "") w[j]
      }
      if ($2 == "bench_outline") sub(/-n [0-9]+/, "-n 4|12", args)
      key = (($8 == "-") ? "" : $8 " ") $2 (args == "" ? "" : " " args)
      if (!(key in fonts)) { order[++k] = key; fonts[key] = "" }
      if (font != "" && index(", " fonts[key] ", ", ", " font ", ") == 0)
        fonts[key] = fonts[key] (fonts[key] == "" ? "" : ", ") font
    } END {
      for (i = 1; i <= k; i++) {
        printf "#   %s%s\n", order[i], (fonts[order[i]] == "" ? "" : " FONT")
        if (fonts[order[i]] != "") printf "#       FONT: %s\n", fonts[order[i]]
      }
    }' "$OUT/jobs.tsv" | sed -e "s|$RUNDIR|<run dir>|g" -e "s|$ROOT/||g" | fold -s -w 100 |
      sed '/^#/!s/^/#         /'
    echo "#"
    "$PY" "$HELPER" table --jobs "$OUT/jobs.tsv" --base "$OUT/results-base" \
      --label-base "$BASE_SHORT" || rc=$?
  } >"$OUT/baseline.raw"
  sed 's/[[:space:]]*$//' "$OUT/baseline.raw" >"$OUT/baseline.txt"
  cp "$OUT/baseline.txt" "$BASELINE"
  cat "$BASELINE"
  note "wrote $BASELINE"
fi
if [ "$RUN_CUR" = 1 ]; then
  echo
  echo "callgrind-compare: otvar's instructions, base = $BASE_LABEL, cur = $CUR_LABEL"
  echo "  (rows 'setup' are not timed by the benchmarks and never flagged)"
  echo
  "$PY" "$HELPER" table --jobs "$OUT/jobs.tsv" --base "$OUT/results-base" \
    --cur "$OUT/results-cur" --tolerance "$TOL" --tsv "$OUT/table.tsv" || rc=$?
  [ -z "$KEEP" ] || echo "  profiles and outputs: $OUT/{base,cur}/JOB/, the table as TSV: $OUT/table.tsv"
fi
T_END=$(date +%s)
times >"$RUNDIR/times" # second line: CPU time of the child processes (valgrind, builds)
cpu=$(sed -n 2p "$RUNDIR/times" | awk '{ split($1, u, "m"); split($2, v, "m");
  printf "%d", u[1] * 60 + u[2] + v[1] * 60 + v[2] }')
echo "  elapsed: $((T_END - T0)) s (builds $((T_BUILT - T0)) s, callgrind runs $((T_RUN - T_BUILT)) s, $JOBS jobs; CPU time $cpu s)"
exit $rc
