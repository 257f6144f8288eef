// hbjs_instance.mjs - the harfbuzzjs side of tests/oracle/test_instance_hbjs.py.
// HarfBuzz (npm package harfbuzzjs, WebAssembly) as an instancing oracle: its hb-subset module
// (dist/harfbuzz-subset.wasm, a standalone module: raw exports, no imports) cuts a full static
// instance with every axis pinned, and its main module (dist/index.mjs) draws glyphs.
//
// usage: node hbjs_instance.mjs HBJS_PACKAGE_DIR instance IN OUT TAG=VALUE[,TAG=VALUE...]
//        node hbjs_instance.mjs HBJS_PACKAGE_DIR dump FONT LOC|- OUT.json [FONT LOC|- OUT.json ...]
// instance: every glyph, table, name and layout feature kept; each listed axis pinned at its
//   user value (all axes are listed by the caller); writes OUT, exit 1 if hb-subset fails.
// dump: per glyph the outline as HarfBuzz draws it (M/L/Q/C/Z commands, font units), the
//   horizontal advance and the extents, as JSON; LOC (TAG=VALUE,...) draws a variable font at
//   that location (HarfBuzz's runtime), "-" draws the font as it is.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, mode, ...args] = process.argv.slice(2);
if (!pkg || !mode) {
  console.error("usage: hbjs_instance.mjs HBJS_DIR instance|dump ...");
  process.exit(2);
}

function tag(s) {
  return ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) |
          s.charCodeAt(3)) >>> 0;
}

async function instance(inPath, outPath, spec) {
  const bytes = readFileSync(join(pkg, "dist", "harfbuzz-subset.wasm"));
  const { instance: wasm } = await WebAssembly.instantiate(bytes, {});
  const x = wasm.exports;
  if (x._initialize) x._initialize();
  const font = readFileSync(inPath);
  const ptr = x.malloc(font.length);
  new Uint8Array(x.memory.buffer).set(font, ptr);
  const blob = x.hb_blob_create(ptr, font.length, 2 /* HB_MEMORY_MODE_WRITABLE */, 0, 0);
  const face = x.hb_face_create(blob, 0);
  x.hb_blob_destroy(blob);
  const input = x.hb_subset_input_create_or_fail();
  // every glyph, codepoint, name ID, name language, layout feature and script
  x.hb_subset_input_keep_everything(input);
  for (const kv of spec ? spec.split(",") : []) {
    const [t, v] = kv.split("=");
    if (!x.hb_subset_input_pin_axis_location(input, face, tag(t.padEnd(4)), parseFloat(v))) {
      console.error(`hbjs: cannot pin ${t}=${v}`);
      process.exit(1);
    }
  }
  const out = x.hb_subset_or_fail(face, input);
  if (!out) {
    console.error("hbjs: hb_subset_or_fail failed");
    process.exit(1);
  }
  const ob = x.hb_face_reference_blob(out);
  const len = x.hb_blob_get_length(ob);
  const data = x.hb_blob_get_data(ob, 0);
  writeFileSync(outPath, new Uint8Array(x.memory.buffer, data, len));
  x.hb_blob_destroy(ob);
  x.hb_face_destroy(out);
  x.hb_subset_input_destroy(input);
  x.hb_face_destroy(face);
  x.free(ptr);
}

async function dump(triples) {
  const hb = await import(pathToFileURL(join(pkg, "dist", "index.mjs")).href);
  for (let i = 0; i + 2 < triples.length; i += 3) {
    const face = new hb.Face(new hb.Blob(readFileSync(triples[i])), 0);
    const font = new hb.Font(face);
    if (triples[i + 1] !== "-") {
      // a variable font drawn at a location (HarfBuzz's runtime: unrounded outlines)
      font.setVariations(triples[i + 1].split(",").map((kv) => {
        const [t, v] = kv.split("=");
        return new hb.Variation(t, parseFloat(v));
      }));
    }
    const maxp = face.referenceTable("maxp");
    const n = maxp ? (maxp[4] << 8) | maxp[5] : 0;
    const glyphs = [];
    for (let g = 0; g < n; g++) {
      const ext = font.glyphExtents(g);
      glyphs.push({
        path: font.glyphToJson(g).map((c) => [c.type, ...c.values]),
        adv: font.glyphHAdvance(g),
        ext: ext ? [ext.xBearing, ext.yBearing, ext.width, ext.height] : null,
      });
    }
    writeFileSync(triples[i + 2], JSON.stringify({ upem: face.upem, glyphs }));
  }
}

if (mode === "instance") await instance(args[0], args[1], args[2] || "");
else if (mode === "dump") await dump(args);
else {
  console.error(`hbjs: unknown mode ${mode}`);
  process.exit(2);
}
