/*
 * app.js - the playground page (index.html): opens a font from disk, one slider per axis, the
 * text drawn by otvar's rasterizer into the canvas at the sliders' location, and static or
 * partial instances offered as downloads (Blob URLs). The page's state is the DOM (slider values,
 * ticked "keep" boxes) plus the open face and its location; every change redraws at once.
 */
import { Otvar, TextRenderer } from './otvar.js';

const $ = (id) => document.getElementById(id);
const state = { otv: null, renderer: null, face: null, loc: null, fileName: '', downloadUrl: null };

function setStatus(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
}

/** Run a handler, showing any failure in the status line instead of throwing it. */
function guarded(fn) {
  return async (...args) => {
    try {
      await fn(...args);
    } catch (e) {
      console.error(e);
      setStatus(e.message ?? String(e), true);
    }
  };
}

/** 700 -> "700", 0.5 -> "0.5", 12.34567 -> "12.346". */
function formatValue(v) {
  return String(Math.round(v * 1000) / 1000);
}

/** Integer steps where the axis's numbers are integers (wght, wdth, opsz), else any value. */
function sliderStep(axis) {
  return [axis.min, axis.default, axis.max].every(Number.isInteger) ? '1' : 'any';
}

function sliders() {
  return Array.from(document.querySelectorAll('#axes input[type=range]'));
}

function keptTags() {
  const ticked = document.querySelectorAll('#axes input[data-keep]:checked');
  return Array.from(ticked, (box) => box.dataset.keep);
}

function axisRow(axis, i) {
  const row = document.createElement('div');
  row.className = 'axis';
  row.innerHTML = `
    <label for="axis-${i}"><code></code> <span class="axis-name"></span></label>
    <input type="range" id="axis-${i}">
    <output for="axis-${i}"></output>
    <label class="keep" title="partial instance: leave this axis variable">
      <input type="checkbox"> keep</label>`;
  row.querySelector('code').textContent = axis.tag;
  row.querySelector('.axis-name').textContent = axis.name + (axis.hidden ? ' (hidden)' : '');
  const slider = row.querySelector('input[type=range]');
  const { min, max } = axis;
  Object.assign(slider, { min, max, step: sliderStep(axis), value: axis.default });
  slider.dataset.tag = axis.tag;
  row.querySelector('output').textContent = formatValue(axis.default);
  row.querySelector('input[type=checkbox]').dataset.keep = axis.tag;
  return row;
}

function buildAxisControls(face) {
  const box = $('axes');
  box.querySelectorAll('.axis').forEach((row) => row.remove());
  face.axes.forEach((axis, i) => box.appendChild(axisRow(axis, i)));
  $('axes-empty').hidden = face.axes.length > 0;
  $('axes-empty').textContent = 'This font has no axes (no fvar table).';
  box.disabled = false;
}

function buildNamedInstances(face) {
  const select = $('named');
  select.replaceChildren(new Option('—', ''));
  face.namedInstances.forEach((ni, i) => select.add(new Option(ni.name, String(i))));
  select.disabled = face.namedInstances.length === 0;
}

function updatePartialButton() {
  const keep = keptTags();
  const what = keep.length ? keep.join(', ') : 'axes: none ticked';
  $('partial').textContent = `Download partial instance (keep ${what})`;
  $('partial').disabled = !state.loc || keep.length === 0;
}

/** Set the location from the sliders and draw the text into the canvas, black on white. */
function draw() {
  if (!state.loc) return;
  state.loc.setUserCoords(sliders().map((s) => Number(s.value)));
  const size = Math.min(Math.max(Number($('size').value) || 72, 6), 512);
  const t0 = performance.now();
  const { width, height, coverage } = state.renderer.render(state.loc, $('text').value, size);
  const canvas = $('canvas');
  Object.assign(canvas, { width, height });
  const image = new ImageData(width, height);
  // one RGBA pixel per 32-bit word, red in the low byte: every browser's platform is little-endian
  const pixels = new Uint32Array(image.data.buffer);
  for (let i = 0; i < coverage.length; i++) {
    pixels[i] = 0xff000000 | ((255 - coverage[i]) * 0x010101);
  }
  canvas.getContext('2d').putImageData(image, 0, 0);
  const ms = (performance.now() - t0).toFixed(1);
  const { glyphCount, flavour } = state.face.info;
  setStatus(`${state.fileName}: ${glyphCount} glyphs, ${flavour}; drawn in ${ms} ms`);
}

