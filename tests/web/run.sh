#!/usr/bin/env bash
# run.sh - the WebAssembly build and the playground page in headless Chromium (ctest web/wasm).
# Builds otvar.wasm with scripts/build-wasm.sh into OUTDIR, serves the page, the module and test
# fonts from 127.0.0.1, and lets tests/web/driver.js work the page (test.html): open a font, draw,
# move a slider, download a static and a partial instance. Then checks that the page raised no
# JavaScript error, that the canvas has ink and changed when the slider moved, and that the
# instances made in the browser are byte for byte the native CLI's ($OTVAR instance).
# Exit 0: pass; 1: a check failed; 2: bad usage; 77: SKIP (no wasm toolchain or no chromium).
# Environment: OTVAR (the native CLI, required), OTV_ROOT (default: this checkout), OTV_FONTS
# (default: tests/fonts), CHROMIUM (default: chromium).
# usage: tests/web/run.sh OUTDIR
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
out=$1
root=${OTV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
fonts=${OTV_FONTS:-$root/tests/fonts}
chromium=${CHROMIUM:-chromium}
python=/usr/bin/python3
if [ -z "${OTVAR:-}" ] || [ ! -x "$OTVAR" ]; then
  echo "web: FAIL: OTVAR must name the native otvar CLI (ctest sets it)" >&2
  exit 2
fi
if ! command -v "$chromium" >/dev/null; then
  echo "web: SKIP: no '$chromium' (Debian package chromium; or set CHROMIUM)"
  exit 77
fi
if [ ! -x "$python" ]; then
  echo "web: SKIP: no $python to serve the page"
  exit 77
fi

tmp=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

ms_since() { echo $(((${EPOCHREALTIME/./} - ${1/./}) / 1000)); }

# ---- build (build-wasm.sh says SKIP and exits 77 without a wasm32-wasi toolchain) ----
t0=$EPOCHREALTIME
rc=0
"$root/scripts/build-wasm.sh" "$out" || rc=$?
if [ $rc = 77 ]; then
  echo "web: SKIP: no wasm32-wasi toolchain (see above)"
  exit 77
elif [ $rc != 0 ]; then
  echo "web: FAIL: scripts/build-wasm.sh $out exited $rc" >&2
  exit 1
fi
echo "web: wasm build $(ms_since "$t0") ms"

# ---- serve: the built page and module, the test driver and the fonts ----
site="$tmp/site"
mkdir -p "$site"
cp "$out"/{index.html,app.js,otvar.js,style.css,otvar.wasm} "$root/tests/web/"{test.html,driver.js} "$site/"
cp "$root/fonts/Karla-VF.ttf" "$fonts/Roboto-Variable.ABC.ttf" "$site/"
# Port 0: the system picks a free one, and http.server prints it.
"$python" -u -m http.server 0 --bind 127.0.0.1 --directory "$site" >"$tmp/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/^Serving HTTP on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$tmp/server.log")
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "web: FAIL: the HTTP server did not start:" >&2
  cat "$tmp/server.log" >&2
  exit 1
fi

fails=0
fail() {
  echo "web: FAIL: $case_name: $*" >&2
  fails=$((fails + 1))
}

# field NAME: one value of the driver's JSON result (a dotted path; empty when absent).
field() {
  "$python" -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("" if v is None else json.dumps(v) if isinstance(v, (list, dict)) else v)' "$tmp/result.json" "$1"
}

# The <pre id="result"> of the dumped DOM, unescaped, into result.json.
extract_result() {
  "$python" -c '
import html, re, sys
m = re.search(r"<pre id=\"result\">(.*?)</pre>", open(sys.argv[1]).read(), re.S)
open(sys.argv[2], "w").write(html.unescape(m.group(1)) if m else "{}")' "$tmp/dom.html" "$tmp/result.json"
}

