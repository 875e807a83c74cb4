// The playground: the scene in the editor is checked (POST /validate) and
// drawn (POST /render) as it is typed, a moment after the last key, the
// request before it cancelled. Problems point at their line and column.
// Animated scenes get a time slider, play/pause, and /frames buttons. A
// share link carries the scene itself, deflated, in the URL's fragment
// (nothing is stored on the server).
'use strict';

const $ = (id) => document.getElementById(id);
const editor = $('scene');
const gutter = $('gutter');
const picture = $('picture');
const problems = $('problems');
const statusLine = $('status');
const timeSlider = $('time');

const state = {
  examples: [],
  request: null,       // the AbortController of the request in flight
  typing: null,        // the debounce timer
  pictureURL: null,
  animationURL: null,
  playing: false,
  lastTick: 0,
  drawing: false,      // a frame of the playback is being drawn
  animated: false,
};

// --- Requests ---------------------------------------------------------------

function requestHeaders() {
  const headers = { 'Content-Type': 'application/json' };
  const token = $('token').value;
  if (token) headers.Authorization = 'Bearer ' + token;
  return headers;
}

function query(extra) {
  const q = new URLSearchParams();
  if ($('backend').value) q.set('backend', $('backend').value);
  if ($('scale').value) q.set('scale', $('scale').value);
  for (const [key, value] of Object.entries(extra || {})) q.set(key, value);
  const text = q.toString();
  return text ? '?' + text : '';
}

async function errorOf(response) {
  try {
    const body = await response.json();
    return body.errors || [body.error];
  } catch {
    return [{ message: `${response.status} ${response.statusText}` }];
  }
}

function needsToken(response) {
  if (response.status !== 401) return false;
  $('tokenRow').hidden = false;
  statusLine.textContent = 'This server needs a token: type it above.';
  return true;
}

/// Checks the scene, then draws it; any earlier request is cancelled.
async function refresh() {
  if (state.request) state.request.abort();
  const controller = new AbortController();
  state.request = controller;
  const text = editor.value;
  statusLine.textContent = 'Checking…';
  try {
    const check = await fetch('/validate', { method: 'POST', headers: requestHeaders(), body: text, signal: controller.signal });
    if (needsToken(check)) return;
    if (!check.ok) {
      const list = await errorOf(check);
      showProblems(list);
      statusLine.textContent = list.length === 1 ? 'The scene has a problem.' : `The scene has ${list.length} problems.`;
      return;
    }
    showProblems([]);
    updateTimeline(text);
    await draw(text, controller.signal);
  } catch (error) {
    if (error.name !== 'AbortError') statusLine.textContent = 'The server did not answer: ' + error.message;
  } finally {
    if (state.request === controller) state.request = null;
  }
}

/// Draws the scene at the slider's time (for animated scenes); `signal`
/// cancels it (playback passes none: each frame waits for the one before).
async function draw(text, signal) {
  const time = state.animated ? Number(timeSlider.value) : null;
  statusLine.textContent = 'Rendering…';
  const response = await fetch('/render' + query(time === null ? {} : { time: time.toFixed(3) }),
                               { method: 'POST', headers: requestHeaders(), body: text, signal });
  if (needsToken(response)) return;
  if (!response.ok) {
    const list = await errorOf(response);
    showProblems(list);
    statusLine.textContent = list[0] ? list[0].message : 'The server refused the scene.';
    return;
  }
  const blob = await response.blob();
  if (state.pictureURL) URL.revokeObjectURL(state.pictureURL);
  state.pictureURL = URL.createObjectURL(blob);
  await new Promise((resolve) => {
    picture.onload = picture.onerror = resolve;
    picture.src = state.pictureURL;
  });
  picture.dataset.time = time === null ? '' : String(time);
  $('downloadPNG').href = state.pictureURL;
  $('downloadPNG').hidden = false;
  showTimings(response.headers);
  statusLine.textContent = `Rendered: ${picture.naturalWidth} × ${picture.naturalHeight} pixels, ${blob.size} bytes.`;
}

function showTimings(headers) {
  const list = $('timings');
  list.replaceChildren();
  const add = (name, value) => {
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  };
  for (const part of (headers.get('Server-Timing') || '').split(',')) {
    const [name, ...fields] = part.trim().split(';');
    if (!name) continue;
    const duration = fields.find((f) => f.startsWith('dur='));
    const description = fields.find((f) => f.startsWith('desc='));
    add(name, duration ? `${Number(duration.slice(4)).toFixed(2)} ms` : (description ? description.slice(5) : ''));
  }
  if (headers.get('X-Lamina-Backend')) add('backend', headers.get('X-Lamina-Backend'));
  if (headers.get('X-Lamina-Cache')) add('cache', headers.get('X-Lamina-Cache'));
}

