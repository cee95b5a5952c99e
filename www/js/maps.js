// The map sections: the isoefficiency map and Table 1 (both split by machine
// count over a pool of workers, results shown as they arrive) and the
// generalised maps (one worker). All numbers come from the wasm core; this
// file only splits requests, joins answers and draws.
import { isoefficiencyMap, mapPointNear, chartValueAt, responseCsv, drawChart, chartSvg } from '../pkg/dlt_calc.js';
import { Section, el, fmt, num, table, download } from './section.js';

const pct = (x) => `${fmt(Number((x * 100).toPrecision(3)))} %`;

/** "0.5, 1 2" → [0.5, 1, 2]; unreadable entries become NaN (the core names them). */
const list = (text) => String(text ?? '').split(/[\s,;]+/).filter((t) => t !== '').map(num);

const modelFields = (prefix = '') => [
  {
    legend: 'τ(α) = max{a<sub>1</sub>α, a<sub>2</sub>α + b<sub>2</sub>}:',
    fields: [
      { key: 'a1', field: `${prefix}a1`, label: '<i>a</i><sub>1</sub>' },
      { key: 'a2', field: `${prefix}a2`, label: '<i>a</i><sub>2</sub>' },
      { key: 'b2', field: `${prefix}b2`, label: '<i>b</i><sub>2</sub>' },
    ],
  },
  {
    fields: [
      { key: 'C', field: `${prefix}rate`, label: '<i>C</i>' },
      { key: 'O', field: `${prefix}overhead`, label: '<i>O</i>' },
      { key: 'S', field: `${prefix}startup`, label: '<i>S</i>' },
      { key: 'n', field: `${prefix}chunks`, label: 'chunks <i>n</i>' },
    ],
  },
];

/** The fields shared by the map and Table 1. */
const mapFields = [
  ...modelFields(),
  {
    fields: [
      { key: 'from', field: 'machines_from', label: 'machines <i>m</i> from' },
      { key: 'to', field: 'machines_to', label: 'to' },
      { key: 'vmin', field: 'load_min', label: 'loads from' },
      { key: 'vmax', field: 'load_max', label: 'to' },
      { key: 'tol', field: 'tolerance', label: 'load tolerance' },
    ],
  },
];

function mapRequest(model, s) {
  return {
    model, a1: num(s.a1), a2: num(s.a2), b2: num(s.b2), rate: num(s.C), overhead: num(s.O), startup: num(s.S),
    chunks: num(s.n), exactly: Boolean(s.exactly), machines_from: num(s.from), machines_to: num(s.to),
    levels: list(s.levels), tolerance: num(s.tol), load_min: num(s.vmin), load_max: num(s.vmax),
    ...(String(s.lps ?? '').trim() !== '' ? { certify_lps: num(s.lps) } : {}),
  };
}

function mapScalars(r) {
  return {
    a1: String(r.a1), a2: String(r.a2), b2: String(r.b2), C: String(r.rate), O: String(r.overhead),
    S: String(r.startup), n: String(r.chunks), exactly: Boolean(r.exactly), from: String(r.machines_from),
    to: String(r.machines_to), levels: (r.levels ?? []).join(', '), tol: String(r.tolerance),
    vmin: String(r.load_min), vmax: String(r.load_max), lps: r.certify_lps == null ? '' : String(r.certify_lps),
  };
}

/** One request per machine count. */
function perMachineCount(request) {
  const out = [];
  for (let m = request.machines_from; m <= request.machines_to; m++) {
    out.push({ ...request, machines_from: m, machines_to: m });
  }
  return out;
}

