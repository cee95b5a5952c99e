// The originator of the page's star ("Run it on this computer"), in a worker
// of its own so the page never freezes: it starts m workers (star-worker.js),
// draws each chunk with the core (a seeded pointer chase and its checksum),
// sends chunks one at a time (one port: the next send starts when the last
// one is acknowledged), paced at the emulated link rate, and verifies every
// checksum. Between measurements it calls the core's steps of the loop
// (starStep) and M9's, M3's and M2's requests (run): it measures and
// orchestrates, and computes nothing itself. Cancel: the page terminates it,
// which ends its workers too.
// Messages in: {type: 'start', size, machines, rate, seed, together}.
// Out: {type: 'progress', done, what} | {type: 'result', result} | {type: 'error', message}.
import init, { run, starChunk, starStep } from '../pkg/dlt_calc.js';

/** Seconds on the clock the page's workers share (their own `now()` plus
 * their time origin), so that a worker's end can be read here. */
const now = () => (performance.timeOrigin + performance.now()) / 1000;
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));

/** The smallest step of the clock, s (browsers coarsen it: 5 µs to 1 ms). */
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

/** Waits until `due` (s): the timer for the bulk, a short spin for the
 * last 2 ms (timers overshoot by a millisecond or more). */
async function until(due) {
  const left = due - now();
  if (left > 0.004) await sleep(left - 0.002);
  while (now() < due) { /* the last moments */ }
}

class Star {
  constructor(machines) {
    this.workers = [];
    this.waiting = new Map();
    this.next = 1;
    this.machines = machines;
  }

  async open() {
    const started = [];
    for (let k = 0; k < this.machines; k++) {
      const w = new Worker(new URL('./star-worker.js', import.meta.url), { type: 'module' });
      started.push(new Promise((resolve, reject) => {
        w.onmessage = (e) => {
          if (e.data.type === 'ready') { w.onmessage = (m) => this.receive(k, m.data); resolve(); }
          else reject(new Error(e.data.message));
        };
        w.onerror = (e) => reject(new Error(`worker ${k + 1} could not start${e.message ? `: ${e.message}` : ''}`));
      }));
      this.workers.push(w);
    }
    await Promise.all(started);
  }

  receive(k, msg) {
    const wait = this.waiting.get(`${msg.id}:${msg.type === 'ack' ? 'ack' : 'done'}`);
    if (!wait) return;
    this.waiting.delete(`${msg.id}:${msg.type === 'ack' ? 'ack' : 'done'}`);
    if (msg.type === 'error') wait.reject(new Error(`worker ${k + 1}: ${msg.message}`));
    else wait.resolve({ at: now(), ...msg });
  }

  expect(id, kind) {
    return new Promise((resolve, reject) => this.waiting.set(`${id}:${kind}`, { resolve, reject }));
  }

  /** Sends `chunk` ({next, checksum, size}) to worker `k`, paced at `rate`
   * MB/s (none: unpaced); resolves at its acknowledgement with the send's
   * start and end, and `done`, a promise of the computation. */
  async send(k, chunk, rate, compute = true) {
    const id = this.next++;
    const start = now();
    if (rate) await until(start + chunk.size / rate);
    const ack = this.expect(id, 'ack');
    const done = compute ? this.expect(id, 'done') : null;
    const buffer = chunk.next.buffer;
    this.workers[k].postMessage({ id, chunk: buffer, compute }, [buffer]);
    const { at } = await ack;
    const checked = done?.then((d) => {
      if (d.checksum !== chunk.checksum) {
        throw new Error(`worker ${k + 1} returned the checksum ${d.checksum} for a chunk of ${chunk.size} MB whose checksum is ${chunk.checksum}: its computation is wrong`);
      }
      return { seconds: d.seconds, end: d.end / 1000 };
    });
    return { start, recv: at, done: checked };
  }
}

/** Chunks drawn once per size and key, sent as copies (drawing a chunk
 * costs as much as following it). */
class Chunks {
  constructor(seed) { this.kept = new Map(); this.seed = seed; }
  get(size, key = '') {
    const name = `${key}:${size}`;
    if (!this.kept.has(name)) {
      this.kept.set(name, { ...starChunk(size, (this.seed + this.kept.size * 7919) >>> 0), size });
    }
    const c = this.kept.get(name);
    return { next: c.next.slice(), checksum: c.checksum, size };
  }
  clear() { this.kept.clear(); }
}

let report = () => {};