// --- The editor -------------------------------------------------------------

function lineCount() {
  let lines = 1;
  for (let i = editor.value.indexOf('\n'); i !== -1; i = editor.value.indexOf('\n', i + 1)) lines++;
  return lines;
}

function updateGutter(badLines) {
  const count = lineCount();
  const parts = [];
  for (let line = 1; line <= count; line++) {
    if (badLines && badLines.has(line)) {
      const mark = document.createElement('span');
      mark.className = 'bad';
      mark.textContent = String(line);
      mark.title = 'a problem on this line';
      parts.push(mark, '\n');
    } else {
      parts.push(String(line) + '\n');
    }
  }
  gutter.replaceChildren(...parts);
  gutter.scrollTop = editor.scrollTop;
}

/// The offset in the text of a line and column (both from 1; columns count
/// Unicode scalars, as the server does).
function offsetOf(line, column) {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = editor.value.indexOf('\n', offset);
    if (next === -1) return editor.value.length;
    offset = next + 1;
  }
  let scalars = 1;
  while (scalars < column && offset < editor.value.length && editor.value[offset] !== '\n') {
    const code = editor.value.codePointAt(offset);
    offset += code > 0xffff ? 2 : 1;
    scalars++;
  }
  return offset;
}

function showProblems(list) {
  problems.replaceChildren();
  const badLines = new Set();
  for (const problem of list) {
    if (!problem) continue;
    const item = document.createElement('li');
    if (problem.line) {
      badLines.add(problem.line);
      const jump = document.createElement('button');
      jump.type = 'button';
      jump.textContent = `line ${problem.line}, column ${problem.column || 1}`;
      jump.addEventListener('click', () => {
        const at = offsetOf(problem.line, problem.column || 1);
        editor.focus();
        editor.setSelectionRange(at, at);
      });
      item.append(jump);
    }
    item.append(document.createTextNode(problem.message + (problem.path ? ` (${problem.path})` : '')));
    item.dataset.line = problem.line || '';
    problems.append(item);
  }
  updateGutter(badLines);
}

editor.addEventListener('input', () => {
  updateGutter();
  clearTimeout(state.typing);
  state.typing = setTimeout(refresh, 300);
});
editor.addEventListener('scroll', () => { gutter.scrollTop = editor.scrollTop; });

// --- Animations -------------------------------------------------------------

/// The end of the scene's animations, roughly as the server counts it (an
/// animation that never ends shows two of its cycles); null without any. A
/// Lottie animation lasts from its in point to its out point.
function animationsEnd(scene) {
  if (scene && Array.isArray(scene.layers) && scene.fr > 0 && scene.op > scene.ip) return (scene.op - (scene.ip || 0)) / scene.fr;
  let end = null;
  const visit = (value) => {
    if (Array.isArray(value)) { value.forEach(visit); return; }
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value.animations)) {
      for (const animation of value.animations) {
        const one = (animation.duration ?? 0.25) / (animation.speed || 1) * (animation.autoreverses ? 2 : 1);
        const repeats = animation.repeatCount === 'infinity' || animation.repeatCount === Infinity ? 2 : Math.max(1, animation.repeatCount || 1);
        const last = (animation.beginTime || 0) + one * repeats;
        end = Math.max(end ?? 0, last);
      }
    }
    Object.values(value).forEach(visit);
  };
  visit(scene);
  return end;
}

function updateTimeline(text) {
  let end = null;
  try { end = animationsEnd(JSON.parse(text)); } catch { end = null; }
  state.animated = end !== null;
  $('timeline').hidden = !state.animated;
  if (!state.animated) { stop(); return; }
  const max = Math.max(0.1, Math.min(end, 600));
  if (Number(timeSlider.max) !== max) timeSlider.max = String(max);
  timeSlider.step = String(Math.max(0.01, max / 500));
}

function showTime() { $('timeValue').value = `${Number(timeSlider.value).toFixed(2)} s`; }

timeSlider.addEventListener('input', () => {
  showTime();
  clearTimeout(state.typing);
  state.typing = setTimeout(refresh, 120);
});

function stop() {
  state.playing = false;
  $('play').textContent = 'Play';
  $('play').setAttribute('aria-pressed', 'false');
}

