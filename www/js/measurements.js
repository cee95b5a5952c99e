// A table of measurements (CSV or TSV) in a text area: typed, pasted, read
// from a file by "Upload…" or dropped on it, and shown by its first lines
// when it is too long for a browser to lay out quickly.
import { el, marked } from './dom.js';
import { hint } from './form.js';

/** The largest file a table's text area reads (a million rows of a few
 * numbers each are some 30 MB). */
const MAX_FILE = 64 * 1024 * 1024;

/** The longest table shown whole in its text area: Chromium takes some
 * 1.5 s to lay out a text area of 10⁵ lines, more than the fit of them, so
 * a longer table shows its first lines, read-only, and is kept whole
 * beside them (it is the table sent, linked and exported). */
const SHOWN_WHOLE = 200_000;
const SHOWN_LINES = 100;

/** What an empty table's text area says. */
export const TABLE_PLACEHOLDER = 'paste a table, or drop a file here';
/** What it says when a link's table was kept by another browser. */
export const TABLE_MISSING = 'the table of this link was kept by the browser that made the link and is not here: paste or upload it again';

/** Puts table `text` in `area`: whole, or its first lines when long. */
export function showTable(area, text) {
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

/** A table's text area as tall as its lines, from 4 to 10 (it scrolls
 * beyond, and may be dragged taller). */
function grow(area) {
  const text = area.value;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0 && lines < 10; at = text.indexOf('\n', at + 1)) lines++;
  area.rows = Math.max(4, lines);
}

/** Tells the form that `area` changed, as typing would. */
function changedBy(area) {
  area.dispatchEvent(new Event('input', { bubbles: true }));
  area.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Reads a file dropped on or uploaded into `area`, or says why not in
 * the field's message slot. */
async function put(section, f, area, blob) {
  const slot = section.root.querySelector(`[data-error-for="${CSS.escape(f.path)}"]`);
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
  changedBy(area);
}

/** Dropping a file on `area` reads it (`read`), and shows where it lands. */
function droppable(area, read) {
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
    read(dropped);
  });
}

/** Field `f` of `section` as a table's text area (CSV or TSV), pasted or
 * typed, or filled from a file by "Upload…" or by dropping the file on it;
 * `error` is its message slot. */
export function csvField(section, f, id, error) {
  const area = el('textarea', { id, autocomplete: 'off', spellcheck: false, className: 'textarea csv', rows: 4,
    placeholder: f.placeholder || TABLE_PLACEHOLDER, wrap: 'off', dataset: { field: f.path, key: f.key } });
  const file = el('input', { type: 'file', id: `${id}-file`, className: 'sr-only', tabIndex: -1,
    accept: '.csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain' });
  const upload = el('label', { htmlFor: file.id, className: 'button', id: `${id}-upload`, tabIndex: 0,
    role: 'button', title: 'read a .csv, .tsv or .txt file into the box' }, 'Upload…');
  upload.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); file.click(); } });
  const read = (blob) => put(section, f, area, blob);
  // The file chooser is not an input of the request.
  for (const type of ['input', 'change']) file.addEventListener(type, (e) => e.stopPropagation());
  file.addEventListener('change', () => {
    if (file.files?.[0]) read(file.files[0]);
    file.value = '';
  });
  droppable(area, read);
  // A long table pasted is shown by its first lines (before the
  // browser lays the whole of it out).
  area.addEventListener('input', () => {
    if (area.value.length > SHOWN_WHOLE) showTable(area, area.value);
    grow(area);
  });
  (section.syncs ??= []).push(() => grow(area));
  const clear = el('button', { type: 'button', id: `${id}-clear`, title: 'empty the box (its table is left out)' }, 'Clear');
  clear.addEventListener('click', () => {
    showTable(area, '');
    grow(area);
    changedBy(area);
  });
  const label = marked(el('label', { htmlFor: id, title: hint(f) }), f.label);
  const help = f.help ? el('span', { className: 'note csv-help' }, f.help) : null;
  return [el('span', { className: 'field textarea csv' }, el('span', { className: 'csv-head' }, label, upload, file, clear, help), area), error];
}
