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

/** Loads the first instance (the single-file page hands over the wasm). */
export async function start() {
  await first.default(globalThis.dltBundle?.wasm);
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