/** A section whose work is split over a pool of workers. */
class PooledSection extends Section {
  async compute(request) {
    this.stale = false;
    const started = performance.now();
    const requests = perMachineCount(request);
    const parts = new Array(requests.length).fill(null);
    const token = {};
    this.latest = token;
    this.ui.status('Computing…', { busy: true });
    this.begin(request);
    try {
      const early = new Array(requests.length).fill(null);
      await this.ui.pool.runAll(requests, (i, response) => {
        if (this.latest !== token) return;
        parts[i] = response;
        this.partial(request, parts, early);
      }, (done) => {
        const elapsed = (performance.now() - started) / 1000;
        const left = done > 0.02 ? ` about ${fmt(Math.round(elapsed * (1 - done) / done))} s left,` : '';
        const finished = parts.filter(Boolean).length;
        this.ui.progress(done, `${finished} of ${requests.length} machine counts done,${left} ${this.ui.pool.size} workers`);
      }, (i, value) => {
        // A column's first lines, before the column is complete.
        if (this.latest !== token || parts[i] || !this.early) return;
        // A provisional map of this machine count: its column so far.
        early[i] = value.map?.columns?.at(-1) ?? null;
        this.early(request, parts, early);
      });
      this.response = this.finish(request, parts);
      this.computed = JSON.stringify(request);
      this.showError('');
      this.ui.status(`Computed in ${fmt((performance.now() - started) / 1000)} s on ${this.ui.pool.size} workers.`);
    } catch (err) {
      this.failed(err, token, 'Cancelled; what was computed so far is shown.');
    }
  }
}

export class MapSection extends PooledSection {
  begin() {
    this.columns = [];
  }

  partial(request, parts, early = []) {
    this.columns = parts.map((r, i) => r?.map.columns[0] ?? early[i]).filter(Boolean);
    this.draw(request);
  }

  early(request, parts, early) {
    // Redraw at most every 250 ms: columns report a line at a time.
    const now = performance.now();
    if (now - (this.lastEarly ?? 0) < 250) return;
    this.lastEarly = now;
    this.partial(request, parts, early);
  }

  finish(request) {
    return { model: 'isoefficiency', request, map: this.drawn.map };
  }

  show(response) {
    // A redraw (e.g. overlays toggled) of a map already computed.
    this.columns = response.map.columns;
    this.draw(response.request);
  }

  draw(request) {
    const overlays = Boolean(this.read().scalars.overlays);
    const drawn = isoefficiencyMap(request, this.columns, overlays);
    this.drawn = drawn;
    const { map, chart } = drawn;
    const canvas = el('canvas', { width: 900, height: 600, role: 'img', className: 'chart', id: 'map-canvas',
      'aria-label': `${chart.title}; the table below lists every point` });
    const hover = el('p', { id: 'map-hover', className: 'note', 'aria-live': 'polite' },
      'Point at the map to read m, V and E.');
    const figure = this.figure(canvas, chart.title, chart.name, (c) => { this.frame = drawChart(c, chart); },
      (w, h) => chartSvg(chart, w, h));
    canvas.addEventListener('mousemove', (e) => {
      const rect = canvas.getBoundingClientRect();
      const at = this.frame && chartValueAt(this.frame, (e.clientX - rect.left) * canvas.width / rect.width,
        (e.clientY - rect.top) * canvas.height / rect.height);
      const near = at && mapPointNear(this.drawn.map, at[0], at[1]);
      hover.textContent = near
        ? `m = ${near.machines}, V = ${fmt(near.point.load)}: E = ${fmt(near.point.efficiency)} ` +
          `(${near.kind === 'max' ? 'MAX' : `line ${fmt(near.level)}, ${near.kind} Vmax`}; gap ${pct(near.point.gap)})`
        : 'Point at the map to read m, V and E.';
    });
    const rows = map.columns.map((c) => [String(c.machines), fmt(c.max.efficiency), fmt(c.max.load),
      fmt(c.max.efficiency_bound), pct(c.largest_gap), String(c.below.length), String(c.above.length), String(c.lps)]);
    const summary = el('p', { id: 'map-summary', className: 'headline' },
      `${map.columns.length} machine counts, ${map.levels.length} levels; largest gap of any point ${pct(map.largest_gap)}.`);
    const csv = el('button', { type: 'button', className: 'export-csv' }, 'Download map (CSV)');
    csv.addEventListener('click', () => download('isoefficiency-map.csv', new Blob([this.drawn.csv], { type: 'text/csv' })));
    const json = el('button', { type: 'button', className: 'export-json' }, 'Download map (JSON)');
    json.addEventListener('click', () => download('isoefficiency-map.json',
      new Blob([JSON.stringify({ request, map: this.drawn.map }, null, 2)], { type: 'application/json' })));
    this.result.replaceChildren(summary, figure, hover,
      table('Per machine count: MAX line, its proven bound, and the number of points found', ['m', 'Emax', 'Vmax',
        'E at most', 'largest gap', 'lines below', 'lines above', 'LPs'], rows, 'map-columns'),
      el('p', {}, csv, ' ', json));
    this.result.hidden = false;
    this.result.dataset.drawn = String(Number(this.result.dataset.drawn ?? 0) + 1);
  }
}

