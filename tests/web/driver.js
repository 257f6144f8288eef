/*
 * driver.js - works the playground (web/index.html, in test.html's frame) as a user would, for
 * tests/web/run.sh: opens a font through the file input, sets the text, moves sliders with
 * input events, ticks "keep" boxes and clicks the download buttons, and records what came out.
 * It judges nothing itself beyond "each step happened"; run.sh compares the results with the
 * native CLI. Parameters (test.html?...):
 *   font=FILE      a font served next to the page
 *   var=TAG=V,...  slider values to move to (the instances are made there)
 *   keep=TAG,...   axes to tick "keep" for the partial instance (none: no partial instance)
 *   text=TEXT      the text to draw (default: the page's)
 * Result (#result, JSON): {done, error, status, before: {sha256, ink, width, height}, after,
 * static: {name, size, sha256}, partial: {...}, partialLabel, pageErrors: [...]}.
 */
const params = new URLSearchParams(location.search);
const result = { done: false, pageErrors: [] };
// Virtual time: chromium's --virtual-time-budget runs it fast, but the WebAssembly compile runs in
// real time, so on a loaded machine 20 s of virtual waiting (well under a second of real time)
// was once not enough for otvar.wasm to load; 120 s of it is several real seconds.
const STEP_TIMEOUT_MS = 120000;

function report() {
  document.getElementById('result').textContent = JSON.stringify(result, null, 1);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function sha256(bytes) {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The frame's document once the page in it has loaded, with its errors recorded. */
async function pageWindow() {
  const frame = document.getElementById('page');
  for (let t = 0; t < STEP_TIMEOUT_MS; t += 20) {
    const win = frame.contentWindow;
    const page = win?.location.pathname.endsWith('/index.html');
    if (page && win.document.readyState === 'complete') {
      win.addEventListener('error', (e) => result.pageErrors.push(String(e.message)));
      win.addEventListener('unhandledrejection', (e) => result.pageErrors.push(String(e.reason)));
      return win;
    }
    await sleep(20);
  }
  throw new Error('index.html did not load in the frame');
}

/** The page's status line; a failure the page caught and showed there ends the test. */
function pageStatus(doc) {
  const status = doc.getElementById('status');
  if (status.classList.contains('error')) {
    throw new Error(`the page reports: ${status.textContent}`);
  }
  return status.textContent;
}

async function until(doc, test, what) {
  for (let t = 0; t < STEP_TIMEOUT_MS; t += 20) {
    if (test(pageStatus(doc))) return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what} (status: '${pageStatus(doc)}')`);
}

/** SHA-256 of the canvas pixels and the number of pixels that are not white. */
async function canvasState(doc) {
  const canvas = doc.getElementById('canvas');
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let ink = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] !== 255) ink++;
  return { sha256: await sha256(data), ink, width: canvas.width, height: canvas.height };
}

/** Give the page the font through its file input, as a file chosen from disk. */
async function chooseFont(win, name) {
  const response = await fetch(name);
  if (!response.ok) throw new Error(`cannot fetch ${name}: HTTP ${response.status}`);
  const transfer = new win.DataTransfer();
  transfer.items.add(new win.File([await response.arrayBuffer()], name));
  const input = win.document.getElementById('file');
  input.files = transfer.files;
  input.dispatchEvent(new win.Event('change'));
  await until(win.document, (s) => s.includes('drawn in'), `${name} to open and draw`);
}

function typeInto(win, id, value) {
  const field = win.document.getElementById(id);
  field.value = value;
  field.dispatchEvent(new win.Event('input', { bubbles: true }));
}

function moveSliders(win, spec) {
  for (const item of spec.split(',')) {
    const [tag, value] = item.split('=');
    const slider = win.document.querySelector(`#axes input[type=range][data-tag="${tag}"]`);
    if (!slider) throw new Error(`no slider for axis '${tag}'`);
    slider.value = value;
    slider.dispatchEvent(new win.Event('input', { bubbles: true }));
    if (Number(slider.value) !== Number(value)) throw new Error(`slider ${tag} refused ${value}`);
  }
}

/** Click a download button; the download itself is stopped, its Blob URL fetched and hashed. */
async function download(win, buttonId) {
  const doc = win.document;
  let link = null;
  const stop = (e) => {
    if (e.target.matches?.('a[download]')) {
      e.preventDefault();
      link = e.target;
    }
  };
  doc.addEventListener('click', stop, true);
  doc.getElementById(buttonId).click();
  doc.removeEventListener('click', stop, true);
  pageStatus(doc);
  if (!link) throw new Error(`#${buttonId} offered no download`);
  if (!link.href.startsWith('blob:')) {
    throw new Error(`#${buttonId} offered ${link.href}, not a Blob URL`);
  }
  const bytes = await (await win.fetch(link.href)).arrayBuffer();
  return { name: link.download, size: bytes.byteLength, sha256: await sha256(bytes) };
}

async function run() {
  const win = await pageWindow();
  const doc = win.document;
  await until(doc, (s) => s.startsWith('Ready'), 'otvar.wasm to load');
  await chooseFont(win, params.get('font'));
  if (params.has('text')) typeInto(win, 'text', params.get('text'));
  result.before = await canvasState(doc);
  moveSliders(win, params.get('var'));
  result.after = await canvasState(doc);
  result.static = await download(win, 'static');
  const keep = params.get('keep');
  if (keep) {
    for (const tag of keep.split(',')) doc.querySelector(`#axes input[data-keep="${tag}"]`).click();
    result.partialLabel = doc.getElementById('partial').textContent;
    result.partial = await download(win, 'partial');
  }
  result.status = pageStatus(doc);
}

run()
  .catch((e) => {
    result.error = e.message ?? String(e);
  })
  .finally(() => {
    result.done = true;
    report();
  });
