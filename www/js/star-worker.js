// A worker of the page's star ("Run it on this computer"): it acknowledges a
// chunk the moment it arrives (the originator's link time ends then), follows
// it with the core's pointer chase, and reports the checksum and how long the
// chase took, and when it ended on the clock every worker of the page shares
// (`performance.timeOrigin + performance.now()`), so that a run's makespan
// does not wait for the report to be delivered. It computes nothing else.
// Messages in: {id, chunk: ArrayBuffer (transferred), compute: boolean}.
// Out: {type: 'ready'} | {type: 'fatal', message} | {id, type: 'ack'}
// | {id, type: 'done', checksum, seconds, end (ms since the epoch)} | {id, type: 'error', message}.
import init, { starChase } from '../pkg/dlt_calc.js';

const ready = init(self.dltWasm).then(
  () => self.postMessage({ type: 'ready' }),
  (err) => self.postMessage({ type: 'fatal', message: `the calculator could not be loaded in a worker: ${err}` }),
);

self.onmessage = async (event) => {
  const { id, chunk, compute } = event.data;
  self.postMessage({ id, type: 'ack' });
  if (!compute) return;
  await ready;
  try {
    const start = performance.now();
    const checksum = starChase(new Uint32Array(chunk));
    const stop = performance.now();
    self.postMessage({ id, type: 'done', checksum, seconds: (stop - start) / 1000, end: performance.timeOrigin + stop });
  } catch (err) {
    self.postMessage({ id, type: 'error', message: err?.message ?? String(err) });
  }
};
