/*
 * otvar.js - otvar's C API from JavaScript, over the WebAssembly module that
 * scripts/build-wasm.sh builds (docs/web.md). No dependencies: an ES module for browsers (and
 * any runtime with WebAssembly, TextDecoder and fetch).
 *
 *   const otv = await Otvar.load();                  // fetches otvar.wasm next to this file
 *   const face = otv.openFace(bytes);                // Uint8Array of a TTF/OTF/TTC (not WOFF/2)
 *   const loc = face.createLocation();
 *   loc.setUserCoords([700]);                        // one value per axis, in axis order
 *   const { width, height, coverage } = new TextRenderer(otv).render(loc, 'Hello', 72);
 *   const ttf = loc.instance();                      // static; loc.instance(['wdth']): partial
 *
 * Memory: the module's linear memory may grow on any call that allocates, which detaches
 * earlier views of it, so every access makes a fresh view; results are copied out. Objects that
 * hold wasm memory (Face, Location, TextRenderer) must be closed/destroyed: JavaScript's garbage
 * collector does not see it.
 */

// wasi_snapshot_preview1 errno values (wasi-libc's __errno_values.h).
const WASI_EBADF = 8;
const WASI_ENOSYS = 52;

// Byte offsets of the public structs in wasm32 memory; web/glue.c checks each one at build time.
const LAYOUT = {
  error: { size: 128 }, // zeroed before a call, then read by otv_error_format
  faceInfo: {
    size: 20, flavour: 0, glyphCount: 4, unitsPerEm: 8, axisCount: 10, instanceCount: 12,
  },
  axis: { size: 40, tag: 0, min: 8, def: 16, max: 24, flags: 32, nameId: 34 },
  namedInstance: { size: 8, subfamilyNameId: 0 },
  transform: { size: 48 }, // xx xy yx yy dx dy: six doubles
};

// From otvar.h.
const STATUS_NOT_FOUND = 9;
const AXIS_FLAG_HIDDEN = 0x0001;
const RASTER_CLEAR = 0x0004;
const FLAVOURS = ['none', 'glyf', 'CFF', 'CFF2'];

const utf8 = new TextDecoder();

/** An otvar call failed: `status` is the otv_status code, the message otv_error_format's text. */
export class OtvarError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'OtvarError';
    this.status = status;
  }
}

/** "wght" -> 0x77676874; shorter tags are padded with spaces, as otv_tag_from_string does. */
export function tagFromString(s) {
  const t = s.padEnd(4, ' ');
  if (t.length !== 4 || !/^[\x20-\x7e]{4}$/.test(t)) throw new RangeError(`bad tag '${s}'`);
  return Array.from(t).reduce((tag, ch) => tag * 256 + ch.charCodeAt(0), 0);
}

export function tagToString(tag) {
  return String.fromCharCode(tag >>> 24, (tag >>> 16) & 0xff, (tag >>> 8) & 0xff, tag & 0xff);
}

/*
 * The WASI imports: the library never does I/O, but wasi-libc's stdio (behind snprintf) links
 * fd_write/fd_seek/fd_close. fd_write goes to the console (useful if a debug print is ever
 * added); anything else the module imports answers ENOSYS.
 */
function wasiImports(module, memory) {
  const impl = {
    fd_write(fd, iovs, iovsLen, nwrittenPtr) {
      if (fd !== 1 && fd !== 2) return WASI_EBADF;
      const view = new DataView(memory().buffer);
      let text = '';
      let total = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = view.getUint32(iovs + 8 * i, true);
        const len = view.getUint32(iovs + 8 * i + 4, true);
        text += utf8.decode(new Uint8Array(memory().buffer, ptr, len));
        total += len;
      }
      (fd === 1 ? console.log : console.error)(text.replace(/\n$/, ''));
      view.setUint32(nwrittenPtr, total, true);
      return 0;
    },
  };
  const wasi = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module === 'wasi_snapshot_preview1' && imp.kind === 'function') {
      wasi[imp.name] = impl[imp.name] ?? (() => WASI_ENOSYS);
    }
  }
  return { wasi_snapshot_preview1: wasi };
}

