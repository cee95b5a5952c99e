// The page's side of the worker: one job at a time, cancel by terminating the
// worker (a busy wasm worker cannot read messages), and a fresh worker after a
// crash, so a failure never leaves the page stuck. Where the browser refuses
// to start a worker at all (some do for a page opened from a file), the
// requests run on the page itself instead, and `inline` says so.
import { core } from './core.js';

export class Cancelled extends Error {
  constructor() { super('cancelled'); this.name = 'Cancelled'; }
}

export class Crashed extends Error {
  constructor(message) { super(message); this.name = 'Crashed'; }
}

export class Computer {
  constructor() {
    this.nextId = 1;
    this.job = null;
    /** The run waiting for a fresh worker to be ready (null when none). */
    this.waiting = null;
    this.spawn();
  }

  spawn() {
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.started = false;
    // The single-file page hands over its worker as a script of its own.
    const bundled = globalThis.dltBundle?.worker;
    try {
      this.worker = bundled ? new Worker(bundled) : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    } catch {
      this.goInline();
      return;
    }
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      // Refused before it ever started: compute on the page instead.
      if (!this.started) { this.goInline(); return; }
      this.crash(`the computation stopped unexpectedly${e.message ? `: ${e.message}` : ''}`);
    };
  }

  /** No worker: requests run on the page itself (no progress, no cancel). */
  goInline() {
    this.worker?.terminate();
    this.worker = null;
    this.inline = true;
    this.readyResolve();
  }

  receive(msg) {
    if (msg.type === 'ready') { this.started = true; this.readyResolve(); return; }
    if (msg.type === 'fatal') { this.readyReject(new Error(msg.message)); return; }
    const job = this.job;
    if (!job || msg.id !== job.id) return;
    if (msg.type === 'progress') { job.onProgress?.(msg.done, msg.what); return; }
    if (msg.type === 'partial') { job.onPartial?.(msg.value); return; }
    this.job = null;
    if (msg.type === 'result') job.resolve(msg.response);
    else if (msg.type === 'crash') { this.restart(); job.reject(new Crashed(msg.message)); }
    else job.reject(new Error(msg.message));
  }

  crash(message) {
    const job = this.job;
    this.job = null;
    this.restart();
    if (job) job.reject(new Crashed(message));
  }

  restart() {
    if (this.inline) return;
    this.worker.terminate();
    this.spawn();
  }

  /** Computing, or about to as soon as a fresh worker is ready (a cancel
   * then drops the run; the worker is not replaced again while it loads). */
  get busy() { return this.job !== null || this.waiting !== null; }

  /** Runs `request`; a job still running, or a run still waiting for the
   * worker, is cancelled first. */
  async run(request, onProgress, onPartial) {
    if (this.job) this.cancel();
    const ticket = {};
    this.waiting = ticket;
    try {
      await this.ready;
    } finally {
      if (this.waiting !== ticket) throw new Cancelled();
      this.waiting = null;
    }
    if (this.inline) {
      // Give the page a moment to show "Computing…" before it freezes.
      await new Promise((r) => setTimeout(r, 30));
      return core.runWithPartials(request, () => true, (value) => onPartial?.(value));
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.job = { id, resolve, reject, onProgress, onPartial };
      this.worker.postMessage({ id, request });
    });
  }

  cancel() {
    // A run waiting for the worker stops when the worker is ready.
    this.waiting = null;
    const job = this.job;
    if (!job) return;
    this.job = null;
    this.restart();
    job.reject(new Cancelled());
  }
}

/** Several workers (one per core) for work that splits into independent
 * requests, e.g. one machine count of a map each. */
export class Pool {
  constructor(size = Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2))) {
    this.size = size;
    this.computers = [];
    this.generation = 0;
    /** The generation of the `runAll` going on, 0 when none. */
    this.running = 0;
  }

  /** Starts the workers ahead of use (loading the wasm takes a moment). */
  warm() {
    while (this.computers.length < this.size) this.computers.push(new Computer());
  }

  /** Runs every request; `onResult(i, response)` as each one finishes,
   * `onPartial(i, value)` with parts ready early and `onProgress(done)` with
   * the fraction of all the work. Rejects with Cancelled when cancelled, or
   * with the first error. */
  async runAll(requests, onResult, onProgress, onPartial) {
    this.cancel();
    while (this.computers.length < Math.min(this.size, requests.length)) this.computers.push(new Computer());
    const generation = ++this.generation;
    const partial = new Array(requests.length).fill(0);
    const report = () => onProgress?.(partial.reduce((a, b) => a + b, 0) / requests.length);
    let next = 0;
    const lane = async (computer) => {
      while (next < requests.length) {
        const i = next++;
        const response = await computer.run(requests[i], (done) => { partial[i] = done; report(); },
          (value) => { if (generation === this.generation) onPartial?.(i, value); });
        if (generation !== this.generation) throw new Cancelled();
        partial[i] = 1;
        report();
        onResult(i, response);
      }
    };
    this.running = generation;
    try {
      await Promise.all(this.computers.slice(0, requests.length).map(lane));
    } catch (err) {
      if (generation === this.generation) this.cancel();
      throw err;
    } finally {
      if (this.running === generation) this.running = 0;
    }
  }

  cancel() {
    this.generation++;
    for (const c of this.computers) c.cancel();
  }

  /** Whether a `runAll` is still going (not cancelled, not finished). */
  get busy() { return this.running === this.generation && this.running !== 0; }
}
