// Benchmark of the map pages and of a fit of 10⁵ measurements in headless
// Chromium (the browser the calculator targets) and of the same work
// natively with the CLI, on every core and on one thread. Prints a table.
// Expects `make build` and the release `dlt`.
//   node tests/e2e/bench-maps.mjs     (or: make bench-maps)
//   BENCH_ONLY=fit node tests/e2e/bench-maps.mjs     (the fit alone)
//   BENCH_ONLY=map BENCH_RUNS=5 node tests/e2e/bench-maps.mjs  (the reference map in the page alone)
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { unlinkSync, writeFileSync } from 'node:fs';
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

/** A two-level table of `n` computing times of [000]'s reference machine,
 * t = max(0.109 α, 4.132 α − 27109) s, loads 100 to 20 000 MB, each time
 * times (1 + 0.03 z) with z a seeded standard normal: what the page is
 * timed on. Runs in the page and here alike. */
function twoLevelCsv(n) {
  let seed = 31;
  const uniform = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed + 0.5) / 4294967296;
  };
  const lines = ['size_MB,time_s'];
  for (let i = 0; i < n; i++) {
    const load = 100 + (19900 * i) / (n - 1);
    const z = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    lines.push(`${load.toFixed(3)},${(Math.max(0.109 * load, 4.132 * load - 27109) * (1 + 0.03 * z)).toFixed(4)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The two-level fit with intervals of 10⁵ samples in the page: the
 * worker alone (request posted → answer back, median of 5), the tab
 * (the table's text typed → answer drawn, as its status line says, median
 * of 3), and the page's own work as the text changes (the link written,
 * the request checked: the worker checks one this long). */
async function timeFit(browser, n) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${base}?tab=fit`);
  await page.waitForSelector('#fit-result:not([hidden])', { timeout: 60000 });
  const worker = await page.evaluate(async ([source, rows]) => {
    const csv = new Function(`return (${source})`)()(rows);
    const w = new Worker(new URL('js/worker.js', location.href), { type: 'module' });
    await new Promise((resolve) => { w.onmessage = (e) => { if (e.data.type === 'ready') resolve(); }; });
    const request = { model: 'fit', computation: { csv }, shape: 'two-level' };
    const times = [];
    let answer = null;
    for (let id = 1; id <= 5; id++) {
      const t0 = performance.now();
      answer = await new Promise((resolve) => {
        w.onmessage = (e) => { if (e.data.id === id && e.data.type !== 'progress') resolve(e.data); };
        w.postMessage({ id, request });
      });
      times.push(performance.now() - t0);
    }
    w.terminate();
    const knee = answer.response?.report?.computation?.[0]?.knee?.r;
    return { times: times.sort((a, b) => a - b), knee, error: answer.message };
  }, [twoLevelCsv.toString(), n]);
  if (worker.error) throw new Error(`the fit failed: ${worker.error}`);
  await page.selectOption('#fit-shape', 'two-level');
  const tab = [];
  const checks = [];
  for (let k = 0; k < 3; k++) {
    // The previous answer drawn and its garbage collected first.
    await page.waitForTimeout(1000);
    const check = await page.evaluate(([source, rows, run]) => {
      const area = document.querySelector('#fit-comp');
      area.value = new Function(`return (${source})`)()(rows).replace('size_MB', run % 2 ? 'load_MB' : 'size_MB');
      document.querySelector('#status-text').textContent = '';
      const t0 = performance.now();
      area.dispatchEvent(new Event('input', { bubbles: true }));
      return performance.now() - t0;
    }, [twoLevelCsv.toString(), n, k]);
    checks.push(check);
    await page.waitForFunction(() => /^Computed in/.test(document.querySelector('#status-text')?.textContent ?? ''),
      null, { timeout: 60000, polling: 20 });
    tab.push(1000 * parseFloat(/Computed in ([\d.]+) s/.exec(await page.textContent('#status-text'))[1]));
  }
  await page.close();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { worker: median(worker.times) / 1000, tab: median(tab) / 1000, check: median(checks) / 1000, knee: worker.knee };
}

