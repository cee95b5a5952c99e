// The CPU time of one request solved whole, on one thread, by the page's
// wasm module in Node: steadier than the page's wall time on a busy
// machine, to compare two builds of the module (alternate them).
//   node benches/wasm_cpu.mjs [DIR] [RUNS]     (DIR: www/pkg, RUNS: 3)
//   EXAMPLE=table1 node benches/wasm_cpu.mjs   (another built-in example)
//   node --cpu-prof benches/wasm_cpu.mjs www/pkg 1   (where the time goes)
// Expects `make build` (DIR holds dlt_calc.js and dlt_calc_bg.wasm).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.resolve(process.argv[2] ?? 'www/pkg');
const runs = Number(process.argv[3] ?? 3);
const wasm = await import(path.join(dir, 'dlt_calc.js'));
await wasm.default({ module_or_path: readFileSync(path.join(dir, 'dlt_calc_bg.wasm')) });
const name = process.env.EXAMPLE ?? 'isoefficiency';
const request = wasm.example(name);
const cpu = [];
for (let k = 0; k < runs; k++) {
  const before = process.cpuUsage();
  wasm.run(request, null);
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1e6);
}
const sorted = [...cpu].sort((a, b) => a - b);
console.log(`${name}, ${dir}: CPU median ${sorted[Math.floor(runs / 2)].toFixed(2)} s, `
  + `fastest ${sorted[0].toFixed(2)} s (all: ${cpu.map((t) => t.toFixed(2)).join(', ')} s)`);
