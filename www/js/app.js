// The page: reads the form, asks the wasm core which fields are invalid, runs
// valid requests in the worker, and shows the result. No mathematics here.
import init, { problems, drawGantt, ganttSvg, example, version } from '../pkg/dlt_calc.js';
import { Computer, Cancelled, Crashed } from './compute.js';
import { readUrl, writeUrl, stateFromRequest, requestFromState, toQuery } from './state.js';

const $ = (sel, root = document) => root.querySelector(sel);
const COLUMNS = [
  ['startup', 'startup'], ['rate', 'rate'],
  ['l1', 'levels[0].intercept'], ['l2', 'levels[0].slope'],
  ['h1', 'levels[1].intercept'], ['h2', 'levels[1].slope'],
  ['cap', 'cap'],
];
const MEMORY = ['in core', 'out of core'];

let computer;
let lastResponse = null;
let debounce = 0;
let progressTimer = 0;

/** A number for display: up to 10 significant digits, no trailing noise. */
function fmt(x) {
  if (!Number.isFinite(x)) return String(x);
  const r = Number(x.toPrecision(10));
  return Math.abs(r) < 1e-12 ? '0' : String(r);
}

function status(text, { busy = false } = {}) {
  $('#status-text').textContent = text;
  if (!busy) {
    clearTimeout(progressTimer);
    $('#progress').hidden = true;
    $('#cancel').hidden = true;
  }
}

function showError(text) {
  const el = $('#error');
  el.textContent = text;
  el.hidden = !text;
}

// ---- the form -------------------------------------------------------------

function processorRow(i, p) {
  const tr = document.createElement('tr');
  const head = document.createElement('th');
  head.scope = 'row';
  head.textContent = `P${i + 1}`;
  tr.append(head);
  for (const [key, path] of COLUMNS) {
    const field = `processors[${i}].${path}`;
    const td = document.createElement('td');
    const input = document.createElement('input');
    input.dataset.field = field;
    input.dataset.key = key;
    input.inputMode = 'decimal';
    input.autocomplete = 'off';
    input.value = p[key];
    input.setAttribute('aria-label', `P${i + 1} ${key}`);
    if (key === 'cap') input.placeholder = 'none';
    const err = document.createElement('span');
    err.className = 'field-error';
    err.dataset.errorFor = field;
    td.append(input, err);
    tr.append(td);
  }
  const td = document.createElement('td');
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'remove';
  remove.textContent = '×';
  remove.title = `remove P${i + 1}`;
  remove.setAttribute('aria-label', `remove P${i + 1}`);
  remove.addEventListener('click', () => {
    const state = readForm();
    state.processors.splice(i, 1);
    fillForm(state);
    changed();
  });
  td.append(remove);
  tr.append(td);
  return tr;
}

function fillForm(state) {
  $('#load').value = state.load;
  $('#best-order').checked = state.best;
  const body = $('#processors tbody');
  body.replaceChildren(...state.processors.map((p, i) => processorRow(i, p)));
}

function readForm() {
  const processors = [...document.querySelectorAll('#processors tbody tr')].map((tr) => {
    const p = {};
    for (const input of tr.querySelectorAll('input')) p[input.dataset.key] = input.value;
    return p;
  });
  return { load: $('#load').value, best: $('#best-order').checked, processors };
}

/** Marks every invalid field; returns true when the request is valid. */
function validate(request) {
  for (const el of document.querySelectorAll('[data-error-for]')) el.textContent = '';
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  const list = problems(request);
  const unplaced = [];
  for (const { field, message } of list) {
    const slot = document.querySelector(`[data-error-for="${CSS.escape(field)}"]`);
    const input = document.querySelector(`[data-field="${CSS.escape(field)}"]`);
    if (slot) slot.textContent = message;
    else unplaced.push(field ? `${field}: ${message}` : message);
    input?.setAttribute('aria-invalid', 'true');
  }
  showError(unplaced.join('\n'));
  return list.length === 0;
}

function changed({ now = false } = {}) {
  const state = readForm();
  writeUrl(state);
  const request = requestFromState(state);
  if (!validate(request)) {
    status(lastResponse ? 'Fix the marked fields; the result shown is for the previous input.' : 'Fix the marked fields.');
    return;
  }
  clearTimeout(debounce);
  debounce = setTimeout(() => compute(request), now ? 0 : 250);
}

// ---- computing ------------------------------------------------------------

