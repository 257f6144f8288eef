// hbjs_instance_time.mjs - bench_instance's hb-subset (npm harfbuzzjs, WebAssembly) column for
// CFF2 fonts (Debian's native hb-subset 6.0 makes broken CFF2 instances): the time of one full
// static instance (every axis pinned, everything kept), measured inside node after the module is
// compiled and warmed up, best of ROUNDS. Prints "ms bytes".
// usage: node hbjs_instance_time.mjs HBJS_PACKAGE_DIR FONT TAG=VALUE[,TAG=VALUE...] [ROUNDS]
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [pkg, fontPath, spec, roundsArg] = process.argv.slice(2);
const rounds = parseInt(roundsArg || "5", 10);
const tag = (s) =>
  ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) >>> 0;
const bytes = readFileSync(join(pkg, "dist", "harfbuzz-subset.wasm"));
const { instance: wasm } = await WebAssembly.instantiate(bytes, {});
const x = wasm.exports;
if (x._initialize) x._initialize();
const font = readFileSync(fontPath);
const ptr = x.malloc(font.length);
new Uint8Array(x.memory.buffer).set(font, ptr);
const blob = x.hb_blob_create(ptr, font.length, 2 /* HB_MEMORY_MODE_WRITABLE */, 0, 0);
const face = x.hb_face_create(blob, 0);
x.hb_blob_destroy(blob);
let best = Infinity, size = 0;
for (let r = 0; r <= rounds; r++) { // round 0 warms up
  const t0 = process.hrtime.bigint();
  const input = x.hb_subset_input_create_or_fail();
  x.hb_subset_input_keep_everything(input);
  for (const kv of spec.split(",")) {
    const [t, v] = kv.split("=");
    x.hb_subset_input_pin_axis_location(input, face, tag(t.padEnd(4)), parseFloat(v));
  }
  const out = x.hb_subset_or_fail(face, input);
  const ob = out ? x.hb_face_reference_blob(out) : 0;
  size = ob ? x.hb_blob_get_length(ob) : -1;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (ob) x.hb_blob_destroy(ob);
  if (out) x.hb_face_destroy(out);
  x.hb_subset_input_destroy(input);
  if (r && ms < best) best = ms;
}
console.log(`${best.toFixed(3)} ${size}`);
