// The models' sections: their fields, how the form maps to a request (and a
// preset back to the form), and how a report is shown. Numbers come from the
// wasm core; this file only lays them out.
import { fmt, num, optional, el, table } from './section.js';

const MEMORY = ['in core', 'out of core'];
/** Long lists are cut in tables; the JSON download has everything. */
const ROWS_SHOWN = 50;

const cut = (rows, total, what) => (total > rows.length
  ? [...rows, [`… ${total - rows.length} more ${what} (in the JSON download)`]] : rows);

function headline(label, id, value, extra) {
  const p = el('p', { className: 'headline' });
  p.innerHTML = label;
  p.append(' = ', el('output', { id }, fmt(value)), extra ?? '');
  return p;
}

function verdictLine(id, verdict, more = '') {
  const ok = verdict.ok;
  return el('span', { id, className: `verdict ${ok ? 'ok' : 'bad'}` },
    ok ? ` ✓ verified (tolerance ${verdict.tolerance.toExponential(1)})${more}`
      : ` ✗ rejected by the verifier: ${verdict.violation}`);
}

const twoLevelColumns = [
  { key: 'S', path: 'startup', head: 'S', label: 'S', title: 'communication start-up time S' },
  { key: 'C', path: 'rate', head: 'C', label: 'C', title: 'communication time per load unit C' },
  { key: 'l1', path: 'levels[0].intercept', head: 'A<sup>l</sup><sub>1</sub>', label: 'core intercept', title: 'core line intercept' },
  { key: 'l2', path: 'levels[0].slope', head: 'A<sup>l</sup><sub>2</sub>', label: 'core slope', title: 'core line slope (time per unit in core)' },
  { key: 'h1', path: 'levels[1].intercept', head: 'A<sup>h</sup><sub>1</sub>', label: 'out-of-core intercept', title: 'out-of-core line intercept' },
  { key: 'h2', path: 'levels[1].slope', head: 'A<sup>h</sup><sub>2</sub>', label: 'out-of-core slope', title: 'out-of-core line slope (time per unit on disk)' },
];

/** A two-level machine row as a processor; an out-of-core level left empty
 * means the machine has only its core level. */
function processor(r) {
  const levels = [{ intercept: num(r.l1), slope: num(r.l2) }];
  if (String(r.h1 ?? '').trim() !== '' || String(r.h2 ?? '').trim() !== '') {
    levels.push({ intercept: num(r.h1), slope: num(r.h2) });
  }
  return { startup: num(r.S), rate: num(r.C), levels };
}

function processorRow(p) {
  const [core, disk] = p.levels;
  return {
    S: String(p.startup), C: String(p.rate), l1: String(core.intercept), l2: String(core.slope),
    h1: disk ? String(disk.intercept) : '', h2: disk ? String(disk.slope) : '',
    cap: p.cap == null ? '' : String(p.cap),
  };
}

// ---- M3 -------------------------------------------------------------------

export const hierarchical = {
  id: 'm3',
  prefix: '',
  presets: [{ name: 'hierarchical', label: '[003] worked example: 2 processors, V = 2' }],
  scalars: [
    { fields: [{ key: 'V', field: 'load', label: 'Load <i>V</i>' }] },
    { fields: [{ key: 'best', field: 'best_order', label: 'try every order (≤ 8 processors)', type: 'check' }] },
  ],
  table: {
    name: 'processors', item: 'processor', prefix: 'P', caption: 'Processors (served top to bottom)',
    columns: [...twoLevelColumns,
      { key: 'cap', path: 'cap', head: 'cap <i>B</i>', label: 'cap', title: 'memory cap B (optional)', placeholder: 'none' }],
    blank: { S: '1', C: '1', l1: '1', l2: '1', h1: '-9', h2: '10', cap: '' },
  },
  toRequest({ scalars, rows }) {
    return {
      model: 'hierarchical', load: num(scalars.V), best_order: Boolean(scalars.best),
      processors: rows.map((r) => ({ ...processor(r), cap: optional(r.cap) })),
    };
  },
  fromRequest(req) {
    return { scalars: { V: String(req.load), best: Boolean(req.best_order) }, rows: req.processors.map(processorRow) };
  },
  render(r) {
    const how = r.method === 'certified-closed-form' ? 'closed form, proven optimal by a dual certificate' : 'linear program';
    const more = r.orders_tried > 1 ? `; best of ${r.orders_tried} orders` : '';
    const line = headline('Shortest schedule: <i>C</i><sub>max</sub>', 'm3-makespan', r.makespan,
      verdictLine('m3-verdict', r.verdict, more));
    const rows = r.schedule.chunks.map((c) => [`P${c.machine + 1}`, fmt(c.size), MEMORY[c.level] ?? `level ${c.level + 1}`,
      `${fmt(c.send.start)} – ${fmt(c.send.end)}`, `${fmt(c.compute.start)} – ${fmt(c.compute.end)}`, fmt(r.usage[c.machine].idle)]);
    const parts = [line, el('p', { className: 'note' }, `Found by the ${how}.`),
      table('Optimal split', ['processor', 'α', 'memory', 'send', 'compute', 'idle'], cut(rows.slice(0, ROWS_SHOWN), rows.length, 'processors'), 'm3-chunks')];
    if (r.comparison.length) {
      parts.push(table('What linear DLT would predict for its own split, and what that split really takes',
        ['assumption', 'split α', 'predicted Cmax', 'real Cmax'],
        r.comparison.map((p) => [p.assumption, `(${p.sizes.slice(0, 8).map(fmt).join(', ')}${p.sizes.length > 8 ? ', …' : ''})`,
          fmt(p.predicted), fmt(p.real)]), 'm3-comparison'));
    }
    return parts;
  },
};

