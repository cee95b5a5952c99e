// One calculator tab: a form (scalar fields and a table of machines) built
// from the model's description in Rust, its state in the URL, field messages
// from the wasm core, runs in the shared worker, and the result (the
// answer's blocks, then the Gantt chart and line charts, each exportable).
import { core, isCrash } from './core.js';
import { Cancelled, Crashed } from './compute.js';
import { LONG_TEXT, fields, fromLinkText, fromRequest, linkText, textHash, toRequest, viewOptions } from './form.js';

/** The most rows a paste fills (as many as a link may carry). */
const MAX_ROWS = 2_000;

/** The largest file a table's text area reads (a million rows of a few
 * numbers each are some 30 MB). */
const MAX_FILE = 64 * 1024 * 1024;

/** The longest request (JSON characters) checked on the page as it is
 * typed; a longer one (a pasted table of 10⁵ rows, whose check takes some
 * 150 ms) is checked by the worker when it computes, which names its first
 * problem in the same place. */
const LIVE_CHECK = 200_000;

/** The longest table shown whole in its text area: Chromium takes some
 * 1.5 s to lay out a text area of 10⁵ lines, more than the fit of them, so
 * a longer table shows its first lines, read-only, and is kept whole
 * beside them (it is the table sent, linked and exported). */
const SHOWN_WHOLE = 200_000;
const SHOWN_LINES = 100;

/** Puts table `text` in `area`: whole, or its first lines when long. */
function showTable(area, text) {
  if (text.length <= SHOWN_WHOLE) {
    area.whole = undefined;
    area.readOnly = false;
    area.value = text;
    return;
  }
  let cut = 0;
  for (let k = 0; k < SHOWN_LINES && cut >= 0; k++) cut = text.indexOf('\n', cut + 1);
  // Fewer lines than shown, but long ones: the first characters.
  if (cut < 0) cut = SHOWN_WHOLE / 10;
  let more = 0;
  for (let at = cut; at >= 0 && at < text.length - 1; at = text.indexOf('\n', at + 1)) more++;
  area.whole = text;
  area.readOnly = true;
  area.value = `${text.slice(0, cut)}\n# … and ${more} more lines, not shown (${(text.length / 1e6).toFixed(1)} MB in all); `
    + 'the whole table is used. Clear the box to type or paste another.';
}

/** What an empty table's text area says. */
const TABLE_PLACEHOLDER = 'paste a table, or drop a file here';
/** What it says when a link's table was kept by another browser. */
const TABLE_MISSING = 'the table of this link was kept by the browser that made the link and is not here: paste or upload it again';

const $ = (sel, root = document) => root.querySelector(sel);

/** A number for display: up to 10 significant digits, no trailing noise. */
export function fmt(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  const r = Number(x.toPrecision(10));
  return Math.abs(r) < 1e-300 ? '0' : String(r);
}

/** A duration measured by the page (seconds), to three significant digits:
 * a clock difference is not worth ten (`0.006199999999`). */
export function secs(x) {
  return fmt(Number(x.toPrecision(3)));
}

export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children.filter((c) => c != null));
  return e;
}

/** `e` showing `text` for reading (its numbers to four significant digits,
 * written by the core), with the full text on hover; exports keep it. */
export function readable(e, text) {
  const full = String(text ?? '');
  const short = core.readable(full);
  e.textContent = short;
  if (short !== full) e.title = full;
  return e;
}

/** A table with a caption, a header row and rows of cells (strings), and a
 * button that downloads it as CSV (the cells as shown). */
export function table(caption, head, rows, id) {
  const csv = el('button', { type: 'button', className: 'export-table-csv' }, 'Table as CSV');
  const quote = (c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c);
  csv.addEventListener('click', () => download(`${id || 'table'}.csv`, new Blob(
    [[head, ...rows].map((r) => r.map((c) => quote(String(c))).join(',')).join('\n') + '\n'], { type: 'text/csv' })));
  const body = el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c, i) => readable(el(i === 0 ? 'th' : 'td'), c)))));
  // A click on a column's head sorts the rows by it (numbers as numbers,
  // units and percent signs ignored), again to reverse.
  const heads = head.map((h, k) => {
    const sort = el('button', { type: 'button', className: 'sort', title: `sort by ${h}` }, h);
    const th = el('th', { scope: 'col' }, sort);
    sort.addEventListener('click', () => {
      const up = th.getAttribute('aria-sort') !== 'ascending';
      for (const other of heads) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      // The full text (a shown number may be shortened).
      const text = (tr) => tr.cells[k]?.title || tr.cells[k]?.textContent || '';
      const number = (tr) => parseFloat(text(tr).replace(/[\s\u2009]/g, ''));
      const trs = [...body.rows];
      const numeric = trs.every((tr) => Number.isFinite(number(tr)));
      trs.sort((a, b) => (up ? 1 : -1) * (numeric ? number(a) - number(b) : text(a).localeCompare(text(b))));
      body.append(...trs);
    });
    return th;
  });
  return el('div', { className: 'table-wrap' }, el('table', { className: 'data', id: id ?? '' },
    el('caption', {}, caption), el('thead', {}, el('tr', {}, ...heads)), body), csv);
}

export function download(name, blob) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Puts `html` (markup written in Rust: <i>, <sub>, <sup>) in `e`. */
function marked(e, html) {
  e.innerHTML = html;
  return e;
}

/** How much larger the page's text is drawn (the large-text toggle). */
export function textScale() {
  return document.documentElement.classList.contains('large-text') ? 1.4 : 1;
}