async function tick(now) {
  if (!state.playing) return;
  if (!state.drawing) {
    const elapsed = state.lastTick ? (now - state.lastTick) / 1000 : 0;
    state.lastTick = now;
    let time = Number(timeSlider.value) + elapsed;
    if (time > Number(timeSlider.max)) time = 0;
    timeSlider.value = String(time);
    showTime();
    state.drawing = true;
    try { await draw(editor.value); } catch (error) { stop(); statusLine.textContent = error.message; }
    state.drawing = false;
  }
  requestAnimationFrame(tick);
}

$('play').addEventListener('click', () => {
  if (state.playing) { stop(); return; }
  state.playing = true;
  state.lastTick = 0;
  $('play').textContent = 'Pause';
  $('play').setAttribute('aria-pressed', 'true');
  requestAnimationFrame(tick);
});

async function makeAnimation(format) {
  statusLine.textContent = `Making the ${format === 'mp4' ? 'MP4' : 'animated PNG'}…`;
  const response = await fetch('/frames' + query({ format, duration: timeSlider.max, fps: 30 }),
                               { method: 'POST', headers: requestHeaders(), body: editor.value });
  if (needsToken(response)) return;
  if (!response.ok) {
    const list = await errorOf(response);
    statusLine.textContent = list[0] ? list[0].message : 'The server refused the animation.';
    return;
  }
  const blob = await response.blob();
  if (state.animationURL) URL.revokeObjectURL(state.animationURL);
  state.animationURL = URL.createObjectURL(blob);
  const link = $('animation');
  link.href = state.animationURL;
  link.download = format === 'mp4' ? 'scene.mp4' : 'scene.png';
  link.textContent = `Download the ${format === 'mp4' ? 'MP4' : 'animated PNG'} (${Math.round(blob.size / 1024)} KB)`;
  link.hidden = false;
  const preview = $('animationPreview');
  preview.hidden = format === 'mp4';
  if (format !== 'mp4') preview.src = state.animationURL;
  statusLine.textContent = `${response.headers.get('X-Lamina-Frames')} frames, ${blob.size} bytes.`;
}

$('makeAPNG').addEventListener('click', () => makeAnimation('apng'));
$('makeMP4').addEventListener('click', () => makeAnimation('mp4'));

// --- Examples, downloads, share links ----------------------------------------

$('examples').addEventListener('change', () => {
  const chosen = state.examples[Number($('examples').value)];
  if (!chosen) return;
  editor.value = chosen.scene;
  timeSlider.value = '0';
  showTime();
  updateGutter();
  refresh();
});

for (const id of ['backend', 'scale']) $(id).addEventListener('change', refresh);
$('token').addEventListener('change', refresh);

$('downloadScene').addEventListener('click', () => {
  const link = $('downloadScene');
  if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
  link.dataset.url = URL.createObjectURL(new Blob([editor.value], { type: 'application/json' }));
  link.href = link.dataset.url;
});

function base64url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function unbase64url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

async function unpack(data) {
  const stream = new Blob([unbase64url(data)]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

$('share').addEventListener('click', async () => {
  const link = new URL(location.href);
  link.hash = 'scene=' + await pack(editor.value);
  history.replaceState(null, '', link);
  $('shareLink').value = link.href;
  $('shareRow').hidden = false;
  $('shareLink').focus();
  $('shareLink').select();
  try {
    await navigator.clipboard.writeText(link.href);
    statusLine.textContent = 'The link is copied.';
  } catch {
    statusLine.textContent = 'Copy the link above.';
  }
});

async function openFromLink() {
  const match = /^#scene=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return false;
  try {
    editor.value = await unpack(match[1]);
  } catch {
    statusLine.textContent = 'The link does not hold a scene.';
    return false;
  }
  updateGutter();
  refresh();
  return true;
}

window.addEventListener('hashchange', openFromLink);

async function start() {
  updateGutter();
  try {
    const response = await fetch('/playground/examples.json');
    state.examples = await response.json();
  } catch {
    state.examples = [];
  }
  const select = $('examples');
  const groups = new Map();
  state.examples.forEach((example, index) => {
    if (!groups.has(example.group)) {
      const group = document.createElement('optgroup');
      group.label = example.group;
      groups.set(example.group, group);
      select.append(group);
    }
    const option = document.createElement('option');
    option.value = String(index);
    option.textContent = example.name;
    groups.get(example.group).append(option);
  });
  if (!(await openFromLink()) && state.examples.length > 0) {
    select.value = '0';
    select.dispatchEvent(new Event('change'));
  }
}

start();
