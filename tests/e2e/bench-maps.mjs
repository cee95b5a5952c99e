// Benchmark of the map pages in headless Chromium (the browser the
// calculator targets) and of the same work natively with the CLI, on every
// core and on one thread. Prints a table. Expects `make build` and the release `dlt`.
//   node tests/e2e/bench-maps.mjs     (or: make bench-maps)
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { serve } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.BENCH_PORT ?? 8918);
const base = `http://127.0.0.1:${port}/www/`;
const dlt = path.join(root, 'target', 'release', 'dlt');

/** Opens a tab of the page with its default (reference) preset and times it. */
async function timeTab(browser, tab) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}?tab=${tab}`);
  await page.waitForSelector(`#${tab}-form`);
  const t0 = Date.now();
  // The tab starts computing as soon as it is shown; time from the first
  // progress report to the first drawn result and to the end.
  await page.waitForFunction((id) => Number(document.querySelector(`#${id}-result`)?.dataset.drawn ?? 0) > 0,
    tab, { timeout: 600000, polling: 20 });
  const first = (Date.now() - t0) / 1000;
  await page.waitForFunction(() => /^Computed/.test(document.querySelector('#status-text')?.textContent ?? ''),
    null, { timeout: 600000, polling: 50 });
  const total = (Date.now() - t0) / 1000;
  const status = await page.textContent('#status-text');
  const extra = tab === 'isoefficiency' ? await page.textContent('#isoefficiency-summary') : '';
  await page.close();
  return { first, total, status, extra };
}

function timeCli(args, threads) {
  const env = threads ? { ...process.env, RAYON_NUM_THREADS: String(threads) } : process.env;
  const t0 = process.hrtime.bigint();
  execFileSync(dlt, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const server = await serve(root, port, base, 'BENCH_PORT');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const rows = [];
  const map = await timeTab(browser, 'isoefficiency');
  rows.push(['reference map, m = 2..20, 12 levels + MAX (browser)', map.first, map.total, '<= 3 s; first lines <= 2 s', map.extra]);
  const table = await timeTab(browser, 'table1');
  rows.push(['Table 1, m = 2..20 (browser)', table.first, table.total, '<= 10 s', table.status]);
  const cores = os.cpus().length;
  rows.push([`reference map (CLI, ${cores} threads)`, NaN, timeCli(['isoefficiency', '--csv']), '<= 2 s', '']);
  rows.push(['reference map (CLI, one thread)', NaN, timeCli(['isoefficiency', '--csv'], 1), 'reported', '']);
  rows.push([`Table 1 (CLI, ${cores} threads)`, NaN, timeCli(['table', '--csv']), '<= 1 s', '']);
  rows.push(['Table 1 (CLI, one thread)', NaN, timeCli(['table', '--csv'], 1), 'reported', '']);
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  console.log('| work | first result [s] | total [s] | target | note |');
  console.log('|---|---|---|---|---|');
  for (const [what, first, total, target, note] of rows) {
    const f = Number.isNaN(first) ? '–' : first.toFixed(2);
    console.log(`| ${what} | ${f} | ${total.toFixed(2)} | ${target} | ${note} |`);
  }
} finally {
  await browser.close();
  server.kill();
}