/** The loaded module: memory helpers shared by Face, Location and TextRenderer. */
export class Otvar {
  /** Fetch, compile and initialize otvar.wasm. source: a URL (default: next to this file), a
   *  Response, or the module's bytes. */
  static async load(source = new URL('otvar.wasm', import.meta.url)) {
    let bytes;
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
      bytes = source;
    } else {
      const response = source instanceof Response ? source : await fetch(source);
      if (!response.ok) throw new Error(`cannot load ${response.url}: HTTP ${response.status}`);
      bytes = await response.arrayBuffer();
    }
    const module = await WebAssembly.compile(bytes);
    let instance = null;
    const memory = () => instance.exports.memory; // the imports are called only once it exists
    instance = await WebAssembly.instantiate(module, wasiImports(module, memory));
    instance.exports._initialize(); // a reactor: runs the C constructors once, then the API
    return new Otvar(instance.exports);
  }

  constructor(exports) {
    this.fn = exports;
    this.errPtr = this.malloc(LAYOUT.error.size); // for calls on a face (one call at a time)
    this.version = this.cString(this.fn.otv_version());
    /** Normalization model names (otv_norm_model order: the index is the model). */
    this.normModels = [];
    for (let m = 0, p; (p = this.fn.otv_norm_model_name(m)); m++) {
      this.normModels.push(this.cString(p));
    }
  }

  bytes(ptr, len) {
    return new Uint8Array(this.fn.memory.buffer, ptr, len);
  }

  view() {
    return new DataView(this.fn.memory.buffer);
  }

  malloc(len) {
    const ptr = this.fn.malloc(Math.max(len, 1)) >>> 0;
    if (!ptr) throw new OtvarError(1, `out of memory (${len} bytes)`);
    return ptr;
  }

  free(ptr) {
    this.fn.free(ptr);
  }

  /** Run fn(ptr) with len bytes of zeroed scratch memory. */
  withScratch(len, fn) {
    const ptr = this.malloc(len);
    this.bytes(ptr, len).fill(0);
    try {
      return fn(ptr);
    } finally {
      this.free(ptr);
    }
  }

  cString(ptr) {
    const mem = new Uint8Array(this.fn.memory.buffer);
    let end = ptr;
    while (mem[end]) end++;
    return utf8.decode(mem.subarray(ptr, end));
  }

  /** The face-call error struct, zeroed: otvar keeps the first error it is given. */
  freshError() {
    this.bytes(this.errPtr, LAYOUT.error.size).fill(0);
    return this.errPtr;
  }

  /** Throw an OtvarError for a non-zero status, with the text of the otv_error at errPtr. */
  check(status, errPtr, what) {
    if (status === 0) return;
    const text = this.withScratch(256, (buf) => {
      this.fn.otv_error_format(errPtr, buf, 256);
      return this.cString(buf);
    });
    throw new OtvarError(status, `${what}: ${text}`);
  }

  /** Open face `index` of a font. The bytes are copied into wasm memory, where they stay until
   *  Face.close() (otv_face_open_memory borrows them). */
  openFace(fontBytes, index = 0) {
    const len = fontBytes.byteLength;
    const data = this.malloc(len);
    this.bytes(data, len).set(fontBytes);
    const out = this.malloc(4);
    try {
      const status = this.fn.otv_face_open_memory(data, len, index, 0, out, this.freshError());
      this.check(status, this.errPtr, 'open');
      return new Face(this, data, this.view().getUint32(out, true));
    } catch (e) {
      this.free(data);
      throw e;
    } finally {
      this.free(out);
    }
  }
}

