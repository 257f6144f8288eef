#!/usr/bin/env bash
# check-install.sh BUILD - what a user of the installed library and CLI meets (scripts/test.sh
# runs it on its sanitizer-free build):
#   1. `cmake --install BUILD --prefix P` into a temporary prefix, then the prefix moved elsewhere
#      (a relocated install must still find its data);
#   2. examples/hello.c (the README's example, checked to be the same text) built as C and as C++
#      against the installed prefix with `pkg-config --cflags --libs otvar`, and again through
#      find_package(otvar) in a small CMake project, each run on the bundled font;
#   3. otvar as a subproject: a CMake project that add_subdirectory()s the source tree and links
#      otvar::otvar_static builds and runs hello (no tests or oracles are configured there);
#   4. the installed otvar finds its data (its --version names share/otvar of the moved prefix)
#      and draws a specimen whose labels need it; `man otvar` and `man 3 otvar` render from the
#      prefix;
#   5. a build with every optional CLI library left out (-DOTV_WITH_PNG/ZLIB/BROTLI=OFF) compiles
#      and says at run time what is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD=$(cd "${1:?usage: check-install.sh BUILD}" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "check-install: FAIL: $*" >&2; exit 1; }
step() { echo "check-install: $*"; }
FONT="$ROOT/fonts/Karla-VF.ttf"

step "install into a prefix, then move it"
cmake --install "$BUILD" --prefix "$TMP/p0" >/dev/null
mv "$TMP/p0" "$TMP/prefix"
P="$TMP/prefix"
pc=$(find "$P" -name otvar.pc | head -1)
[ -n "$pc" ] || fail "no otvar.pc installed"
libdir=$(dirname "$(find "$P" -name 'libotvar.so.0' | head -1)")
[ -n "$libdir" ] || fail "no libotvar.so.0 (soname) installed"
[ "$(readelf -d "$libdir/libotvar.so.0" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" = libotvar.so.0 ] ||
  fail "libotvar's soname is not libotvar.so.0"

step "the README's example is examples/hello.c"
awk '/^```c$/ {on = 1; next} /^```$/ && on {exit} on' "$ROOT/README.md" >"$TMP/readme.c"
cmp -s "$TMP/readme.c" "$ROOT/examples/hello.c" || fail "README.md's C example differs from examples/hello.c"

step "build it with pkg-config, as C and as C++"
# the .pc file is relocatable only through its prefix variable: point it at the moved prefix
export PKG_CONFIG_PATH="$(dirname "$pc")"
flags=$(pkg-config --define-variable=prefix="$P" --cflags --libs otvar)
want="'A' (glyph"
cc -std=c99 -Wall -Wextra -Wpedantic -Werror "$ROOT/examples/hello.c" $flags -o "$TMP/hello_c"
c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -x c++ "$ROOT/examples/hello.c" -x none $flags \
  -o "$TMP/hello_cpp"
for b in hello_c hello_cpp; do
  LD_LIBRARY_PATH="$libdir" "$TMP/$b" "$FONT" | grep -q "$want" || fail "$b did not run"
done

step "build it with find_package(otvar), as C and as C++"
mkdir -p "$TMP/fp"
cp "$ROOT/examples/hello.c" "$TMP/fp/hello.c"
cp "$ROOT/examples/hello.c" "$TMP/fp/hello.cpp"
cat >"$TMP/fp/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(hello LANGUAGES C CXX)
find_package(otvar 0.3 REQUIRED)
add_executable(hello_c hello.c)
target_link_libraries(hello_c PRIVATE otvar::otvar)
add_executable(hello_cpp hello.cpp)
target_link_libraries(hello_cpp PRIVATE otvar::otvar_static)
CM
cmake -S "$TMP/fp" -B "$TMP/fp/build" -DCMAKE_PREFIX_PATH="$P" >/dev/null
cmake --build "$TMP/fp/build" >/dev/null
"$TMP/fp/build/hello_c" "$FONT" | grep -q "$want" || fail "find_package hello_c did not run"
"$TMP/fp/build/hello_cpp" "$FONT" | grep -q "$want" || fail "find_package hello_cpp did not run"

step "otvar as a subproject (add_subdirectory)"
mkdir -p "$TMP/sub"
cp "$ROOT/examples/hello.c" "$TMP/sub/hello.c"
cat >"$TMP/sub/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.16)
project(sub LANGUAGES C)
set(OTV_CLI OFF CACHE BOOL "")
add_subdirectory("$ROOT" otvar)
add_executable(hello hello.c)
target_link_libraries(hello PRIVATE otvar::otvar_static)
CM
cmake -S "$TMP/sub" -B "$TMP/sub/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
grep -q "add_test" "$TMP/sub/build/otvar/CTestTestfile.cmake" 2>/dev/null &&
  fail "the subproject configured otvar's tests"
cmake --build "$TMP/sub/build" --target hello >/dev/null
"$TMP/sub/build/hello" "$FONT" | grep -q "$want" || fail "the subproject's hello did not run"

step "the installed otvar finds its data and its manual pages"
data=$("$P/bin/otvar" --version | sed -n 's/^data: //p')
[ -n "$data" ] && [ "$(readlink -f "$data")" = "$(readlink -f "$P/share/otvar/Karla-VF.ttf")" ] ||
  fail "otvar --version: $("$P/bin/otvar" --version | tr '\n' ' ') (expected data in $P/share/otvar)"
# Roboto-Variable.ABC has no digits: the specimen's labels need the label font
"$P/bin/otvar" specimen "$ROOT/tests/fonts/Roboto-Variable.ABC.ttf" -o "$TMP/s.png" 2>"$TMP/err" ||
  fail "specimen: $(cat "$TMP/err")"
grep -q "labels use the font itself" "$TMP/err" && fail "the installed otvar lost its label font"
MANPATH="$P/share/man" man -P cat otvar 2>/dev/null | grep -q "otvar instance" || fail "man otvar"
MANPATH="$P/share/man" man -P cat 3 otvar 2>/dev/null | grep -q "otv_location_create" ||
  fail "man 3 otvar"

step "a build without libpng, zlib and Brotli"
cmake -S "$ROOT" -B "$TMP/min" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOTV_WITH_PNG=OFF \
  -DOTV_WITH_ZLIB=OFF -DOTV_WITH_BROTLI=OFF -DOTV_TESTS=OFF >/dev/null
cmake --build "$TMP/min" --target otvar_cli >"$TMP/min.log" 2>&1 ||
  fail "the build without the optional libraries: $(grep -m3 -E 'error|warning' "$TMP/min.log")"
"$TMP/min/otvar" info "$FONT" >/dev/null || fail "the minimal otvar cannot read a font"
if "$TMP/min/otvar" compress "$FONT" -o "$TMP/k.woff2" 2>"$TMP/err"; then fail "compress without Brotli"; fi
grep -q "no Brotli" "$TMP/err" || fail "compress without Brotli says: $(cat "$TMP/err")"
if "$TMP/min/otvar" render "$FONT" --text Hi -o "$TMP/h.png" 2>"$TMP/err"; then fail "PNG without libpng"; fi
grep -q "needs libpng" "$TMP/err" || fail "render without libpng says: $(cat "$TMP/err")"
"$TMP/min/otvar" render "$FONT" --text Hi -o "$TMP/h.svg" || fail "SVG render of the minimal otvar"
step "ok"
