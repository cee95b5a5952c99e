// The page's wasm in Node, for tests that compare it with the CLI
// (tests/page_support). Usage: node tests/page-wasm.mjs PKG, where PKG is the
// folder of the page's build (www/pkg: dlt_calc.js and dlt_calc_bg.wasm).
//
// Reads one request a line (JSON) on standard input and writes one line of
// JSON for each: {problems, run} where `problems` is what the page marks
// ([{field, message}]) and `run` what computing it gives:
// {response} | {error: message} | {crash: message}. A request without
// problems is computed as the page computes it (www/js/pooled.js): split
// into parts, each part run as a worker runs it (www/js/worker.js), the
// answers joined; one with problems is given to the worker's entry point
// as it is, so that its error can be compared with `dlt solve`'s. After a
// crash (a panic traps the instance) the next request gets a fresh
// instance, as the page replaces a crashed worker.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const pkg = path.resolve(process.argv[2] ?? 'www/pkg');
const bytes = readFileSync(path.join(pkg, 'dlt_calc_bg.wasm'));
const script = pathToFileURL(path.join(pkg, 'dlt_calc.js')).href;

let fresh = 0;
/** A new instance of the module (a new URL is a new module in Node). */
async function load() {
  const core = await import(`${script}?instance=${fresh++}`);
  core.initSync({ module: bytes });
  return core;
}

const keepGoing = () => true;
const ignore = () => {};

function compute(core, request) {
  const parts = core.split(request);
  if (parts.length === 0) return core.runWithPartials(request, keepGoing, ignore);
  return core.join(request, parts.map((part) => core.runWithPartials(part, keepGoing, ignore)));
}

function answer(core, request) {
  const problems = core.problems(request);
  try {
    const response = problems.length === 0 ? compute(core, request) : core.runWithPartials(request, keepGoing, ignore);
    return { problems, run: { response } };
  } catch (err) {
    // As www/js/worker.js tells a trap or a stack overflow from an error.
    const crashed = err instanceof WebAssembly.RuntimeError || err instanceof RangeError;
    return { problems, run: { [crashed ? 'crash' : 'error']: err?.message ?? String(err) } };
  }
}

let core = await load();
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  let out;
  try {
    out = answer(core, JSON.parse(line));
  } catch (err) {
    // `problems` itself trapped.
    out = { problems: [], run: { crash: err?.message ?? String(err) } };
  }
  if (out.run.crash !== undefined) core = await load();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
