#!/usr/bin/env bash
# README command (1): build otvar and run the main job on the bundled variable font.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --run
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build otvar_cli >/dev/null
FONT=fonts/Karla-VF.ttf
echo "== otvar info $FONT"
build/otvar info "$FONT"
echo "== otvar normalize $FONT wght=300 (and the axis extremes)"
build/otvar normalize "$FONT" wght=300
build/otvar normalize "$FONT" wght=200
build/otvar normalize "$FONT" wght=800
echo "== otvar instance $FONT --var wght=700 -> build/Karla-wght700.ttf (a static font)"
build/otvar instance "$FONT" --var wght=700 -o build/Karla-wght700.ttf --force
echo "== otvar instance $FONT --all-named -d build/instances -j 2 (one static font per named instance)"
build/otvar instance "$FONT" --all-named -d build/instances -j 2 --force
echo "== otvar specimen $FONT -> build/specimen.png (named instances, wght sweep)"
build/otvar specimen "$FONT" -o build/specimen.png --force
echo "== otvar render $FONT --var wght=700 -> build/hello.png"
build/otvar render "$FONT" --text "Hello, variable world" --var wght=700 -o build/hello.png --force
echo "pictures: build/specimen.png build/hello.png; instances: build/Karla-wght700.ttf build/instances/"
