// A tab's table of machines (or of any rows the model takes): a row of
// inputs per machine, buttons to duplicate, move and remove rows, and a
// table pasted from a spreadsheet filling rows and columns.
import { core } from './core.js';
import { copyIcon, el, marked } from './dom.js';
import { hint } from './form.js';
import { fit } from './fields.js';
import { foldable, folding, holdsValues, watch } from './wide.js';

/** The most rows a paste fills (as many as a link may carry). */
const MAX_ROWS = 2_000;

/** `section`'s table of rows (its body is `section.tbody`), its message
 * slot and its "Add" button. */
export function machineTable(section) {
  const t = section.spec.rows;
  section.tbody = el('tbody');
  section.tbody.addEventListener('paste', (e) => paste(section, e));
  // A group of columns (M7's five powers) may fold where the table is too wide.
  const groups = foldable(t.columns);
  section.columnGroup = new Map(groups.flatMap((g) => g.keys.map((key) => [key, g.name])));
  const grouped = (c) => (section.columnGroup.has(c.key) ? { dataset: { group: section.columnGroup.get(c.key) } } : {});
  const heads = t.columns.map((c) => marked(el('th', { scope: 'col', title: hint(c), ...grouped(c) }),
    c.unit ? `${c.head} <span class="unit">[${c.unit}]</span>` : c.head));
  const table = el('table', { className: 'inputs', id: `${section.spec.id}-rows` },
    el('caption', {}, el('span', {}, t.caption)),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), ...heads,
      el('th', { scope: 'col' }, el('span', { className: 'sr-only' }, 'order and remove')))),
    section.tbody);
  const wrap = watch(el('div', { className: 'table-wrap' }, table));
  const folds = groups.map((g) => folding(wrap, table, g.name,
    heads.filter((h) => h.dataset.group === g.name).map((h) => h.textContent.replace(/\s*\[[^\]]*\]$/, ''))));
  // A group of optional columns (M3's further levels) holding values is
  // shown whatever the width: values are never folded away.
  if (wrap.fold) wrap.fold.optional = groups.at(-1).optional;
  const tools = folds.length ? [el('div', { className: 'row table-tools' }, ...folds)] : [];
  const error = el('span', { className: 'field-error', dataset: { errorFor: t.path }, role: 'alert' });
  const add = el('button', { type: 'button', id: `${section.spec.id}-add` }, `Add ${t.item}`);
  add.addEventListener('click', () => {
    const s = section.read();
    s.rows.push({ ...(s.rows.at(-1) ?? Object.fromEntries(t.columns.map((c) => [c.key, c.blank]))) });
    section.fill(s);
    section.changed();
    section.commit();
  });
  return [...tools, wrap, error, el('div', { className: 'row' }, add)];
}

/** Row `i` of `section`'s table, showing `values`. */
export function machineRow(section, i, values) {
  const t = section.spec.rows;
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
    if (c.kind !== 'choice') fit(input, Math.max(section.widths[`row.${c.key}`] ?? 0, String(values[c.key] ?? '').length));
    // An older link's word for an option (a renamed exercise) is read as the option.
    if (c.kind === 'choice') input.value = c.aliases?.[values[c.key]] ?? (values[c.key] || c.options[0]);
    // A cell that fills others (a mode its wake-up time and sleep power):
    // the model says what, from the row as it stands.
    if (c.fills) input.addEventListener('change', () => fillRow(section, tr, c.key));
    const group = section.columnGroup?.get(c.key);
    tr.append(el('td', group ? { dataset: { group } } : {}, input, el('span', { className: 'field-error', dataset: { errorFor: field } })));
  }
  tr.append(rowEdits(section, i));
  return tr;
}

/** Row `i`'s buttons: serving order is the table's order, so rows move
 * up and down as well as being duplicated and removed. */
function rowEdits(section, i) {
  const t = section.spec.rows;
  const edit = (label, symbol, change) => {
    const b = el('button', { type: 'button', className: 'row-edit', title: `${label} ${t.prefix}${i + 1}`,
      'aria-label': `${label} ${t.prefix}${i + 1}` }, typeof symbol === 'string' ? symbol : symbol());
    b.addEventListener('click', () => {
      const s = section.read();
      change(s.rows);
      section.fill(s);
      section.changed();
      section.commit();
    });
    return b;
  };
  const swap = (rows, a, b) => { if (b >= 0 && b < rows.length) [rows[a], rows[b]] = [rows[b], rows[a]]; };
  return el('td', { className: 'row-edits' },
    edit('duplicate', copyIcon, (rows) => rows.splice(i + 1, 0, { ...rows[i] })),
    edit('move up', '↑', (rows) => swap(rows, i, i - 1)),
    edit('move down', '↓', (rows) => swap(rows, i, i + 1)),
    edit('remove', '×', (rows) => rows.splice(i, 1)));
}

/** Fills the cells of row `tr` that a change of its `key` cell sets. */
function fillRow(section, tr, key) {
  const cells = [...tr.querySelectorAll('input, select')];
  const row = Object.fromEntries(cells.map((input) => [input.dataset.key, input.value]));
  const filled = core.fillRow(section.tab.model, key, row);
  for (const input of cells) {
    const v = filled[input.dataset.key];
    if (v !== undefined && v !== input.value) input.value = v;
  }
  section.changed();
}

/** The cells of a pasted `text`: a spreadsheet's lines are split at tabs
 * only, and lines with semicolons at semicolons, so that a cell typed with
 * a decimal comma or a space ("0,5", "1 000") stays one cell, which the
 * validator then names; other lines are CSV. */
function pastedCells(text) {
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
  return lines.map(split).filter((row) => row.some((c) => c !== ''));
}

/** A table pasted from a spreadsheet or as CSV fills rows and columns
 * from the cell it is pasted in (a line without numbers, a header, is
 * skipped); one value is pasted as usual. */
function paste(section, e) {
  const input = e.target.closest?.('input');
  const cells = pastedCells(e.clipboardData?.getData('text/plain') ?? '');
  if (!input || (cells.length < 2 && (cells[0]?.length ?? 0) < 2)) return;
  e.preventDefault();
  const cols = section.spec.rows.columns;
  const start = [...section.tbody.rows].indexOf(input.closest('tr'));
  const first = cols.findIndex((c) => c.key === input.dataset.key);
  const number = (c) => c !== '' && !Number.isNaN(Number(c.replace(',', '.')));
  const numeric = cells.filter((row) => row.some(number));
  const s = section.read();
  numeric.slice(0, Math.max(0, MAX_ROWS - start)).forEach((row, k) => {
    const r = s.rows[start + k] ?? Object.fromEntries(cols.map((c) => [c.key, c.blank]));
    row.forEach((v, j) => { if (cols[first + j]) r[cols[first + j].key] = v; });
    s.rows[start + k] = r;
  });
  section.fill(s);
  section.changed();
}

/** Unfolds the columns of `section`'s table that hide a field's message,
 * or values of an optional group: neither is ever folded away. */
export function revealMessages(section) {
  const fold = section.tbody?.closest('.table-wrap')?.fold;
  if (!fold?.folded) return;
  if (holdsValues(section.tbody.closest('table'), fold)) {
    fold.set(false);
  } else if (section.tbody.querySelector('td[data-group] [aria-invalid="true"], td[data-group] .field-error:not(:empty)')) {
    fold.auto = false;
    fold.set(false);
  }
}