// ---- M2 -------------------------------------------------------------------

export const linear = {
  id: 'm2',
  prefix: 'l.',
  presets: [
    { name: 'linear-energy-small', label: '[004] energy, V = 1e3, up to 30 machines' },
    { name: 'linear-energy-big', label: '[004] energy, V = 1e13, up to 10^6 machines' },
  ],
  scalars: [
    { fields: [{ key: 'V', field: 'load', label: 'Load <i>V</i>' }] },
    {
      legend: 'Energy (optional):',
      fields: [
        { key: 'PC', field: 'power.processor', label: '<i>P</i><sub>C</sub>', placeholder: 'none' },
        { key: 'PN', field: 'power.network', label: '<i>P</i><sub>N</sub>', placeholder: 'none' },
        { key: 'k', field: 'power.idle_factor', label: '<i>k</i>', placeholder: 'none' },
      ],
    },
    {
      fields: [
        { key: 'series', field: 'series', label: 'series over m (the first m machines)', type: 'check' },
        { key: 'best', field: 'best_order', label: 'try every order (≤ 8 machines)', type: 'check' },
      ],
    },
  ],
  table: {
    name: 'machines', item: 'machine type', prefix: 'M', caption: 'Machines (served top to bottom; count = identical copies)',
    columns: [
      { key: 'S', path: 'startup', head: 'S', label: 'S', title: 'communication start-up time S' },
      { key: 'C', path: 'rate', head: 'C', label: 'C', title: 'communication time per load unit C' },
      { key: 'A', path: 'compute', head: 'A', label: 'A', title: 'computing time per load unit A' },
      { key: 'n', path: 'count', head: 'count', label: 'count', title: 'identical copies of this machine', placeholder: '1' },
    ],
    blank: { S: '1', C: '1', A: '1', n: '1' },
  },
  toRequest({ scalars, rows }) {
    const given = ['PC', 'PN', 'k'].some((k) => String(scalars[k] ?? '').trim() !== '');
    return {
      model: 'linear', load: num(scalars.V), best_order: Boolean(scalars.best), series: Boolean(scalars.series),
      power: given ? { processor: num(scalars.PC), network: num(scalars.PN), idle_factor: num(scalars.k) } : null,
      // An empty count means one machine.
      machines: rows.map((r) => ({ startup: num(r.S), rate: num(r.C), compute: num(r.A), count: optional(r.n) ?? 1 })),
    };
  },
  fromRequest(req) {
    const p = req.power;
    return {
      scalars: {
        V: String(req.load), best: Boolean(req.best_order), series: Boolean(req.series),
        PC: p ? String(p.processor) : '', PN: p ? String(p.network) : '', k: p ? String(p.idle_factor) : '',
      },
      rows: req.machines.map((m) => ({ S: String(m.startup), C: String(m.rate), A: String(m.compute), n: String(m.count ?? 1) })),
    };
  },
  render(r) {
    const more = r.orders_tried > 1 ? `; best of ${r.orders_tried} orders` : '';
    const parts = [
      headline('Shortest schedule: <i>T</i>', 'm2-makespan', r.makespan, verdictLine('m2-verdict', r.verdict, more)),
      el('p', {}, `One machine alone: T(1) = ${fmt(r.single)}; speedup ${fmt(r.single / r.makespan)} with ${r.active} of ${r.machines} machines.`),
    ];
    if (r.note) parts.push(el('p', { className: 'note', id: 'm2-note' }, r.note));
    if (r.energy) {
      const e = r.energy;
      parts.push(table('Energy', ['part', 'energy'], [
        ['idle base E_I', fmt(e.idle)], ['network above idle E_RN', fmt(e.network)],
        ['processors above idle E_RC', fmt(e.processors)], ['total E', fmt(e.total)]], 'm2-energy'));
    }
    const order = r.order ?? r.sizes.map((_, k) => k);
    const rows = r.sizes.slice(0, ROWS_SHOWN).map((a, k) => [`#${order[k] + 1}`, fmt(a)]);
    parts.push(table('Loads of the machines in use, in serving order', ['machine', 'α'], cut(rows, r.active, 'machines'), 'm2-sizes'));
    if (r.series.length) {
      const least = r.series.filter((p) => p.energy != null).reduce((a, b) => (b.energy < a.energy ? b : a), r.series[0]);
      if (least.energy != null) {
        parts.push(el('p', { id: 'm2-least' }, `Least energy ${fmt(least.energy)} with m = ${least.machines} (T = ${fmt(least.makespan)}).`));
      }
    }
    return parts;
  },
};