/** The link and computing calibrations: `[size, s]` rows. */
async function calibrate(star, plan, chunks, together) {
  const m = star.machines;
  const total = plan.link.length + plan.compute.length * (together ? 2 : 1);
  let done = 0;
  const tick = (what) => report(0.5 * (++done / total), what);
  const link = [];
  for (const size of plan.link) {
    const s = await star.send(0, chunks.get(size, 'link'), plan.rate, false);
    link.push([size, s.recv - s.start]);
    tick(`calibrating the link: ${size} MB`);
  }
  const alone = [];
  for (const size of plan.compute) {
    const s = await star.send(0, chunks.get(size), null);
    alone.push([size, (await s.done).seconds]);
    tick(`calibrating one worker alone: ${size} MB`);
  }
  const all = [];
  if (together) {
    for (const size of plan.compute) {
      const sent = [];
      for (let k = 0; k < m; k++) sent.push(await star.send(k, chunks.get(size), null));
      for (const s of sent) all.push([size, (await s.done).seconds]);
      tick(`calibrating ${m} workers at once: ${size} MB`);
    }
  }
  return { link, alone, together: all };
}

/** M9's fit of a request, fitted again with one line when its two levels
 * are not convex; with the loads and requests the fit gives. */
function fitted(request, plan, machines) {
  let fit = run(request);
  let loads = starStep('loads', { request, fit, machines, sizes: plan.sizes, factors: plan.factors });
  if (loads.refit) {
    request = loads.refit;
    fit = run(request);
    loads = starStep('loads', { request, fit, machines, sizes: plan.sizes, factors: plan.factors });
  }
  return { request, fit, loads };
}

/** Makes one planned run: sends its chunks in order, paced; the makespan
 * is the latest end of a chunk's computation (on the workers' shared clock)
 * after the first send began. */
async function makeRun(star, planned, rate, chunks) {
  const key = `${planned.split}-${planned.load}`;
  const ready = planned.chunks.map(([k, size], i) => [k, chunks.get(size, `${key}-${i}`)]);
  const sent = [];
  for (const [k, chunk] of ready) sent.push([k, chunk.size, await star.send(k, chunk, rate)]);
  const first = sent[0][2].start;
  const made = [];
  let makespan = 0;
  for (const [k, size, s] of sent) {
    // The chunk's end as the worker saw it: its report may arrive later.
    const { seconds, end } = await s.done;
    makespan = Math.max(makespan, end - first);
    made.push([k, size, seconds]);
  }
  return { name: planned.name, split: planned.split, load: planned.load, makespan, chunks: made };
}

async function experiment({ size, machines, rate, seed, together }) {
  const wall = now();
  await init(self.dltWasm);
  const timer = resolution();
  const plan = starStep('plan', { size, seed, rate });
  const star = new Star(machines);
  report(0, `starting ${machines} workers`);
  await star.open();
  const chunks = new Chunks(seed);
  const measured = await calibrate(star, plan, chunks, together);
  chunks.clear();
  const requests = starStep('fit-requests', { rate: plan.rate, ...measured });
  report(0.5, 'fitting the calibration');
  const alone = fitted(requests.alone, plan, machines);
  const both = requests.together ? fitted(requests.together, plan, machines) : null;
  const { loads } = alone;
  const solved = loads.loads.map((load) => ({
    load,
    hierarchical: run({ ...loads.hierarchical, load }),
    linear: run({ ...loads.linear, load }),
  }));
  const planned = starStep('runs', { machines, run_repeat: plan.run_repeat, solved });
  const made = [];
  for (const [i, p] of planned.entries()) {
    // A load's chunks are kept for its repetitions only.
    if (i > 0 && planned[i - 1].load !== p.load) chunks.clear();
    report(0.55 + 0.4 * (i / planned.length), `run ${i + 1} of ${planned.length}: ${p.split} split of ${p.load} MB`);
    made.push(await makeRun(star, p, plan.rate, chunks));
  }
  report(0.96, 'checking the runs');
  const checks = starStep('checks', { fit: alone.request, hierarchical: loads.hierarchical, linear: loads.linear, runs: made });
  const answers = { hierarchical: run(checks.hierarchical), linear: run(checks.linear) };
  const summary = starStep('summary', {
    machines, knee: loads.knee ?? null, ...answers, together: both?.fit ?? null, runs: made, timer,
  });
  return {
    machines, rate: plan.rate, size, timer, knee: loads.knee ?? null, loads: loads.loads,
    tables: [...requests.tables, ...checks.tables, ['runs.csv', checks.table]], requests: { hierarchical: checks.hierarchical, linear: checks.linear, together: both?.request ?? null },
    summary, wall: now() - wall, finished: new Date().toISOString(),
  };
}

self.onmessage = async (event) => {
  if (event.data.type !== 'start') return;
  let last = 0;
  report = (done, what) => {
    const t = now();
    if (t - last < 0.05 && done < 1) return;
    last = t;
    self.postMessage({ type: 'progress', done, what });
  };
  try {
    self.postMessage({ type: 'result', result: await experiment(event.data) });
  } catch (err) {
    self.postMessage({ type: 'error', message: err?.message ?? String(err) });
  }
};
