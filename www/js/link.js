// A tab's inputs in the page's link, both ways: every field under the tab's
// prefix (`hierarchical.V`), a machine row per `p` parameter, and a long
// table of measurements by its hash.
import { fields, fromLinkText, linkText } from './form.js';

/** Writes `section`'s state into `params`. */
export function toParams(section, params) {
  stateParams(section, section.read(), params);
}

/** Writes a state of `section` (its form's, or one read from a request)
 * into `params`. */
export function stateParams(section, { scalars, rows }, params) {
  const p = section.spec.prefix;
  for (const [k, v] of Object.entries(scalars)) {
    if (typeof v === 'boolean') { if (v) params.set(p + k, '1'); } else params.set(p + k, section.fieldKinds[k] === 'csv' ? linkText(v, section.known) : v);
  }
  const cols = section.spec.rows?.columns ?? [];
  // A cell's own commas (a typed "0,5") are escaped, so that the row keeps
  // its columns when the link is read back.
  const cell = (t) => String(t ?? '').replaceAll('%', '%25').replaceAll(',', '%2C');
  for (const r of rows) {
    const cells = cols.map((c) => cell(r[c.key]));
    // Empty cells of folding columns at a row's end (M3's further levels)
    // are left out: a row without them reads as links written before them.
    while (cells.length > 0 && cells.at(-1) === '' && cols[cells.length - 1].fold) cells.pop();
    params.append(`${p}p`, cells.join(','));
  }
}

/** `section`'s state from URL parameters over `defaults` (the preset's
 * state), or null if they hold none. A link names every field it was
 * written with; one shortened by hand keeps the defaults of the fields it
 * leaves out (and the preset's table if it has no rows), instead of
 * blanking them. */
export function fromParams(section, params, defaults) {
  const p = section.spec.prefix;
  const keys = fields(section.spec);
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
    const read = fromLinkText(scalars[f.key], section.known);
    scalars[f.key] = read.text;
    if (read.missing) missing.push(f.key);
  }
  const cols = section.spec.rows?.columns ?? [];
  const uncell = (t) => { try { return decodeURIComponent(t); } catch { return t; } };
  const lines = params.getAll(`${p}p`);
  const rows = lines.length === 0 ? defaults.rows : lines.map((line) => {
    const parts = line.split(',');
    return Object.fromEntries(cols.map((c, i) => [c.key, uncell(parts[i] ?? '').trim()]));
  });
  return { scalars, rows, missing };
}
