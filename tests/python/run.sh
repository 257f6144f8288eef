#!/bin/bash
# tests/python/run.sh - the Python package's tests (ctest: python/pytest).
#
#  1. pytest on tests/python with the package from the tree (PYTHONPATH=python), with Debian's
#     /usr/bin/python3 (its python3-pytest and python3-fonttools, the oracle);
#  2. the offline install: a venv (--system-site-packages) in a temp dir, `pip install
#     --no-build-isolation --no-index` of a copy of python/ (setuptools builds in the source
#     folder: a copy keeps the tree clean and lets parallel builds run this at once), then
#     otvar imported from the venv, outside the tree, opens a font.
# Environment (cmake/tests.cmake): OTVAR_LIBRARY, OTVAR_WOFF_LIBRARY, OTVAR (the CLI),
# OTV_FONTS, OTV_ROOT. Exit 77 (SKIP) without pytest or fontTools.
#
# A libotvar.so built with -DOTV_SANITIZE=ON (gcc ASan + UBSan) loads into Python only after its
# runtimes: they are preloaded, with leak detection off (the interpreter keeps memory at exit).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
cd "$ROOT" || exit 1

for module in pytest fontTools; do
  if ! "$PY" -c "import $module" 2>/dev/null; then
    echo "SKIP: $PY has no $module (Debian: python3-pytest, python3-fonttools)"
    exit 77
  fi
done

# The sanitizer runtimes libotvar links, as ldd resolves them ("libasan.so.8 => /path (...)").
PRELOAD=""
if [ -n "${OTVAR_LIBRARY:-}" ] && ldd "$OTVAR_LIBRARY" | grep -q libasan; then
  PRELOAD=$(ldd "$OTVAR_LIBRARY" |
    awk '/lib(asan|ubsan)\.so/ { printf "%s%s", sep, $3; sep = " " }')
  echo "sanitizer build: LD_PRELOAD=$PRELOAD"
fi

# Run Python with the preloaded runtimes when there are any (children inherit them).
py() {
  if [ -n "$PRELOAD" ]; then
    LD_PRELOAD="$PRELOAD" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$@"
  else
    "$@"
  fi
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# ---- 1. the tests, from the tree (no bytecode or pytest cache written into it) ----
status=0
PYTHONPATH="$ROOT/python" PYTHONDONTWRITEBYTECODE=1 \
  py "$PY" -m pytest -q -p no:cacheprovider --basetemp="$TMP/pytest" tests/python || status=1

# ---- 2. the offline install ----
install_check() {
  cp -r "$ROOT/python" "$TMP/src" &&
    "$PY" -m venv --system-site-packages "$TMP/venv" &&
    "$TMP/venv/bin/pip" install -q --no-build-isolation --no-index --no-cache-dir \
      --disable-pip-version-check "$TMP/src" &&
    (cd "$TMP" && unset PYTHONPATH && py "$TMP/venv/bin/python" -c '
import sys, otvar
assert otvar.__file__.startswith(sys.argv[1]), otvar.__file__
with otvar.Font(sys.argv[2]) as font:
    print("installed otvar %s (library %s) opens %s: axes %s" % (otvar.__version__,
          otvar.version(), sys.argv[2], " ".join(a.tag for a in font.axes)))
' "$TMP/venv" "$ROOT/fonts/Karla-VF.ttf")
}
if "$PY" -c "import ensurepip" 2>/dev/null; then
  install_check || { echo "FAIL: offline install of python/ into a venv"; status=1; }
else
  echo "SKIP (install check only): $PY has no venv support (Debian: python3-venv)"
fi
exit $status
