// The page's side of the worker: one job at a time, cancel by terminating the
// worker (a busy wasm worker cannot read messages), and a fresh worker after a
// crash, so a failure never leaves the page stuck.

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
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      this.crash(`the computation stopped unexpectedly${e.message ? `: ${e.message}` : ''}`);
    };
  }

  receive(msg) {
    if (msg.type === 'ready') { this.readyResolve(); return; }
    if (msg.type === 'fatal') { this.readyReject(new Error(msg.message)); return; }
    const job = this.job;
    if (!job || msg.id !== job.id) return;
    if (msg.type === 'progress') { job.onProgress?.(msg.done, msg.what); return; }
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
    this.worker.terminate();
    this.spawn();
  }

  get busy() { return this.job !== null; }

  /** Runs `request`; a job still running is cancelled first. */
  async run(request, onProgress) {
    if (this.job) this.cancel();
    await this.ready;
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.job = { id, resolve, reject, onProgress };
      this.worker.postMessage({ id, request });
    });
  }

  cancel() {
    const job = this.job;
    if (!job) return;
    this.job = null;
    this.restart();
    job.reject(new Cancelled());
  }
}
