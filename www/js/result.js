// A tab's result: the answer's blocks (headlines, notes, tables), its Gantt
// chart and line charts drawn by the core for the width they are shown at,
// and the exports of each (CSV, SVG, PNG, JSON).
import { core } from './core.js';
import { download, el, marked, readable } from './dom.js';
import { prose, watch } from './wide.js';

/** A result table longer than this many rows is folded under the charts
 * (M1's 131 lines of curves pushed its charts off the first screens). */
const LONG_TABLE = 40;

/** How much larger the page's text is drawn (the large-text toggle). */
export function textScale() {
  return document.documentElement.classList.contains('large-text') ? 1.4 : 1;
}

/** A printed page's width in CSS pixels: A4 less margins of 1.5 cm (Letter
 * is a little wider). */
const PRINT_WIDTH = 680;
/** Whether charts are drawn for paper (see `printCharts`). */
let printing = false;

/** Charts drawn for paper (`on`) or for the screen: printed, a chart is
 * laid out for the page's width, so that its text keeps its size instead
 * of a screen-wide chart shrinking, and drawn at three times that many
 * pixels, so that it is sharp on paper. */
export function printCharts(on) {
  printing = on;
}

/** A chart's layout width in CSS pixels: as wide as it is shown (so that
 * its text, 11 px and up, is never shrunk on a phone), divided by the text
 * scale (so that the projector's large text is drawn larger; the canvas is
 * then shown up to 1 260 px wide), at most the 900 px the charts are
 * designed for; printed, the page's width. */
function canvasWidth(container) {
  if (printing) return PRINT_WIDTH;
  const shown = container.clientWidth || 900;
  const scale = textScale();
  return Math.max(260, Math.round(Math.min(900 * scale, shown) / scale));
}

/** Device pixels per layout pixel of a chart: the screen's density times
 * the text scale, so that the core draws the canvas's buffer that many
 * times larger and a chart is as sharp as the screen (PNG exports keep
 * this density; SVG exports are at the layout size). */
function pixelRatio() {
  if (printing) return 3;
  return (window.devicePixelRatio || 1) * textScale();
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
  // The caption's text stays in view, wrapped at the wrap's width, while a
  // wide table scrolls sideways under it.
  const shown = prose(el('table', { className: 'data', id: id ?? '' },
    el('caption', {}, el('span', {}, caption)), el('thead', {}, el('tr', {}, ...heads)), body), head, rows);
  return watch(el('div', { className: 'table-wrap' }, shown, csv));
}

/** One block of an answer of `section` (see the core's `view` module); an
 * `open` block is a button that opens its request in its model's tab,
 * which then says what the request changed in its preset. */
