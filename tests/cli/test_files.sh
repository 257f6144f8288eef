#!/usr/bin/env bash
# test_files.sh - file safety of every command that reads or writes files: outputs are regular
# files only (a device, FIFO, socket, directory or symlink as -o is refused with exit 2 and left
# as it was, even with --force); inputs are regular files or - (a FIFO fails at once, it does not
# hang); new files get 0666 less the umask; the temp file is fsync'd before the rename and
# removed when SIGTERM ends a run; a failed write (stdout on /dev/full) is one error line and
# exit 1 for every command.
# Env: OTVAR (the CLI), OTV_FONTS (tests/fonts), OTV_ROOT (repository root).
set -u
. "$(dirname "$0")/lib.sh"
cli_setup
trap 'umount "$TMP/full" 2>/dev/null; rm -rf "$TMP"' EXIT
R=$FONTS/Roboto-Variable.ABC.ttf
"$OTVAR" compress "$R" --woff -o "$TMP/r.woff" -q || bad "compress for the fixtures"

# the commands that write a file: NAME ARGS... (the output path comes last, after -o)
writers() {
  local o=$1
  echo "instance|$R --var wght=700 --force -q -o $o"
  echo "outline|$R --glyphs 1 --force -o $o"
  echo "render|$R --text A --force -o $o"
  echo "specimen|$R --force -o $o"
  echo "compress|$R --force -q -o $o"
  echo "decompress|$TMP/r.woff --force -o $o"
}
# run_writers DESC TARGET CHECK: each writer at TARGET must exit 2 with one error line, and
# CHECK (a shell test) must still hold afterwards
run_writers() {
  local desc=$1 target=$2 check=$3 line cmd args
  while IFS='|' read -r cmd args; do
    # shellcheck disable=SC2086
    expect 2 "$cmd -o $desc" -- timeout 10 "$OTVAR" $cmd $args
    one_line_err "$cmd -o $desc"
    err_has "$cmd -o $desc says why" "refusing to replace"
    if eval "$check"; then ok; else bad "$cmd -o $desc: the target was changed"; fi
  done < <(writers "$target")
}

# 1. a device node: as root `-o /dev/null --force` used to replace /dev/null by a regular file.
# Root tests a node of its own (the same device) so that a regression cannot break /dev/null.
DEV=/dev/null
if [ "$(id -u)" = 0 ] && mknod "$TMP/null" c 1 3 2>/dev/null; then DEV=$TMP/null; fi
run_writers "device" "$DEV" "[ -c '$DEV' ]"
[ -c /dev/null ] && ok || bad "/dev/null is no longer a character device"

# 2. a FIFO as output (refused, not opened: no hang) and as input (fails at once)
mkfifo "$TMP/fifo"
run_writers "FIFO" "$TMP/fifo" "[ -p '$TMP/fifo' ]"
for cmd in info tables outline metrics normalize instance compress decompress render; do
  extra=""
  case $cmd in instance) extra="--var wght=700 -o $TMP/x.ttf" ;; compress) extra="-o $TMP/x.woff2" ;;
    decompress) extra="-o $TMP/x.ttf" ;; render) extra="--text A -o $TMP/x.png" ;; esac
  # shellcheck disable=SC2086
  expect 1 "$cmd with a FIFO as FONT" -- timeout 10 "$OTVAR" $cmd "$TMP/fifo" $extra
  err_has "$cmd with a FIFO as FONT" "not a regular file"
done
expect 1 "a directory as FONT" -- timeout 10 "$OTVAR" info "$TMP"
one_line_err "a directory as FONT"
# - still reads standard input, and a symlink to a regular font is a regular input
expect 0 "stdin as FONT" -- sh -c '"$1" tables - <"$2"' sh "$OTVAR" "$R"
ln -s "$(cd "$(dirname "$R")" && pwd)/$(basename "$R")" "$TMP/link-in.ttf"
expect 0 "a symlink as FONT" -- "$OTVAR" tables "$TMP/link-in.ttf"

# 3. a symlink as output: refused (neither replaced nor followed), its target untouched
echo keep >"$TMP/target"
ln -s "$TMP/target" "$TMP/link"
run_writers "symlink" "$TMP/link" "[ -L '$TMP/link' ] && [ \"\$(cat '$TMP/target')\" = keep ]"
ln -s "$TMP/nowhere" "$TMP/dangling"
expect 2 "a dangling symlink as -o" -- "$OTVAR" outline "$R" --glyphs 1 -o "$TMP/dangling"
[ -L "$TMP/dangling" ] && [ ! -e "$TMP/nowhere" ] && ok || bad "dangling symlink followed or replaced"
# ... and in an --all-named directory: that instance refused, the others written
mkdir "$TMP/alld"
ln -s "$TMP/target" "$TMP/alld/Roboto-Variable.ABC-Bold.ttf"
expect 1 "--all-named over a symlink" -- "$OTVAR" instance "$R" --all-named -d "$TMP/alld" --force -q
err_has "--all-named over a symlink" "'Bold' not written"
[ -L "$TMP/alld/Roboto-Variable.ABC-Bold.ttf" ] && [ "$(cat "$TMP/target")" = keep ] && ok || bad "--all-named replaced the symlink"
# a directory as -o
mkdir "$TMP/adir"
expect 2 "a directory as -o" -- "$OTVAR" outline "$R" --glyphs 1 --force -o "$TMP/adir"
one_line_err "a directory as -o"