function closeFont() {
  state.loc?.destroy();
  state.face?.close();
  state.loc = state.face = null;
}

function isWebFont(bytes) {
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  return magic === 'wOFF' || magic === 'wOF2';
}

/** Open font bytes (from the file input) and show its axes at the default location. */
function openFont(bytes, fileName) {
  closeFont();
  if (isWebFont(bytes)) {
    throw new Error(`${fileName}: WOFF/WOFF2 is not supported in the browser build (no zlib or ` +
      `Brotli in the module); decompress it first: otvar decompress ${fileName}`);
  }
  state.face = state.otv.openFace(bytes);
  state.loc = state.face.createLocation();
  state.loc.setModel($('model').value);
  state.fileName = fileName;
  buildAxisControls(state.face);
  buildNamedInstances(state.face);
  $('model').disabled = false;
  $('static').disabled = state.face.axes.length === 0;
  updatePartialButton();
  draw();
}

/** "Karla-VF.ttf" at wght 700 -> "Karla-VF-wght700.ttf"; a partial one adds "-keep-wdth". */
function instanceFileName(keep) {
  const base = state.fileName.replace(/\.[^.]*$/, '');
  const pinned = sliders().filter((s) => !keep.includes(s.dataset.tag));
  const where = pinned.map((s) => `${s.dataset.tag.trim()}${formatValue(Number(s.value))}`);
  const kept = keep.length ? [`keep-${keep.map((t) => t.trim()).join('-')}`] : [];
  const ext = state.face.info.flavour.startsWith('CFF') ? 'otf' : 'ttf';
  return `${[base, ...where, ...kept].join('-')}.${ext}`;
}

/** Make the instance at the sliders' location and hand it to the browser as a download. */
function downloadInstance(keep) {
  const t0 = performance.now();
  const font = state.loc.instance(keep);
  const ms = (performance.now() - t0).toFixed(1);
  const name = instanceFileName(keep);
  if (state.downloadUrl) URL.revokeObjectURL(state.downloadUrl);
  state.downloadUrl = URL.createObjectURL(new Blob([font], { type: 'application/octet-stream' }));
  const link = $('saved');
  Object.assign(link, { href: state.downloadUrl, download: name, hidden: false });
  link.textContent = `${name} (${(font.length / 1024).toFixed(1)} KiB, made in ${ms} ms)`;
  link.click();
}

function onSlider(event) {
  const slider = event.target;
  slider.parentElement.querySelector('output').textContent = formatValue(Number(slider.value));
  $('named').value = '';
  draw();
}

function onNamedInstance() {
  const ni = state.face.namedInstances[Number($('named').value)];
  if (!ni) return;
  sliders().forEach((s, i) => {
    s.value = ni.coords[i];
    s.parentElement.querySelector('output').textContent = formatValue(ni.coords[i]);
  });
  draw();
}

function wireEvents() {
  $('file').addEventListener('change', guarded(async () => {
    const file = $('file').files[0];
    if (file) openFont(new Uint8Array(await file.arrayBuffer()), file.name);
  }));
  $('text').addEventListener('input', guarded(draw));
  $('size').addEventListener('input', guarded(draw));
  $('axes').addEventListener('input', guarded((e) => {
    if (e.target.type === 'range') onSlider(e);
  }));
  $('axes').addEventListener('change', guarded((e) => {
    if (e.target.dataset.keep) updatePartialButton();
  }));
  $('named').addEventListener('change', guarded(onNamedInstance));
  $('model').addEventListener('change', guarded(() => {
    state.loc?.setModel($('model').value);
    draw();
  }));
  $('static').addEventListener('click', guarded(() => downloadInstance([])));
  $('partial').addEventListener('click', guarded(() => downloadInstance(keptTags())));
}

async function main() {
  state.otv = await Otvar.load(new URL('otvar.wasm', import.meta.url));
  state.renderer = new TextRenderer(state.otv);
  $('version').textContent = `otvar ${state.otv.version}`;
  state.otv.normModels.forEach((m) => $('model').add(new Option(m, m)));
  wireEvents();
  setStatus('Ready: choose a font file.');
}

guarded(main)();