/** A chart's layout width in CSS pixels: as wide as it is shown (so that
 * its text, 11 px and up, is never shrunk on a phone), divided by the text
 * scale (so that the projector's large text is drawn larger; the canvas is
 * then shown up to 1 260 px wide), at most the 900 px the charts are
 * designed for. */
function canvasWidth(container) {
  const shown = container.clientWidth || 900;
  const scale = textScale();
  return Math.max(260, Math.round(Math.min(900 * scale, shown) / scale));
}

/** Device pixels per layout pixel of a chart: the screen's density times
 * the text scale, so that the core draws the canvas's buffer that many
 * times larger and a chart is as sharp as the screen (PNG exports keep
 * this density; SVG exports are at the layout size). */
function pixelRatio() {
  return (window.devicePixelRatio || 1) * textScale();
}

/** What a field means and the values it takes, said on hover. */
function hint(f) {
  const unit = f.unit ? `, in ${f.unit}` : '';
  const range = f.range ? `; ${f.range}` : '';
  return `${f.help ?? ''}${unit}${range}`.replace(/^[,;] /, '');
}

/** One block of an answer's view (see the core's `view` module); an
 * `open` block is a button that opens its request in its model's tab. */
function block(b, ui) {
  if (b.kind === 'open') {
    const button = el('button', { type: 'button', id: b.id, className: 'open-tab' }, b.label);
    button.addEventListener('click', () => ui.open?.(b.request));
    return button;
  }
  if (b.kind === 'headline') {
    const p = el('p', { className: 'headline' });
    marked(p, b.label);
    p.append(' = ', readable(el('output', { id: b.id }), b.value));
    if (b.verdict) {
      p.append(el('span', { id: b.verdict.id, className: `verdict ${b.verdict.ok ? 'ok' : 'bad'}` }, b.verdict.text));
    }
    return p;
  }
  if (b.kind === 'note') return readable(el('p', { id: b.id, className: b.aside ? 'note' : '' }), b.text);
  return table(b.caption, b.head, b.rows, b.id);
}

/** The places in the bibliography (`works`) of the works a tab cites. */
function cited(spec, works) {
  return (spec.sources ?? []).map((key) => works.findIndex((w) => w.key === key)).filter((n) => n >= 0);
}

/** The tab's "About the model" panel: its formulas (from Rust), folded,
 * and the works they come from. */
function about(spec, works) {
  const panel = el('details', { className: 'about', id: `${spec.id}-about` }, el('summary', {}, 'About the model: formulas'));
  const list = el('dl');
  for (const f of spec.about ?? []) list.append(marked(el('dt'), f.what), marked(el('dd'), f.formula));
  const from = el('p', { className: 'explain' }, 'From ');
  const places = cited(spec, works);
  places.forEach((n, k) => from.append(k ? ', ' : '', el('a', { href: `#bib-${works[n].key}` }, `[${n + 1}] ${works[n].title}`)));
  from.append('.');
  panel.append(list);
  if (places.length) panel.append(from);
  return panel;
}

/** Two overlapping squares, drawn: the "⧉" character is a missing-glyph
 * box with some systems' fonts. */
function copyIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  for (const [k, v] of Object.entries({ viewBox: '0 0 16 16', width: '1em', height: '1em', 'aria-hidden': 'true', class: 'icon' })) {
    svg.setAttribute(k, v);
  }
  for (const [x, y] of [[1.5, 1.5], [5.5, 5.5]]) {
    const r = document.createElementNS(ns, 'rect');
    for (const [k, v] of Object.entries({ x, y, width: 9, height: 9, rx: 1.5, fill: x > 2 ? '#fff' : 'none', stroke: 'currentColor', 'stroke-width': 1.5 })) {
      r.setAttribute(k, String(v));
    }
    svg.append(r);
  }
  return svg;
}

/** The most characters a number field shows at its usual width; a
 * longer preset value widens the field. */
const USUAL_CHARS = 8;

/** Each number field's width in characters: as wide as its longest
 * value in any preset of the tab (`1000000000000000` was cut). */
function presetWidths(tab, form) {
  const widths = {};
  const note = (key, text) => { widths[key] = Math.max(widths[key] ?? 0, String(text ?? '').length); };
  for (const [name] of tab.presets) {
    let state;
    try { state = fromRequest(form, core.example(name)); } catch { continue; }
    for (const [k, v] of Object.entries(state.scalars)) if (typeof v === 'string') note(k, v);
    for (const row of state.rows) for (const [k, v] of Object.entries(row)) note(`row.${k}`, v);
  }
  return widths;
}

/** The long texts of the tab's presets (tables of measurements) by their
 * hashes: a link names them by hash, and every browser has them. */
function presetTexts(tab, form) {
  const known = new Map();
  if (!fields(form).some((f) => f.kind === 'csv')) return known;
  for (const [name] of tab.presets) {
    let state;
    try { state = fromRequest(form, core.example(name)); } catch { continue; }
    for (const v of Object.values(state.scalars)) {
      if (typeof v === 'string' && v.length > LONG_TEXT) known.set(textHash(v), v);
    }
  }
  return known;
}

/** A table's text area as tall as its lines, from 4 to 10 (it scrolls
 * beyond, and may be dragged taller). */
function grow(area) {
  const text = area.value;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0 && lines < 10; at = text.indexOf('\n', at + 1)) lines++;
  area.rows = Math.max(4, lines);
}

/** Widens a number field to `chars` characters when they exceed the usual. */
function fit(input, chars) {
  if (chars > USUAL_CHARS) input.style.width = `calc(${chars + 1}ch + 0.8rem)`;
}

