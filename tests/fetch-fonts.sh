#!/usr/bin/env bash
# Fetches real variable fonts (all OFL) for the differential tests and benchmarks into DIR
# (default build-test/fonts-cache). Cached: a font already there is not fetched again.
# Debian packages (apt-get download): fonts-inter-variable (Inter roman/italic, TrueType),
#   fonts-karla (Karla variable + static CFF), pango1.0-tests (Cantarell-VF.otf, CFF2).
# npm packages (npm pack): source-serif, source-sans (TrueType and CFF2 variable builds),
#   @fontsource-variable/roboto-flex and recursive (WOFF2, decompressed with Debian's woff2);
#   harfbuzzjs (not a font: the hb-subset oracle, into DIR/harfbuzzjs).
# A font that cannot be fetched is reported and skipped; tests that need it say so.
set -uo pipefail
DIR=${1:-build-test/fonts-cache}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

have() { [ -s "$DIR/$1" ]; }

deb_font() { # package, path inside the package, output name
  have "$3" && return 0
  # empty package lists (a machine where scripts/deps.sh had nothing to install): update once
  if ! (cd "$WORK" && apt-get download "$1" >/dev/null 2>&1); then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    (cd "$WORK" && apt-get download "$1" >/dev/null 2>&1) || { echo "fetch-fonts: cannot download $1" >&2; return 0; }
  fi
  mkdir -p "$WORK/x-$1"
  dpkg -x "$WORK"/"$1"_*.deb "$WORK/x-$1"
  if [ -f "$WORK/x-$1/$2" ]; then cp "$WORK/x-$1/$2" "$DIR/$3"; else echo "fetch-fonts: $2 not in $1" >&2; fi
}

npm_font() { # package, path inside the package (glob ok), output name
  have "$3" && return 0
  command -v npm >/dev/null || { echo "fetch-fonts: npm missing, skipping $1" >&2; return 0; }
  local d="$WORK/npm-$(echo "$1" | tr '/@' '__')"
  mkdir -p "$d"
  (cd "$d" && npm pack "$1" --silent >/dev/null 2>&1) || { echo "fetch-fonts: cannot npm pack $1" >&2; return 0; }
  tar -xzf "$d"/*.tgz -C "$d"
  local src
  src=$(ls $d/package/$2 2>/dev/null | head -1)
  [ -n "$src" ] || { echo "fetch-fonts: $2 not in $1" >&2; return 0; }
  case "$src" in
    *.woff2) cp "$src" "$WORK/tmp.woff2" && woff2_decompress "$WORK/tmp.woff2" >/dev/null && cp "$WORK/tmp.ttf" "$DIR/$3" ;;
    *) cp "$src" "$DIR/$3" ;;
  esac
}

deb_font fonts-inter-variable usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf Inter-roman.var.ttf
deb_font fonts-karla "usr/share/fonts/truetype/karla-variable/Karla-Italic[wght].ttf" Karla-Italic-VF.ttf
deb_font fonts-karla usr/share/fonts/truetype/karla/Karla-Regular.otf Karla-Regular.otf
deb_font pango1.0-tests usr/libexec/installed-tests/pango/fonts/Cantarell-VF.otf Cantarell-VF.otf
npm_font source-serif "VAR/SourceSerif4Variable-Roman.ttf" SourceSerif4Variable-Roman.ttf
npm_font source-serif "VAR/SourceSerif4Variable-Roman.otf" SourceSerif4Variable-Roman.otf
npm_font source-sans "VF/SourceSans3VF-Upright.ttf" SourceSans3VF-Upright.ttf
npm_font source-sans "VF/SourceSans3VF-Upright.otf" SourceSans3VF-Upright.otf
npm_font @fontsource-variable/roboto-flex "files/roboto-flex-latin-full-normal.woff2" RobotoFlex-latin.ttf
npm_font @fontsource-variable/recursive "files/recursive-latin-full-normal.woff2" Recursive-latin.ttf
# Arabic and Bengali variable fonts (wght, wdth; GSUB/GPOS with marks and conjuncts): the shaping
# tests of otvar shape/render (tests/cli/test_shape.sh). Pinned: the glyphs are compared by name.
npm_font @fontsource-variable/noto-sans-arabic@5.3.0 "files/noto-sans-arabic-arabic-standard-normal.woff2" NotoSansArabic-VF.ttf
npm_font @fontsource-variable/noto-sans-bengali@5.3.0 "files/noto-sans-bengali-bengali-standard-normal.woff2" NotoSansBengali-VF.ttf
# harfbuzzjs (current HarfBuzz as WebAssembly, incl. hb-subset): the CFF2 instancing oracle of
# tests/oracle/test_instance_hbjs.py. Pinned: a new HarfBuzz can change what it writes.
HBJS_VERSION=1.6.4
if [ ! -s "$DIR/harfbuzzjs/dist/harfbuzz-subset.wasm" ] ||
   ! grep -q "\"version\": \"$HBJS_VERSION\"" "$DIR/harfbuzzjs/package.json" 2>/dev/null; then
  if command -v npm >/dev/null && (cd "$WORK" && npm pack "harfbuzzjs@$HBJS_VERSION" --silent >/dev/null 2>&1); then
    rm -rf "$DIR/harfbuzzjs" && mkdir -p "$DIR/harfbuzzjs"
    tar -xzf "$WORK"/harfbuzzjs-*.tgz -C "$DIR/harfbuzzjs" --strip-components=1
  else
    echo "fetch-fonts: cannot npm pack harfbuzzjs@$HBJS_VERSION" >&2
  fi
fi
ls "$DIR"
exit 0