export const isoefficiency = {
  id: 'map',
  prefix: 'map.',
  presets: [
    { name: 'isoefficiency', label: '[000] Figs. 1–2: reference instance, m = 2..20' },
    { name: 'isoefficiency-small', label: '[000] reference instance, m = 2..5, three levels' },
  ],
  scalars: [
    ...mapFields,
    {
      fields: [
        { key: 'levels', field: 'levels', label: 'efficiency levels', type: 'text' },
        { key: 'lps', field: 'certify_lps', label: 'LP budget per point', placeholder: '1000' },
        { key: 'exactly', field: 'exactly', label: 'exactly n chunks', type: 'check' },
        { key: 'overlays', field: 'view.overlays', label: 'show the estimates (13) and (15) of [000]', type: 'check' },
      ],
    },
  ],
  toRequest: ({ scalars }) => mapRequest('isoefficiency', scalars),
  fromRequest: (r) => ({ scalars: mapScalars(r), rows: [] }),
  // The request leaves out the overlays: toggling them only redraws.
  redrawOnly: true,
};

export class TableSection extends PooledSection {
  begin() {}

  partial(request, parts) {
    this.render(request, parts.filter(Boolean).map((r) => r.table.rows[0]));
  }

  finish(request, parts) {
    const rows = parts.map((r) => r.table.rows[0]);
    return { model: 'table1', request, table: { rows, reference: parts[0].table.reference } };
  }

  show(response) {
    this.render(response.request, response.table.rows);
  }

  render(request, rows) {
    const t = { rows, reference: rows.some((r) => r.paper) };
    const body = rows.map((r) => [String(r.machines), fmt(r.max.efficiency), fmt(r.max.load), fmt(r.max.makespan),
      fmt(r.max.efficiency_bound), pct(r.max.gap), r.max.status.replaceAll('-', ' '),
      r.paper ? fmt(r.paper[0]) : '', r.paper ? fmt(r.paper[1]) : '',
      r.at_paper_load ? `${fmt(r.at_paper_load.efficiency)} (≤ ${fmt(r.at_paper_load.efficiency_bound)})` : '']);
    const csv = el('button', { type: 'button', className: 'export-csv' }, 'Download table (CSV)');
    csv.addEventListener('click', () => download('table1.csv',
      new Blob([responseCsv({ model: 'table1', table: t })], { type: 'text/csv' })));
    const json = el('button', { type: 'button', className: 'export-json' }, 'Download table (JSON)');
    json.addEventListener('click', () => download('table1.json',
      new Blob([JSON.stringify({ request, table: t }, null, 2)], { type: 'application/json' })));
    this.result.replaceChildren(
      table('Maximum efficiency per machine count: ours (certified by the exact search within its LP budget) beside [000] Table 1',
        ['m', 'Emax', 'Vmax', 'T', 'E at most', 'gap', 'status', '[000] Emax', '[000] Vmax', 'ours at [000] Vmax'],
        body, 'table1'),
      el('p', {}, csv, ' ', json));
    this.result.hidden = false;
    this.result.dataset.drawn = String(Number(this.result.dataset.drawn ?? 0) + 1);
  }
}