export class Section {
  /**
   * @param tab    the model's tab: {model, number, former, form, presets} (from Rust)
   * @param ui     shared page services: computer, status(text, busy), onChange()
   */
  constructor(tab, ui) {
    this.tab = tab;
    // One id names the model everywhere: the tab, its elements and, with a
    // dot, its keys in a link.
    this.spec = { ...tab.form, id: tab.model, prefix: `${tab.model}.` };
    this.ui = ui;
    this.root = el('section', { id: this.spec.id, role: 'tabpanel', hidden: true, 'aria-labelledby': `tab-${this.spec.id}` });
    const h2 = marked(el('h2'), this.spec.title);
    // The citation, each work it names linked to the bibliography.
    const cite = el('span', { className: 'cite' }, `(${this.spec.citation.replaceAll('&amp;', '&')}`);
    for (const n of cited(this.spec, ui.works ?? [])) {
      cite.append(' ', el('a', { href: `#bib-${ui.works[n].key}`, title: ui.works[n].title }, `[${n + 1}]`));
    }
    cite.append(')');
    h2.append(' ', cite);
    this.root.append(h2, marked(el('p', { className: 'explain' }), this.spec.intro), about(this.spec, ui.works ?? []), el('div', { className: 'form-slot' }));
    this.response = null;
    this.debounce = 0;
    this.build();
  }

  /** The request of the form as it stands. */
  request() {
    return toRequest(this.tab.model, this.spec, this.read());
  }

  /** The form state of a request (a preset or a link). */
  stateOf(request) {
    return fromRequest(this.spec, request);
  }

  /** The view options the form sets (e.g. overlays). */
  view() {
    return viewOptions(this.spec, this.read());
  }

  // ---- the form ---------------------------------------------------------