/** An open font: info, axes and named instances are read once at open. */
export class Face {
  constructor(otv, data, ptr) {
    this.otv = otv;
    this.data = data;
    this.ptr = ptr;
    this.info = this.readInfo();
    this.axes = this.readAxes();
    this.namedInstances = this.readNamedInstances();
  }

  readInfo() {
    const L = LAYOUT.faceInfo;
    return this.otv.withScratch(L.size, (p) => {
      this.otv.fn.otv_face_get_info(this.ptr, p);
      const v = this.otv.view();
      return {
        flavour: FLAVOURS[v.getUint32(p + L.flavour, true)] ?? 'unknown',
        glyphCount: v.getUint32(p + L.glyphCount, true),
        unitsPerEm: v.getUint16(p + L.unitsPerEm, true),
        axisCount: v.getUint16(p + L.axisCount, true),
        instanceCount: v.getUint16(p + L.instanceCount, true),
      };
    });
  }

  /** [{tag: 'wght', name: 'Weight', min, default, max, hidden}] in font order. */
  readAxes() {
    const L = LAYOUT.axis;
    const n = this.info.axisCount;
    const axes = this.otv.withScratch(4 + n * L.size, (count) => {
      const out = count + 4;
      this.otv.view().setUint32(count, n, true);
      this.otv.fn.otv_face_axes(this.ptr, 0, count, out);
      const v = this.otv.view();
      return Array.from({ length: n }, (_, i) => {
        const p = out + i * L.size;
        return {
          tag: tagToString(v.getUint32(p + L.tag, true)),
          nameId: v.getUint16(p + L.nameId, true),
          min: v.getFloat64(p + L.min, true),
          default: v.getFloat64(p + L.def, true),
          max: v.getFloat64(p + L.max, true),
          hidden: (v.getUint16(p + L.flags, true) & AXIS_FLAG_HIDDEN) !== 0,
        };
      });
    });
    // names last: reading one allocates, which may grow memory and detach the view above
    return axes.map(({ nameId, ...axis }) => ({ ...axis, name: this.name(nameId) ?? axis.tag }));
  }

  /** [{name: 'Bold', coords: [700, 100]}]: user coordinates in axis order. */
  readNamedInstances() {
    const L = LAYOUT.namedInstance;
    const n = this.info.instanceCount;
    const axisCount = this.info.axisCount;
    // coords first: malloc's alignment is the 8 bytes a Float64Array needs
    return this.otv.withScratch(8 * axisCount + 4 + n * L.size, (coords) => {
      const count = coords + 8 * axisCount;
      const out = count + 4;
      this.otv.view().setUint32(count, n, true);
      this.otv.fn.otv_face_named_instances(this.ptr, 0, count, out);
      return Array.from({ length: n }, (_, i) => {
        const nameId = this.otv.view().getUint16(out + i * L.size + L.subfamilyNameId, true);
        const { fn, errPtr } = this.otv;
        this.otv.freshError();
        const status = fn.otv_face_named_instance_coords(this.ptr, i, coords, axisCount, errPtr);
        this.otv.check(status, errPtr, `named instance ${i}`);
        const values = Array.from(new Float64Array(this.otv.fn.memory.buffer, coords, axisCount));
        return { name: this.name(nameId) ?? `instance ${i}`, coords: values };
      });
    });
  }

  /** A name record as a string, or null when the font has none with that id. */
  name(nameId) {
    const otv = this.otv;
    return otv.withScratch(4, (lenPtr) => {
      const attempt = (cap) =>
        otv.withScratch(cap, (buf) => {
          const status = otv.fn.otv_face_name(this.ptr, nameId, buf, cap, lenPtr, otv.freshError());
          if (status === STATUS_NOT_FOUND) return null;
          otv.check(status, otv.errPtr, `name ${nameId}`);
          return otv.cString(buf);
        });
      const text = attempt(256);
      const needed = otv.view().getUint32(lenPtr, true);
      // a longer name was cut short: ask again with room for all of it
      return text !== null && needed >= 256 ? attempt(needed + 1) : text;
    });
  }

