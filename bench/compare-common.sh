# compare-common.sh - shell functions of the two scripts that compare the working tree with a
# base commit: bench/callgrind-compare.sh (instruction counts) and scripts/check-identical.sh
# (CLI outputs). Sourced by them, not run; it calls the sourcing script's die (message, exit 2).

# base_worktree DIR SHA LOG: a detached git worktree of commit SHA in DIR, made only when DIR
# holds none (a cache kept between runs); git's output goes to LOG, shown when it fails.
base_worktree() {
  local dir=$1 sha=$2 log=$3
  [ ! -e "$dir/.git" ] || return 0
  git worktree prune # a cache directory deleted by hand leaves a stale registration
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  git worktree add --detach "$dir" "$sha" >"$log" 2>&1 ||
    { cat "$log" >&2; die "git worktree add $dir failed"; }
}

# out_dir NAME OPTION KEEP SUBDIR...: sets OUT, the directory a run writes into. With KEEP (the
# value of the script's OPTION) it is that directory, kept afterwards: only a directory this
# script made (marked by a file .NAME) or an empty one is reused, after removing the SUBDIRs of
# the previous run. Without, a new temporary directory, also set in WORK for the caller's
# cleanup to remove.
out_dir() {
  local name=$1 option=$2 keep=$3 sub
  shift 3
  if [ -n "$keep" ]; then
    mkdir -p "$keep"
    OUT=$(cd "$keep" && pwd)
    if [ -n "$(ls -A "$OUT")" ] && [ ! -f "$OUT/.$name" ]; then
      die "$option: $OUT is not empty and not a previous run's output"
    fi
    for sub in "$@"; do rm -rf "${OUT:?}/$sub"; done
    touch "$OUT/.$name"
  else
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
    OUT=$WORK
  fi
}
