// A tab's form state and its request, both ways, from the form's
// description (made in Rust): fields are read and written by their paths in
// the request (`power.processor`, `levels[1].slope`). Nothing here knows a
// model.

/** `levels[1].slope` → ['levels', 1, 'slope']. */
function steps(path) {
  return path.split('.').flatMap((part) => {
    const m = /^([^[]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [part];
    return [m[1], ...[...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]))];
  });
}

function get(obj, path) {
  let at = obj;
  for (const s of steps(path)) {
    if (at == null) return undefined;
    at = at[s];
  }
  return at;
}

function set(obj, path, value) {
  const list = steps(path);
  let at = obj;
  list.slice(0, -1).forEach((s, i) => {
    if (at[s] == null) at[s] = typeof list[i + 1] === 'number' ? [] : {};
    at = at[s];
  });
  at[list.at(-1)] = value;
}

const blank = (text) => String(text ?? '').trim() === '';

/** Decimal notation only: `0x10`, `1_000` or `0,5` are not read as numbers. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number as typed. Empty text becomes NaN (JSON's null: the core says
 * "must be a finite number", and an optional field is left out); any other
 * text that is not a finite decimal number goes to the core as it was typed,
 * which names it ("is not a number (got "0,5")…"), so that an optional
 * field with a typo is never taken for an empty one. */
export function num(text) {
  if (blank(text)) return NaN;
  const t = String(text).trim();
  const v = DECIMAL.test(t) ? Number(t) : NaN;
  return Number.isFinite(v) ? v : t;
}

/** "0.5, 1 2" → [0.5, 1, 2]. Commas separate entries when the text uses
 * them as separators (a comma next to a space, a semicolon, or no spaces at
 * all: "1, 2,3", "1,2,3"); among entries separated by spaces only, a comma
 * inside one is a decimal comma ("2,5 10"), and that entry goes to the core
 * as typed, which names it, instead of being read as two numbers. */
const list = (text) => {
  const t = String(text ?? '');
  const commas = /,\s|\s,|;/.test(t) || !/\s/.test(t.trim());
  return t.split(/[\s;]+/).filter((e) => e !== '')
    .flatMap((e) => (commas ? e.split(',').filter((p) => p !== '') : [e])).map(num);
};

/** The request value of a field's text, or undefined to leave it out. */
function value(kind, text, path = '') {
  switch (kind) {
    case 'number': return numberAt(path, text);
    case 'optional': return blank(text) ? undefined : numberAt(path, text);
    case 'check': return Boolean(text);
    case 'list': return list(text);
    // Text that is not JSON goes to the core as typed: a field may take its
    // own notation (M1's constants: `t_s = 5, t_w = 2`), and any other names
    // what is wrong with it.
    case 'json': if (blank(text)) return undefined; try { return JSON.parse(text); } catch { return String(text); }
    case 'csv': return blank(text) ? undefined : String(text);
    case 'text': return String(text ?? '');
    case 'choice': return blank(text) ? undefined : String(text);
    default: return undefined;
  }
}

/** Numbers a form shows at six significant digits, by field path and the
 * text shown: read back unchanged, the field gives the full number again, so
 * that a preset's `5.6862385321100914` shows as 5.68624 and solves as given. */
const exact = new Map();

/** The value of a number field's text: the full number behind a shortened
 * text shown for `path`, else the text read. */
function numberAt(path, text) {
  const full = exact.get(`${path}=${String(text ?? '').trim()}`);
  return full ?? num(text);
}

/** A number as a field shows it: at most six significant digits. */
function shown(path, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return String(v);
  const short = String(Number(v.toPrecision(6)));
  if (short !== String(v)) exact.set(`${path}=${short}`, v);
  return short;
}

/** A request value as the field's text. */
function text(kind, v, path = '') {
  if (kind === 'check') return Boolean(v);
  if (v == null) return '';
  if (kind === 'number' || kind === 'optional') return shown(path, v);
  if (kind === 'list') return (v ?? []).join(', ');
  if (kind === 'json') return typeof v === 'string' ? v : JSON.stringify(v);
  // A table given as JSON rows or columns has no text here.
  if (kind === 'csv') return typeof v === 'string' ? v : '';
  return String(v);
}

/** Fills `target` from `entries` ([{kind, path, optional}] with texts by
 * key): a group of entries sharing an `optional` path is left out (null)
 * when all of them are empty. */
function fill(target, entries, texts) {
  const empty = new Map();
  for (const e of entries) {
    if (!e.optional || e.kind === 'check') continue;
    empty.set(e.optional, (empty.get(e.optional) ?? true) && blank(texts[e.key]));
  }
  for (const e of entries) {
    if (e.optional && empty.get(e.optional)) continue;
    const v = value(e.kind, texts[e.key], e.path);
    if (v !== undefined) set(target, e.path, v);
  }
  for (const [path, none] of empty) if (none && !path.includes('[')) set(target, path, null);
}

