# lib.sh - helpers shared by the CLI tests (sourced, not a test itself: ctest globs test_*.sh).
# Start with `cli_setup` (or set TMP, a scratch directory, yourself). Counts checks and failures;
# finish with `cli_summary NAME`, which prints the counts and fails when a check failed or none ran.
checks=0
fails=0

# cli_setup: OTVAR, FONTS and ROOT from ctest's OTVAR, OTV_FONTS and OTV_ROOT (the defaults serve
# a run from the repository root), and TMP, a scratch directory removed at exit (a script with
# more to undo at exit sets its own trap after this one)
cli_setup() {
  OTVAR=${OTVAR:-build/otvar}
  FONTS=${OTV_FONTS:-tests/fonts}
  ROOT=${OTV_ROOT:-.}
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
}

ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }

# expect RC DESC -- CMD...: run, compare the exit code, keep stdout/stderr in $TMP/out, $TMP/err
expect() {
  local want=$1 desc=$2
  shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "$desc: exit $rc, expected $want ($(head -c 300 "$TMP/err"))"; fi
}
# one_line_err DESC: stderr is exactly one line starting with "otvar: "
one_line_err() {
  local n
  n=$(wc -l <"$TMP/err")
  if [ "$n" -eq 1 ] && grep -q '^otvar: ' "$TMP/err"; then ok; else bad "$1: stderr is not one 'otvar: ...' line: $(cat "$TMP/err")"; fi
}
empty_err() { if [ ! -s "$TMP/err" ]; then ok; else bad "$1: unexpected stderr: $(cat "$TMP/err")"; fi; }
has() { if grep -q -- "$2" "$TMP/out"; then ok; else bad "$1: output lacks '$2'"; fi; }
err_has() { if grep -q -- "$2" "$TMP/err"; then ok; else bad "$1: stderr lacks '$2': $(cat "$TMP/err")"; fi; }
no_file() { if [ ! -e "$2" ]; then ok; else bad "$1: $2 exists"; fi; }
# help_ok CMD: `otvar CMD --help` exits 0 and prints its usage line
help_ok() {
  expect 0 "help" -- "$OTVAR" "$1" --help
  grep -q "^usage: otvar $1" "$TMP/out" && ok || bad "help text"
}

cli_summary() {
  echo "$1: $checks checks, $fails failed"
  [ "$fails" -eq 0 ] && [ "$checks" -gt 0 ]
}
