// The page's own instance of the calculator (validation as you type,
// drawing, joining the workers' answers, checking answers), behind one
// object, so that an instance that crashed (a panic is a wasm trap; a
// stack overflow a RangeError) is replaced by a fresh one and the page
// goes on. Every module calls `core.name(...)`, never an import of its own.
import * as first from '../pkg/dlt_calc.js';

export const core = { ...first };

let generation = 0;

/** Whether `err` leaves the instance that threw it unusable. */
export function isCrash(err) {
  return err instanceof WebAssembly.RuntimeError || err instanceof RangeError;
}

/** Loads the first instance (the single-file page hands over the wasm);
 * `onProgress(received, total)` follows the download of the wasm (a total
 * of 0: not known). */
export async function start(onProgress = () => {}) {
  const bundled = globalThis.dltBundle?.wasm;
  if (bundled) {
    await first.default(bundled);
    return;
  }
  const response = await fetch(new URL('../pkg/dlt_calc_bg.wasm', import.meta.url));
  await first.default({ module_or_path: counted(response, onProgress) });
}

/** `response` with its bytes counted as they arrive, still compiled as
 * they stream in. */
function counted(response, onProgress) {
  if (!response.ok || !response.body || typeof TransformStream !== 'function') return response;
  // A compressed body's length is not the length of the bytes read from it.
  const encoding = response.headers.get('Content-Encoding');
  const total = encoding && encoding !== 'identity' ? 0 : Number(response.headers.get('Content-Length')) || 0;
  let received = 0;
  onProgress(received, total);
  const counter = new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      onProgress(received, total);
      controller.enqueue(chunk);
    },
  });
  // Named wasm whatever the server said, so that it compiles as it streams.
  return new Response(response.body.pipeThrough(counter), { headers: { 'Content-Type': 'application/wasm' } });
}

/** A fresh instance in place of the current one: a new copy of the module
 * (its own memory), loaded and put behind `core`. */
export async function replace() {
  generation += 1;
  const source = globalThis.dltBundle?.moduleSource;
  const url = source
    ? URL.createObjectURL(new Blob([source], { type: 'text/javascript' }))
    : new URL(`../pkg/dlt_calc.js?instance=${generation}`, import.meta.url).href;
  const fresh = await import(url);
  await fresh.default(globalThis.dltBundle?.wasm);
  Object.assign(core, fresh);
  return generation;
}