/** The fields of a form with their group's optional path. */
export function fields(form) {
  return form.groups.flatMap((g) => g.fields.map((f) => ({ ...f, optional: g.optional })));
}

/** What a field (or a column) means and the values it takes, said on hover. */
export function hint(f) {
  const unit = f.unit ? `, in ${f.unit}` : '';
  const range = f.range ? `; ${f.range}` : '';
  return `${f.help ?? ''}${unit}${range}`.replace(/^[,;] /, '');
}

/** The request of a form state ({scalars: {key: text|bool}, rows: [{key: text}]}). */
export function toRequest(model, form, state) {
  const request = { model };
  for (const [path, v] of form.fixed) set(request, path, v);
  fill(request, fields(form).filter((f) => f.kind !== 'view'), state.scalars);
  if (form.rows) {
    request[form.rows.path] = state.rows.map((r) => {
      const item = {};
      fill(item, form.rows.columns, r);
      return item;
    });
  }
  return request;
}

/** The view options of a form state (fields of kind `view`). */
export function viewOptions(form, state) {
  const options = {};
  for (const f of fields(form)) if (f.kind === 'view') set(options, f.path, Boolean(state.scalars[f.key]));
  return options;
}

/** A request (a preset) as a form state. */
export function fromRequest(form, request) {
  const scalars = {};
  for (const f of fields(form)) if (f.kind !== 'view') scalars[f.key] = text(f.kind, get(request, f.path), f.path);
  const rows = form.rows ? (request[form.rows.path] ?? []).map((item) => Object.fromEntries(
    form.rows.columns.map((c) => [c.key, text(c.kind, get(item, c.path), c.path)]))) : [];
  return { scalars, rows };
}

// ---- long texts in a link -------------------------------------------------

/** The longest text written into a link as it is; a longer one (a pasted
 * table of measurements) is written as `stored:<hash>` and the text kept in
 * the browser (localStorage), so that a reload keeps it without a link of
 * megabytes (which browsers and servers refuse). */
export const LONG_TEXT = 1_000;
const STORED = 'stored:';
const PREFIX = 'dlt-calc:text:';
const INDEX = 'dlt-calc:texts';
/** The most characters and texts kept: the oldest go first. */
const KEEP_CHARS = 4_000_000;
const KEEP_TEXTS = 24;

/** A 53-bit hash of `text` as 14 hex digits (cyrb53): a name for the text,
 * not a secret. */
export function textHash(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** The stored texts' hashes and lengths, oldest first. */
function storedIndex() {
  try { return JSON.parse(localStorage.getItem(INDEX) ?? '[]').filter((e) => Array.isArray(e)); } catch { return []; }
}

/** Keeps `text` under `hash`, dropping the oldest texts beyond the limits;
 * where the browser keeps nothing, nothing fails. */
function keep(hash, text) {
  try {
    const index = storedIndex().filter(([h]) => h !== hash);
    const fresh = localStorage.getItem(PREFIX + hash) !== text;
    index.push([hash, text.length]);
    let total = index.reduce((sum, [, n]) => sum + n, 0);
    while (index.length > 1 && (index.length > KEEP_TEXTS || total > KEEP_CHARS)) {
      const [old, n] = index.shift();
      localStorage.removeItem(PREFIX + old);
      total -= n;
    }
    if (fresh) localStorage.setItem(PREFIX + hash, text);
    localStorage.setItem(INDEX, JSON.stringify(index));
  } catch { /* not kept here: a reload in this browser loses the text */ }
}

/** Texts waiting to be kept: written once typing pauses (a table of
 * megabytes takes tens of milliseconds to write), or as the page is left. */
const pending = new Map();
let flushTimer = 0;

function flush() {
  clearTimeout(flushTimer);
  for (const [hash, text] of pending) keep(hash, text);
  pending.clear();
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flush);

/** A field's text as a link writes it; `known` maps the hashes of texts
 * any browser has (the tab's presets) to them, which are not stored. */
export function linkText(text, known) {
  if (text.length <= LONG_TEXT) return text;
  const hash = textHash(text);
  if (!known.has(hash)) {
    pending.set(hash, text);
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flush, 400);
  }
  return STORED + hash;
}

/** A link's text read back: `{ text }`, or `{ text: '', missing: true }`
 * for a stored text this browser does not have (a link made elsewhere). */
export function fromLinkText(text, known) {
  const m = /^stored:([0-9a-f]{14})$/.exec(text ?? '');
  if (!m) return { text };
  if (known.has(m[1])) return { text: known.get(m[1]) };
  if (pending.has(m[1])) return { text: pending.get(m[1]) };
  let kept = null;
  try { kept = localStorage.getItem(PREFIX + m[1]); } catch { /* nothing kept here */ }
  return kept == null ? { text: '', missing: true } : { text: kept };
}