function timeCli(args, threads) {
  const env = threads ? { ...process.env, RAYON_NUM_THREADS: String(threads) } : process.env;
  const t0 = process.hrtime.bigint();
  execFileSync(dlt, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** The table of timings. */
function print(rows) {
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  console.log('| work | first result [s] | total [s] | target | note |');
  console.log('|---|---|---|---|---|');
  for (const [what, first, total, target, note] of rows) {
    const f = Number.isNaN(first) ? '–' : first.toFixed(2);
    console.log(`| ${what} | ${f} | ${total.toFixed(total < 1 ? 3 : 2)} | ${target} | ${note} |`);
  }
}

/** The rows of the 10⁵-sample fit: in the page's worker, in its tab, by the CLI. */
async function fitRows(browser) {
  const samples = 100_000;
  const fit = await timeFit(browser, samples);
  const knee = fit.knee ? `knee r = ${fit.knee.value.toFixed(0)} MB [${fit.knee.low.toFixed(0)}, ${fit.knee.high.toFixed(0)}]` : '';
  const file = path.join(os.tmpdir(), `dlt-bench-fit-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ model: 'fit', computation: { csv: twoLevelCsv(samples) }, shape: 'two-level' }));
  const cli = timeCli(['solve', file]);
  unlinkSync(file);
  return [
    ['fit, two levels with intervals, 10⁵ samples: the worker (browser)', NaN, fit.worker, '<= 0.3 s', knee],
    ['the same in the tab: text typed → answer drawn (browser)', NaN, fit.tab,
      '<= 0.3 s', `the page's own work as the text changes (its link, its check): ${(fit.check * 1000).toFixed(0)} ms`],
    ['the same fit (CLI, process and parsing included)', NaN, cli, '<= 0.1 s native', ''],
  ];
}

/** The reference map in the page `runs` times, each in a new tab: its
 * median times, with the fastest and every total (the machine's load
 * varies from run to run). */
async function mapRuns(browser, runs) {
  const maps = [];
  for (let k = 0; k < runs; k++) maps.push(await timeTab(browser, 'isoefficiency'));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const totals = maps.map((m) => m.total);
  return [`reference map, m = 2..20, 12 levels + MAX (browser), median of ${runs}`, median(maps.map((m) => m.first)),
    median(totals), '<= 3 s; first lines <= 2 s',
    `fastest ${Math.min(...totals).toFixed(2)} s; all: ${totals.map((t) => t.toFixed(2)).join(', ')} s`];
}

const server = await serve(root, port, base, 'BENCH_PORT');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const rows = [];
  // BENCH_ONLY=fit times the fit alone; BENCH_ONLY=map the reference map
  // in the page alone, BENCH_RUNS times (default 5).
  const only = process.env.BENCH_ONLY;
  if (only === 'map') {
    rows.push(await mapRuns(browser, Number(process.env.BENCH_RUNS ?? 5)));
  } else {
    rows.push(...await fitRows(browser));
  }
  if (!only) {
    const map = await timeTab(browser, 'isoefficiency');
    rows.push(['reference map, m = 2..20, 12 levels + MAX (browser)', map.first, map.total, '<= 3 s; first lines <= 2 s', map.extra]);
    const table = await timeTab(browser, 'table1');
    rows.push(['Table 1, m = 2..20 (browser)', table.first, table.total, '<= 10 s', table.status]);
    const cores = os.cpus().length;
    rows.push([`reference map (CLI, ${cores} threads)`, NaN, timeCli(['map', '--csv']), '<= 2 s', '']);
    rows.push(['reference map (CLI, one thread)', NaN, timeCli(['map', '--csv'], 1), 'reported', '']);
    rows.push([`Table 1 (CLI, ${cores} threads)`, NaN, timeCli(['table', '--csv']), '<= 1 s', '']);
    rows.push(['Table 1 (CLI, one thread)', NaN, timeCli(['table', '--csv'], 1), 'reported', '']);
  }
  print(rows);
} finally {
  await browser.close();
  server.kill();
}