// ---- M4 -------------------------------------------------------------------

export const multiInstallment = {
  id: 'm4',
  prefix: 'mi.',
  presets: [{ name: 'multi-installment', label: '[003] Fig. 10: 10 machines, β = 5 vs the heuristic' }],
  scalars: [
    {
      fields: [
        { key: 'V', field: 'load', label: 'Load <i>V</i>' },
        { key: 'beta', field: 'chunk', label: 'Chunk <i>β</i>', placeholder: 'heuristic' },
      ],
    },
    {
      legend: 'Series over V (optional):',
      fields: [
        { key: 'from', field: 'series.from', label: 'from', placeholder: 'none' },
        { key: 'to', field: 'series.to', label: 'to', placeholder: 'none' },
        { key: 'points', field: 'series.points', label: 'points', placeholder: 'none' },
      ],
    },
  ],
  table: {
    name: 'processors', item: 'processor', prefix: 'P', caption: 'Processors (served round robin, top to bottom)',
    columns: twoLevelColumns,
    blank: { S: '1e-3', C: '9.99e-5', l1: '0', l2: '1e-3', h1: '-9.9e6', h2: '0.1' },
  },
  toRequest({ scalars, rows }) {
    const given = ['from', 'to', 'points'].some((k) => String(scalars[k] ?? '').trim() !== '');
    return {
      model: 'multi-installment', load: num(scalars.V), chunk: optional(scalars.beta),
      series: given ? { from: num(scalars.from), to: num(scalars.to), points: num(scalars.points) } : null,
      processors: rows.map(processor),
    };
  },
  fromRequest(req) {
    const s = req.series;
    return {
      scalars: {
        V: String(req.load), beta: req.chunk == null ? '' : String(req.chunk),
        from: s ? String(s.from) : '', to: s ? String(s.to) : '', points: s ? String(s.points) : '',
      },
      rows: req.processors.map(processorRow),
    };
  },
  render(r) {
    const verdict = r.verdict
      ? verdictLine('m4-verdict', r.verdict)
      : el('span', { id: 'm4-verdict', className: 'verdict' }, ` (${r.chunks} chunks: evaluated exactly in closed form; checked chunk by chunk up to 200 000 chunks)`);
    const parts = [
      headline('Processing time: <i>C</i><sub>max</sub>', 'm4-makespan', r.makespan, verdict),
      el('p', { id: 'm4-chunk' }, `β = ${fmt(r.chunk)} (${r.chunk_from_heuristic ? 'heuristic' : 'given'}), ${r.chunks} chunks.`),
      el('p', { id: 'm4-heuristic' }, `Heuristic: ${r.heuristic.explanation}.`),
      el('p', { id: 'm4-admissible' }, `Admissible β: ${r.admissible.explanation}.`),
    ];
    const rows = r.machines.slice(0, ROWS_SHOWN).map((u, i) => [`P${i + 1}`, String(u.chunks), fmt(u.load), fmt(u.busy), fmt(u.finish)]);
    parts.push(table('Machines', ['processor', 'chunks', 'load', 'computing', 'finishes'], cut(rows, r.machines.length, 'machines'), 'm4-machines'));
    return parts;
  },
};

// ---- M5 -------------------------------------------------------------------

const pct = (x) => `${fmt(Number((x * 100).toPrecision(3)))} %`;

