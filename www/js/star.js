// The tab "Run it on this computer": the validity loop on the visitor's own
// machine. A star of Web Workers (originator.js, star-worker.js) calibrates
// the link and a pointer chase, fits them with M9, runs M3's, M2's and the
// equal split, and checks the runs with M9's runs check; this file draws the
// form, the progress, the reading (written by the core) and M9's own answer,
// keeps the finished experiment in the browser, and opens it in the Fit tab.
import { core } from './core.js';
import { Computer } from './compute.js';
import { download, el, fmt, marked } from './dom.js';
import { showResult, table } from './result.js';

const ID = 'star';
const STORE = 'dlt-calc:star:last';
const SIZES = { default: 'about a minute', tiny: 'a quick check (seconds; small chunks, its numbers mean little)' };

/** The clock's smallest step on this page, s. */
function resolution() {
  let best = Infinity;
  for (let i = 0; i < 20; i++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best / 1000;
}

function storage() {
  try { return globalThis.localStorage ?? null; } catch { return null; }
}

const pct = (x) => (x == null ? '' : `${(x * 100).toFixed(1)} %`);
const num = (x, d = 3) => (x == null ? '' : Number(x).toFixed(d));

export class StarSection {
  constructor(ui) {
    this.ui = ui;
    this.own = true;
    this.tab = { model: ID, number: null, former: { tab: '', prefix: '' }, presets: [] };
    this.spec = { id: ID, tab: 'Run it on this computer', sources: [], layout: 'star' };
    this.response = null;
    this.stale = false;
    this.partial = false;
    this.originator = null;
    this.root = el('section', { id: ID, role: 'tabpanel', hidden: true, 'aria-labelledby': `tab-${ID}` });
    this.result = el('div', { id: `${ID}-result`, className: 'result', hidden: true });
    this.build();
  }

  build() {
    const defaultM = Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2));
    this.defaultM = defaultM;
    this.inputs = {
      machines: el('input', { id: `${ID}-machines`, type: 'number', min: 1, max: 8, step: 1, value: defaultM }),
      rate: el('input', { id: `${ID}-rate`, type: 'number', min: 1, max: 100000, step: 'any', value: 100 }),
      together: el('input', { id: `${ID}-together`, type: 'checkbox', checked: true }),
      size: el('select', { id: `${ID}-size` }, ...Object.entries(SIZES).map(([v, t]) => el('option', { value: v }, t))),
    };
    for (const input of Object.values(this.inputs)) input.addEventListener('change', () => this.ui.onChange());
    const label = (input, text, unit = '') => el('label', { htmlFor: input.id }, `${text} `, input, unit ? ` ${unit}` : '');
    this.start = el('button', { type: 'button', id: `${ID}-start` }, 'Run the experiment');
    this.cancel = el('button', { type: 'button', id: `${ID}-cancel`, hidden: true, title: 'Escape also cancels' }, 'Cancel');
    this.bar = el('progress', { id: `${ID}-progress`, max: 1, value: 0, hidden: true, 'aria-label': 'experiment progress' });
    this.status = el('p', { id: `${ID}-status`, role: 'status', 'aria-live': 'polite' });
    this.start.addEventListener('click', () => this.run());
    const cancel = () => { this.stop('Cancelled; nothing was kept from this experiment.'); this.start.focus(); };
    this.cancel.addEventListener('click', cancel);
    // Escape cancels too, as it does the other tabs' computations.
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !e.defaultPrevented && this.originator && !this.root.hidden) { e.preventDefault(); cancel(); }
    });
    const tick = resolution();
    this.timer = tick;
    this.notes = el('div', { id: `${ID}-notes` });
    this.notes.append(el('p', { className: 'note', id: `${ID}-timer` },
      `This browser's clock ticks every ${(tick * 1000).toFixed(3)} ms`
      + (tick > 20e-6 ? ': the smallest chunks (about a millisecond) are timed only to within that.' : '.')));
    if (typeof Worker === 'undefined') {
      this.notes.append(el('p', { className: 'error', role: 'alert' }, 'This browser has no Web Workers: the experiment needs them (one per worker of the star) and cannot run here.'));
      this.start.disabled = true;
    }
    const intro = el('p', { className: 'explain' },
      'Measures this computer. An originator and m Web Workers form a star: the originator sends each worker a chunk '
      + 'over one port, paced at an emulated link rate; a worker follows the chunk as a pointer chase (every step a '
      + 'load whose address is the value just loaded), which runs at cache speed while the chunk fits in the '
      + 'processor\'s caches and slower past them — [2]\'s core and out-of-core memory, one level up. The loop '
      + 'calibrates the link and the chase, fits them (M9), chooses loads from the fitted knee, runs M3\'s, M2\'s and '
      + 'the equal split on every worker and checks each model\'s predictions against the runs. Nothing is sent anywhere.');
    const form = el('div', { className: 'star-form' },
      el('p', {}, label(this.inputs.machines, 'Workers m'), ' ', label(this.inputs.rate, 'Emulated link', 'MB/s')),
      el('p', {}, label(this.inputs.together, 'Also calibrate with every worker computing at once'), ' ',
        label(this.inputs.size, 'Size')),
      el('p', {}, this.start, ' ', this.cancel, ' ', this.bar), this.status);
    this.root.append(el('h2', {}, 'Run it on this computer'), intro, this.notes, form, this.result);
  }

  // ---- the page's tab interface (app.js) -----------------------------------

  request() { return { model: ID, ...this.read() }; }
  read() {
    const i = this.inputs;
    return { machines: Number(i.machines.value), rate: Number(i.rate.value), together: i.together.checked, size: i.size.value };
  }
  stateOf() { return null; }
  fill() {}
  showOpened() {}
  /** Shown (app.js calls this when a tab is shown): the experiment kept
   * from an earlier visit is drawn the first time only, so that a page
   * opened on another tab starts no worker for it. */
  changed() {
    if (this.restored) return;
    this.restored = true;
    if (!this.originator) this.restoreKept();
  }
  toParams(params) {
    const s = this.read();
    // Only what differs from the defaults: other tabs' links stay as they were.
    if (s.machines !== this.defaultM) params.set(`${ID}.machines`, String(s.machines));
    if (s.rate !== 100) params.set(`${ID}.rate`, String(s.rate));
    if (!s.together) params.set(`${ID}.together`, '0');
    if (s.size !== 'default') params.set(`${ID}.size`, s.size);
  }
  fromParams(params) {
    const i = this.inputs;
    i.machines.value = params.get(`${ID}.machines`) ?? String(this.defaultM);
    i.rate.value = params.get(`${ID}.rate`) ?? '100';
    i.together.checked = params.get(`${ID}.together`) !== '0';
    i.size.value = params.get(`${ID}.size`) in SIZES ? params.get(`${ID}.size`) : 'default';
    return null;
  }

  // ---- the experiment ------------------------------------------------------

  /** The inputs' problem, or null. */
  problem(s) {
    if (!Number.isInteger(s.machines) || s.machines < 1 || s.machines > 8) return 'Workers m must be a whole number from 1 to 8.';
    if (!(s.rate > 0 && s.rate <= 100000)) return 'The emulated link must be above 0 and at most 100 000 MB/s.';
    return null;
  }

  run() {
    const s = this.read();
    const wrong = this.problem(s);
    if (wrong) { this.status.textContent = wrong; this.status.className = 'error'; return; }
    let originator;
    try {
      originator = new Worker(new URL('./originator.js', import.meta.url), { type: 'module' });
    } catch (err) {
      this.status.textContent = `This browser does not start the star's workers here (${err.message}): serve the page over http to run the experiment.`;
      this.status.className = 'error';
      return;
    }
    this.originator = originator;
    this.start.disabled = true;
    this.cancel.hidden = false;
    this.bar.hidden = false;
    this.bar.value = 0;
    this.status.className = '';
    this.status.textContent = 'Starting the workers…';
    originator.onmessage = (e) => this.receive(e.data);
    originator.onerror = (e) => { e.preventDefault?.(); this.stop(`The experiment stopped: ${e.message || 'its originator failed'}.`, true); };
    originator.postMessage({ type: 'start', ...s, seed: (Date.now() % 1e9) >>> 0 });
  }

  receive(msg) {
    if (msg.type === 'progress') {
      this.bar.value = msg.done;
      this.status.textContent = `${msg.what} (${Math.floor(msg.done * 100)} %)`;
      return;
    }
    if (msg.type === 'error') { this.stop(`The experiment failed: ${msg.message}`, true); return; }
    if (msg.type === 'result') {
      this.stop(`Done in ${msg.result.wall.toFixed(1)} s.`);
      try { storage()?.setItem(STORE, JSON.stringify(msg.result)); } catch { /* not kept: too large or refused */ }
      this.showExperiment(msg.result, false);
    }
  }

  /** Ends the experiment going on (terminating the originator ends its
   * workers too). */
  stop(text, error = false) {
    this.originator?.terminate();
    this.originator = null;
    this.start.disabled = false;
    this.cancel.hidden = true;
    this.bar.hidden = true;
    this.status.textContent = text;
    this.status.className = error ? 'error' : '';
  }

  restoreKept() {
    let kept = null;
    try { kept = JSON.parse(storage()?.getItem(STORE) ?? 'null'); } catch { kept = null; }
    if (kept?.summary) this.showExperiment(kept, true);
  }

  // ---- the result ------------------------------------------------------------

  async showExperiment(r, restored) {
    const s = r.summary;
    const when = new Date(r.finished).toLocaleString();
    const head = el('p', { className: 'note', id: `${ID}-when` },
      `${restored ? 'Kept from an earlier visit: the' : 'The'} experiment of ${when}, ${r.machines} workers, link emulated at ${r.rate} MB/s, `
      + `${r.size} size, ${r.wall.toFixed(1)} s. Knee: ${r.knee ? `${num(r.knee, 2)} MB per worker` : 'none (one line)'}.`);
    const reading = el('div', { className: 'star-reading', id: `${ID}-reading` },
      el('h3', {}, 'What it shows'), ...s.reading.map((p) => el('p', {}, p)));
    const numbers = table('The experiment in numbers', ['quantity', 'value'], [
      ['M3 mean |error|', pct(s.m3_error)], ['M2 mean |error|', pct(s.m2_error)],
      ['M3 mean |error| past the knee', pct(s.m3_error_past)], ['M2 mean |error| past the knee', pct(s.m2_error_past)],
      ['equal split / M3 split, past the knee', num(s.equal_over_m3_past)],
      ['runs\' chunks / fitted, one worker alone', num(s.alone?.ratio)],
      ['runs\' chunks / fitted, every worker at once', num(s.together?.ratio)],
    ], `${ID}-numbers`);
    const rows = s.rows.map((row) => [row.name, fmt(row.load), row.m3_split.map((x) => x.toFixed(2)).join(' / '),
      num(row.m3?.[0]), num(row.m3?.[1]), pct(row.m3?.[2]), num(row.m2?.[0]), num(row.m2?.[1]), pct(row.m2?.[2]),
      num(row.equal), num(row.equal_over_m3)]);
    const runs = table('The runs: M3\'s split, M2\'s split and the equal split of each load',
      ['run', 'load (MB)', 'M3 split (MB)', 'M3 measured (s)', 'M3 predicted (s)', 'M3 error', 'M2 measured (s)',
        'M2 predicted (s)', 'M2 error', 'equal (s)', 'equal / M3'], rows, `${ID}-runs`);
    this.result.replaceChildren(head, reading, numbers, runs, this.exports(r), this.exercises(s.exercises ?? []),
      el('div', { id: `${ID}-fit` }));
    this.result.hidden = false;
    await this.showFit(r);
  }

  /** Exercises on this experiment's own numbers, checked by the core as
   * the Exercises tab's are. */
  exercises(posed) {
    const box = el('div', { id: `${ID}-exercises`, className: 'star-exercises' }, el('h3', {}, 'Exercises on your own numbers'));
    posed.forEach((p, i) => {
      const input = el('input', { id: `${ID}-answer-${i}`, type: 'text', inputMode: 'decimal', 'aria-label': `answer to exercise ${i + 1}` });
      const verdict = el('span', { id: `${ID}-verdict-${i}`, role: 'status' });
      const check = el('button', { type: 'button', id: `${ID}-check-${i}` }, 'Check');
      check.addEventListener('click', () => {
        const v = core.checkAnswer(p.answer, input.value);
        verdict.textContent = ` ${v.message}`;
        verdict.className = v.status === 'right' ? 'right' : 'error';
      });
      const unit = p.answer.unit ? ` ${p.answer.unit}` : '';
      const solution = el('details', {}, el('summary', {}, 'Solution'), ...p.solution.map((t) => el('p', {}, t)));
      box.append(marked(el('p', { className: 'question' }), `${i + 1}. ${p.question}`),
        el('p', {}, input, unit, ' ', check, verdict), solution);
    });
    return posed.length ? box : el('div');
  }

  exports(r) {
    const p = el('p', { className: 'exports', id: `${ID}-exports` });
    const files = [...r.tables, ['star-runs.csv', r.summary.csv]];
    for (const [name, text] of files) {
      const b = el('button', { type: 'button', className: 'export-csv', dataset: { file: name } }, `Download ${name}`);
      b.addEventListener('click', () => download(name, new Blob([text], { type: 'text/csv' })));
      p.append(b, ' ');
    }
    // The M9 request with the calibration and M3's runs: `dlt solve` gives the same check.
    const json = el('button', { type: 'button', className: 'export-json', dataset: { file: 'star-check-m3.json' } }, 'Download star-check-m3.json');
    json.addEventListener('click', () => download('star-check-m3.json',
      new Blob([JSON.stringify(r.requests.hierarchical, null, 2)], { type: 'application/json' })));
    p.append(json, ' ');
    const open = el('button', { type: 'button', id: `${ID}-open-fit` }, 'Open in the Fit tab, with the runs');
    open.addEventListener('click', () => this.ui.open(r.requests.hierarchical));
    p.append(open);
    return p;
  }

  /** M9's answer for the calibration and M3's runs: the computing-time chart
   * with the fitted levels and knee, and measured against predicted. */
  async showFit(r) {
    const slot = this.result.querySelector(`#${ID}-fit`);
    let answer;
    try {
      // A worker of its own: the shared one is the other tabs' (a run there
      // cancels the one before).
      this.computer ??= new Computer();
      answer = await this.computer.run(r.requests.hierarchical);
    } catch (err) {
      slot.replaceChildren(el('p', { className: 'error' }, `M9's answer could not be drawn: ${err.message}`));
      return;
    }
    // The model is the one the request names (M9, built by the crate).
    const view = { tab: { model: r.requests.hierarchical.model }, spec: { id: `${ID}-fit`, sources: [], layout: 'star' }, root: this.root, result: slot, ui: this.ui, view: () => ({}) };
    slot.replaceChildren();
    showResult(view, answer);
    slot.prepend(el('h3', {}, 'M9: the fit of the calibration and the runs check of M3'));
    this.result.dataset.done = String(Number(this.result.dataset.done ?? 0) + 1);
  }
}
