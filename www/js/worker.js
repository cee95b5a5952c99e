// The computing worker: loads the wasm once and runs requests on it, so the
// page never freezes. Messages in: {id, request}. Messages out:
// {type: 'ready'} | {id, type: 'progress', done, what} | {id, type: 'result', response}
// | {id, type: 'partial', value} (a part of the result ready early)
// | {id, type: 'error', message} | {id, type: 'crash', message} | {type: 'fatal', message}.
import init, { runWithPartials } from '../pkg/dlt_calc.js';

// The single-file page sets `dltWasm` (the module's bytes) before this code.
const ready = init(self.dltWasm).then(
  () => self.postMessage({ type: 'ready' }),
  (err) => self.postMessage({ type: 'fatal', message: `the calculator could not be loaded: ${err}` }),
);

self.onmessage = async (event) => {
  await ready;
  const { id, request } = event.data;
  try {
    // At most one progress message every 50 ms: a search or a map's grid
    // reports at every node or cell, and each message costs the page a redraw.
    let posted = -Infinity;
    const response = runWithPartials(request, (done, what) => {
      const now = performance.now();
      if (now - posted >= 50) {
        posted = now;
        self.postMessage({ id, type: 'progress', done, what });
      }
      return true;
    }, (value) => self.postMessage({ id, type: 'partial', value }));
    self.postMessage({ id, type: 'result', response });
  } catch (err) {
    // A wasm trap (a panic) or a stack overflow (RangeError) leaves the
    // instance unusable: ask to be replaced.
    const crashed = err instanceof WebAssembly.RuntimeError || err instanceof RangeError;
    self.postMessage({ id, type: crashed ? 'crash' : 'error', message: err?.message ?? String(err) });
  }
};
