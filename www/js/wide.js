// Tables wider than their place on the page (a phone, or M7's thirteen
// input columns at 1 280 px). Each table sits in a wrap that scrolls
// sideways; this module says so above it when it does, lays a table of
// prose (long cells) out as one block per row where it would scroll, and
// folds a group of input columns where the table would not fit otherwise.
// The decisions follow the wrap's width, so a turned phone or a resized
// window gets them anew.
import { el } from './dom.js';

/** A cell this long makes its table one of prose. */
const PROSE_CELL = 30;

/** Lays out one wrap (see `watch`) for the width it has now. */
function layout(wrap) {
  const table = wrap.querySelector(':scope > table');
  const room = wrap.clientWidth;
  // Hidden (another tab is shown): decided when it is shown.
  if (!table || room === 0) return;
  const fold = wrap.fold;
  if (fold?.auto) {
    // Its width with every column shown is known only while they are.
    if (!fold.folded) fold.natural = table.offsetWidth;
    const folded = fold.natural > room && !holdsValues(table, fold);
    if (folded !== fold.folded) fold.set(folded);
  }
  if (table.classList.contains('prose')) {
    if (!table.classList.contains('stacked')) wrap.natural = table.offsetWidth;
    table.classList.toggle('stacked', wrap.natural > room);
  }
  wrap.querySelector('.scroll-hint').hidden = table.offsetWidth <= room + 1;
}

/** Whether `fold` is a group of optional columns (M3's further levels)
 * with a value in `table`: values are never folded away. */
export function holdsValues(table, fold) {
  return Boolean(fold.optional) && [...table.querySelectorAll('td[data-group] input')].some((i) => i.value.trim() !== '');
}

let pending = new Set();
/** Layouts wait for the next frame: a layout changes the wrap's height,
 * which would notify the observer again within the same frame. */
const observer = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => {
  if (pending.size === 0) {
    requestAnimationFrame(() => {
      const wraps = pending;
      pending = new Set();
      for (const wrap of wraps) if (wrap.isConnected) layout(wrap);
    });
  }
  for (const e of entries) pending.add(e.target);
}) : null;

/** `wrap` (a .table-wrap holding a table) watched for its width: a hint
 * under the caption when the table scrolls sideways. Screen readers,
 * which read a table by its cells, are not told. */
export function watch(wrap) {
  const hint = el('span', { className: 'scroll-hint', hidden: true, 'aria-hidden': 'true' }, 'Scroll sideways for more columns →');
  const caption = wrap.querySelector(':scope > table > caption > span');
  if (caption) caption.append(hint); else wrap.prepend(hint);
  observer?.observe(wrap);
  return wrap;
}

/** Marks `table` as prose when a cell of `rows` is long, its cells named
 * by their column's head (`heads`, shown when a row is one block) and its
 * parts given their roles, which a block layout would otherwise hide from
 * screen readers. */
export function prose(table, heads, rows) {
  if (!rows.some((r) => r.some((c) => String(c).length > PROSE_CELL))) return table;
  table.classList.add('prose');
  table.setAttribute('role', 'table');
  for (const part of table.querySelectorAll('thead, tbody')) part.setAttribute('role', 'rowgroup');
  for (const tr of table.rows) tr.setAttribute('role', 'row');
  for (const th of table.tHead.querySelectorAll('th')) th.setAttribute('role', 'columnheader');
  for (const tr of table.tBodies[0].rows) {
    [...tr.cells].forEach((cell, k) => {
      cell.setAttribute('role', k === 0 ? 'rowheader' : 'cell');
      cell.dataset.head = heads[k] ?? '';
    });
  }
  return table;
}

/** The groups of `columns` that fold: three or more sharing the first
 * step of their path (`power.sleep`, `power.wake`, …) or their `fold`
 * (M3's further levels); `optional` when every column of the group may be
 * left empty. */
export function foldable(columns) {
  const groups = new Map();
  const optional = new Map();
  for (const c of columns) {
    const dot = c.path.indexOf('.');
    const name = c.fold ?? (dot > 0 ? c.path.slice(0, dot) : null);
    if (!name) continue;
    groups.set(name, [...(groups.get(name) ?? []), c.key]);
    optional.set(name, (optional.get(name) ?? true) && Boolean(c.optional));
  }
  return [...groups].filter(([, keys]) => keys.length >= 3).map(([name, keys]) => ({ name, keys, optional: optional.get(name) }));
}

/** A button that folds `table`'s columns of group `group` (cells marked
 * with `data-group`) when `wrap` is too narrow for them, and unfolds them
 * on request; once pressed, it keeps the reader's choice. */
export function folding(wrap, table, group, heads) {
  const button = el('button', { type: 'button', className: 'fold', id: `${table.id}-fold-${group}` });
  if (table.id) button.setAttribute('aria-controls', table.id);
  const fold = {
    auto: true,
    folded: false,
    natural: 0,
    set(folded) {
      fold.folded = folded;
      table.classList.toggle(`folded-${group}`, folded);
      button.setAttribute('aria-expanded', String(!folded));
      button.textContent = folded ? `Show the ${heads.length} ${group} columns (${heads.join(', ')})` : `Hide the ${group} columns`;
    },
  };
  fold.set(false);
  button.addEventListener('click', () => {
    fold.auto = false;
    fold.set(!fold.folded);
    layout(wrap);
  });
  wrap.fold = fold;
  return button;
}
