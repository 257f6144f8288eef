#!/usr/bin/env bash
# README command (1): build otvar and run the main job on the bundled variable font.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DOTV_ORACLE=OFF >/dev/null
ninja -C build otvar_cli >/dev/null
FONT=fonts/Karla-VF.ttf
echo "== otvar info $FONT"
build/otvar info "$FONT"
echo "== otvar normalize $FONT wght=300 (and the axis extremes)"
build/otvar normalize "$FONT" wght=300
build/otvar normalize "$FONT" wght=200
build/otvar normalize "$FONT" wght=800