  /** The nominal glyph of a code point (0: .notdef). */
  glyphForChar(codePoint) {
    return this.otv.fn.otv_face_glyph_for_char(this.ptr, codePoint, 0) >>> 0;
  }

  createLocation() {
    return this.otv.withScratch(4, (out) => {
      const status = this.otv.fn.otv_location_create(this.ptr, out, this.otv.freshError());
      this.otv.check(status, this.otv.errPtr, 'location');
      return new Location(this, this.otv.view().getUint32(out, true));
    });
  }

  /** Free the face and its copy of the font. Its locations must have been destroyed. */
  close() {
    this.otv.fn.otv_face_close(this.ptr);
    this.otv.free(this.data);
    this.ptr = 0;
  }
}

/** A point of the design space of a face. */
export class Location {
  constructor(face, ptr) {
    this.face = face;
    this.otv = face.otv;
    this.ptr = ptr;
  }

  /** Throw the location's recorded error for a non-zero status, then forget it, so that the
   *  next failure reports its own cause. */
  check(status, what) {
    if (status === 0) return;
    try {
      this.otv.check(status, this.otv.fn.otv_location_last_error(this.ptr), what);
    } finally {
      this.otv.fn.otv_location_clear_error(this.ptr);
    }
  }

  /** User coordinates, one per axis in axis order (missing ones take their default). */
  setUserCoords(values) {
    this.otv.withScratch(8 * values.length, (p) => {
      new Float64Array(this.otv.fn.memory.buffer, p, values.length).set(values);
      this.check(this.otv.fn.otv_location_set_user_coords(this.ptr, p, values.length), 'location');
    });
  }

  /** A normalization model by name (Otvar.normModels); user coordinates are normalized again. */
  setModel(name) {
    const model = this.otv.normModels.indexOf(name);
    if (model < 0) throw new RangeError(`unknown normalization model '${name}'`);
    this.check(this.otv.fn.otv_location_set_model(this.ptr, model), 'model');
  }

  /** Unrounded horizontal advances in font units. */
  advances(gids) {
    return this.otv.withScratch(8 * gids.length, (p) => {
      const out = p + 4 * gids.length;
      new Uint32Array(this.otv.fn.memory.buffer, p, gids.length).set(gids);
      this.check(this.otv.fn.otv_glyph_advances(this.ptr, p, gids.length, 0, out), 'advances');
      return new Float32Array(this.otv.fn.memory.buffer, out, gids.length).slice();
    });
  }

  /** A font-wide metric at the location ('hasc', 'xhgt', ... as otv_font_metric), or null. */
  metric(tag) {
    return this.otv.withScratch(4, (out) => {
      const status = this.otv.fn.otv_font_metric(this.ptr, tagFromString(tag), 0, out);
      this.otv.fn.otv_location_clear_error(this.ptr); // an absent metric is not worth reporting
      return status === 0 ? this.otv.view().getFloat32(out, true) : null;
    });
  }

  /** A font at this location: static (keep = []) or partial, keeping those axis tags variable
   *  (otv_instance_create / otv_instance_create_partial, flags 0 as the CLI's default). */
  instance(keep = []) {
    const otv = this.otv;
    return otv.withScratch(8 + 4 * keep.length, (p) => {
      const [outPtr, outLen, tags] = [p, p + 4, p + 8];
      new Uint32Array(otv.fn.memory.buffer, tags, keep.length).set(keep.map(tagFromString));
      const status = keep.length
        ? otv.fn.otv_instance_create_partial(this.ptr, tags, keep.length, 0, outPtr, outLen)
        : otv.fn.otv_instance_create(this.ptr, 0, outPtr, outLen);
      this.check(status, keep.length ? 'partial instance' : 'instance');
      const [data, len] = [otv.view().getUint32(outPtr, true), otv.view().getUint32(outLen, true)];
      const font = otv.bytes(data, len).slice();
      otv.fn.otv_instance_free(this.ptr, data, len);
      return font;
    });
  }