async function compute(request) {
  status('Computing…', { busy: true });
  clearTimeout(progressTimer);
  progressTimer = setTimeout(() => {
    $('#progress').hidden = false;
    $('#cancel').hidden = false;
  }, 150);
  const started = performance.now();
  try {
    const response = await computer.run(request, (done, what) => {
      $('#progress').value = done;
      $('#status-text').textContent = `Computing: ${what} (${Math.round(done * 100)} %)`;
    });
    lastResponse = response;
    showResult(response);
    showError('');
    status(`Computed in ${fmt((performance.now() - started) / 1000)} s.`);
  } catch (err) {
    if (err instanceof Cancelled) {
      status(lastResponse ? 'Cancelled; the result shown is for the previous input.' : 'Cancelled.');
    } else if (err instanceof Crashed) {
      status('The computation crashed; the calculator was restarted.');
      showError(`The computation crashed (${err.message}). The calculator was restarted; your inputs are kept.`);
    } else {
      status(lastResponse ? 'Not computed; the result shown is for the previous input.' : 'Not computed.');
      showError(err.message);
    }
  }
}

// ---- the result -----------------------------------------------------------

function cell(tr, text, header = false) {
  const el = document.createElement(header ? 'th' : 'td');
  el.textContent = text;
  tr.append(el);
}

function showResult(response) {
  const { report, gantt } = response;
  $('#result').hidden = false;
  $('#makespan').textContent = fmt(report.makespan);
  const verdict = $('#verdict');
  verdict.className = `verdict ${report.verdict.ok ? 'ok' : 'bad'}`;
  verdict.textContent = report.verdict.ok
    ? `✓ verified (tolerance ${report.verdict.tolerance.toExponential(1)})`
    : `✗ rejected by the verifier: ${report.verdict.violation}`;
  if (report.orders_tried > 1) verdict.textContent += `; best of ${report.orders_tried} orders`;

  const idle = new Map(gantt.rows.map((row, i) => [i, row.bars
    .filter((b) => b.activity.kind === 'idle').reduce((s, b) => s + b.end - b.start, 0)]));
  const rows = report.schedule.chunks.map((c) => {
    const tr = document.createElement('tr');
    cell(tr, `P${c.machine + 1}`, true);
    cell(tr, fmt(c.size));
    cell(tr, MEMORY[c.level] ?? `level ${c.level + 1}`);
    cell(tr, `${fmt(c.send.start)} – ${fmt(c.send.end)}`);
    cell(tr, `${fmt(c.compute.start)} – ${fmt(c.compute.end)}`);
    cell(tr, fmt(idle.get(c.machine) ?? 0));
    return tr;
  });
  $('#chunks tbody').replaceChildren(...rows);

  const comparison = report.comparison.map((p) => {
    const tr = document.createElement('tr');
    cell(tr, p.assumption, true);
    cell(tr, `(${p.sizes.map(fmt).join(', ')})`);
    cell(tr, fmt(p.predicted));
    cell(tr, fmt(p.real));
    return tr;
  });
  $('#comparison').hidden = comparison.length === 0;
  $('#comparison tbody').replaceChildren(...comparison);

  const canvas = $('#gantt');
  canvas.height = 110 + 44 * gantt.rows.length;
  drawGantt(canvas, response);
  canvas.dataset.drawn = String(Number(canvas.dataset.drawn ?? 0) + 1);
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---- start ----------------------------------------------------------------

async function main() {
  try {
    await init();
  } catch (err) {
    status('The calculator could not be loaded.');
    showError(`Loading the WebAssembly module failed: ${err}`);
    return;
  }
  $('#version').textContent = version();
  computer = new Computer();
  const state = readUrl() ?? stateFromRequest(example('hierarchical'));
  fillForm(state);

  $('#m3-form').addEventListener('input', () => changed());
  $('#m3-form').addEventListener('submit', (e) => { e.preventDefault(); changed({ now: true }); });
  $('#add-processor').addEventListener('click', () => {
    const s = readForm();
    const last = s.processors.at(-1) ?? { startup: '1', rate: '1', l1: '1', l2: '1', h1: '-9', h2: '10', cap: '' };
    s.processors.push({ ...last });
    fillForm(s);
    changed();
  });
  $('#load-preset').addEventListener('click', () => {
    fillForm(stateFromRequest(example($('#preset').value)));
    changed({ now: true });
  });
  $('#cancel').addEventListener('click', () => computer.cancel());
  $('#copy-link').addEventListener('click', async () => {
    const url = new URL(toQuery(readForm()), location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      status('Link copied.');
    } catch {
      prompt('Copy this link:', url);
    }
  });
  $('#export-svg').addEventListener('click', () => {
    if (!lastResponse) return;
    const c = $('#gantt');
    download('gantt.svg', new Blob([ganttSvg(lastResponse, c.width, c.height)], { type: 'image/svg+xml' }));
  });
  $('#export-png').addEventListener('click', () => $('#gantt').toBlob((b) => b && download('gantt.png', b)));

  try {
    await computer.ready;
  } catch (err) {
    status('The calculator could not be loaded.');
    showError(err.message);
    return;
  }
  status('Ready.');
  changed({ now: true });
}

main();