# run_page QUERY: test.html?QUERY in headless Chromium; its DOM in dom.html, its log in chrome.log.
run_page() {
  local t0=$EPOCHREALTIME
  # --virtual-time-budget: the DOM is dumped once the page has been idle for this much virtual
  # time (the driver's waits run fast); timeout: a hung browser fails instead of hanging ctest.
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-extensions --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
    --virtual-time-budget=600000 --dump-dom "http://127.0.0.1:$port/test.html?$1" \
    >"$tmp/dom.html" 2>"$tmp/chrome.log" || fail "chromium exited $? (log: see below)"
  echo "web: $case_name: chromium $(ms_since "$t0") ms"
}

# check_case NAME FONT VAR KEEP TEXT: one page run and its checks. VAR like wght=700; KEEP the
# axes of the partial instance (empty: none).
check_case() {
  case_name=$1
  local font=$2 var=$3 keep=$4 text=$5
  local before=$fails
  run_page "font=$font&var=$var${keep:+&keep=$keep}${text:+&text=$text}"
  extract_result
  if [ "$(field "done")" != True ]; then
    fail "the driver wrote no result (page did not run; DOM and log below)"
    head -c 2000 "$tmp/dom.html" >&2
  fi
  [ -z "$(field error)" ] || fail "the driver stopped: $(field error)"
  [ "$(field pageErrors)" = "[]" ] || fail "JavaScript errors in the page: $(field pageErrors)"
  if grep -q 'Uncaught' "$tmp/chrome.log"; then
    fail "uncaught JavaScript errors: $(grep 'Uncaught' "$tmp/chrome.log" | head -3)"
  fi
  [ "$(field before.ink)" -gt 0 ] 2>/dev/null || fail "the canvas is blank before the slider moved"
  [ "$(field after.ink)" -gt 0 ] 2>/dev/null || fail "the canvas is blank after the slider moved"
  if [ "$(field before.sha256)" = "$(field after.sha256)" ]; then
    fail "the canvas did not change when the sliders moved to $var (pixels $(field before.sha256))"
  fi
  compare_instance static "$font" "$var" ""
  if [ -n "$keep" ]; then
    case "$(field partialLabel)" in
      *"keep $keep"*) ;;
      *) fail "the partial button says '$(field partialLabel)', not 'keep $keep'" ;;
    esac
    compare_instance partial "$font" "$var" "$keep"
  fi
  if [ "$fails" = "$before" ]; then
    local made
    made="static $(field static.size) bytes"
    [ -z "$keep" ] || made+=", partial (keep $keep) $(field partial.size) bytes"
    echo "web: $case_name: ok: canvas $(field after.width)x$(field after.height)," \
      "$(field before.ink) -> $(field after.ink) ink pixels; $made, equal to the CLI's"
  else
    echo "web: $case_name: the page's console:" >&2
    grep 'CONSOLE' "$tmp/chrome.log" | head -20 >&2 || echo "  (empty)" >&2
  fi
}

# compare_instance KIND FONT VAR KEEP: the browser's instance against `otvar instance`'s.
compare_instance() {
  local kind=$1 font=$2 var=$3 keep=$4 want
  if ! "$OTVAR" instance "$site/$font" --var "$var" ${keep:+--keep "$keep"} -o "$tmp/cli.ttf" \
    --force -q; then
    fail "the CLI could not make the $kind instance to compare with (its error above)"
    return
  fi
  want=$(sha256sum "$tmp/cli.ttf" | cut -d' ' -f1)
  local got
  got=$(field "$kind.sha256")
  if [ "$got" != "$want" ]; then
    fail "the $kind instance made in the browser differs from the CLI's" \
      "(browser: ${got:-none}, $(field "$kind.size") bytes; CLI: $want, $(wc -c <"$tmp/cli.ttf") bytes;" \
      "CLI: otvar instance $font --var $var${keep:+ --keep $keep})"
  fi
}

check_case karla Karla-VF.ttf wght=700 "" ""
check_case roboto Roboto-Variable.ABC.ttf wght=700 wdth ABC

if [ "$fails" != 0 ]; then
  echo "web: FAIL: $fails check(s) failed" >&2
  exit 1
fi
echo "web: PASS"