  destroy() {
    this.otv.fn.otv_location_destroy(this.ptr);
    this.ptr = 0;
  }
}

/**
 * One line of text drawn with otvar's rasterizer: characters mapped through cmap (no shaping:
 * no kerning or ligatures), laid out with the location's advances, every outline drawn into
 * one path (overlaps are filled once) and rendered into an 8-bit coverage buffer.
 */
export class TextRenderer {
  constructor(otv) {
    this.otv = otv;
    this.raster = otv.withScratch(4, (out) => {
      otv.check(otv.fn.otv_raster_create(0, out), otv.freshError(), 'rasterizer');
      return otv.view().getUint32(out, true);
    });
    this.transform = otv.malloc(LAYOUT.transform.size);
    this.buffer = 0; // coverage, grown to the largest image drawn
    this.bufferLen = 0;
  }

  /** Vertical extent of a line in font units: typo ascender/descender, else 0.8 / -0.2 em. */
  static lineExtent(loc) {
    const upem = loc.face.info.unitsPerEm;
    return {
      ascender: loc.metric('hasc') ?? 0.8 * upem,
      descender: loc.metric('hdsc') ?? -0.2 * upem,
    };
  }

  /** Draw text at sizePx pixels per em with `padding` pixels around it: {width, height,
   *  coverage} (width x height bytes, 0 = paper, 255 = ink). */
  render(loc, text, sizePx, padding = 16) {
    const gids = Array.from(text, (ch) => loc.face.glyphForChar(ch.codePointAt(0)));
    const advances = loc.advances(gids);
    const scale = sizePx / loc.face.info.unitsPerEm;
    const { ascender, descender } = TextRenderer.lineExtent(loc);
    const lineWidth = advances.reduce((sum, a) => sum + a, 0) * scale;
    const width = Math.min(Math.ceil(lineWidth + 2 * padding), 16384);
    const height = Math.min(Math.ceil((ascender - descender) * scale + 2 * padding), 4096);
    const buffer = this.coverageBuffer(width * height);
    const fn = this.otv.fn;
    fn.otv_raster_begin(this.raster, width, height); // a speed-up only: failure is harmless
    let x = padding;
    const baseline = padding + ascender * scale;
    gids.forEach((gid, i) => {
      this.setTransform(scale, x, baseline);
      const status = fn.otv_glyph_outline(loc.ptr, gid, 0, fn.otv_raster_pen(), this.raster);
      loc.check(status, `glyph ${gid}`);
      x += advances[i] * scale;
    });
    const status = fn.otv_raster_render(this.raster, buffer, width, height, width, RASTER_CLEAR);
    if (status !== 0) {
      throw new OtvarError(status, `render: ${this.otv.cString(fn.otv_status_str(status))}`);
    }
    return { width, height, coverage: this.otv.bytes(buffer, width * height).slice() };
  }

  /** Font units (y up) to pixels (y down), the glyph's origin at (x, baseline). */
  setTransform(scale, x, baseline) {
    const matrix = new Float64Array(this.otv.fn.memory.buffer, this.transform, 6);
    matrix.set([scale, 0, 0, -scale, x, baseline]);
    this.otv.fn.otv_raster_set_transform(this.raster, this.transform);
  }

  coverageBuffer(len) {
    if (len > this.bufferLen) {
      if (this.buffer) this.otv.free(this.buffer);
      this.buffer = this.otv.malloc(len);
      this.bufferLen = len;
    }
    return this.buffer;
  }

  destroy() {
    this.otv.fn.otv_raster_destroy(this.raster);
    this.otv.free(this.transform);
    if (this.buffer) this.otv.free(this.buffer);
  }
}