# 4. the umask decides the mode of new files (and of replaced ones: a new file each time)
for m in 077:600 022:644 002:664; do
  (umask "${m%:*}" && "$OTVAR" instance "$R" --var wght=700 -o "$TMP/u${m%:*}.ttf" -q)
  mode=$(stat -c %a "$TMP/u${m%:*}.ttf" 2>/dev/null)
  if [ "$mode" = "${m#*:}" ]; then ok; else bad "umask ${m%:*}: mode $mode, want ${m#*:}"; fi
done

# 5. the temp file is fsync'd before the rename (when strace can watch it)
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
  ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=fsync,fdatasync,rename,renameat,renameat2 -o "$TMP/strace" \
    "$OTVAR" instance "$R" --var wght=700 -o "$TMP/s.ttf" --force -q
  seq=$(grep -oE '(fsync|fdatasync|rename[a-z0-9]*)\(' "$TMP/strace" | tr -d '(' | tr '\n' ' ')
  case $seq in *sync*rename*) ok ;; *) bad "no fsync before the rename: $seq" ;; esac
else
  echo "skip: strace not usable (fsync check)"
fi

# 6. SIGTERM during a long --all-named leaves no temp file (and no partial output)
BIG=$ROOT/build-test/fonts-cache/SourceSerif4Variable-Roman.ttf
[ -f "$BIG" ] || BIG=$R
caught=0
for try in $(seq 1 20); do
  rm -rf "$TMP/sig"
  mkdir "$TMP/sig"
  "$OTVAR" instance "$BIG" --all-named -d "$TMP/sig" -j 2 -q 2>/dev/null &
  pid=$!
  # wait for a temp file to exist, then stop the run while it is being written
  for _ in $(seq 1 2000); do
    compgen -G "$TMP/sig/*.tmp-*" >/dev/null && break
    kill -0 $pid 2>/dev/null || break
  done
  had=0
  compgen -G "$TMP/sig/*.tmp-*" >/dev/null && had=1
  kill -TERM $pid 2>/dev/null
  wait $pid
  rc=$?
  if compgen -G "$TMP/sig/*.tmp-*" >/dev/null; then
    bad "SIGTERM left temp files: $(ls "$TMP/sig" | grep tmp- | head -3 | tr '\n' ' ')"
    break
  fi
  if [ "$had" = 1 ] && [ "$rc" -eq 143 ]; then caught=$((caught + 1)); fi
  [ "$caught" -lt 3 ] || break
done
echo "SIGTERM: $caught run(s) stopped with a temp file open ($(basename "$BIG"))"
if [ "$caught" -gt 0 ]; then ok; else echo "skip: never caught a run with a temp file open"; fi

# 7. a failed write to standard output: one line, exit 1, for every command that prints
for c in "outline $R --glyphs 0-3" "outline $R --glyphs 1 -o -" "metrics $R" "tables $R" \
  "normalize $R wght=700" "info $R" "info $R --json" "instance $R --var wght=700 -o -" \
  "compress $R -o -" "decompress $TMP/r.woff -o -" "render $R --text A -o -" "outline --help"; do
  # shellcheck disable=SC2086
  "$OTVAR" $c >/dev/full 2>"$TMP/err"
  rc=$?
  if [ "$rc" -eq 1 ]; then ok; else bad "$c >/dev/full: exit $rc"; fi
  cmd=${c%% *}
  if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^otvar: $cmd: cannot write the output: No space left on device" "$TMP/err"; then ok; else bad "$c >/dev/full: stderr: $(cat "$TMP/err")"; fi
done

# 8. -o on a full disk (a 4 KiB tmpfs, where this may mount one: root, not every container):
# one line, exit 1, no temp file left
mkdir "$TMP/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=4k tmpfs "$TMP/full" 2>/dev/null; then
  n=0
  for c in "outline $BIG --glyphs all -o" "instance $BIG --var wght=700 -q -o" "compress $BIG -q -o"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    expect 1 "$c on a full disk" -- "$OTVAR" $c "$TMP/full/x$n"
    cmd=${c%% *}
    if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^otvar: $cmd: .*No space left on device" "$TMP/err"; then ok; else bad "$c on a full disk: stderr: $(cat "$TMP/err")"; fi
    if [ -z "$(ls -A "$TMP/full")" ]; then ok; else bad "$c on a full disk left $(ls "$TMP/full")"; fi
  done
  umount "$TMP/full"
else
  echo "skip: cannot mount a tmpfs (full-disk -o check)"
fi

cli_summary test_files.sh