function block(b, section) {
  const { ui } = section;
  if (b.kind === 'open') {
    const button = el('button', { type: 'button', id: b.id, className: 'open-tab' }, b.label);
    const opened = { changes: b.changes ?? [], note: b.note ?? '', back: b.back ?? '', from: section };
    button.addEventListener('click', () => ui.open?.(b.request, opened));
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

/** A chart drawn by `draw` on `canvas`, captioned, with its SVG (from
 * `svg`, at the layout size) and PNG exports. */
function figure(canvas, caption, name, [width, height], draw, svg) {
  // The layout size, in CSS pixels (the buffer is this times the pixel ratio).
  Object.assign(canvas.dataset, { width: String(width), height: String(height) });
  draw(canvas);
  const exportSvg = el('button', { type: 'button', className: 'export-svg' }, 'SVG');
  exportSvg.addEventListener('click', () => download(`${name}.svg`,
    new Blob([svg(width, height)], { type: 'image/svg+xml' })));
  const exportPng = el('button', { type: 'button', className: 'export-png' }, 'PNG');
  exportPng.addEventListener('click', () => canvas.toBlob((b) => b && download(`${name}.png`, b)));
  // The exports are left out of a printed page, with their "Download:".
  return el('figure', { dataset: { name } }, canvas, el('figcaption', {}, `${caption}.`,
    el('span', { className: 'exports' }, ' Download: ', exportSvg, ' ', exportPng)));
}

/** A line under `section`'s chart saying what lies under the pointer; the
 * answer is read once, not at every move. */
function pointer(section, canvas, width, frame, response) {
  const hint = 'Point at the chart to read its values.';
  const line = el('p', { id: `${section.spec.id}-hover`, className: 'note screen-only', 'aria-live': 'polite' }, hint);
  section.lookup?.free();
  section.lookup = new core.Pointer(response);
  const lookup = section.lookup;
  canvas.addEventListener('mousemove', (e) => {
    const rect = canvas.getBoundingClientRect();
    // The frame is in layout pixels; the canvas is shown at any size.
    const scale = width / rect.width;
    const at = frame() && core.chartValueAt(frame(), (e.clientX - rect.left) * scale,
      (e.clientY - rect.top) * scale);
    line.textContent = (at && lookup === section.lookup && lookup.at(at[0], at[1])) || hint;
  });
  return line;
}

/** The Gantt chart and line charts of `response`, as `section` shows them. */
function charts(section, response) {
  const figures = [];
  if (response.gantt) {
    const width = canvasWidth(section.root);
    const height = core.ganttHeight(response.gantt, response.model, width);
    const canvas = el('canvas', { role: 'img', 'aria-label': 'Gantt chart of the schedule', className: 'gantt' });
    figures.push(figure(canvas, 'Gantt chart', 'gantt', [width, height],
      (c) => core.drawGantt(c, response.gantt, response.model, width, height, pixelRatio()),
      (w, h) => core.ganttSvg(response.gantt, response.model, w, h)));
  }
  // View options (e.g. a map's overlays) redraw without computing again.
  const options = section.view();
  const drawn = Object.keys(options).length ? core.charts(response, options) : (response.charts ?? []);
  const map = section.spec.layout === 'pooled-map';
  drawn.forEach((chart, i) => {
    const large = map && i === 0;
    const width = canvasWidth(section.root);
    const height = Math.round(Math.max(300, (large ? 600 : 520) * Math.min(1, width / 700)));
    const canvas = el('canvas', { role: 'img', 'aria-label': chart.title,
      className: 'chart', ...(large ? { id: `${section.spec.id}-canvas` } : {}) });
    let frame = null;
    figures.push(figure(canvas, chart.title, chart.name, [width, height],
      (c) => { frame = core.drawChart(c, chart, width, height, pixelRatio()); }, (w, h) => core.chartSvg(chart, w, h)));
    if (large) figures.push(pointer(section, canvas, width, () => frame, response));
  });
  return { figures, name: drawn[0]?.name ?? `${section.spec.id}-result` };
}

/** The works of the bibliography (`works`) that `keys` name, numbered as
 * the page's bibliography numbers them (so that a citation's "[2]" finds
 * its work): printed under a result or an exercise sheet, where the page's
 * bibliography is not. */
export function worksCited(keys, works) {
  const places = [...new Set(keys)].map((key) => works.findIndex((w) => w.key === key)).filter((n) => n >= 0)
    .sort((a, b) => a - b);
  if (places.length === 0) return null;
  const list = el('ol', {}, ...places.map((n) => el('li', { value: n + 1 },
    `${works[n].authors}, `, el('cite', {}, works[n].title), `, ${works[n].venue}.`)));
  return el('section', { className: 'works-cited print-only' }, el('h4', {}, 'Works cited'), list);
}

/** The checker of a schedule of the user's own under the result of a model
 * whose answers are schedules: a JSON schedule (at first the answer's own
 * chunks, machine and size) checked by the core against the request and
 * the answer shown; the verdict, makespan and gap in the core's words, and
 * the broken rules in a table. */
function scheduleChecker(section, response) {
  const id = `${section.tab.model}-check`;
  const chunks = (response.schedule ?? response.report?.schedule)?.chunks ?? [];
  const input = el('textarea', { id: `${id}-input`, rows: 6, cols: 60, spellcheck: false, 'aria-label': 'Schedule to check (JSON)' });
  input.value = JSON.stringify({ chunks: chunks.map((c) => ({ machine: c.machine, size: c.size })) })
    .replaceAll('},{', '},\n {');
  const button = el('button', { type: 'button', id: `${id}-run` }, 'Check the schedule');
  const out = el('div', { id: `${id}-out`, role: 'status', 'aria-live': 'polite' });
  button.addEventListener('click', () => {
    let c;
    try {
      c = core.checkSchedule(JSON.parse(section.computed), input.value, response);
    } catch (err) {
      out.replaceChildren(el('p', { id: `${id}-verdict`, className: 'verdict bad' }, err.message ?? String(err)));
      return;
    }
    const verdict = el('p', { id: `${id}-verdict`, className: `verdict ${c.ok ? 'ok' : 'bad'}` }, c.summary);
    const rows = c.violations.map((v) => [v.rule, v.machine ?? '', v.chunk ?? '', v.value ?? '', v.expected ?? '', v.message]);
    const head = ['Rule', 'Machine (from 0)', 'Chunk (from 0)', 'Schedule', 'Rule asks', 'In words'];
    out.replaceChildren(verdict, ...(rows.length > 0 ? [table('Broken rules', head, rows, `${id}-rules`)] : []));
  });
  const help = el('p', { className: 'note' }, 'The chunks in sending order, each with its machine (from 0) and size, '
    + 'and optionally its send and compute times ({"start": …, "end": …}) and memory level; a time left out is the '
    + 'earliest the rules allow. See docs/cli.md, "Checking a schedule of your own".');
  return el('details', { className: 'check-schedule screen-only', id },
    el('summary', {}, 'Check a schedule of your own'), help, input, el('p', {}, button), out);
}

/** Puts `response` in `section`'s result: its blocks, charts and exports. */
export function showResult(section, response) {
  // Buttons that open other tabs (`open` blocks) side by side.
  const parts = [];
  // Long tables come after the charts, folded.
  const long = [];
  for (const b of response.view ?? []) {
    const part = block(b, section);
    if (b.kind === 'table' && b.rows.length > LONG_TABLE) {
      long.push(el('details', { className: 'long-table', id: `${b.id}-fold` },
        el('summary', {}, `${b.caption} (${b.rows.length} rows)`), part));
    } else if (b.kind === 'open' && parts.at(-1)?.classList.contains('open-tabs')) parts.at(-1).append(part);
    else parts.push(b.kind === 'open' ? el('div', { className: 'open-tabs' }, part) : part);
  }
  const { figures, name } = charts(section, response);
  const json = el('button', { type: 'button', className: 'export-json' }, 'Download result (JSON)');
  json.addEventListener('click', () => download(`${name}.json`,
    new Blob([JSON.stringify(response, null, 2)], { type: 'application/json' })));
  const exports = el('p', { className: 'exports' }, json);
  if (response.has_csv) {
    const csv = el('button', { type: 'button', className: 'export-csv' }, 'Download result (CSV)');
    csv.addEventListener('click', () => download(`${name}.csv`,
      new Blob([core.responseCsv(response)], { type: 'text/csv' })));
    exports.append(' ', csv);
  }
  const works = worksCited(section.spec.sources ?? [], section.ui.works ?? []);
  // Under the answer to the request computed (not a search's snapshot).
  const own = section.tab.checks_schedules && section.response === response && section.computed;
  const checker = own ? [scheduleChecker(section, response)] : [];
  section.result.replaceChildren(...parts, ...figures, ...long, exports, ...checker, ...(works ? [works] : []));
  section.result.hidden = false;
  section.result.dataset.drawn = String(Number(section.result.dataset.drawn ?? 0) + 1);
}
