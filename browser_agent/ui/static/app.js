// The UI page: one WebSocket for events and frames, a few JSON calls for the controls.
// Every text from the server is put in with textContent, never parsed as HTML.
'use strict';

const token = document.body.dataset.token;
const $ = (id) => document.getElementById(id);
const KEYS = new Set(['Enter', 'Tab', 'Backspace', 'Delete', 'Escape', 'ArrowUp', 'ArrowDown', 'ArrowLeft',
  'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
const ui = { state: 'idle', frame: null, marks: null, steps: new Map(), question: null, socket: null, frames: 0 };
window.browserAgentUi = ui; // for tests and the benchmark: frames counted, last frame's times

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function toast(message) {
  const box = $('toast');
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

async function api(path, body) {
  const init = { method: body === undefined ? 'GET' : 'POST', headers: { 'X-Token': token } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) { toast(data.error || `${path}: ${response.status}`); throw new Error(data.error); }
  return data;
}

// -- state and controls ------------------------------------------------------------------------

function setState(state) {
  ui.state = state;
  const badge = $('state');
  badge.textContent = state;
  badge.className = `badge ${state}`;
  const live = ['running', 'pausing', 'paused'].includes(state);
  $('pause').disabled = state !== 'running';
  $('resume').disabled = state !== 'paused' && state !== 'pausing';
  $('stop').disabled = !live;
  $('start').disabled = live || state === 'stopping';
  if (ui.canStart) $('run-form').hidden = live || state === 'stopping';
  $('screen').classList.toggle('takeover', state === 'paused');
  $('takeover-hint').hidden = state !== 'paused';
}

$('pause').onclick = () => api('/api/pause', {});
$('resume').onclick = () => api('/api/resume', {});
$('stop').onclick = () => api('/api/stop', {});

$('run-form').onsubmit = async (event) => {
  event.preventDefault();
  const secrets = [...document.querySelectorAll('#f-secrets input:checked')].map((box) => box.value);
  await api('/api/run', {
    task: $('f-task').value,
    start_url: $('f-url').value.trim(),
    allowed_domains: $('f-domains').value.split(',').map((d) => d.trim()).filter(Boolean),
    max_steps: Number($('f-steps').value),
    step_timeout_s: Number($('f-step-timeout').value) || null,
    vision: $('f-vision').checked,
    secrets,
  });
};

$('answer-form').onsubmit = async (event) => {
  event.preventDefault();
  if (ui.question === null) return;
  await api('/api/answer', { id: ui.question, text: $('answer').value });
  $('answer').value = '';
};

// -- the live view and take-over ---------------------------------------------------------------

function showFrame(event) {
  ui.frame = event;
  if (event.final) ui.marks = null; // the page after the last action: the marks were of the page before
  ui.frames += 1;
  ui.lastFrameAt = Date.now() / 1000;
  $('frame').src = `data:image/jpeg;base64,${event.jpeg}`;
  $('no-frame').hidden = true;
  $('frame').hidden = false;
  drawMarks();
}

const COLORS = ['#e6194b', '#3c78d8', '#2e9e44', '#d35400', '#8e44ad', '#008080', '#b8860b', '#c2185b'];

function drawMarks() {
  const layer = $('marks');
  layer.replaceChildren();
  layer.hidden = !$('marks-on').checked || !ui.marks || !ui.frame;
  if (layer.hidden) return;
  const scale = $('frame').clientWidth / (ui.marks.width || ui.frame.width);
  for (const [index, x, y, w, h] of ui.marks.marks) {
    const color = COLORS[index % COLORS.length];
    const box = el('div');
    place(box, [x, y, w, h], scale);
    box.style.borderColor = color;
    const tag = el('span', null, index);
    place(tag, [x, Math.max(0, y - 14), 7 * String(index).length + 6, 14], scale);
    tag.style.background = color;
    layer.append(box, tag);
  }
}

function place(node, [x, y, w, h], scale) {
  Object.assign(node.style, { left: `${x * scale}px`, top: `${y * scale}px`, width: `${w * scale}px`, height: `${h * scale}px` });
}

$('marks-on').onchange = drawMarks;
window.addEventListener('resize', drawMarks);

function pagePoint(event) {
  const image = $('frame');
  const box = image.getBoundingClientRect();
  const scale = ui.frame.width / box.width;
  return { x: Math.max(0, (event.clientX - box.left) * scale), y: Math.max(0, (event.clientY - box.top) * scale) };
}

function forward(input) {
  if (ui.state === 'paused' && ui.frame && ui.socket) ui.socket.send(JSON.stringify(input));
}

$('screen').addEventListener('click', (event) => {
  if (ui.state !== 'paused' || !ui.frame) return;
  $('screen').focus();
  forward({ kind: 'click', ...pagePoint(event) });
});
$('screen').addEventListener('wheel', (event) => {
  if (ui.state !== 'paused' || !ui.frame) return;
  event.preventDefault();
  forward({ kind: 'wheel', ...pagePoint(event), dx: event.deltaX, dy: event.deltaY });
}, { passive: false });
$('screen').addEventListener('keydown', (event) => {
  if (ui.state !== 'paused') return;
  if (event.key.length === 1 && !event.ctrlKey && !event.metaKey) forward({ kind: 'text', text: event.key });
  else if (KEYS.has(event.key)) forward({ kind: 'key', key: event.key });
  else return;
  event.preventDefault();
});

// -- the timeline ------------------------------------------------------------------------------

function stepItem(number) {
  let item = ui.steps.get(number);
  if (!item) {
    item = el('li');
    item.dataset.step = number;
    item.append(el('div', 'head'));
    ui.steps.set(number, item);
    $('timeline').append(item);
  }
  return item;
}

function onStepStart(event) {
  const item = stepItem(event.step);
  const head = item.querySelector('.head');
  head.textContent = event.step === 0 ? 'Step 0 (before the first step)' : `Step ${event.step} of ${event.max_steps}`;
  head.append(' ', el('span', 'phase', 'starting'));
  follow();
}

// keep the last step in sight, once a frame however many events came: reading scrollHeight lays the
// page out, which done on every event would cost the agent's machine time on every step
function follow() {
  if (ui.following) return;
  ui.following = true;
  requestAnimationFrame(() => {
    ui.following = false;
    const list = $('timeline');
    list.scrollTop = list.scrollHeight;
  });
}

function onPhase(event) {
  const phase = stepItem(event.step).querySelector('.phase');
  const words = { observe: 'reading the page', decide: 'waiting for the model', act: 'running the actions' };
  if (phase) phase.textContent = words[event.phase] || event.phase;
}

function onStepEnd(event) {
  const item = stepItem(event.step);
  item.querySelector('.phase')?.remove();
  item.classList.toggle('failed', event.failed);
  item.dataset.done = '1';
  for (const [label, text] of [['Evaluation', event.evaluation], ['Memory', event.memory], ['Next goal', event.next_goal]]) {
    if (text) { const line = el('div', 'field'); line.append(el('b', null, `${label}: `), text); item.append(line); }
  }
  for (const action of event.actions) {
    const line = el('div', 'action', `${action.call} → `);
    line.append(el('span', action.kind === 'failed' ? 'failed-text' : action.kind, action.outcome));
    item.append(line);
  }
  if (event.error) item.append(el('div', 'failed-text', event.error));
  // each retry was put in the card as it happened (a viewer who came later got it from the backlog)
  for (const retry of event.retries.slice(Number(item.dataset.retries || 0))) item.append(el('div', 'warn', `retried: ${retry}`));
  const extra = event.corrections ? `, ${event.corrections} correction(s)` : '';
  item.append(el('div', 'meta', `${event.input_tokens} in / ${event.output_tokens} out tokens, ${event.seconds} s (model ${event.model_seconds} s)${extra}`));
  follow();
}

function onRetry(event) {
  const item = event.step === null || event.step === undefined ? null : ui.steps.get(event.step);
  if (!item || item.dataset.done) { note(`Provider busy, retrying: ${event.message}`); return; }
  item.dataset.retries = Number(item.dataset.retries || 0) + 1;
  item.append(el('div', 'warn', `retried: ${event.message}`));
  follow();
}

function onHalted(event) {
  const item = stepItem(event.step);
  item.querySelector('.phase')?.remove();
  item.append(el('div', 'warn halted', event.message));
  follow();
}

function note(text, cls = 'note') {
  const item = el('li', cls, text);
  $('timeline').append(item);
  follow();
}

function onRunStart(event) {
  $('timeline').replaceChildren();
  ui.steps.clear();
  ui.marks = null;
  $('result').hidden = true;
  $('task').textContent = event.task;
}

function onRunEnd(event) {
  const result = $('result');
  result.hidden = false;
  const outcome = event.success === true ? 'succeeded' : event.success === false ? 'did not succeed' : `ended (${event.end_reason})`;
  result.textContent = `The run ${outcome}` + (event.result ? `: ${event.result}` : '.') + (event.error ? ` ${event.error}` : '')
    + (event.steps_label ? ` Steps: ${event.steps_label}.` : '');
  ui.marks = null; // they were the last step's, of the page before its actions
  drawMarks();
  loadRuns();
}

function onQuestion(event) {
  ui.question = event.id;
  $('question-text').textContent = event.question;
  $('question').hidden = false;
  $('answer').focus();
}

function onBatchTask(event) {
  let row = document.querySelector(`#batch-rows tr[data-index="${event.index}"]`);
  if (!row) {
    row = el('tr');
    row.dataset.index = event.index;
    $('batch-rows').append(row);
  }
  row.dataset.state = event.state;
  const ended = event.state === 'running' ? 'running…' : `${event.state}, ${event.steps} steps, ${event.seconds} s`;
  row.replaceChildren(el('td', null, event.id), el('td', null, event.task), el('td', event.state, ended),
    el('td', null, event.result || ''));
  const rows = [...document.querySelectorAll('#batch-rows tr')];
  const count = (state) => rows.filter((r) => r.dataset.state === state).length;
  $('batch-counts').textContent = `${count('succeeded')} succeeded, ${count('failed')} failed, ${count('running')} running`;
}

const handlers = {
  frame: showFrame,
  state: (event) => setState(event.state),
  run_start: onRunStart,
  step_start: onStepStart,
  phase: onPhase,
  step_end: onStepEnd,
  marks: (event) => { ui.marks = event; drawMarks(); },
  retry: onRetry,
  step_halted: onHalted,
  note: (event) => note(`Told the agent: ${event.text}`),
  question: onQuestion,
  question_closed: (event) => { if (ui.question === event.id) { ui.question = null; $('question').hidden = true; } },
  run_end: onRunEnd,
  saved: loadRuns,
  replay_start: (event) => { $('timeline').replaceChildren(); note(`Replaying ${event.steps} recorded steps`); },
  replayed: (event) => note(`step ${event.step}: ${event.call} — ${event.status}: ${event.message}`, event.status === 'ok' ? '' : 'failed'),
  error: (event) => toast(event.message),
  batch_start: () => { $('batch').hidden = false; $('batch-rows').replaceChildren(); },
  batch_task: onBatchTask,
  batch_end: () => { $('batch-counts').append(' — finished'); },
};

// Events other than frames are put on the page in batches, at most every EVENT_BATCH_MS: a fast agent sends
// several a step, and each change drawn apart is work for the machine the agent runs on (no one reads
// faster than this anyway).
const EVENT_BATCH_MS = 150;
const pending = [];

function flush() {
  ui.flushTimer = null;
  for (const event of pending.splice(0)) handlers[event.type]?.(event);
}

function connect() {
  const socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ui.socket = socket;
  socket.onmessage = (message) => { // a list: the events since the last message, then maybe a frame
    for (const event of JSON.parse(message.data)) {
      if (event.type === 'frame') showFrame(event);
      else pending.push(event);
    }
    if (pending.length) ui.flushTimer ??= setTimeout(flush, EVENT_BATCH_MS);
  };
  socket.onclose = () => { ui.socket = null; $('state').textContent = 'disconnected'; setTimeout(connect, 1000); };
}

// -- past runs and the form ----------------------------------------------------------------------

async function loadRuns() {
  const { runs } = await api('/api/runs');
  const body = $('runs');
  body.replaceChildren();
  for (const run of runs) {
    const row = el('tr');
    const links = el('td');
    const q = `?token=${encodeURIComponent(token)}`;
    const report = el('a', null, 'report');
    report.href = `/runs/${encodeURIComponent(run.name)}/report${q}`;
    report.target = '_blank';
    const download = el('a', null, 'history');
    download.href = `/runs/${encodeURIComponent(run.name)}/history${q}`;
    const replay = el('button', null, 'replay');
    replay.onclick = () => api(`/api/runs/${encodeURIComponent(run.name)}/replay`, {});
    links.append(report, download, replay);
    const ended = run.unreadable ? 'unreadable' : `steps: ${run.steps_label}, ${run.end_reason}`;
    row.append(el('td', null, run.task || run.name), el('td', null, ended), links);
    body.append(row);
  }
}

async function init() {
  const status = await api('/api/status');
  setState(status.state);
  ui.canStart = status.can_start;
  $('run-form').hidden = !status.can_start;
  $('past').hidden = !status.runs;
  const box = $('f-secrets');
  for (const name of status.secret_names) {
    const label = el('label', 'check');
    const input = el('input');
    input.type = 'checkbox';
    input.value = name;
    label.append(input, name);
    box.append(label);
  }
  box.hidden = !status.secret_names.length;
  if (status.step_timeout_s) $('f-step-timeout').value = String(status.step_timeout_s);
  if (status.fence.length) $('fence').textContent = `The server keeps every run to: ${status.fence.join(', ')}`;
  if (status.runs) loadRuns();
  connect();
}

init();