export const table1 = {
  id: 'table1',
  prefix: 't.',
  presets: [{ name: 'table1', label: '[000] Table 1: reference instance, m = 2..20' }],
  scalars: [
    ...mapFields,
    {
      fields: [
        { key: 'lps', field: 'certify_lps', label: 'LP budget per row', placeholder: '100' },
        { key: 'exactly', field: 'exactly', label: 'exactly n chunks', type: 'check' },
      ],
    },
  ],
  toRequest: ({ scalars }) => mapRequest('table1', { ...scalars, levels: '1' }),
  fromRequest: (r) => ({ scalars: mapScalars(r), rows: [] }),
};

// ---- generalised maps -------------------------------------------------------

const axisFields = (axis, name) => ({
  legend: `${name}:`,
  fields: [
    { key: `${axis}p`, field: `${axis}.parameter`, label: 'parameter', type: 'text' },
    { key: `${axis}from`, field: `${axis}.from`, label: 'from' },
    { key: `${axis}to`, field: `${axis}.to`, label: 'to' },
    { key: `${axis}steps`, field: `${axis}.steps`, label: 'grid points' },
    { key: `${axis}log`, field: `${axis}.log`, label: 'logarithmic', type: 'check' },
  ],
});

export class ContourSection extends Section {
  show(response) {
    super.show({ ...response, report: response.contour });
    const csv = el('button', { type: 'button', className: 'export-csv' }, 'Download grid (CSV)');
    csv.addEventListener('click', () => download('map-grid.csv', new Blob([responseCsv(response)], { type: 'text/csv' })));
    this.result.append(el('p', {}, csv));
  }
}

export const contour = {
  id: 'gmap',
  prefix: 'g.',
  presets: [
    { name: 'map-compute-communication', label: '[004] linear DLT: efficiency over A and C' },
    { name: 'map-energy', label: '[004] linear DLT: energy over m and the idle factor k' },
    { name: 'map-startup', label: '[000] start-up model, m = 8: efficiency over C and V' },
  ],
  scalars: [
    { legend: 'Fixed parameters (JSON of the model):', fields: [{ key: 'base', field: 'base', label: 'model', type: 'textarea' }] },
    axisFields('x', 'Across'),
    axisFields('y', 'Up'),
    {
      fields: [
        { key: 'q', field: 'quantity', label: 'quantity (efficiency, speedup, makespan, energy)', type: 'text' },
        { key: 'levels', field: 'levels', label: 'levels', type: 'text' },
      ],
    },
  ],
  toRequest({ scalars: s }) {
    let base;
    try { base = JSON.parse(s.base); } catch { base = null; }
    const axis = (a) => ({ parameter: s[`${a}p`], from: num(s[`${a}from`]), to: num(s[`${a}to`]),
      steps: num(s[`${a}steps`]), log: Boolean(s[`${a}log`]) });
    return { model: 'contour', base, x: axis('x'), y: axis('y'), quantity: s.q, levels: list(s.levels) };
  },
  fromRequest(r) {
    const s = { base: JSON.stringify(r.base), q: r.quantity, levels: r.levels.join(', ') };
    for (const a of ['x', 'y']) {
      Object.assign(s, { [`${a}p`]: r[a].parameter, [`${a}from`]: String(r[a].from), [`${a}to`]: String(r[a].to),
        [`${a}steps`]: String(r[a].steps), [`${a}log`]: Boolean(r[a].log) });
    }
    return { scalars: s, rows: [] };
  },
  render(c) {
    return [el('p', { id: 'gmap-summary', className: 'headline' },
      `${c.x.length} × ${c.y.length} grid, ${c.lines.filter((l) => l[1].length).length} of ${c.lines.length} levels drawn` +
      `${c.invalid_cells ? `, ${c.invalid_cells} cells with invalid parameters left out` : ''}; largest gap ${pct(c.largest_gap)}.`)];
  },
};
