// Benchmark of "Run it on this computer" (docs/star.md): runs the default
// experiment of the page's star in headless Chromium BENCH_RUNS times (3),
// each in a fresh page, and prints each run's knee, M3's and M2's mean
// |error| (all runs, and past the knee), the equal split's makespan over
// M3's past the knee, and the wall time, then the spread over the runs.
// Expects `make build`.
//   node tests/e2e/bench-star.mjs
//   BENCH_SIZE=tiny BENCH_RUNS=1 node tests/e2e/bench-star.mjs   (the pipeline only)
// BENCH_PORT (default 8919) and BENCH_WORKERS (default: the page's, from the
// number of cores) may be set.
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { serve } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.BENCH_PORT ?? 8919);
const base = `http://127.0.0.1:${port}/www/`;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const size = process.env.BENCH_SIZE ?? 'default';

/** One experiment in a fresh page; its result as the page keeps it. */
async function experiment(browser) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const query = new URLSearchParams({ tab: 'star', 'star.size': size });
  if (process.env.BENCH_WORKERS) query.set('star.machines', process.env.BENCH_WORKERS);
  await page.goto(`${base}?${query}`);
  await page.waitForSelector('#star-start:not([disabled])');
  const before = await page.evaluate(() => document.querySelector('#star-result').dataset.done ?? '0');
  const t0 = Date.now();
  await page.click('#star-start');
  await page.waitForFunction((b) => (document.querySelector('#star-result').dataset.done ?? '0') !== b
    || document.querySelector('#star-status').className === 'error', before, { timeout: 900000, polling: 200 });
  const error = await page.evaluate(() => (document.querySelector('#star-status').className === 'error'
    ? document.querySelector('#star-status').textContent : null));
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('dlt-calc:star:last') ?? 'null'));
  await page.close();
  if (error) throw new Error(error);
  return { ...kept, page_s: (Date.now() - t0) / 1000 };
}

const pct = (x) => (x == null ? 'n/a' : `${(x * 100).toFixed(1)} %`);
const num = (x, d = 3) => (x == null ? 'n/a' : x.toFixed(d));

function spread(values) {
  const v = values.filter((x) => x != null);
  if (!v.length) return 'n/a';
  return `${Math.min(...v).toFixed(3)} to ${Math.max(...v).toFixed(3)}`;
}

async function main() {
  const server = await serve(root, port, base, 'BENCH_PORT');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const results = [];
  try {
    console.log(`bench-star: ${runs} runs of the ${size} experiment; ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log('run | workers | knee (MB/worker) | M3 |error| | M2 |error| | M3 past knee | M2 past knee | equal/M3 past knee | M3 runs | wall (s)');
    for (let i = 1; i <= runs; i++) {
      const r = await experiment(browser);
      const s = r.summary;
      results.push(r);
      const m3runs = s.rows.filter((row) => row.m3).length;
      console.log(`${i} | ${r.machines} | ${num(r.knee, 2)} | ${pct(s.m3_error)} | ${pct(s.m2_error)} | ${pct(s.m3_error_past)} | `
        + `${pct(s.m2_error_past)} | ${num(s.equal_over_m3_past)} | ${m3runs} | ${r.wall.toFixed(1)}`);
    }
  } finally {
    await browser.close();
    server.kill();
  }
  const pick = (f) => results.map(f);
  console.log(`spread: knee ${spread(pick((r) => r.knee))} MB, M3 |error| ${spread(pick((r) => r.summary.m3_error))}, `
    + `M2 |error| ${spread(pick((r) => r.summary.m2_error))}, equal/M3 ${spread(pick((r) => r.summary.equal_over_m3_past))}, `
    + `wall ${spread(pick((r) => r.wall))} s; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