  build() {
    const { spec } = this;
    this.widths = presetWidths(this.tab, spec);
    this.known = presetTexts(this.tab, spec);
    this.fieldKinds = Object.fromEntries(fields(spec).map((f) => [f.key, f.kind]));
    const form = el('form', { noValidate: true, id: `${spec.id}-form` });
    const presets = el('select', { id: `${spec.id}-preset`, 'aria-label': 'preset' },
      ...this.tab.presets.map(([name, label]) => el('option', { value: name }, label)));
    const load = el('button', { type: 'button', id: `${spec.id}-load-preset` }, 'Load preset');
    load.addEventListener('click', () => {
      this.fill(this.stateOf(core.example(presets.value)));
      this.changed({ now: true });
      this.commit();
    });
    form.append(el('div', { className: 'row' }, el('label', { htmlFor: presets.id }, 'Preset'), presets, load));

    for (const group of spec.groups) {
      const row = el('div', { className: 'row' });
      if (group.legend) row.append(marked(el('span', { className: 'legend' }), group.legend));
      for (const f of group.fields) row.append(...this.scalar(f));
      form.append(row);
    }
    if (spec.rows) {
      const t = spec.rows;
      this.tbody = el('tbody');
      this.tbody.addEventListener('paste', (e) => this.paste(e));
      form.append(el('div', { className: 'table-wrap' }, el('table', { className: 'inputs' },
        el('caption', {}, t.caption),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'),
          ...t.columns.map((c) => marked(el('th', { scope: 'col', title: hint(c) }), c.unit ? `${c.head} [${c.unit}]` : c.head)),
          el('th', { scope: 'col' }, el('span', { className: 'sr-only' }, 'order and remove')))),
        this.tbody)));
      form.append(el('span', { className: 'field-error', dataset: { errorFor: t.path }, role: 'alert' }));
      const add = el('button', { type: 'button', id: `${spec.id}-add` }, `Add ${t.item}`);
      add.addEventListener('click', () => {
        const s = this.read();
        s.rows.push({ ...(s.rows.at(-1) ?? Object.fromEntries(t.columns.map((c) => [c.key, c.blank]))) });
        this.fill(s);
        this.changed();
        this.commit();
      });
      form.append(el('div', { className: 'row' }, add));
    }
    const compute = el('button', { type: 'submit', className: 'primary', id: `${spec.id}-compute` }, 'Compute');
    const copy = el('button', { type: 'button', id: `${spec.id}-copy-link` }, 'Copy link');
    copy.addEventListener('click', () => this.ui.copyLink());
    form.append(el('div', { className: 'row actions' }, compute, copy));
    form.addEventListener('input', () => this.changed());
    // A value finished (a field left, a box ticked, a choice made) or
    // Compute pressed: the input set is a history entry; typing is not.
    form.addEventListener('change', () => this.commit());
    form.addEventListener('submit', (e) => { e.preventDefault(); this.changed({ now: true, again: true }); this.commit(); });

    this.error = el('p', { className: 'error', role: 'alert', hidden: true, id: `${spec.id}-error` });
    this.result = el('div', { className: 'result', hidden: true, id: `${spec.id}-result` });
    this.staleNote = el('p', { className: 'stale-note', role: 'status', hidden: true, id: `${spec.id}-stale` });
    $('.form-slot', this.root).replaceChildren(form, this.error, this.staleNote, this.result);
  }

  /** Makes the inputs as they stand a history entry (Back returns to the
   * previous ones), when they are valid and this tab is on screen. */
  commit() {
    if (!this.wasInvalid && this.ui.isActive(this)) this.ui.onCommit?.();
  }

  /** Dims the result, with `why`, while it is not for the inputs as they
   * stand; undims it when it is. */
  markStale(why) {
    const stale = Boolean(why) && Boolean(this.response);
    this.result.classList.toggle('stale', stale);
    this.staleNote.hidden = !stale;
    this.staleNote.textContent = stale ? why : '';
  }

  scalar(f) {
    const id = `${this.spec.id}-${f.key}`;
    const field = f.path;
    const error = el('span', { className: 'field-error', dataset: { errorFor: field }, role: 'alert' });
    if (f.kind === 'check' || f.kind === 'view') {
      const input = el('input', { type: 'checkbox', id, dataset: { field, key: f.key } });
      const label = el('label', { className: 'check', title: f.help }, input, ' ');
      label.insertAdjacentHTML('beforeend', f.label);
      return [label, error];
    }
    if (f.kind === 'csv') return this.csvField(f, id, error);
    if (f.kind === 'choice') {
      const select = el('select', { id, dataset: { field, key: f.key } },
        ...f.options.map((o) => el('option', { value: o }, o)));
      const label = marked(el('label', { htmlFor: id, title: hint(f) }), f.label);
      return [el('span', { className: 'field' }, label, select), error];
    }
    const wide = f.kind === 'json' || f.kind === 'text' || f.kind === 'list';
    const input = f.kind === 'json'
      ? el('textarea', { id, autocomplete: 'off', spellcheck: false, className: 'textarea', dataset: { field, key: f.key } })
      : el('input', {
        id, autocomplete: 'off', placeholder: f.placeholder ?? '', dataset: { field, key: f.key },
        ...(wide ? { className: 'text', spellcheck: false } : { inputMode: 'decimal' }),
      });
    // Values offered as the field is typed (every parameter of a map).
    const offered = f.suggestions?.length
      ? el('datalist', { id: `${id}-offered` }, ...f.suggestions.map(([value, what]) => el('option', { value, label: what })))
      : null;
    if (offered) input.setAttribute('list', offered.id);
    // A placeholder (what an empty optional field means) is shown whole too.
    if (!wide) fit(input, Math.max(this.widths[f.key] ?? 0, Math.min(16, (f.placeholder ?? '').length)));
    const label = marked(el('label', { htmlFor: id, title: hint(f) }), f.label);
    const kind = f.kind === 'json' ? 'field textarea' : wide ? 'field text' : 'field';
    const unit = f.unit ? [el('span', { className: 'unit' }, f.unit)] : [];
    const take = f.from_tabs?.length ? [this.taking(f, input)] : [];
    return [...take, el('span', { className: kind }, label, input, ...unit, offered), error];
  }

  /** A table's text area (CSV or TSV), pasted or typed, or filled from a
   * file by "Upload…" or by dropping the file on it. */
  csvField(f, id, error) {
    const area = el('textarea', { id, autocomplete: 'off', spellcheck: false, className: 'textarea csv', rows: 4,
      placeholder: f.placeholder || TABLE_PLACEHOLDER, wrap: 'off', dataset: { field: f.path, key: f.key } });
    const file = el('input', { type: 'file', id: `${id}-file`, className: 'sr-only', tabIndex: -1,
      accept: '.csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain' });
    const upload = el('label', { htmlFor: file.id, className: 'button', id: `${id}-upload`, tabIndex: 0,
      role: 'button', title: 'read a .csv, .tsv or .txt file into the box' }, 'Upload…');
    upload.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); file.click(); } });
    const put = async (blob) => {
      const slot = this.root.querySelector(`[data-error-for="${CSS.escape(f.path)}"]`);
      if (blob.size > MAX_FILE) {
        slot.textContent = `${blob.name} is ${Math.round(blob.size / 1e6)} MB; the most read is ${MAX_FILE / 1024 / 1024} MB`;
        return;
      }
      try {
        showTable(area, await blob.text());
      } catch (err) {
        slot.textContent = `${blob.name} could not be read: ${err.message ?? err}`;
        return;
      }
      area.placeholder = f.placeholder || TABLE_PLACEHOLDER;
      grow(area);
      area.dispatchEvent(new Event('input', { bubbles: true }));
      area.dispatchEvent(new Event('change', { bubbles: true }));
    };
    // The file chooser is not an input of the request.
    for (const type of ['input', 'change']) file.addEventListener(type, (e) => e.stopPropagation());
    file.addEventListener('change', () => {
      if (file.files?.[0]) put(file.files[0]);
      file.value = '';
    });
    const files = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    area.addEventListener('dragover', (e) => {
      if (!files(e)) return;
      e.preventDefault();
      area.classList.add('dropping');
    });
    area.addEventListener('dragleave', () => area.classList.remove('dropping'));
    area.addEventListener('drop', (e) => {
      area.classList.remove('dropping');
      const dropped = e.dataTransfer?.files?.[0];
      if (!dropped) return;
      e.preventDefault();
      put(dropped);
    });
    // A long table pasted is shown by its first lines (before the
    // browser lays the whole of it out).
    area.addEventListener('input', () => {
      if (area.value.length > SHOWN_WHOLE) showTable(area, area.value);
      grow(area);
    });
    (this.syncs ??= []).push(() => grow(area));
    const clear = el('button', { type: 'button', id: `${id}-clear`, title: 'empty the box (its table is left out)' }, 'Clear');
    clear.addEventListener('click', () => {
      showTable(area, '');
      grow(area);
      area.dispatchEvent(new Event('input', { bubbles: true }));
      area.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const label = marked(el('label', { htmlFor: id, title: hint(f) }), f.label);
    const help = f.help ? el('span', { className: 'note csv-help' }, f.help) : null;
    return [el('span', { className: 'field textarea csv' }, el('span', { className: 'csv-head' }, label, upload, file, clear, help), area), error];
  }

  /** A JSON field's value taken from another tab's inputs (only when
   * that tab finds them valid), or that tab opened to edit them. */
  taking(f, input) {
    const id = `${this.spec.id}-${f.key}`;
    const tabs = core.tabs().filter((t) => f.from_tabs.includes(t.model));
    const select = el('select', { id: `${id}-tab`, 'aria-label': 'the tab whose inputs to take' },
      ...tabs.map((t) => marked(el('option', { value: t.model }), t.form.tab)));
    // Choosing a tab changes no input of this one.
    select.addEventListener('input', (e) => e.stopPropagation());
    select.addEventListener('change', (e) => e.stopPropagation());
    const take = el('button', { type: 'button', id: `${id}-take` }, 'Take the inputs of');
    take.addEventListener('click', () => {
      const request = this.ui.requestOf?.(select.value);
      if (!request) return;
      const name = select.selectedOptions[0]?.textContent ?? select.value;
      if (core.problems(request).length > 0) {
        // Said next to the field (the status line belongs to computations).
        const slot = this.root.querySelector(`[data-error-for="${CSS.escape(f.path)}"]`);
        if (slot) slot.textContent = `the ${name} tab has invalid inputs: fix them there first (Edit them in their tab)`;
        return;
      }
      input.value = JSON.stringify(request);
      this.changed({ now: true });
      this.commit();
    });
    // The field's value when it is a request of one of those tabs.
    const base = () => {
      try { const b = JSON.parse(input.value); return tabs.some((t) => t.model === b?.model) ? b : null; } catch { return null; }
    };
    // The tab the base is for, when it is typed or set from a preset or a link.
    const sync = () => { const b = base(); if (b) select.value = b.model; };
    const edit = el('button', { type: 'button', id: `${id}-edit` }, 'Edit them in their tab');
    edit.addEventListener('click', () => {
      sync();
      this.ui.open(base() ?? { model: select.value, ...this.ui.requestOf?.(select.value) });
    });
    input.addEventListener('change', sync);
    (this.syncs ??= []).push(sync);
    return el('span', { className: 'field take' }, take, select, edit);
  }

  row(i, values) {
    const t = this.spec.rows;
    const tr = el('tr', {}, el('th', { scope: 'row' }, `${t.prefix}${i + 1}`));
    for (const c of t.columns) {
      const field = `${t.path}[${i}].${c.path}`;
      const label = `${t.prefix}${i + 1} ${c.label ?? c.key}`;
      const input = c.kind === 'choice'
        ? el('select', { dataset: { field, key: c.key }, 'aria-label': label },
          ...c.options.map((o) => el('option', { value: o }, o)))
        : el('input', {
          inputMode: 'decimal', autocomplete: 'off', value: values[c.key] ?? '', placeholder: c.placeholder ?? '',
          dataset: { field, key: c.key }, 'aria-label': label,
        });
      if (c.kind !== 'choice') fit(input, Math.max(this.widths[`row.${c.key}`] ?? 0, String(values[c.key] ?? '').length));
      // An older link's word for an option (a renamed exercise) is read as the option.
      if (c.kind === 'choice') input.value = c.aliases?.[values[c.key]] ?? (values[c.key] || c.options[0]);
      // A cell that fills others (a mode its wake-up time and sleep power):
      // the model says what, from the row as it stands.
      if (c.fills) input.addEventListener('change', () => this.fillRow(tr, c.key));
      tr.append(el('td', {}, input, el('span', { className: 'field-error', dataset: { errorFor: field } })));
    }
    // Serving order is the table's order: rows move up and down.
    const edit = (label, symbol, change) => {
      const b = el('button', { type: 'button', className: 'row-edit', title: `${label} ${t.prefix}${i + 1}`,
        'aria-label': `${label} ${t.prefix}${i + 1}` }, typeof symbol === 'string' ? symbol : symbol());
      b.addEventListener('click', () => {
        const s = this.read();
        change(s.rows);
        this.fill(s);
        this.changed();
        this.commit();
      });
      return b;
    };
    const swap = (rows, a, b) => { if (b >= 0 && b < rows.length) [rows[a], rows[b]] = [rows[b], rows[a]]; };
    tr.append(el('td', { className: 'row-edits' },
      edit('duplicate', copyIcon, (rows) => rows.splice(i + 1, 0, { ...rows[i] })),
      edit('move up', '↑', (rows) => swap(rows, i, i - 1)),
      edit('move down', '↓', (rows) => swap(rows, i, i + 1)),
      edit('remove', '×', (rows) => rows.splice(i, 1))));
    return tr;
  }

  /** Fills the cells of row `tr` that a change of its `key` cell sets. */
  fillRow(tr, key) {
    const cells = [...tr.querySelectorAll('input, select')];
    const row = Object.fromEntries(cells.map((input) => [input.dataset.key, input.value]));
    const filled = core.fillRow(this.tab.model, key, row);
    for (const input of cells) {
      const v = filled[input.dataset.key];
      if (v !== undefined && v !== input.value) input.value = v;
    }
    this.changed();
  }

  /** A table pasted from a spreadsheet or as CSV fills rows and columns
   * from the cell it is pasted in (a line without numbers, a header, is
   * skipped); one value is pasted as usual. A spreadsheet's lines are split
   * at tabs only, and lines with semicolons at semicolons, so that a cell
   * typed with a decimal comma or a space ("0,5", "1 000") stays one cell,
   * which the validator then names; other lines are CSV. */
  paste(e) {
    const input = e.target.closest?.('input');
    const text = e.clipboardData?.getData('text/plain') ?? '';
    const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    const split = (l) => {
      if (l.includes('\t')) return l.split('\t').map((c) => c.trim());
      const t = l.trim();
      // "0,5;1,5": semicolons separate, commas are decimal. One value "0,5"
      // is pasted as typed; several lines of "1,100" are CSV.
      if (t.includes(';')) return t.split(/;|\s+/).filter((c) => c !== '');
      if (lines.length === 1 && /^[+-]?\d+,\d+$/.test(t)) return [t];
      return t.split(/,+|\s+/).filter((c) => c !== '');
    };
    const cells = lines.map(split).filter((row) => row.some((c) => c !== ''));
    if (!input || (cells.length < 2 && (cells[0]?.length ?? 0) < 2)) return;
    e.preventDefault();
    const cols = this.spec.rows.columns;
    const start = [...this.tbody.rows].indexOf(input.closest('tr'));
    const first = cols.findIndex((c) => c.key === input.dataset.key);
    const number = (c) => c !== '' && !Number.isNaN(Number(c.replace(',', '.')));
    const numeric = cells.filter((row) => row.some(number));
    const s = this.read();
    numeric.slice(0, Math.max(0, MAX_ROWS - start)).forEach((row, k) => {
      const r = s.rows[start + k] ?? Object.fromEntries(cols.map((c) => [c.key, c.blank]));
      row.forEach((v, j) => { if (cols[first + j]) r[cols[first + j].key] = v; });
      s.rows[start + k] = r;
    });
    this.fill(s);
    this.changed();
  }

  /** Puts a state ({scalars: {key: text|bool}, rows: [{key: text}]}) in the form. */
  fill(state) {
    for (const input of this.root.querySelectorAll('form > .row [data-key]')) {
      const v = state.scalars[input.dataset.key];
      if (this.fieldKinds[input.dataset.key] === 'csv') {
        const f = fields(this.spec).find((x) => x.key === input.dataset.key);
        input.placeholder = state.missing?.includes(input.dataset.key) ? TABLE_MISSING : f?.placeholder || TABLE_PLACEHOLDER;
        showTable(input, v ?? '');
        continue;
      }
      if (input.type === 'checkbox') input.checked = Boolean(v);
      else if (input.tagName === 'SELECT') input.value = v || input.options[0]?.value || '';
      else {
        input.value = v ?? '';
        // A link's longer value is shown whole too.
        if (input.inputMode === 'decimal') fit(input, Math.max(this.widths[input.dataset.key] ?? 0, input.value.length));
      }
    }
    if (this.spec.rows) this.tbody.replaceChildren(...state.rows.map((r, i) => this.row(i, r)));
    for (const sync of this.syncs ?? []) sync();
  }

  /** The form's state. */
  read() {
    const scalars = {};
    for (const input of this.root.querySelectorAll('form > .row [data-key]')) {
      scalars[input.dataset.key] = input.type === 'checkbox' ? input.checked : input.whole ?? input.value;
    }
    const rows = this.spec.rows ? [...this.tbody.rows].map((tr) => {
      const r = {};
      for (const input of tr.querySelectorAll('input, select')) r[input.dataset.key] = input.value;
      return r;
    }) : [];
    return { scalars, rows };
  }

  // ---- the URL ----------------------------------------------------------

  /** Writes this section's state into `params`. */
  toParams(params) {
    const { scalars, rows } = this.read();
    const p = this.spec.prefix;
    for (const [k, v] of Object.entries(scalars)) {
      if (typeof v === 'boolean') { if (v) params.set(p + k, '1'); } else params.set(p + k, this.fieldKinds[k] === 'csv' ? linkText(v, this.known) : v);
    }
    const cols = this.spec.rows?.columns ?? [];
    // A cell's own commas (a typed "0,5") are escaped, so that the row keeps
    // its columns when the link is read back.
    const cell = (t) => String(t ?? '').replaceAll('%', '%25').replaceAll(',', '%2C');
    for (const r of rows) params.append(`${p}p`, cols.map((c) => cell(r[c.key])).join(','));
  }

  /** This section's state from URL parameters over `defaults` (the preset's
   * state), or null if they hold none. A link names every field it was
   * written with; one shortened by hand keeps the defaults of the fields it
   * leaves out (and the preset's table if it has no rows), instead of
   * blanking them. */
  fromParams(params, defaults) {
    const p = this.spec.prefix;
    const keys = fields(this.spec);
    if (!keys.some((f) => params.has(p + f.key)) && !params.has(`${p}p`)) return null;
    // The page writes every text field, and a box only when it is ticked:
    // a link missing a text field was shortened by hand, and its missing
    // boxes keep their defaults too.
    const box = (f) => f.kind === 'check' || f.kind === 'view';
    const whole = keys.filter((f) => !box(f)).every((f) => params.has(p + f.key));
    const scalars = Object.fromEntries(keys.map((f) => [f.key,
      box(f) ? (params.has(p + f.key) || whole ? params.get(p + f.key) === '1' : Boolean(defaults.scalars[f.key]))
        : params.get(p + f.key) ?? defaults.scalars[f.key] ?? '']));
    // A long table is named by its hash (see `linkText`).
    const missing = [];
    for (const f of keys) {
      if (f.kind !== 'csv' || !params.has(p + f.key)) continue;
      const read = fromLinkText(scalars[f.key], this.known);
      scalars[f.key] = read.text;
      if (read.missing) missing.push(f.key);
    }
    const cols = this.spec.rows?.columns ?? [];
    const uncell = (t) => { try { return decodeURIComponent(t); } catch { return t; } };
    const lines = params.getAll(`${p}p`);
    const rows = lines.length === 0 ? defaults.rows : lines.map((line) => {
      const parts = line.split(',');
      return Object.fromEntries(cols.map((c, i) => [c.key, uncell(parts[i] ?? '').trim()]));
    });
    return { scalars, rows, missing };
  }

  // ---- validating and computing -------------------------------------------

  /** The field whose slot says the message of request path `field`: its
   * own, or the one field under it (a table's text: `computation` →
   * `computation.csv`). */
  slotPath(field) {
    if (this.root.querySelector(`[data-error-for="${CSS.escape(field)}"]`)) return field;
    const under = [...this.root.querySelectorAll('[data-error-for]')].map((e) => e.dataset.errorFor)
      .filter((f) => f.startsWith(`${field}.`));
    return under.length === 1 ? under[0] : field;
  }

  /** Marks every invalid field (none when not `live`: the worker checks
   * it); true when the request is valid. */
  validate(request, live = true) {
    for (const e of this.root.querySelectorAll('[data-error-for]')) e.textContent = '';
    for (const e of this.root.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
    const list = live ? core.problems(request) : [];
    const unplaced = [];
    const slotOf = (f) => this.root.querySelector(`[data-error-for="${CSS.escape(f)}"]`);
    for (const { field, message } of list) {
      // An entry of a list typed in one field (levels[1]) goes to that field.
      const entry = /^(.*)\[(\d+)\]$/.exec(field);
      const listed = entry && !slotOf(field) && slotOf(entry[1]);
      const whole = listed ? entry[1] : this.slotPath(field);
      const text = listed ? `entry ${Number(entry[2]) + 1} ${message}` : message;
      const slot = slotOf(whole);
      if (slot) slot.textContent = slot.textContent ? `${slot.textContent}; ${text}` : text;
      else unplaced.push(field ? `${field}: ${message}` : message);
      this.root.querySelector(`[data-field="${CSS.escape(whole)}"]`)?.setAttribute('aria-invalid', 'true');
    }
    this.showError(unplaced.join('\n'));
    return list.length === 0;
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  }

  /** The inputs changed (or Compute was pressed: `again`, which also
   * computes anew a result cut short by a cancel). */
  changed({ now = false, again = false } = {}) {
    this.ui.onChange();
    const request = this.request();
    clearTimeout(this.debounce);
    const text = JSON.stringify(request);
    if (!this.validate(request, text.length <= LIVE_CHECK)) {
      this.ui.status(this.response
        ? 'Fix the marked fields; the result shown is for the previous input.' : 'Fix the marked fields.');
      this.markStale('Changed — the result below is for the previous inputs; fix the marked fields to recompute.');
      this.wasInvalid = true;
      return;
    }
    const wasInvalid = this.wasInvalid;
    this.wasInvalid = false;
    // The same request as the result shown (e.g. only a view option
    // changed, or a bad value put back): redraw, do not recompute.
    const cut = again && this.partial;
    if (this.response && !this.stale && !cut && text === this.computed) {
      this.show(this.response);
      this.markStale(null);
      // A bad value put back: nothing is marked, and the status says so.
      if (wasInvalid) this.ui.status('The result shown is for these inputs.');
      return;
    }
    this.markStale('Changed — recomputing; the result below is for the previous inputs.');
    this.debounce = setTimeout(() => {
      // A hidden section computes when it is shown again, so that it never
      // cancels the work of the one on screen.
      if (this.ui.isActive(this)) this.compute(request);
      else this.stale = true;
    }, now ? 0 : 300);
  }

  async compute(request) {
    this.stale = false;
    this.partial = false;
    const started = performance.now();
    const token = {};
    this.latest = token;
    this.ui.status('Computing…', { busy: true });
    // A long search shows its best result so far as it goes (M5's branch
    // and bound); a cancel keeps the last one.
    let snapshot = null;
    const onSnapshot = (value) => {
      if (this.latest !== token) return;
      snapshot = value;
      this.show(value);
      this.markStale(null);
      this.showError('');
    };
    try {
      const response = await this.ui.computer.run(request, (done, what) => this.ui.progress(done, what), onSnapshot);
      this.response = response;
      this.computed = JSON.stringify(request);
      this.show(response);
      this.markStale(null);
      this.showError('');
      this.ui.status(`Computed in ${secs((performance.now() - started) / 1000)} s.`);
    } catch (err) {
      if (snapshot && err instanceof Cancelled && this.latest === token) {
        this.response = snapshot;
        this.computed = JSON.stringify(request);
        // Kept on screen, but Compute searches again.
        this.partial = true;
        this.ui.status('Cancelled; the best result found so far is shown. Compute searches again.');
        return;
      }
      this.failed(err, token,
        this.response ? 'Cancelled; the result shown is for the previous input.' : 'Cancelled.');
    }
  }

  /** Tells why computation `token` gave no result; `cancelled` is the
   * status for a cancel by the user. */
  failed(err, token, cancelled) {
    // The page's own instance crashed (joining or drawing an answer): the
    // page replaces it and says so.
    if (isCrash(err)) {
      this.markStale('Changed — the calculator on this page crashed; the result below is for the previous inputs.');
      this.ui.crashed(err);
      return;
    }
    // Superseded by a newer computation of this section: nothing to say.
    if (err instanceof Cancelled && this.latest !== token) return;
    if (err instanceof Cancelled) {
      this.stale = true;
      this.ui.status(cancelled);
      this.markStale('Changed — cancelled; the result below is for the previous inputs. Compute to try again.');
    } else if (err instanceof Crashed) {
      this.markStale('Changed — the computation crashed; the result below is for the previous inputs.');
      this.ui.status('The computation crashed; the calculator was restarted.');
      this.showError(`The computation crashed (${err.message}). The calculator was restarted; your inputs are kept.`);
    } else {
      this.ui.status(this.response ? 'Not computed; the result shown is for the previous input.' : 'Not computed.');
      this.markStale('Changed — not computed (see the message); the result below is for the previous inputs.');
      // A field the solver found wrong (e.g. a deadline no set meets) is
      // marked like a field the checks found wrong.
      const named = /^([\w.[\]]+): (.*)$/s.exec(err.message);
      const slot = named && this.root.querySelector(`[data-error-for="${CSS.escape(this.slotPath(named[1]))}"]`);
      if (slot) {
        slot.textContent = named[2];
        this.showError('');
      } else {
        this.showError(err.message);
      }
    }
  }

  // ---- the result ---------------------------------------------------------

  show(response) {
    // Buttons that open other tabs (`open` blocks) side by side.
    const parts = [];
    for (const b of response.view ?? []) {
      const part = block(b, this.ui);
      if (b.kind === 'open' && parts.at(-1)?.classList.contains('open-tabs')) parts.at(-1).append(part);
      else parts.push(b.kind === 'open' ? el('div', { className: 'open-tabs' }, part) : part);
    }
    const figures = [];
    if (response.gantt) {
      const width = canvasWidth(this.root);
      const height = core.ganttHeight(response.gantt, response.model, width);
      const canvas = el('canvas', { role: 'img', 'aria-label': 'Gantt chart of the schedule', className: 'gantt' });
      figures.push(this.figure(canvas, 'Gantt chart', 'gantt', [width, height],
        (c) => core.drawGantt(c, response.gantt, response.model, width, height, pixelRatio()),
        (w, h) => core.ganttSvg(response.gantt, response.model, w, h)));
    }
    // View options (e.g. a map's overlays) redraw without computing again.
    const options = this.view();
    const drawn = Object.keys(options).length ? core.charts(response, options) : (response.charts ?? []);
    const map = this.spec.layout === 'pooled-map';
    drawn.forEach((chart, i) => {
      const large = map && i === 0;
      const width = canvasWidth(this.root);
      const height = Math.round(Math.max(300, (large ? 600 : 520) * Math.min(1, width / 700)));
      const canvas = el('canvas', { role: 'img', 'aria-label': chart.title,
        className: 'chart', ...(large ? { id: `${this.spec.id}-canvas` } : {}) });
      let frame = null;
      figures.push(this.figure(canvas, chart.title, chart.name, [width, height],
        (c) => { frame = core.drawChart(c, chart, width, height, pixelRatio()); }, (w, h) => core.chartSvg(chart, w, h)));
      if (large) figures.push(this.pointer(canvas, width, () => frame, response));
    });
    const json = el('button', { type: 'button', className: 'export-json' }, 'Download result (JSON)');
    json.addEventListener('click', () => download(`${drawn[0]?.name ?? `${this.spec.id}-result`}.json`,
      new Blob([JSON.stringify(response, null, 2)], { type: 'application/json' })));
    const exports = el('p', {}, json);
    if (response.has_csv) {
      const csv = el('button', { type: 'button', className: 'export-csv' }, 'Download result (CSV)');
      csv.addEventListener('click', () => download(`${drawn[0]?.name ?? `${this.spec.id}-result`}.csv`,
        new Blob([core.responseCsv(response)], { type: 'text/csv' })));
      exports.append(' ', csv);
    }
    this.result.replaceChildren(...parts, ...figures, exports);
    this.result.hidden = false;
    this.result.dataset.drawn = String(Number(this.result.dataset.drawn ?? 0) + 1);
  }

  /** A line under a chart saying what lies under the pointer; the answer
   * is read once, not at every move. */
  pointer(canvas, width, frame, response) {
    const hint = 'Point at the chart to read its values.';
    const line = el('p', { id: `${this.spec.id}-hover`, className: 'note', 'aria-live': 'polite' }, hint);
    this.lookup?.free();
    this.lookup = new core.Pointer(response);
    const lookup = this.lookup;
    canvas.addEventListener('mousemove', (e) => {
      const rect = canvas.getBoundingClientRect();
      // The frame is in layout pixels; the canvas is shown at any size.
      const scale = width / rect.width;
      const at = frame() && core.chartValueAt(frame(), (e.clientX - rect.left) * scale,
        (e.clientY - rect.top) * scale);
      line.textContent = (at && lookup === this.lookup && lookup.at(at[0], at[1])) || hint;
    });
    return line;
  }

  figure(canvas, caption, name, [width, height], draw, svg) {
    // The layout size, in CSS pixels (the buffer is this times the pixel ratio).
    Object.assign(canvas.dataset, { width: String(width), height: String(height) });
    draw(canvas);
    const exportSvg = el('button', { type: 'button', className: 'export-svg' }, 'SVG');
    exportSvg.addEventListener('click', () => download(`${name}.svg`,
      new Blob([svg(width, height)], { type: 'image/svg+xml' })));
    const exportPng = el('button', { type: 'button', className: 'export-png' }, 'PNG');
    exportPng.addEventListener('click', () => canvas.toBlob((b) => b && download(`${name}.png`, b)));
    return el('figure', { dataset: { name } }, canvas, el('figcaption', {}, `${caption}. Download: `, exportSvg, ' ', exportPng));
  }
}