export const startup = {
  id: 'm5',
  prefix: 's.',
  presets: [{ name: 'startup', label: '[000] reference instance, m = 2, n = 20, V = 134485 MB' }],
  scalars: [
    {
      legend: 'τ(α) = max{a<sub>1</sub>α, a<sub>2</sub>α + b<sub>2</sub>}:',
      fields: [
        { key: 'a1', field: 'a1', label: '<i>a</i><sub>1</sub>' },
        { key: 'a2', field: 'a2', label: '<i>a</i><sub>2</sub>' },
        { key: 'b2', field: 'b2', label: '<i>b</i><sub>2</sub>' },
      ],
    },
    {
      fields: [
        { key: 'C', field: 'rate', label: '<i>C</i>' },
        { key: 'O', field: 'overhead', label: '<i>O</i>' },
        { key: 'S', field: 'startup', label: '<i>S</i>' },
      ],
    },
    {
      fields: [
        { key: 'm', field: 'machines', label: 'machines <i>m</i>' },
        { key: 'n', field: 'chunks', label: 'chunks <i>n</i>' },
        { key: 'V', field: 'load', label: 'load <i>V</i>' },
      ],
    },
    {
      legend: 'Search:',
      fields: [
        { key: 'gap', field: 'gap', label: 'stop at gap', placeholder: '1e-9' },
        { key: 'lps', field: 'max_lps', label: 'LP budget', placeholder: '3000' },
        { key: 'secs', field: 'max_seconds', label: 'time limit [s]', placeholder: 'none' },
        { key: 'exactly', field: 'exactly', label: 'exactly n chunks (as the paper\'s MIP; default: at most n)', type: 'check' },
      ],
    },
  ],
  toRequest({ scalars }) {
    return {
      model: 'startup', a1: num(scalars.a1), a2: num(scalars.a2), b2: num(scalars.b2), rate: num(scalars.C),
      overhead: num(scalars.O), startup: num(scalars.S), machines: num(scalars.m), chunks: num(scalars.n),
      load: num(scalars.V), exactly: Boolean(scalars.exactly), gap: optional(scalars.gap), max_lps: optional(scalars.lps),
      max_seconds: optional(scalars.secs),
    };
  },
  fromRequest(req) {
    return {
      scalars: {
        a1: String(req.a1), a2: String(req.a2), b2: String(req.b2), C: String(req.rate), O: String(req.overhead),
        S: String(req.startup), m: String(req.machines), n: String(req.chunks), V: String(req.load), exactly: Boolean(req.exactly),
        gap: req.gap == null ? '' : String(req.gap), lps: req.max_lps == null ? '' : String(req.max_lps),
        secs: req.max_seconds == null ? '' : String(req.max_seconds),
      },
      rows: [],
    };
  },
  render(r) {
    const proven = r.status === 'optimal';
    const secs = (x) => (x < 1 ? `${(x * 1e3).toFixed(0)} ms` : `${x.toFixed(2)} s`);
    const parts = [
      headline('Shortest schedule found: <i>T</i>(<i>m</i>, <i>n</i>, <i>V</i>)', 'm5-makespan', r.makespan, verdictLine('m5-verdict', r.verdict)),
      el('p', { id: 'm5-status' }, {
        optimal: `Proven optimal (branch and bound, ${r.lps} LPs, ${r.nodes} nodes, ${secs(r.seconds)}; best found at LP ${r.incumbent_at_lp}, after ${secs(r.incumbent_seconds)}).`,
        'stopped-at-gap': `Stopped at the requested gap after ${r.lps} LPs (${secs(r.seconds)}): proven lower bound ${fmt(r.lower_bound)}, gap ${pct(r.gap)}.`,
        'stopped-at-limit': `Stopped at the LP budget (${r.lps} LPs, ${secs(r.seconds)}): proven lower bound ${fmt(r.lower_bound)}, gap ${pct(r.gap)}; not proven optimal.`,
        'stopped-at-time': `Stopped at the time limit (${r.lps} LPs, ${secs(r.seconds)}): proven lower bound ${fmt(r.lower_bound)}, gap ${pct(r.gap)}; not proven optimal.`,
        interrupted: `Best schedule so far (${r.lps} LPs, ${secs(r.seconds)}; the search was interrupted or is still running): proven lower bound ${fmt(r.lower_bound)}, gap ${pct(r.gap)}; not proven optimal.`,
      }[r.status]),
      el('p', { id: 'm5-efficiency' }, `Efficiency E = T(1,1,V)/(m·T) = ${fmt(r.efficiency)}` +
        `${proven ? '' : ` (at most ${fmt(r.efficiency_bound)})`}; speedup ${fmt(r.speedup)}; T(1,1,V) = ${fmt(r.single)}.`),
    ];
    const rows = r.schedule.chunks.slice(0, ROWS_SHOWN).map((c, j) => [String(j + 1), `P${c.machine + 1}`, fmt(c.size),
      MEMORY[c.level] ?? `level ${c.level + 1}`, `${fmt(c.send.start)} – ${fmt(c.send.end)}`, `${fmt(c.compute.start)} – ${fmt(c.compute.end)}`]);
    parts.push(table('Chunks in sending order', ['chunk', 'machine', 'α', 'memory', 'send', 'compute'], rows, 'm5-chunks'));
    return parts;
  },
};
