// A worker of the page's star ("Run it on this computer"): it acknowledges a
// chunk the moment it arrives (the originator's link time ends then), follows
// it with the core's pointer chase, and reports the checksum and how long the
// chase took on its own clock. It computes nothing else.
// Messages in: {id, chunk: ArrayBuffer (transferred), compute: boolean}.
// Out: {type: 'ready'} | {type: 'fatal', message} | {id, type: 'ack'}
// | {id, type: 'done', checksum, seconds} | {id, type: 'error', message}.
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
    const seconds = (performance.now() - start) / 1000;
    self.postMessage({ id, type: 'done', checksum, seconds });
  } catch (err) {
    self.postMessage({ id, type: 'error', message: err?.message ?? String(err) });
  }
};
