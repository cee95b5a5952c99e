// End-to-end test of the served page in Debian's Chromium, driven by
// playwright-core. Serves the crate's root folder, so the calculator is at
// /www/: a sub-folder, which proves every path in the page is relative.
// Expects `make dist` (www/pkg and dist/) and `cargo build --release --bin dlt` first;
// DLT_BIN names another build of `dlt` to compare with (`make test` gives its own).
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.E2E_PORT ?? 8917);
const base = `http://127.0.0.1:${port}/www/`;
const shots = path.join(root, 'target', 'e2e');
const dlt = process.env.DLT_BIN ? path.resolve(process.env.DLT_BIN) : path.join(root, 'target', 'release', 'dlt');

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

/** The CLI's answer for a request, as the page formats numbers. */
function cli(request) {
  const out = execFileSync(dlt, ['solve', '--compact'], { input: JSON.stringify(request), maxBuffer: 1 << 28 });
  return JSON.parse(out);
}
const fmt = (x) => String(Number(x.toPrecision(10)));
/** An element's full text: a number shown shortened keeps it on hover. */
const full = (page, sel) => page.$eval(sel, (e) => e.title || e.textContent);

function worked(load) {
  const p = { startup: 1, rate: 1, levels: [{ intercept: 1, slope: 1 }, { intercept: -9, slope: 10 }] };
  return { model: 'hierarchical', load, processors: [p, p] };
}

async function makespanChange(page, from, id = '#hierarchical-makespan') {
  await page.waitForFunction(([sel, old]) => {
    const e = document.querySelector(sel);
    const t = e?.title || e?.textContent || '';
    return t !== '' && t !== old;
  }, [id, from], { timeout: 20000 });
  return full(page, id);
}

/** Waits for a section's first result. */
async function result(page, tab) {
  await page.waitForFunction((t) => document.querySelector(`#${t}-makespan`)?.textContent, tab, { timeout: 60000 });
}

/** Pixels of a chart canvas that have exactly one of the Gantt colours. */
async function chartPixels(page, selector = '#hierarchical-result canvas.gantt') {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = { receive: [70, 130, 180], inCore: [46, 139, 87], outOfCore: [205, 92, 92] };
    const counts = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]));
    for (let i = 0; i < data.length; i += 4) {
      for (const [k, [r, g, b]] of Object.entries(colours)) {
        if (data[i] === r && data[i + 1] === g && data[i + 2] === b) counts[k]++;
      }
    }
    return counts;
  }, selector);
}

/** Pixels of a canvas that are neither white nor grey (lines, markers). */
async function colouredPixels(page, selector) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60) n++;
    }
    return n;
  }, selector);
}

test('loads the calculator with the reference instance computed in the worker', async (page) => {
  await page.goto(base);
  await result(page, 'hierarchical');
  assert.equal(await full(page, '#hierarchical-makespan'), '5.75');
  const sizes = await page.$$eval('#hierarchical-chunks tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.title || td.textContent));
  assert.deepEqual(sizes, ['1.25', '0.75']);
  assert.match(await page.textContent('#hierarchical-verdict'), /verified/);
  const memory = await page.$$eval('#hierarchical-chunks tbody tr td:nth-child(3)', (tds) => tds.map((td) => td.title || td.textContent));
  assert.deepEqual(memory, ['out of core', 'in core']);
  const predicted = await page.$$eval('#hierarchical-comparison tbody tr td:nth-child(3)', (tds) => tds.map((td) => td.title || td.textContent));
  assert.deepEqual(predicted, ['4.333333333', '13.04761905']);
  const px = await chartPixels(page);
  assert.ok(px.receive > 500 && px.inCore > 500 && px.outOfCore > 500, `chart not drawn: ${JSON.stringify(px)}`);
  await page.screenshot({ path: path.join(shots, 'calculator.png'), fullPage: true });
});

test('editing an input recomputes and agrees with the CLI', async (page) => {
  const before = await full(page, '#hierarchical-makespan');
  await page.fill('#hierarchical-V', '3');
  const after = await makespanChange(page, before);
  assert.equal(after, fmt(cli(worked(3)).report.makespan));
  assert.match(page.url(), /[?&]hierarchical\.V=3(&|$)/);
  const drawn = await page.getAttribute('#hierarchical-result', 'data-drawn');
  assert.ok(Number(drawn) >= 2, 'the chart was not redrawn');
  // Back past a citation's anchor: the inputs and the result follow the link.
  await page.click('#hierarchical h2 a[href^="#bib-"]');
  await page.fill('#hierarchical-V', '4');
  await makespanChange(page, after);
  assert.match(page.url(), /[?&]hierarchical\.V=4(&|$)/);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#hierarchical-V').value === '3');
  assert.match(page.url(), /[?&]hierarchical\.V=3(&|$)/);
  await page.waitForFunction((want) => (document.querySelector('#hierarchical-makespan')?.title || document.querySelector('#hierarchical-makespan')?.textContent) === want,
    after, { timeout: 20000 });
});

test('an invalid input shows its message next to the field and keeps the result', async (page) => {
  const before = await full(page, '#hierarchical-makespan');
  await page.fill('[data-field="processors[0].rate"]', '-1');
  const slot = '[data-error-for="processors[0].rate"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', slot);
  assert.equal(await page.textContent(slot), 'must not be negative (got -1)');
  assert.equal(await page.getAttribute('[data-field="processors[0].rate"]', 'aria-invalid'), 'true');
  assert.equal(await full(page, '#hierarchical-makespan'), before);
  assert.match(await page.textContent('#status-text'), /previous input/);
  // The result is dimmed while it is not for the inputs as they stand ...
  assert.ok(await page.$eval('#hierarchical-result', (e) => e.classList.contains('stale')));
  assert.match(await page.textContent('#hierarchical-stale'), /^Changed — the result below is for the previous inputs/);
  // ... and not once the bad value is put back; the status says so too.
  const rate = await page.inputValue('[data-field="processors[1].rate"]');
  await page.fill('[data-field="processors[0].rate"]', rate);
  await page.waitForFunction(() => !document.querySelector('#hierarchical-result').classList.contains('stale'));
  assert.ok(await page.isHidden('#hierarchical-stale'));
  assert.equal(await page.textContent('#status-text'), 'The result shown is for these inputs.');
  assert.equal(await page.textContent('[data-error-for="processors[0].rate"]'), '');
  await page.fill('[data-field="processors[0].rate"]', '-1');

  await page.fill('#hierarchical-V', '');
  const load = '#hierarchical [data-error-for="load"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', load);
  assert.equal(await page.textContent(load), 'must be a finite number');
  await page.fill('#hierarchical-V', '3');

  // An out-of-core line faster than the core line is not convex.
  await page.fill('[data-field="processors[1].levels[1].slope"]', '0.5');
  const convex = '[data-error-for="processors[1].levels[1].slope"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', convex);
  assert.match(await page.textContent(convex), /must be slower than the level above it/);
  assert.equal(await full(page, '#hierarchical-makespan'), before);
});

test('a reload restores every input, the invalid ones included', async (page) => {
  await page.reload();
  await page.waitForFunction(() => (document.querySelector('[data-error-for="processors[0].rate"]')?.textContent ?? '') !== '');
  assert.equal(await page.inputValue('[data-field="processors[0].rate"]'), '-1');
  assert.equal(await page.inputValue('#hierarchical-V'), '3');
  await page.fill('[data-field="processors[0].rate"]', '1');
  await page.fill('[data-field="processors[1].levels[1].slope"]', '10');
  await result(page, 'hierarchical');
  await page.waitForFunction((want) => (document.querySelector('#hierarchical-makespan')?.title || document.querySelector('#hierarchical-makespan')?.textContent) === want,
    fmt(cli(worked(3)).report.makespan), { timeout: 20000 });
});

test('a link keeps a cell typed with a comma in its column; a shortened link keeps the defaults', async (page) => {
  const cell = '[data-field="processors[0].startup"]';
  const rate = await page.inputValue('[data-field="processors[0].rate"]');
  await page.fill(cell, '0,5');
  const slot = '[data-error-for="processors[0].startup"]';
  await page.waitForFunction((s) => /0,5/.test(document.querySelector(s)?.textContent ?? ''), slot);
  assert.equal(await page.textContent(slot), 'is not a number (got "0,5"): write it without commas, decimals with a point (0.5)');
  await page.reload();
  await page.waitForFunction((s) => /0,5/.test(document.querySelector(s)?.textContent ?? ''), slot);
  assert.equal(await page.inputValue(cell), '0,5');
  assert.equal(await page.inputValue('[data-field="processors[0].rate"]'), rate);
  // A link naming one field: the others keep the preset's values.
  await page.goto(`${base}?tab=m5&s.m=9`);
  await result(page, 'startup');
  assert.equal(await page.inputValue('#startup-m'), '9');
  const preset = JSON.parse(execFileSync(dlt, ['example', 'startup']));
  assert.equal(Number(await page.inputValue('#startup-V')), preset.load);
  const errors = await page.$$eval('#startup [data-error-for]', (es) => es.map((e) => e.textContent).filter((t) => t !== ''));
  assert.deepEqual(errors, []);
  assert.equal(await full(page, '#startup-makespan'), fmt(cli({ ...preset, machines: 9 }).report.makespan));
});

/** Eight different processors with binding memory caps, so that no order
 * has the certified closed form: trying every order is 8! = 40320 LPs. */
function slowInstance() {
  const r = (x) => Number(x.toFixed(2));
  const processors = Array.from({ length: 8 }, (_, i) => ({
    startup: r(0.5 + 0.1 * i), rate: r(0.2 + 0.05 * i), cap: 6,
    levels: [{ intercept: 0, slope: r(1 + 0.1 * i) }, { intercept: -20 - i, slope: 10 + i }],
  }));
  const query = processors.map((p) => `p=${[p.startup, p.rate, 0, p.levels[0].slope, p.levels[1].intercept,
    p.levels[1].slope, p.cap].join(',')}`).join('&');
  return { processors, query };
}

test('long work shows progress and cancel keeps the previous result', async (page) => {
  const { processors, query } = slowInstance();
  await page.goto(`${base}?V=40&${query}`);
  await result(page, 'hierarchical');
  const before = await full(page, '#hierarchical-makespan');
  assert.equal(before, fmt(cli({ model: 'hierarchical', load: 40, processors }).report.makespan));
  await page.check('#hierarchical-best');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.waitForFunction(() => document.querySelector('#progress').value > 0, null, { timeout: 20000 });
  await page.screenshot({ path: path.join(shots, 'progress.png') });
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled/.test((document.querySelector('#status-text')?.textContent ?? '')));
  assert.equal(await full(page, '#hierarchical-makespan'), before);
  assert.ok(await page.isHidden('#cancel'));
  // The restarted worker still computes.
  await page.uncheck('#hierarchical-best');
  await page.fill('#hierarchical-V', '41');
  await makespanChange(page, before);
});

test('rows move up to change the serving order', async (page) => {
  await page.goto(`${base}?V=2&p=1,1,1,1,-9,10,&p=0.2,0.5,0,2,-20,12,`);
  await result(page, 'hierarchical');
  const before = await full(page, '#hierarchical-makespan');
  await page.click('button[aria-label="move up P2"]');
  const after = await makespanChange(page, before);
  assert.equal(await page.inputValue('[data-field="processors[0].startup"]'), '0.2');
  const p = (s, c, l1, l2, h1, h2) => ({ startup: s, rate: c, levels: [{ intercept: l1, slope: l2 }, { intercept: h1, slope: h2 }] });
  const want = cli({ model: 'hierarchical', load: 2, processors: [p(0.2, 0.5, 0, 2, -20, 12), p(1, 1, 1, 1, -9, 10)] });
  assert.equal(after, fmt(want.report.makespan));
  assert.match(page.url(), /hierarchical\.p=0\.2,0\.5,0,2,-20,12,&hierarchical\.p=1,1,1,1,-9,10,/);
});

test('a 1.7 MB link with 100 000 rows is refused at once and the defaults shown', async (page) => {
  const rows = Array.from({ length: 100000 }, () => 'p=1,1,1,1,-9,10,').join('&');
  // A static server refuses such a URL itself (414); the page must cope with
  // one however it arrives (a file, a permissive host).
  const index = readFileSync(path.join(root, 'www', 'index.html'), 'utf8');
  const long = (url) => url.search.length > 60000;
  await page.route(long, (route) => route.fulfill({ contentType: 'text/html', body: index }));
  await page.goto(`${base}?V=3&${rows}`);
  await page.unroute(long);
  await page.waitForFunction(() => /characters long \(the limit is 100000\); the defaults are shown/.test(
    (document.querySelector('#link-error')?.textContent ?? '')), null, { timeout: 10000 });
  assert.equal(await page.inputValue('#hierarchical-V'), '2');
  assert.equal(await page.locator('#hierarchical-form tbody tr').count(), 2);
  await result(page, 'hierarchical');
  assert.equal(await full(page, '#hierarchical-makespan'), fmt(cli(worked(2)).report.makespan));
});

test('a link with 3 000 machine rows is refused and the defaults shown', async (page) => {
  const rows = Array.from({ length: 3000 }, () => 'p=1,1,1,1,-9,10,').join('&');
  await page.goto(`${base}?${rows}`);
  await page.waitForFunction(() => /3000 machine rows \(the limit is 2000\)/.test(
    (document.querySelector('#link-error')?.textContent ?? '')), null, { timeout: 10000 });
  assert.equal(await page.locator('#hierarchical-form tbody tr').count(), 2);
});

test('a crashing worker is replaced and the user told; inputs and result stay', async (page) => {
  // A worker that starts fine and dies on its first job.
  const crashing = "self.postMessage({ type: 'ready' });" +
    "self.onmessage = () => setTimeout(() => { throw new Error('simulated crash'); });";
  let served = 0;
  await page.route('**/js/worker.js', (route) => (served++ === 0
    ? route.fulfill({ contentType: 'text/javascript', body: crashing }) : route.continue()));
  await page.goto(`${base}?V=2&p=1,1,1,1,-9,10,&p=1,1,1,1,-9,10,`);
  await page.waitForFunction(() => /crashed/.test((document.querySelector('#status-text')?.textContent ?? '')), null, { timeout: 20000 });
  assert.match(await page.textContent('#hierarchical-error'), /The computation crashed \(.*simulated crash.*\)\. The calculator was restarted/);
  await page.unroute('**/js/worker.js');
  // The first worker crashed; the page also starts its pool of map workers.
  assert.ok(served >= 2, 'the crashed worker was not replaced');
  // The replacement worker computes again.
  await page.fill('#hierarchical-V', '2.5');
  await page.waitForFunction(() => document.querySelector('#hierarchical-makespan')?.textContent, null, { timeout: 20000 });
  assert.equal(await full(page, '#hierarchical-makespan'), fmt(cli(worked(2.5)).report.makespan));
  assert.equal(await page.inputValue('#hierarchical-V'), '2.5');
});

test('a crash of the page\'s own instance is caught, reported and the instance re-created', async (page) => {
  const fresh = [];
  const onRequest = (r) => { if (/pkg\/dlt_calc\.js\?instance=\d+$/.test(r.url())) fresh.push(r.url()); };
  page.on('request', onRequest);
  await page.click('#tab-hierarchical');
  // A wasm trap (what a panic in the page's instance raises), reaching the
  // page as an uncaught error.
  await page.evaluate(() => window.dispatchEvent(new ErrorEvent('error',
    { error: new WebAssembly.RuntimeError('unreachable'), message: 'unreachable' })));
  await page.waitForFunction(() => /crashed \(unreachable\) and was restarted; your inputs are kept/.test(document.querySelector('#crash-note')?.textContent ?? ''), null, { timeout: 20000 });
  page.off('request', onRequest);
  assert.equal(fresh.length, 1, 'no fresh instance was loaded');
  // The new instance checks the fields and the tab computes again.
  await page.fill('#hierarchical-V', '-1');
  await page.waitForFunction(() => (document.querySelector('#hierarchical [data-error-for="load"]')?.textContent ?? '') !== '');
  assert.match(await page.textContent('#hierarchical [data-error-for="load"]'), /must be greater than zero/);
  await page.fill('#hierarchical-V', '2');
  await page.waitForFunction(() => document.querySelector('#hierarchical-makespan')?.textContent === '5.75' &&
    !document.querySelector('#hierarchical-result').classList.contains('stale'), null, { timeout: 20000 });
  // Drawing uses the new instance too.
  assert.ok((await chartPixels(page)).receive > 100, 'the Gantt chart is not drawn');
});

test('exports the chart as SVG and PNG', async (page) => {
  const fig = '#hierarchical-result figure[data-name="gantt"]';
  for (const [button, kind] of [[`${fig} .export-svg`, 'svg'], [`${fig} .export-png`, 'png']]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    const file = path.join(shots, `gantt.${kind}`);
    await download.saveAs(file);
    const head = execFileSync('head', ['-c', '8', file]).toString('latin1');
    assert.ok(kind === 'svg' ? head.startsWith('<svg') : head.includes('PNG'), `${kind} export: ${head}`);
  }
});

test('linear DLT with energy: prefix note, energy, charts, agrees with the CLI', async (page) => {
  await page.click('#tab-linear');
  await result(page, 'linear');
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'linear-energy-small'])));
  assert.equal(await full(page, '#linear-makespan'), fmt(want.report.makespan));
  assert.match(await page.textContent('#linear-note'), /^4 of 30 machines receive load/);
  assert.match(await page.textContent('#linear-least'), /with m = 1 /);
  assert.match(page.url(), /tab=linear/);
  for (const name of ['energy', 'speedup']) {
    const n = await colouredPixels(page, `#linear-result figure[data-name="${name}"] canvas`);
    assert.ok(n > 300, `${name} chart not drawn (${n} coloured pixels)`);
  }
  // A fractional machine count is refused next to its field.
  await page.fill('[data-field="machines[0].count"]', '2.5');
  const slot = '[data-error-for="machines[0].count"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', slot);
  assert.equal(await page.textContent(slot), 'must be a whole number (got 2.5)');
  await page.fill('[data-field="machines[0].count"]', '30');
  await page.fill('#linear-k', '0.5');
  await page.waitForFunction(() => (document.querySelector('[data-error-for="power.idle_factor"]')?.textContent ?? '') !== '');
  assert.equal(await page.textContent('[data-error-for="power.idle_factor"]'), 'must be at least 1 (got 0.5)');
  await page.fill('#linear-k', '3');
  // The least energy by a deadline below the fastest schedule is refused
  // next to the deadline; a reachable one chooses a set.
  await page.selectOption('#linear-obj', 'energy');
  await page.fill('#linear-deadline', '100');
  await page.waitForFunction(() => (document.querySelector('#linear [data-error-for="deadline"]')?.textContent ?? '') !== '');
  assert.match(await page.textContent('#linear [data-error-for="deadline"]'), /^must be at least 500\.0/);
  await page.fill('#linear-deadline', '600');
  await page.waitForFunction(() => /least energy/.test(document.querySelector('#linear-note')?.textContent ?? ''));
  await page.selectOption('#linear-obj', 'time');
  await page.fill('#linear-deadline', '');
  await page.waitForFunction(() => /proven the fastest/.test(document.querySelector('#linear-note')?.textContent ?? ''));
  await page.screenshot({ path: path.join(shots, 'linear.png'), fullPage: true });
});

test('older links keep working: tab ids, key prefixes and exercise names are read and rewritten', async (page) => {
  await page.goto(`${base}?tab=m4&mi.beta=7&V=3`);
  await result(page, 'installments');
  assert.equal(await page.inputValue('#installments-beta'), '7');
  assert.equal(await page.inputValue('#hierarchical-V'), '3');
  await page.waitForFunction(() => /tab=installments/.test(location.search));
  assert.match(page.url(), /installments\.beta=7/);
  assert.match(page.url(), /hierarchical\.V=3/);
  assert.doesNotMatch(page.url(), /[?&](mi\.|V=)/);
  // A sheet link naming an exercise as it was first published.
  await page.goto(`${base}?tab=exercises&x.title=Old&x.seed=7&x.p=m2-split`);
  await page.waitForSelector('li.exercise', { timeout: 60000 });
  assert.equal(await page.inputValue('#exercises tbody select'), 'linear-split');
  const want = cli({ model: 'exercises', title: 'Old', seed: 7, items: [{ exercise: 'linear-split' }] });
  assert.equal(await page.innerHTML('#exercise-1 .question'), want.exercises[0].question);
  assert.match(page.url(), /exercises\.p=linear-split/);
});

test('multi-installment: Fig. 10 preset, heuristic, chart, bad chunk size', async (page) => {
  await page.keyboard.press('Escape');
  await page.focus('#tab-linear');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await result(page, 'installments');
  assert.equal(await page.getAttribute('#tab-installments', 'aria-selected'), 'true');
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'installments'])));
  assert.equal(await full(page, '#installments-makespan'), fmt(want.report.makespan));
  // Ten thousand in the one number format of sentences, not 1.000000e4.
  assert.match(await full(page, '#installments-heuristic'), /= 10\u202f000:/);
  assert.match(await page.textContent('#installments-heuristic'), /= 10\u202f000:/);
  assert.match(await page.textContent('#installments-admissible'), /^Admissible β: β in \(/);
  const n = await colouredPixels(page, '#installments-result figure[data-name="time-vs-load"] canvas');
  assert.ok(n > 500, `chart not drawn (${n})`);
  const before = await full(page, '#installments-makespan');
  await page.fill('#installments-beta', '0');
  await page.waitForFunction(() => (document.querySelector('#installments [data-error-for="chunk"]')?.textContent ?? '') !== '');
  assert.equal(await page.textContent('#installments [data-error-for="chunk"]'), 'must be greater than zero (got 0)');
  assert.equal(await full(page, '#installments-makespan'), before);
  // A decimal comma in the optional β is named, not taken for an empty β.
  await page.fill('#installments-beta', '0,5');
  await page.waitForFunction(() => /0,5/.test(document.querySelector('#installments [data-error-for="chunk"]')?.textContent ?? ''));
  assert.equal(await page.textContent('#installments [data-error-for="chunk"]'),
    'is not a number (got "0,5"): write it without commas, decimals with a point (0.5)');
  assert.equal(await full(page, '#installments-makespan'), before);
  // Empty β: the heuristic's 1e4.
  await page.fill('#installments-beta', '');
  await page.waitForFunction(() => /heuristic/.test(document.querySelector('#installments-chunk')?.textContent));
  assert.match(await page.textContent('#installments-chunk'), /^β = 10\u202f000 \(heuristic\)/);
  await page.screenshot({ path: path.join(shots, 'multi-installment.png'), fullPage: true });
  // Every section's inputs survive a reload.
  await page.reload();
  await result(page, 'installments');
  assert.equal(await page.inputValue('#installments-beta'), '');
  assert.equal(await page.inputValue('#linear-k'), '3');
  await page.click('#tab-hierarchical');
});

test('start-up model: reference instance proven optimal at m = 2, beats Table 1; LP budget and gap shown', async (page) => {
  await page.click('#tab-startup');
  await result(page, 'startup');
  // Units and ranges come from the model's description.
  assert.equal(await page.textContent('#startup-C ~ .unit'), 's/MB');
  assert.match(await page.getAttribute('label[for="startup-a2"]', 'title'), /out-of-core time per unit, in s\/MB; above a1/);
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'startup'])));
  assert.equal(await full(page, '#startup-makespan'), fmt(want.report.makespan));
  assert.ok(want.report.efficiency > 34.2, `efficiency ${want.report.efficiency}`);
  assert.match(await page.textContent('#startup-status'), /^Proven optimal \(branch and bound, \d+ LPs, \d+ nodes, [0-9.]+ m?s; best found at LP \d+, after [0-9.]+ m?s\)/);
  const px = await chartPixels(page, '#startup-result canvas.gantt');
  assert.ok(px.inCore > 500, `Gantt not drawn: ${JSON.stringify(px)}`);
  const before = await full(page, '#startup-makespan');
  await page.fill('#startup-m', '10');
  await page.fill('#startup-lps', '60');
  await makespanChange(page, before, '#startup-makespan');
  await page.waitForFunction(() => /LP budget/.test((document.querySelector('#startup-status')?.textContent ?? '')));
  const request = { ...JSON.parse(execFileSync(dlt, ['example', 'startup'])), machines: 10, max_lps: 60 };
  const limited = cli(request).report;
  assert.equal(await full(page, '#startup-makespan'), fmt(limited.makespan));
  assert.match(await page.textContent('#startup-status'), /^Stopped at the LP budget \(\d+ LPs, [0-9.]+ m?s\): proven lower bound .*, gap (< )?[0-9.]+ %; not proven optimal/);
  await page.fill('#startup-lps', '2.5');
  await page.waitForFunction(() => (document.querySelector('#startup [data-error-for="max_lps"]')?.textContent ?? '') !== '');
  assert.equal(await page.textContent('#startup [data-error-for="max_lps"]'), 'must be a whole number (got 2.5)');
  await page.fill('#startup-lps', '60');
  await page.fill('#startup-b2', '3');
  await page.waitForFunction(() => (document.querySelector('#startup [data-error-for="b2"]')?.textContent ?? '') !== '');
  assert.equal(await page.textContent('#startup [data-error-for="b2"]'), 'must be below zero (got 3)');
  await page.fill('#startup-b2', '-27109');
  await page.screenshot({ path: path.join(shots, 'startup.png'), fullPage: true });
});

test('start-up model: a long search shows its best schedule so far, and cancel keeps it', async (page) => {
  await page.goto(`${base}?tab=m5`);
  await page.click('#tab-startup');
  await result(page, 'startup');
  // n = 64 chunks over 9 machines at Table 1's Vmax is far from proven in
  // a million LPs (n = 40 over 12 machines is now proven in a few hundred).
  await page.fill('#startup-V', '115514');
  await page.fill('#startup-n', '64');
  await page.fill('#startup-lps', '1000000');
  await page.fill('#startup-m', '9');
  await page.waitForFunction(() => /^Best schedule so far/.test(document.querySelector('#startup-status')?.textContent ?? ''),
    null, { timeout: 30000 });
  assert.ok(await page.isVisible('#cancel'), 'the search is still running');
  await page.click('#cancel');
  await page.waitForFunction(() => /best result found so far/.test(document.querySelector('#status-text')?.textContent ?? ''));
  assert.ok(await page.isHidden('#cancel'));
  assert.match(await page.textContent('#startup-status'), /^Best schedule so far \(\d+ LPs, [0-9.]+ m?s; .*\): proven lower bound .*, gap (< )?[0-9.]+ %/);
  const shown = Number(await full(page, '#startup-makespan'));
  // No worse than the best round robin, which the search starts from.
  const rr = cli({ ...JSON.parse(execFileSync(dlt, ['example', 'startup'])), machines: 9, chunks: 64, load: 115514, max_lps: 1 }).report;
  assert.ok(shown <= rr.makespan * (1 + 1e-6), `${shown} vs ${rr.makespan}`);
  const px = await chartPixels(page, '#startup-result canvas.gantt');
  assert.ok(px.outOfCore + px.inCore > 500, `Gantt not drawn: ${JSON.stringify(px)}`);
  assert.match(await page.textContent('#startup-verdict'), /verified/i);
  // The result was cut short: Compute searches again.
  await page.click('#startup-compute');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.click('#cancel');
  await page.waitForFunction(() => /^Cancelled/.test(document.querySelector('#status-text')?.textContent ?? ''));
  // The restarted worker still computes.
  await page.fill('#startup-lps', '60');
  await page.waitForFunction(() => /LP budget/.test(document.querySelector('#startup-status')?.textContent ?? ''), null, { timeout: 30000 });
});

test('start-up model: the progress bar moves with the LPs spent while the gap stalls', async (page) => {
  await page.goto(`${base}?tab=startup`);
  await result(page, 'startup');
  // Far from proven (see above): the gap stalls, the LP budget is spent.
  await page.fill('#startup-n', '64');
  await page.fill('#startup-m', '9');
  await page.fill('#startup-lps', '2000');
  await page.fill('#startup-V', '115514');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.waitForFunction(() => /^Best schedule so far/.test(document.querySelector('#startup-status')?.textContent ?? ''),
    null, { timeout: 30000 });
  const lps = () => page.evaluate(() => Number(/\((\d+) LPs/.exec(document.querySelector('#startup-status').textContent)?.[1] ?? NaN));
  const samples = [];
  for (let k = 0; k < 4; k++) {
    samples.push([await page.$eval('#progress', (p) => p.value), await lps()]);
    await page.waitForTimeout(800);
  }
  await page.click('#cancel');
  // While LPs rise, so does the bar (it sat at the gap's share), and it
  // is at least the share of the budget spent.
  const said = JSON.stringify(samples);
  for (let k = 1; k < samples.length; k++) {
    if (samples[k][1] > samples[k - 1][1]) assert.ok(samples[k][0] > samples[k - 1][0], said);
  }
  for (const [bar, spent] of samples) assert.ok(!(spent / 2000 > bar + 0.05), said);
  assert.ok(samples.at(-1)[1] > samples[0][1], `no LPs were spent: ${said}`);
  assert.ok(samples.at(-1)[0] > samples[0][0], `the bar sat still: ${said}`);
});

/** Waits until the status bar says the computation finished. */
async function computed(page, timeout = 120000) {
  await page.waitForFunction(() => /^Computed/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout });
}

/** The text of a download triggered by clicking `selector`. */
async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(file, 'utf8'), bytes: readFileSync(file) };
}

test('isoefficiency map: workers, points as the CLI computes them, hover, overlays, exports', async (page) => {
  await page.click('#tab-isoefficiency');
  await page.selectOption('#isoefficiency-preset', 'isoefficiency-small');
  await page.click('#isoefficiency-load-preset');
  await computed(page);
  assert.match(await page.textContent('#status-text'), /on \d+ workers/);
  assert.match(await page.textContent('#isoefficiency-summary'), /^4 machine counts, 3 levels; largest gap of any point (< )?[0-9.]+ %/);
  // Emax and Vmax per machine count, as the CLI computes them.
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'isoefficiency-small']))).map;
  const rows = await page.$$eval('#isoefficiency-columns tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.title || c.textContent)));
  assert.equal(rows.length, 4);
  want.columns.forEach((c, i) => {
    assert.equal(rows[i][0], String(c.machines));
    assert.equal(rows[i][1], fmt(c.max.efficiency));
    assert.equal(rows[i][2], fmt(c.max.load));
  });
  assert.ok(await colouredPixels(page, '#isoefficiency-canvas') > 1500, 'the map is not drawn');
  await page.hover('#isoefficiency-canvas', { position: { x: 300, y: 300 } });
  assert.match(await page.textContent('#isoefficiency-hover'), /^m = \d, V = [0-9.e]+: E = [0-9.]+ \((MAX|line [0-9.]+, (below|above) Vmax); gap/);
  // Overlays only redraw.
  const drawn = Number(await page.getAttribute('#isoefficiency-result', 'data-drawn'));
  await page.check('#isoefficiency-overlays');
  await page.waitForFunction((d) => Number(document.querySelector('#isoefficiency-result').dataset.drawn) > d, drawn);
  assert.match(await page.textContent('#status-text'), /^Computed/);
  assert.match(page.url(), /isoefficiency\.overlays=1/);
  const csv = await downloaded(page, '#isoefficiency-result .export-csv');
  assert.equal(csv.name, 'isoefficiency-map.csv');
  assert.equal(csv.text.split('\n')[0], 'machines,kind,level,load,efficiency,makespan,gap');
  assert.equal(csv.text.trim().split('\n').length, 1 + want.columns.reduce((n, c) => n + c.below.length + c.above.length + 1, 0));
  const json = JSON.parse((await downloaded(page, '#isoefficiency-result .export-json')).text);
  assert.equal(json.map.columns.length, 4);
  const svg = await downloaded(page, '#isoefficiency-result .export-svg');
  assert.match(svg.text, /^<svg[^>]*>/);
  const png = await downloaded(page, '#isoefficiency-result .export-png');
  assert.equal(png.bytes.subarray(1, 4).toString(), 'PNG');
  await page.screenshot({ path: path.join(shots, 'map.png'), fullPage: true });
});

test('map: an invalid input keeps the map; reload restores; cancel stops every worker', async (page) => {
  const summary = await page.textContent('#isoefficiency-summary');
  await page.fill('#isoefficiency-to', '1');
  const slot = '#isoefficiency [data-error-for="machines_to"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', slot);
  assert.equal(await page.textContent(slot), 'must be between 2 and 64 (got 1)');
  assert.equal(await page.textContent('#isoefficiency-summary'), summary);
  await page.fill('#isoefficiency-levels', '1, x');
  await page.waitForFunction(() => (document.querySelector('#isoefficiency [data-error-for="levels"]')?.textContent ?? '') !== '');
  assert.equal(await page.textContent('#isoefficiency [data-error-for="levels"]'), 'entry 2 is not a number (got "x")');
  // Among entries separated by spaces, "2,5" is a decimal comma, not 2 and 5.
  await page.fill('#isoefficiency-levels', '2,5 10 20');
  await page.waitForFunction(() => /2,5/.test(document.querySelector('#isoefficiency [data-error-for="levels"]')?.textContent ?? ''));
  assert.equal(await page.textContent('#isoefficiency [data-error-for="levels"]'),
    'entry 1 is not a number (got "2,5"): write it without commas, decimals with a point (0.5)');
  await page.reload();
  await page.waitForSelector('#isoefficiency-levels');
  assert.equal(await page.inputValue('#isoefficiency-levels'), '2,5 10 20');
  assert.equal(await page.inputValue('#isoefficiency-to'), '1');
  assert.equal(await page.isChecked('#isoefficiency-overlays'), true);
  // The full reference map takes a while: cancel it half-way.
  await page.selectOption('#isoefficiency-preset', 'isoefficiency');
  await page.click('#isoefficiency-load-preset');
  await page.waitForFunction(() => /machine counts done/.test(document.querySelector('#status-text')?.textContent ?? ''));
  await page.waitForFunction(() => Number(document.querySelector('#isoefficiency-result')?.dataset.drawn ?? 0) > 0, null, { timeout: 60000 });
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#status-text')?.textContent ?? ''));
  const drawn = await page.getAttribute('#isoefficiency-result', 'data-drawn');
  await page.waitForTimeout(2500);
  assert.equal(await page.getAttribute('#isoefficiency-result', 'data-drawn'), drawn, 'a cancelled worker still delivered lines');
  assert.match(await page.textContent('#status-text'), /Cancelled/);
  // Back to the small map, computed before: this browser kept it, so it is
  // shown at once, and "Compute again" computes it anew.
  await page.selectOption('#isoefficiency-preset', 'isoefficiency-small');
  await page.click('#isoefficiency-load-preset');
  await page.waitForFunction(() => /^Shown at once/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 10000 });
  assert.match(await page.textContent('#isoefficiency-kept'), /^Kept in this browser: computed \d{4}-\d\d-\d\d \d\d:\d\d UTC in [0-9.]+ s/);
  assert.equal(await page.textContent('#isoefficiency-summary'), summary);
  await page.click('#isoefficiency-recompute');
  await computed(page);
  assert.equal(await page.locator('#isoefficiency-kept').count(), 0);
});

test('the map\'s time left is said only once it is stable, and "finishing…" near the end', async (page) => {
  const said = await page.evaluate(async () => {
    const { TimeLeft } = await import('./js/pooled.js');
    const run = (fraction) => {
      const eta = new TimeLeft();
      const out = [];
      for (let t = 0; t <= 16; t += 0.5) out.push([t, eta.at(t, fraction(t))]);
      return out;
    };
    return {
      // Half the work in the first 2 s (small machine counts), then 5 % a second: done at 12 s.
      paced: run((t) => (t <= 2 ? 0.25 * t : Math.min(1, 0.5 + 0.05 * (t - 2)))),
      // 99.5 % in 2 s, then a last slow part for 10 s (the n = 40 map said "about 1 s left" at 100 %).
      lastPart: run((t) => Math.min(0.995, 0.5 * t)),
      // Bursts and stalls: no pace to speak of.
      bursts: run((t) => Math.min(0.9, 0.05 + 0.02 * t + (Math.floor(t) % 2 ? 0.3 : 0))),
    };
  });
  const at = (list, t) => said[list].find(([u]) => u === t)[1];
  assert.equal(at('paced', 1), null, 'nothing said before the pace is known');
  // At 4 s the pace has just changed: nothing said until the estimate settles.
  assert.equal(at('paced', 4), null);
  // Once said, an estimate is the time really left (done at 12 s), within a quarter.
  const numbers = said.paced.filter(([t, left]) => typeof left === 'number' && t < 12);
  assert.ok(numbers.length >= 5, JSON.stringify(said.paced));
  for (const [t, left] of numbers) assert.ok(Math.abs(left - (12 - t)) <= 0.25 * (12 - t) + 0.5, `at ${t} s: ${left} s left`);
  assert.equal(at('paced', 7), 5);
  // Near the end, "finishing", never a second or none left.
  assert.equal(at('paced', 11), 'finishing');
  for (const [t, left] of said.lastPart.filter(([t]) => t >= 2)) assert.equal(left, 'finishing', `at ${t} s`);
  assert.ok(said.bursts.every(([, left]) => left === null), JSON.stringify(said.bursts));
  const text = await page.evaluate(async () => {
    const { timeLeftText } = await import('./js/pooled.js');
    return [timeLeftText(null), timeLeftText('finishing'), timeLeftText(25)];
  });
  assert.deepEqual(text, ['', ' finishing…,', ' about 25 s left,']);
});

test('Table 1: our maximum efficiency beside the paper, as the CLI computes it', async (page) => {
  await page.click('#tab-table1');
  await page.fill('#table1-to', '3');
  await page.waitForFunction(() => document.querySelectorAll('#table1-maxima tbody tr').length === 2 &&
    /^Computed/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 120000 });
  const request = { ...JSON.parse(execFileSync(dlt, ['example', 'table1'])), machines_to: 3 };
  const want = cli(request).table.rows;
  const rows = await page.$$eval('#table1-maxima tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.title || c.textContent)));
  want.forEach((r, i) => {
    assert.equal(rows[i][1], fmt(r.max.efficiency));
    assert.equal(rows[i][7], fmt(r.paper[0]));
    assert.ok(r.max.efficiency >= r.paper[0], `m = ${r.machines}`);
  });
  // Emax against m, ours beside the paper's.
  const emax = await colouredPixels(page, '#table1-result figure[data-name="table1-emax"] canvas');
  assert.ok(emax > 300, `Emax chart not drawn (${emax} coloured pixels)`);
  const shown = await downloaded(page, '#table1-result .export-table-csv');
  assert.equal(shown.name, 'table1-maxima.csv');
  assert.match(shown.text, /^m,Emax,Vmax \(MB\),T \(s\),/);
  const others = await page.evaluate(() => document.querySelectorAll('#isoefficiency-result .export-table-csv').length);
  assert.equal(others, 1, 'the map\'s table has no CSV export');
  const csv = await downloaded(page, '#table1-result .export-csv');
  assert.match(csv.text, /^machines,emax,vmax,/);
  assert.equal(csv.text.trim().split('\n').length, 3);
});

test('generalised maps: a preset, a bad parameter name, CSV export', async (page) => {
  await page.click('#tab-contour');
  await computed(page);
  // The 0.1 line of this preset runs only along the grid's edge: it is
  // said, not drawn as dashes along the border.
  assert.match(await page.textContent('#contour-summary'),
    /^25 × 25 grid, 7 of 8 levels drawn \(level 0\.1 is met only along the grid's edge, not drawn\)/);
  assert.ok(await colouredPixels(page, '#contour-result canvas') > 1500, 'the map is not drawn');
  const summary = await page.textContent('#contour-summary');
  await page.fill('#contour-xp', 'speed');
  const slot = '#contour [data-error-for="x.parameter"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', slot);
  assert.match(await page.textContent(slot), /"speed" is not one \(machines, load, compute/);
  assert.equal(await page.textContent('#contour-summary'), summary);
  await page.fill('#contour-xp', 'compute');
  // Parameters are offered from a list (with what they are), the quantity chosen from one.
  const offered = await page.$$eval('#contour-xp-offered option', (os) => os.map((o) => [o.value, o.label]));
  assert.ok(offered.some(([v, l]) => v === 'load' && /linear/.test(l)), JSON.stringify(offered.slice(0, 5)));
  assert.deepEqual(await page.$$eval('#contour-q option', (os) => os.map((o) => o.value)), ['efficiency', 'speedup', 'makespan', 'energy']);
  await page.selectOption('#contour-preset', 'contour-startup');
  await page.click('#contour-load-preset');
  await page.waitForFunction(() => /^16 × 16 grid/.test(document.querySelector('#contour-summary')?.textContent ?? ''), null, { timeout: 120000 });
  const csv = await downloaded(page, '#contour-result .export-csv');
  assert.equal(csv.text.trim().split('\n').length, 1 + 16 * 16);
  await page.screenshot({ path: path.join(shots, 'generalised-map.png'), fullPage: true });
  // The fixed parameters taken from a tab's inputs, not typed as JSON.
  assert.equal(await page.inputValue('#contour-base-tab'), 'startup');
  await page.click('#tab-startup');
  await page.fill('#startup-m', '4');
  await page.click('#tab-contour');
  await page.click('#contour-base-take');
  assert.equal(JSON.parse(await page.inputValue('#contour-base')).machines, 4);
  await page.waitForFunction(() => /^16 × 16 grid/.test(document.querySelector('#contour-summary')?.textContent ?? '') && !document.querySelector('#contour-result').classList.contains('stale'), null, { timeout: 120000 });
  const names = await page.$$eval('#contour-base-tab option', (os) => os.map((o) => o.textContent));
  assert.ok(names.every((n) => !n.includes('&amp;') && !n.includes('<')), JSON.stringify(names));
  // Invalid inputs are not taken.
  await page.click('#tab-startup');
  await page.fill('#startup-m', 'x');
  await page.click('#tab-contour');
  const before = await page.inputValue('#contour-base');
  await page.click('#contour-base-take');
  assert.equal(await page.inputValue('#contour-base'), before);
  assert.match(await page.textContent('#contour [data-error-for="base"]'), /invalid inputs: fix them there first/);
  // And opened in their tab to be edited there.
  await page.click('#contour-base-edit');
  await page.waitForSelector('#startup:not([hidden])');
  assert.equal(await page.inputValue('#startup-m'), '4');
});

test('metrics: formulas typed, isoefficiency, a bad formula named where it is wrong, the USL preset', async (page) => {
  await page.click('#tab-metrics');
  await page.waitForFunction(() => document.querySelector('#metrics-min')?.textContent, null, { timeout: 60000 });
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'metrics-adding'])));
  assert.equal(await full(page, '#metrics-min'), fmt(want.report.min_time.time));
  assert.match(await page.textContent('#metrics-iso'), /W must grow as Θ\(p log p\)/);
  for (const name of ['speedup', 'isoefficiency']) {
    const n = await colouredPixels(page, `#metrics-result figure[data-name="${name}"] canvas`);
    assert.ok(n > 300, `${name} chart not drawn (${n} coloured pixels)`);
  }
  const before = await page.textContent('#metrics-min');
  await page.fill('#metrics-Tp', 'n/foo(p)');
  const slot = '#metrics [data-error-for="parallel"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', slot);
  assert.match(await page.textContent(slot), /^unknown function `foo` at 3/);
  assert.equal(await page.textContent('#metrics-min'), before);
  await page.fill('#metrics-Tp', 'n/p + 2*ln(p)');
  await page.waitForFunction(() => /^At p = 512 /.test(document.querySelector('#metrics-min-note')?.textContent ?? ''));
  // The lecture's notation, and constants typed as name = value pairs: the
  // box's text goes to the core, which reads it or says what to write.
  await page.fill('#metrics-const', 't_s 1');
  const constSlot = '#metrics [data-error-for="constants"]';
  await page.waitForFunction((s) => /^cannot read `t_s 1`: write name = value pairs/.test(document.querySelector(s)?.textContent ?? ''), constSlot);
  await page.fill('#metrics-const', 't_s = 1');
  await page.fill('#metrics-Tp', 'n/p + 2 ln p + t_s');
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') === '', constSlot);
  await page.waitForFunction(() => /^At p = 512 /.test(document.querySelector('#metrics-min-note')?.textContent ?? ''));
  await page.fill('#metrics-const', '');
  await page.fill('#metrics-Tp', 'n/p + 2*ln(p)');
  // A two-column table pasted (with its header) into the first cell fills the runs.
  await page.click('#metrics-add');
  await page.evaluate(() => {
    const input = document.querySelector('#metrics [data-field="measured[0].p"]');
    const data = new DataTransfer();
    data.setData('text/plain', 'p,time\n1,100\n2,52\n4,28\n8,20\n');
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => document.querySelectorAll('#metrics-karp-flatt tbody tr').length === 3, null, { timeout: 20000 });
  assert.equal(await page.inputValue('#metrics [data-field="measured[3].time"]'), '20');
  assert.match(await page.textContent('#metrics-trend'), /grows/);
  await page.selectOption('#metrics-preset', 'metrics-usl');
  await page.click('#metrics-load-preset');
  await page.waitForFunction(() => /peaks at p ≈ 25\.29/.test(document.querySelector('#metrics-usl')?.title || document.querySelector('#metrics-usl')?.textContent || ''), null, { timeout: 20000 });
  assert.match(await page.textContent('#metrics-trend'), /grows/);
  await page.screenshot({ path: path.join(shots, 'metrics.png'), fullPage: true });
});

test('MapReduce: the reference as the CLI computes it, its Gantt chart, a bad γ, [1]\'s series', async (page) => {
  await page.click('#tab-mapreduce');
  await result(page, 'mapreduce');
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'mapreduce'])));
  assert.equal(await full(page, '#mapreduce-makespan'), fmt(want.report.makespan));
  assert.match(await page.textContent('#mapreduce-verdict'), /verified/);
  assert.match(await page.textContent('#mapreduce-plateau'), /speedup approaches at most/);
  assert.match(await page.textContent('#mapreduce-sizes'), /0–99/);
  // The citation links to the bibliography at the foot of the page.
  const ref = await page.getAttribute('#mapreduce h2 .cite a', 'href');
  assert.equal(ref, '#bib-drozdowski-basics');
  assert.match(await page.textContent('#bib-drozdowski-basics'), /Divisible load theory: from basics to applications/);
  const drawn = await page.evaluate(() => {
    const c = document.querySelector('#mapreduce-result canvas.gantt');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const count = { map: 0, reduce: 0 };
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] === 46 && d[i + 1] === 139 && d[i + 2] === 87) count.map++;
      if (d[i] === 218 && d[i + 1] === 165 && d[i + 2] === 32) count.reduce++;
    }
    return count;
  });
  assert.ok(drawn.map > 1000 && drawn.reduce > 1000, `Gantt chart not drawn: ${JSON.stringify(drawn)}`);
  const before = await full(page, '#mapreduce-makespan');
  await page.fill('#mapreduce-g', '0');
  const slot = '#mapreduce [data-error-for="gamma"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', slot);
  assert.match(await page.textContent(slot), /must be greater than zero/);
  assert.equal(await full(page, '#mapreduce-makespan'), before);
  // A series shows its progress, and cancel keeps the previous result.
  await page.selectOption('#mapreduce-preset', 'mapreduce-reducers');
  await page.click('#mapreduce-load-preset');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.waitForFunction(() => document.querySelector('#progress').value > 0, null, { timeout: 20000 });
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled/.test((document.querySelector('#status-text')?.textContent ?? '')));
  assert.equal(await full(page, '#mapreduce-makespan'), before);
  await page.selectOption('#mapreduce-preset', 'mapreduce-gamma');
  await page.click('#mapreduce-load-preset');
  await page.waitForFunction(() => document.querySelectorAll('#mapreduce-series tbody tr').length > 30, null, { timeout: 60000 });
  const series = cli(JSON.parse(execFileSync(dlt, ['example', 'mapreduce-gamma']))).report.series;
  const levels = await page.evaluate(() => [...document.querySelectorAll('#mapreduce-series tbody tr:last-child > *')].map((td) => td.title || td.textContent));
  assert.deepEqual(levels.slice(1), series.map((l) => fmt(l.level)));
  const n = await colouredPixels(page, '#mapreduce-result figure[data-name="speedup-gamma"] canvas');
  assert.ok(n > 300, `series chart not drawn (${n} coloured pixels)`);
  await page.screenshot({ path: path.join(shots, 'mapreduce.png'), fullPage: true });
});

test('the service worker keeps every script of the page for offline use', async () => {
  const kept = readFileSync(path.join(root, 'www', 'sw.js'), 'utf8');
  const missing = readdirSync(path.join(root, 'www', 'js')).filter((f) => f.endsWith('.js') && !kept.includes(`'js/${f}'`));
  assert.deepEqual(missing, [], 'scripts the offline page would lack');
});

test('after one visit the page works offline, and says why it cannot work from a file', async (page) => {
  const context = await page.context().browser().newContext({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  try {
    const p = await context.newPage();
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await p.goto(`${base}?tab=m3`);
    await result(p, 'hierarchical');
    // Installed, and the wasm in its cache.
    await p.waitForFunction(async () => {
      await navigator.serviceWorker.ready;
      const wasm = new URL('pkg/dlt_calc_bg.wasm', location.href).href;
      for (const key of await caches.keys()) if (await (await caches.open(key)).match(wasm)) return true;
      return false;
    }, null, { timeout: 30000 });
    await context.setOffline(true);
    await p.reload();
    await result(p, 'hierarchical');
    assert.equal(await full(p, '#hierarchical-makespan'), '5.75');
    // Another tab computes offline too (its worker and the wasm come from the cache).
    await p.click('#tab-mapreduce');
    await result(p, 'mapreduce');
    await context.setOffline(false);
    // The Content-Security-Policy is in force and nothing violates it.
    assert.match(await p.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content'), /default-src 'self'/);
    assert.deepEqual(errors, []);
    // From a file: a sentence, not "Loading…" forever (the refused module
    // is the browser's own error on the console).
    await p.goto(`file://${path.join(root, 'www', 'index.html')}`);
    await p.waitForFunction(() => /opened from a file/.test(document.querySelector('#status-text')?.textContent ?? ''));
  } finally {
    await context.close();
  }
});

test('the single file works opened from a file, and computes on the page where workers are refused', async (page) => {
  const single = `file://${path.join(root, 'dist', 'dlt-calc.html')}`;
  for (const refused of [false, true]) {
    const context = await page.context().browser().newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await context.newPage();
      const errors = [];
      p.on('pageerror', (e) => errors.push(String(e)));
      p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      if (refused) await p.addInitScript(() => { window.Worker = function () { throw new Error('refused'); }; });
      await p.goto(single);
      await result(p, 'hierarchical');
      assert.equal(await full(p, '#hierarchical-makespan'), '5.75');
      assert.equal(await p.isVisible('#inline-note'), refused);
      // Its own instance is re-created after a crash from the inlined module.
      await p.evaluate(() => window.dispatchEvent(new ErrorEvent('error', { error: new WebAssembly.RuntimeError('unreachable') })));
      await p.waitForFunction(() => /crashed \(unreachable\) and was restarted/.test(document.querySelector('#crash-note')?.textContent ?? ''), null, { timeout: 20000 });
      await p.fill('#hierarchical-V', '2.5');
      await p.waitForFunction((v) => (document.querySelector('#hierarchical-makespan')?.title || document.querySelector('#hierarchical-makespan')?.textContent) === v, fmt(cli(worked(2.5)).report.makespan), { timeout: 20000 });
      await p.click('#tab-mapreduce');
      await result(p, 'mapreduce');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  }
});

test('heterogeneous: proven fastest as the CLI computes it, machine states drawn, a mode changed, a bad a2, the Pareto front', async (page) => {
  await page.click('#tab-heterogeneous');
  await result(page, 'heterogeneous');
  // A long search shows its best schedule so far first: wait for the proof.
  const proven = () => page.waitForFunction(() => /proven optimal/.test(document.querySelector('#heterogeneous-verdict')?.textContent ?? ''), null, { timeout: 60000 });
  await proven();
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'heterogeneous'])));
  assert.equal(await page.getAttribute('#heterogeneous h2 .cite a', 'href'), '#bib-marszalkowski-energy');
  // Optimal to 1e-9, ties broken within 1e-10.
  const near = async (sel, x) => {
    const shown = Number(await full(page, sel));
    assert.ok(Math.abs(shown - x) <= 1e-8 * Math.abs(x), `${sel}: ${shown} against the CLI's ${x}`);
  };
  await near('#heterogeneous-makespan', want.report.makespan);
  await near('#heterogeneous-energy', want.report.energy);
  // The preset's cells show six significant digits; the request keeps every
  // digit (the makespan above is the CLI's for the full numbers).
  assert.equal(await page.inputValue('#heterogeneous input[aria-label="P2 a2"]'), '5.68624');
  assert.equal(await page.inputValue('#heterogeneous input[aria-label="P2 b2"]'), '-22145');
  assert.match(await page.textContent('#heterogeneous-verdict'), /verified.*proven optimal/);
  assert.match(await page.textContent('#heterogeneous-energy-parts'), /asleep/);
  const bars = await colouredPixels(page, '#heterogeneous-result figure[data-name="energy"] canvas');
  assert.ok(bars > 2000, `energy bars not drawn (${bars} coloured pixels)`);
  const states = await page.evaluate(() => {
    const c = document.querySelector('#heterogeneous-result canvas.gantt');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const count = { wake: 0, inCore: 0, receive: 0 };
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] === 255 && d[i + 1] === 165 && d[i + 2] === 79) count.wake++;
      if (d[i] === 46 && d[i + 1] === 139 && d[i + 2] === 87) count.inCore++;
      if (d[i] === 70 && d[i + 1] === 130 && d[i + 2] === 180) count.receive++;
    }
    return count;
  });
  assert.ok(states.wake > 100 && states.inCore > 1000, `machine states not drawn: ${JSON.stringify(states)}`);
  // The first machine switched off: it wakes in 120 s, the schedule is longer.
  const before = await full(page, '#heterogeneous-makespan');
  await page.selectOption('select[aria-label="P1 mode"]', 'off');
  // The mode fills in its wake-up time and sleep power (0.5 % of idle).
  assert.equal(await page.inputValue('#heterogeneous input[aria-label="P1 S"]'), '120');
  assert.equal(await page.inputValue('#heterogeneous input[aria-label="P1 P sleep"]'), '0.5');
  const example = JSON.parse(execFileSync(dlt, ['example', 'heterogeneous']));
  const off = cli({ ...example, machines: example.machines.map((m, i) => (i === 0 ? { ...m, mode: 'off' } : m)) });
  await page.waitForFunction(([old]) => (document.querySelector('#heterogeneous-makespan')?.title || document.querySelector('#heterogeneous-makespan')?.textContent) !== old, [before], { timeout: 30000 });
  await page.waitForFunction((x) => /proven optimal/.test(document.querySelector('#heterogeneous-verdict')?.textContent ?? '')
    && Math.abs(Number(document.querySelector('#heterogeneous-makespan')?.title || document.querySelector('#heterogeneous-makespan')?.textContent) - x) <= 1e-8 * x,
  off.report.makespan, { timeout: 30000 });
  // A bad a2 is named next to its cell, and the result stays.
  const kept = await full(page, '#heterogeneous-makespan');
  await page.fill('input[aria-label="P2 a2"]', '0.01');
  const slot = '#heterogeneous [data-error-for="machines[1].a2"]';
  await page.waitForFunction((sel) => (document.querySelector(sel)?.textContent ?? '') !== '', slot);
  assert.match(await page.textContent(slot), /must be slower than the level above it/);
  assert.equal(await full(page, '#heterogeneous-makespan'), kept);
  // The Pareto front: proven points, the heuristics beside it, a chart.
  await page.selectOption('#heterogeneous-preset', 'heterogeneous-pareto');
  await page.click('#heterogeneous-load-preset');
  await page.waitForFunction(() => document.querySelectorAll('#heterogeneous-front tbody tr').length >= 10, null, { timeout: 60000 });
  assert.match(await page.textContent('#heterogeneous-front'), /proven/);
  assert.match(await page.textContent('#heterogeneous-compare'), /super-gss/);
  // The comparison sorts by a column: by runtime, then by makespan, slowest first.
  const heads = '#heterogeneous-compare thead button.sort';
  await page.click(`${heads} >> text="T (s)"`);
  await page.click(`${heads} >> text="T (s)"`);
  const times = await page.evaluate(() => [...document.querySelectorAll('#heterogeneous-compare tbody tr')]
    .map((tr) => parseFloat(tr.cells[1].textContent)));
  assert.deepEqual(times, [...times].sort((a, b) => b - a));
  assert.equal(await page.getAttribute('#heterogeneous-compare thead th:nth-child(2)', 'aria-sort'), 'descending');
  const n = await colouredPixels(page, '#heterogeneous-result figure[data-name="pareto"] canvas');
  assert.ok(n > 300, `Pareto chart not drawn (${n} coloured pixels)`);
  await page.screenshot({ path: path.join(shots, 'heterogeneous.png'), fullPage: true });
});

test('exercises: a sheet as the CLI draws it, answers checked right and wrong, hints, solution, kept over a reload, CSV, a shared file', async (page) => {
  await page.click('#tab-exercises');
  await page.waitForSelector('#exercise-1', { timeout: 60000 });
  const want = cli(JSON.parse(execFileSync(dlt, ['example', 'exercises-tour'])));
  assert.equal(await page.locator('li.exercise').count(), want.exercises.length);
  for (const e of want.exercises) {
    const shown = await page.evaluate((n) => document.querySelector(`#exercise-${n} .question`).innerHTML, e.number);
    assert.equal(shown, e.question, `exercise ${e.number}`);
  }
  // A number: wrong (too high), then right to four digits.
  const m3 = want.exercises.find((e) => e.template === 'hierarchical-two-levels');
  const id = `#exercise-${m3.number}`;
  await page.fill(`${id}-answer`, String(m3.answer.value * 1.1));
  await page.click(`${id}-check`);
  await page.waitForFunction((s) => /^Not right: .* too high/.test(document.querySelector(s).textContent), `${id}-verdict`);
  await page.fill(`${id}-answer`, `${Number(m3.answer.value.toPrecision(4))} s`);
  await page.click(`${id}-check`);
  await page.waitForFunction((s) => /^Right/.test(document.querySelector(s).textContent), `${id}-verdict`);
  await page.fill(`${id}-answer`, 'five');
  await page.click(`${id}-check`);
  await page.waitForFunction((s) => /^Not read: "five" is not a number/.test(document.querySelector(s).textContent), `${id}-verdict`);
  await page.fill(`${id}-answer`, String(m3.answer.value));
  await page.click(`${id}-check`);
  // A choice, wrong then right.
  const iso = want.exercises.find((e) => e.template === 'metrics-isoefficiency');
  const cid = `#exercise-${iso.number}`;
  const wrong = (iso.answer.correct[0] + 1) % iso.answer.options.length;
  await page.check(`${cid}-option-${wrong + 1}`);
  await page.click(`${cid}-check`);
  await page.waitForFunction((s) => /^Not right/.test(document.querySelector(s).textContent), `${cid}-verdict`);
  await page.check(`${cid}-option-${iso.answer.correct[0] + 1}`);
  await page.click(`${cid}-check`);
  await page.waitForFunction((s) => /^Right/.test(document.querySelector(s).textContent), `${cid}-verdict`);
  // One hint, then the worked solution (after a confirmation).
  await page.click(`${id}-hint`);
  assert.equal(await page.locator(`${id}-hints li`).count(), 1);
  assert.match(await page.textContent(`${id}-hint`), new RegExp(`^Hint \\(2 of ${m3.hints.length}\\)`));
  page.once('dialog', (d) => d.accept());
  await page.click(`${id}-show-solution`);
  assert.ok(await page.isVisible(`${id}-solution`));
  assert.match(await page.textContent(`${id}-solution`), new RegExp(m3.shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // The link carries the sheet; a reload keeps the answers, hints and solution.
  assert.match(page.url(), /tab=exercises/);
  assert.match(page.url(), /exercises\.seed=2026/);
  await page.reload();
  await page.waitForSelector(`${id}-verdict.right`, { timeout: 60000 });
  assert.equal(await page.inputValue(`${id}-answer`), String(m3.answer.value));
  assert.equal(await page.locator(`${id}-hints li`).count(), 1);
  assert.ok(await page.isVisible(`${id}-solution`));
  // The student's answers as CSV: every exercise, this one right after 3 tries.
  const csv = await downloaded(page, '#exercises-csv');
  const lines = csv.text.trim().split('\n');
  assert.equal(lines.length, 1 + want.exercises.length);
  const row = lines.find((l) => l.includes(',hierarchical-two-levels,'));
  assert.match(row, /,right,3,1,yes,/);
  assert.match(lines.find((l) => l.includes(',metrics-isoefficiency,')), /,right,2,0,no,/);
  // The teacher's answer key.
  await page.click('#exercises-settings summary');
  const key = await downloaded(page, '#exercises-key');
  assert.equal(key.text.trim().split('\n').length, 1 + want.exercises.length);
  // Open in the calculator: the M3 tab computes the same instance.
  await page.click(`${id}-open`);
  await page.waitForFunction((v) => (document.querySelector('#hierarchical-makespan')?.title || document.querySelector('#hierarchical-makespan')?.textContent) === v, fmt(m3.answer.value), { timeout: 20000 });
  assert.equal(await page.getAttribute('#tab-hierarchical', 'aria-selected'), 'true');
  // A sheet shared as a file: two exercises, drawn from its own seed.
  await page.click('#tab-exercises');
  const sheet = { model: 'exercises', title: 'Homework 3', seed: 7, items: [{ exercise: 'm2-split' }, { exercise: 'm4-beta' }] };
  await page.setInputFiles('#exercises-open', { name: 'homework.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(sheet)) });
  await page.waitForFunction(() => document.querySelectorAll('li.exercise').length === 2 && document.querySelector('#exercises-sheet-title')?.textContent === 'Homework 3', null, { timeout: 60000 });
  assert.equal(await page.innerHTML('#exercise-1 .question'), cli(sheet).exercises[0].question);
  await page.screenshot({ path: path.join(shots, 'exercises.png'), fullPage: true });
});

/** A preset's request, as the CLI prints it. */
function example(name) {
  return JSON.parse(execFileSync(dlt, ['example', name]));
}

/** The fit tab shown with its default preset, computed. */
async function fitComputed(page) {
  await page.goto(`${base}?tab=fit`);
  await page.waitForSelector('#fit-result:not([hidden]):not(.stale)', { timeout: 60000 });
  await computed(page);
}

/** Waits until the fit tab's result is drawn anew after `drawn` drawings. */
async function fitRedrawn(page, drawn) {
  await page.waitForFunction((n) => {
    const r = document.querySelector('#fit-result');
    return Number(r.dataset.drawn) > n && !r.classList.contains('stale');
  }, drawn, { timeout: 60000 });
}

/** Whether two fitted numbers agree (the page and the CLI run the same
 * code; only the path to it differs). */
const same = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

test('fit: the default preset computes as the CLI does, with its tables, charts and Open buttons; log axes redraw', async (page) => {
  await fitComputed(page);
  const want = cli(example('fit'));
  for (const id of ['fit-transfers', 'fit-computation', 'fit-power', 'fit-requests']) {
    assert.ok(await page.locator(`#${id} tbody tr`).count() >= 1, `no rows in #${id}`);
  }
  // The answer the page keeps (its download) is the CLI's.
  const answer = JSON.parse((await downloaded(page, '#fit-result .export-json')).text);
  assert.deepEqual(answer.report.calibration, want.report.calibration);
  assert.deepEqual(await page.$$eval('#fit-result figure', (fs) => fs.map((f) => f.dataset.name)), want.charts.map((c) => c.name));
  assert.ok(await colouredPixels(page, '#fit-result figure[data-name="fit-computation"] canvas') > 500, 'the computing chart is blank');
  // One button per model the fit fills, named by its tab's title.
  const targets = Object.keys(want.report.requests);
  assert.ok(targets.length >= 5, targets.join());
  for (const model of targets) {
    assert.equal(await page.textContent(`#fit-open-${model}`), `Open in ${want.report.titles[model]} with the fitted parameters`);
  }
  // Log axes: redrawn from the same answer, not computed again.
  const drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  const status = await page.textContent('#status-text');
  const linear = await page.$eval('#fit-result figure[data-name="fit-computation"] canvas', (c) => c.toDataURL());
  await page.check('#fit-log');
  await fitRedrawn(page, drawn);
  assert.equal(await page.textContent('#status-text'), status, 'log axes computed again');
  const log = await page.$eval('#fit-result figure[data-name="fit-computation"] canvas', (c) => c.toDataURL());
  assert.notEqual(log, linear, 'log axes drew the same chart');
  assert.match(page.url(), /[?&]fit\.log=1(&|$)/);
  await page.uncheck('#fit-log');
});

test('fit: a bad cell in a pasted table is named by row and column next to the text area; the result stays', async (page) => {
  await fitComputed(page);
  const before = await page.textContent('#fit-computation tbody');
  await page.fill('#fit-comp', 'size_MB,time_s\n100,10.9\n200,21.8\n300,fast\n400,43.6\n500,54.5\n');
  const slot = '[data-error-for="computation.csv"]';
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', slot);
  const message = await page.textContent(slot);
  // The bad cell is on the text's fourth line, in column time_s.
  assert.match(message, /row 4\b/);
  assert.match(message, /time_s/);
  assert.equal(await page.getAttribute('#fit-comp', 'aria-invalid'), 'true');
  assert.ok(await page.$eval('#fit-result', (e) => e.classList.contains('stale')));
  assert.equal(await page.textContent('#fit-computation tbody'), before);
  assert.ok(await page.isHidden('#fit-error'), 'the message went under the form, not next to its box');
  // A table too long to check at every keystroke: the worker names the cell, in the same place.
  const rows = Array.from({ length: 12000 }, (_, i) => `${100 + i},${i === 8998 ? 'fast' : (0.109 * (100 + i)).toFixed(3)}`);
  await page.$eval('#fit-comp', (area, text) => {
    area.value = text;
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, `size_MB,time_s\n${rows.join('\n')}\n`);
  await page.waitForFunction((s) => /row 9000\b/.test(document.querySelector(s)?.textContent ?? ''), slot, { timeout: 60000 });
  assert.match(await page.textContent(slot), /time_s/);
  assert.ok(await page.isHidden('#fit-error'), 'the worker\'s message went under the form, not next to its box');
  assert.equal(await page.textContent('#fit-computation tbody'), before);
  // Emptied, the table is left out of the request (its group is optional).
  // By the keyboard, as a user would: select all, Delete. While a closed
  // <details> hid its content by content-visibility, this kept Chromium
  // busy for 10-30 s (0.15 s once hidden by display: style.css). A test
  // does not time, so the panel's style is what is checked.
  const panel = await page.$eval('#fit-about', (d) => {
    const style = getComputedStyle(d, '::details-content');
    return [d.open, style.display, style.contentVisibility];
  });
  assert.deepEqual(panel, [false, 'none', 'visible']);
  await page.focus('#fit-comp');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  assert.equal(await page.inputValue('#fit-comp'), '');
  await page.waitForFunction(() => !document.querySelector('#fit-result').classList.contains('stale'), null, { timeout: 60000 });
  assert.equal(await page.locator('#fit-computation').count(), 0);
});

test('fit: uploading or dropping a file fills its text area and computes it', async (page) => {
  await fitComputed(page);
  const text = 'machine,size_MB,time_s\nm,100,10.9\nm,200,21.8\nm,400,43.7\nm,8000,6000\nm,9000,10090\nm,10000,14200\n';
  let drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  await page.setInputFiles('#fit-tr-file', { name: 'transfers.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.waitForFunction((t) => document.querySelector('#fit-tr').value === t, text);
  await fitRedrawn(page, drawn);
  // The file made the transfer table the user's: the other two are the
  // preset's examples, left out.
  const request = { ...example('fit'), transfers: { csv: text }, examples: { computation: true, power: true } };
  const want = cli(request).report.transfers[0].fit.slope.value;
  const answer = JSON.parse((await downloaded(page, '#fit-result .export-json')).text);
  assert.ok(same(answer.report.transfers[0].fit.slope.value, want));
  // A long file: its first lines shown, read-only, and the whole of it fitted.
  const n = 30000;
  const long = `size_MB,time_s\n${Array.from({ length: n }, (_, i) => `${100 + i},${(0.109 * (100 + i)).toFixed(3)}`).join('\n')}\n`;
  drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  await page.setInputFiles('#fit-comp-file', { name: 'times.csv', mimeType: 'text/csv', buffer: Buffer.from(long) });
  await fitRedrawn(page, drawn);
  assert.equal(await page.getAttribute('#fit-comp', 'readonly'), '');
  assert.match(await page.inputValue('#fit-comp'), new RegExp(`and ${n + 1 - 100} more lines, not shown`));
  // The count as the page writes it, in groups of three digits.
  assert.match(await page.textContent('#fit-computation tbody'), /\b30[\s\u2009\u202f]?000 samples/);
  await page.click('#fit-comp-clear');
  await page.waitForFunction(() => document.querySelector('#fit-computation') === null, null, { timeout: 60000 });
  assert.equal(await page.inputValue('#fit-comp'), '');
  assert.equal(await page.getAttribute('#fit-comp', 'readonly'), null);
  // A file dropped on the box.
  const dropped = 'state,power_W\ncompute,130\ncompute,131\nidle,70\nidle,72\n';
  drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  await page.$eval('#fit-pow', (area, t) => {
    const data = new DataTransfer();
    data.items.add(new File([t], 'power.tsv', { type: 'text/plain' }));
    area.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    area.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, dropped);
  await page.waitForFunction((t) => document.querySelector('#fit-pow').value === t, dropped);
  await fitRedrawn(page, drawn);
  // The idle factor: 130.5 W / 71 W.
  const k = (await page.textContent('#fit-power tbody')).includes(String(Number((130.5 / 71).toPrecision(4))));
  assert.ok(k, await page.textContent('#fit-power tbody'));
});

test('fit: "Open in" M5 fills a1, a2, b2 and C with the fitted values; Back returns to the fit', async (shared) => {
  // A page of its own: a tab's history holds at most 50 entries.
  const context = await shared.context().browser().newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block', acceptDownloads: true });
  try {
    await openFitted(await context.newPage());
  } finally {
    await context.close();
  }
});

async function openFitted(page) {
  await fitComputed(page);
  // One machine's computing and transfer times (the presets' tables, under one name).
  const comp = example('fit-two-level-000').computation.csv;
  const name = /^([^,\n#]+),\d/m.exec(comp)[1];
  const tr = example('fit-network-000').transfers.csv.replace(/^[^,\n#]+,(?=\d)/mg, `${name},`);
  const drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  await page.fill('#fit-tr', tr);
  await page.fill('#fit-comp', comp);
  await page.fill('#fit-pow', '');
  await page.click('#fit-compute');
  await fitRedrawn(page, drawn);
  const answer = JSON.parse((await downloaded(page, '#fit-result .export-json')).text);
  const machine = answer.report.calibration.machines.find((m) => m.machine === name);
  assert.equal(answer.report.calibration.machines.length, 1);
  const [core, disk] = machine.levels;
  const fitted = { a1: core.slope, a2: disk.slope, b2: disk.intercept, C: machine.rate };
  const length = await page.evaluate(() => history.length);
  await page.click('#fit-open-startup');
  await page.waitForFunction(() => document.querySelector('#tab-startup').getAttribute('aria-selected') === 'true');
  assert.equal(await page.evaluate(() => history.length), length + 1, 'opening a tab is not a history entry');
  for (const [key, value] of Object.entries(fitted)) {
    // The tab shows six significant digits and sends the full number.
    const shown = Number(await page.inputValue(`#startup-${key}`));
    assert.ok(same(shown, Number(value.toPrecision(6))), `${key}: ${shown} in the tab, ${value} fitted`);
  }
  await page.waitForSelector('#startup-result:not([hidden]):not(.stale)', { timeout: 120000 });
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#tab-fit').getAttribute('aria-selected') === 'true');
  assert.equal(await page.inputValue('#fit-comp'), comp);
  assert.equal(await page.inputValue('#fit-tr'), tr);
}

test('fit: a computing table alone opens M3 past the knee, labelled fitted, with no example network data; its runs check in one step', async (page) => {
  await fitComputed(page);
  // A machine whose RAM ends at 3 000 MB: max(0.02 α, 0.5 α − 1 440) s,
  // with ±1 % of deterministic noise; typed over the preset's example.
  const sizes = Array.from({ length: 24 }, (_, i) => 400 + 250 * i);
  const rows = sizes.map((x, i) => `${x},${(Math.max(0.02 * x, 0.5 * x - 1440) * (1 + 0.01 * Math.sin(3 * i))).toFixed(4)}`);
  const drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  await page.fill('#fit-comp', `size_MB,time_s\n${rows.join('\n')}\n`);
  // Typing the table made it the user's; the other tables stay examples.
  assert.equal(await page.isChecked('#fit-comp-ex'), false);
  assert.equal(await page.isChecked('#fit-tr-ex'), true);
  await page.click('#fit-compute');
  await fitRedrawn(page, drawn);
  assert.match(await page.textContent('#fit-tables'), /Fitted from computing times \(yours\); left out: transfer times, power readings \(examples/);
  const answer = JSON.parse((await downloaded(page, '#fit-result .export-json')).text);
  const [machine] = answer.report.calibration.machines;
  assert.equal(machine.rate, undefined, 'a rate was fitted from the example transfer table');
  assert.equal(machine.power, undefined, 'powers were read from the example power table');
  const knee = (machine.levels[0].intercept - machine.levels[1].intercept) / (machine.levels[1].slope - machine.levels[0].slope);
  assert.ok(Math.abs(knee - 3000) < 150, `knee ${knee}`);
  // Open in M3: the preset menu says where the inputs came from, each
  // change is listed old → new with its unit, the load is past the knee.
  await page.click('#fit-open-hierarchical');
  await page.waitForFunction(() => document.querySelector('#tab-hierarchical').getAttribute('aria-selected') === 'true');
  assert.match(await page.$eval('#hierarchical-preset', (s) => s.selectedOptions[0].textContent), /^fitted from your measurements/);
  const note = page.locator('#hierarchical-opened');
  assert.ok(await note.isVisible(), 'no note of what was opened');
  const items = await note.locator('li').allTextContents();
  assert.ok(items.some((t) => /^P1: time of α MB: .* → max\(.*\) s$/.test(t)), items.join('\n'));
  // The example's link (C = 1, S = 1: 9 001 s of 13 520 s sending) is
  // not kept unseen: nothing measured it, so it is left out, saying so.
  const link = items.filter((t) => /: [CS]: /.test(t));
  assert.ok(link.length > 0 && link.every((t) => / → 0 s(\/MB)? — not measured, so left out/.test(t)), `example network data used: ${items.join('\n')}`);
  const load = items.find((t) => t.startsWith('load V'));
  assert.match(load, /→ [\d\s\u2009\u202f.]+ MB — .*1\.5 × the fitted knee/);
  const processors = await page.locator('#hierarchical-rows tbody tr').count();
  const V = Number(await page.inputValue('#hierarchical-V'));
  assert.ok(V >= processors * knee, `V = ${V} MB is not past ${processors} knees of ${knee} MB`);
  await page.waitForSelector('#hierarchical-result:not([hidden]):not(.stale)', { timeout: 120000 });
  assert.equal(await note.locator('.edited:not([hidden])').count(), 0, 'a value marked as changed by the user before any edit');
  // One step to the validity check: the Fit tab, these inputs in its
  // request field, the runs box focused.
  await page.click('#hierarchical-check-runs');
  await page.waitForFunction(() => document.querySelector('#tab-fit').getAttribute('aria-selected') === 'true');
  const taken = JSON.parse(await page.inputValue('#fit-vreq'));
  assert.equal(taken.model, 'hierarchical');
  // The field shows six significant digits; the request keeps them all.
  assert.ok(Math.abs(taken.load - V) <= 1e-5 * V, `${taken.load} taken, ${V} shown`);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'fit-runs');
  // An edit of a listed value is marked in the note: its "fitted" no longer holds.
  await page.click('#tab-hierarchical');
  await page.fill('#hierarchical-V', String(Math.round(V / 2)));
  await page.waitForFunction(() => [...document.querySelectorAll('#hierarchical-opened li')]
    .some((li) => li.textContent.startsWith('load V') && !li.querySelector('.edited').hidden));
  assert.equal(await note.locator('.edited:not([hidden])').count(), 1);
  // Loading a preset there forgets the note.
  await page.selectOption('#hierarchical-preset', { index: 1 });
  await page.click('#hierarchical-load-preset');
  assert.equal(await note.isVisible(), false);
});

/** The numbers in a text as the page shows them (`12 057`, `4.129`,
 * `−3.5`), each with its number of decimals; digits glued to a name (`P1`)
 * are no number. */
function shownNumbers(text) {
  const found = text.matchAll(/(?<![\w.^·])[-−]?\d{1,3}(?:[\u202f\u2009]\d{3})+(?:\.\d+)?(?!\.?\d|·10)|(?<![\w.^·\d\u202f\u2009])[-−]?\d+(?:\.\d+)?(?![\d\u202f\u2009]|\.\d|·10)/g);
  return [...found].map(([t]) => {
    const plain = t.replace(/[\u202f\u2009]/g, '').replace('−', '-');
    return { text: t, value: Number(plain), decimals: (plain.split('.')[1] ?? '').length };
  });
}

test('fit: the note of a tab opened from a pasted table shows the fitted numbers, no digit lost', async (page) => {
  await fitComputed(page);
  // A fitted line whose intercept has a group starting with a zero:
  // 4.129·α − 12 057.33 past a knee near 2 934 MB.
  const sizes = Array.from({ length: 24 }, (_, i) => 400 + 250 * i);
  const rows = sizes.map((x) => `${x},${Math.max(0.02 * x, 4.129 * x - 12057.33).toFixed(4)}`);
  const drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  await page.fill('#fit-comp', `size_MB,time_s\n${rows.join('\n')}\n`);
  await page.click('#fit-compute');
  await fitRedrawn(page, drawn);
  const answer = JSON.parse((await downloaded(page, '#fit-result .export-json')).text);
  const request = answer.report.requests.hierarchical;
  const levels = request.processors[0].levels;
  const computed = [...levels.flatMap((l) => [l.slope, Math.abs(l.intercept)]), request.load];
  await page.click('#fit-open-hierarchical');
  await page.waitForFunction(() => document.querySelector('#tab-hierarchical').getAttribute('aria-selected') === 'true');
  const items = await page.locator('#hierarchical-opened li').allTextContents();
  const time = items.find((t) => /time of α MB/.test(t));
  const load = items.find((t) => t.startsWith('load V'));
  assert.ok(time && load, items.join('\n'));
  const fitted = (t) => t.split(' → ')[1].split(' — ')[0];
  const shown = [...shownNumbers(fitted(time)), ...shownNumbers(fitted(load))];
  assert.ok(shown.length >= 4, `${time}\n${load}`);
  for (const n of shown) {
    const near = computed.some((v) => Math.abs(Math.abs(n.value) - v) <= 0.5 * 10 ** -n.decimals * (1 + 1e-9));
    assert.ok(near, `${n.text} in "${time}" / "${load}" is none of the computed ${computed.join(', ')} at the digits shown`);
  }
  assert.match(time, /4\.129·α [−-] 12[\u202f\u2009]057/);
});

test('fit: a reload keeps a pasted table; a long one is named in the link by its hash', async (page) => {
  await fitComputed(page);
  const rows = Array.from({ length: 300 }, (_, i) => `${100 + 50 * i},${(0.109 * (100 + 50 * i) * (1 + 0.01 * Math.sin(i))).toFixed(4)}`);
  const long = `size_MB,time_s\n${rows.join('\n')}\n`;
  const short = 'size_MB,time_s\n1,0.08\n2,0.085\n4,0.095\n8,0.115\n';
  await page.fill('#fit-comp', long);
  await page.fill('#fit-tr', short);
  await page.waitForFunction(() => /[?&]fit\.comp=stored%3A[0-9a-f]{14}(&|$)/.test(location.search));
  assert.ok(page.url().length < 8000, `the link is ${page.url().length} characters long`);
  await page.reload();
  await page.waitForSelector('#fit-result:not([hidden])', { timeout: 60000 });
  assert.equal(await page.inputValue('#fit-comp'), long);
  assert.equal(await page.inputValue('#fit-tr'), short);
  // The same link in a browser that does not have the table says so.
  const context = await page.context().browser().newContext({ serviceWorkers: 'block' });
  try {
    const other = await context.newPage();
    await other.goto(page.url());
    await other.waitForSelector('#fit-form');
    assert.equal(await other.inputValue('#fit-comp'), '');
    assert.match(await other.getAttribute('#fit-comp', 'placeholder'), /kept by the browser that made the link/);
    assert.equal(await other.inputValue('#fit-tr'), short);
  } finally {
    await context.close();
  }
});

test('fit: the validity preset shows its runs, their relative errors and the chart', async (page) => {
  await fitComputed(page);
  await page.selectOption('#fit-preset', 'fit-validity');
  await page.click('#fit-load-preset');
  await page.waitForSelector('#fit-validity', { timeout: 60000 });
  const request = example('fit-validity');
  const runs = request.validity.measured.csv.trim().split('\n').slice(1).map((l) => l.split(','));
  const cells = await page.$$eval('#fit-validity tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.title || c.textContent)));
  assert.equal(cells.length, runs.length);
  // Each run's error against M2's makespan at its load, computed here.
  for (const [i, [, load, measured]] of runs.entries()) {
    const predicted = cli({ ...request.validity.request, load: Number(load) }).report.makespan;
    const error = 100 * (Number(measured) - predicted) / predicted;
    const shown = parseFloat(cells[i].at(-1));
    assert.ok(Math.abs(shown - error) < 1e-6 * Math.max(1, Math.abs(error)), `${cells[i]}: want ${error} %`);
  }
  assert.ok(await colouredPixels(page, '#fit-result figure[data-name="fit-validity"] canvas') > 200, 'the validity chart is blank');
  await page.screenshot({ path: path.join(shots, 'fit-validity.png'), fullPage: true });
});

test('fit: three lines open in M3 whole: every level in its table, and the runs checked against all of them', async (page) => {
  await fitComputed(page);
  await page.selectOption('#fit-preset', 'fit-sqlite');
  await page.click('#fit-load-preset');
  await page.waitForSelector('#fit-validity', { timeout: 60000 });
  const drawn = Number(await page.getAttribute('#fit-result', 'data-drawn'));
  await page.selectOption('#fit-shape', 'lines');
  await page.fill('#fit-lines', '3');
  await page.click('#fit-compute');
  await fitRedrawn(page, drawn);
  const want = cli({ ...example('fit-sqlite'), shape: 'lines', lines: 3 });
  const levels = want.report.requests.hierarchical.processors[0].levels;
  assert.equal(levels.length, 3, JSON.stringify(levels));
  // The runs are still checked against the preset's two levels, and the
  // page says so.
  assert.match(await page.textContent('#fit-validity-unlike'), /differs from the fit above in processors\[0\]\.levels/);
  await page.click('#fit-open-hierarchical');
  await page.waitForFunction(() => document.querySelector('#tab-hierarchical').getAttribute('aria-selected') === 'true');
  // The third line's columns hold its numbers (six significant digits),
  // shown although the further levels fold where nothing is in them.
  assert.ok(await page.isVisible('#hierarchical-rows tbody tr:first-child [data-key="h31"]'), 'the third level is folded away');
  const third = [await page.inputValue('#hierarchical-rows tbody tr:first-child [data-key="h31"]'),
    await page.inputValue('#hierarchical-rows tbody tr:first-child [data-key="h32"]')].map(Number);
  assert.ok(Math.abs(third[0] - levels[2].intercept) <= 1e-5 * Math.abs(levels[2].intercept), `${third} vs ${JSON.stringify(levels[2])}`);
  assert.ok(Math.abs(third[1] - levels[2].slope) <= 1e-5 * levels[2].slope, `${third} vs ${JSON.stringify(levels[2])}`);
  await page.waitForSelector('#hierarchical-result:not([hidden]):not(.stale)', { timeout: 120000 });
  await page.click('#hierarchical-check-runs');
  await page.waitForFunction(() => document.querySelector('#tab-fit').getAttribute('aria-selected') === 'true');
  const taken = JSON.parse(await page.inputValue('#fit-vreq'));
  assert.equal(taken.processors[0].levels.length, 3, JSON.stringify(taken.processors[0]));
});

test('Compute with a marked field focuses that field, bringing it into view', async (page) => {
  await fitComputed(page);
  await page.selectOption('#fit-shape', 'lines');
  await page.fill('#fit-lines', '5');
  await page.waitForFunction(() => document.querySelector('#fit-lines').getAttribute('aria-invalid') === 'true');
  await page.focus('#fit-compute');
  await page.click('#fit-compute');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'fit-lines');
  await page.fill('#fit-lines', '');
  await page.selectOption('#fit-shape', 'auto');
});

/** Every tab's id, in the order of the tab bar. */
const TABS = ['metrics', 'linear', 'hierarchical', 'installments', 'startup', 'heterogeneous', 'mapreduce', 'isoefficiency', 'table1', 'fit', 'contour', 'exercises'];

test('Back and Forward restore the tab and the inputs: a tab switch, a computed input set and "Open in the calculator" are entries, typing is not', async (shared) => {
  // A page of its own: a tab's history holds at most 50 entries, which
  // the tests before this one may have filled.
  const context = await shared.context().browser().newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await backAndForward(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

async function backAndForward(page) {
  await page.goto(base);
  await result(page, 'hierarchical');
  const first = await page.inputValue('#hierarchical-V');
  const length = () => page.evaluate(() => history.length);
  const start = await length();
  const before = await full(page, '#hierarchical-makespan');
  await page.fill('#hierarchical-V', '3');
  await makespanChange(page, before);
  assert.equal(await length(), start, 'typing added a history entry');
  await page.click('#hierarchical-compute');
  assert.equal(await length(), start + 1, 'a computed input set is an entry');
  await page.click('#tab-linear');
  await result(page, 'linear');
  assert.equal(await length(), start + 2, 'a tab switch is an entry');
  assert.match(page.url(), /[?&]tab=linear(&|$)/);
  const selected = () => page.$eval('[role="tab"][aria-selected="true"]', (t) => t.id);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#tab-hierarchical').getAttribute('aria-selected') === 'true');
  assert.equal(await page.inputValue('#hierarchical-V'), '3');
  assert.ok(page.url().startsWith(base), `Back left the page: ${page.url()}`);
  await page.goBack();
  await page.waitForFunction((v) => document.querySelector('#hierarchical-V').value === v, first);
  assert.equal(await selected(), 'tab-hierarchical');
  assert.ok(page.url().startsWith(base), `Back left the page: ${page.url()}`);
  // The result follows the restored inputs.
  await page.waitForFunction((want) => (document.querySelector('#hierarchical-makespan')?.title
    || document.querySelector('#hierarchical-makespan')?.textContent) === want, fmt(cli(worked(Number(first))).report.makespan), { timeout: 20000 });
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#hierarchical-V').value === '3');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#tab-linear').getAttribute('aria-selected') === 'true');
  // An exercise opened in the calculator: Back returns to the sheet.
  await page.click('#tab-exercises');
  await page.waitForSelector('#exercise-1-open', { timeout: 60000 });
  await page.click('#exercise-1-open');
  await page.waitForFunction(() => document.querySelector('#tab-exercises').getAttribute('aria-selected') === 'false');
  const opened = await selected();
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('#tab-exercises').getAttribute('aria-selected') === 'true');
  await page.goForward();
  await page.waitForFunction((id) => document.getElementById(id).getAttribute('aria-selected') === 'true', opened);
}

test('at 360 px the tabs take one line and every tab\'s result is on the first screen or one jump away', async (page) => {
  await page.setViewportSize({ width: 360, height: 740 });
  try {
    await page.goto(base);
    await result(page, 'hierarchical');
    const line = await page.evaluate(() => {
      const tops = [...document.querySelectorAll('[role="tab"]')].map((t) => t.getBoundingClientRect().top);
      return { tops: new Set(tops).size, height: document.querySelector('nav').getBoundingClientRect().height,
        bottom: document.querySelector('nav').getBoundingClientRect().bottom };
    });
    assert.equal(line.tops, 1, 'the tabs wrap');
    assert.ok(line.height < 60 && line.bottom < 220, JSON.stringify(line));
    for (const tab of TABS) {
      await page.click(`#tab-${tab}`);
      await page.waitForSelector(`#${tab}-result:not([hidden])`, { timeout: 120000 });
      assert.equal(await page.getAttribute(`#tab-${tab}`, 'aria-selected'), 'true');
      // The chosen tab is scrolled into the strip.
      const inStrip = await page.$eval(`#tab-${tab}`, (t) => {
        const r = t.getBoundingClientRect();
        return r.left >= -1 && r.right <= window.innerWidth + 1;
      });
      assert.ok(inStrip, `${tab}: the chosen tab is outside the strip`);
      await page.evaluate(() => window.scrollTo(0, 0));
      const top = () => page.$eval(`#${tab}-result`, (e) => e.getBoundingClientRect().top);
      if (await top() >= 700) {
        await page.click('#jump-result');
        await page.waitForFunction((t) => {
          const r = document.querySelector(`#${t}-result`).getBoundingClientRect().top;
          return r >= 0 && r < window.innerHeight * 0.75;
        }, tab, { timeout: 5000 }).catch(async () => assert.fail(`${tab}: after the jump the result is ${await top()} px down`));
      }
      assert.ok(await top() < 740, `${tab}: the result is ${await top()} px down`);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('exercises: Copy link carries the sheet alone, as the printed sheet\'s link does', async (page) => {
  await page.click('#tab-exercises');
  await page.waitForSelector('#exercises-result:not([hidden])', { timeout: 60000 });
  await page.evaluate(() => { navigator.clipboard.writeText = async (t) => { window.copied = t; }; });
  await page.click('#exercises-settings summary');
  await page.click('#exercises-copy-link');
  const copied = await (await page.waitForFunction(() => window.copied)).jsonValue();
  const keys = [...new URL(copied).searchParams.keys()];
  assert.equal(new URL(copied).searchParams.get('tab'), 'exercises');
  assert.deepEqual(keys.filter((k) => k !== 'tab' && !k.startsWith('exercises.')), [], copied);
});

test('exercises: Check with an empty box keeps the answer; the tolerance is said before the first try', async (page) => {
  await page.click('#tab-exercises');
  const sheet = { model: 'exercises', title: 'Empty box', seed: 11, items: [{ exercise: 'linear-split' }] };
  const want = cli(sheet).exercises[0];
  await page.setInputFiles('#exercises-open', { name: 'empty-box.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(sheet)) });
  await page.waitForFunction(() => document.querySelector('#exercises-sheet-title')?.textContent === 'Empty box', null, { timeout: 60000 });
  assert.equal(await page.textContent('#exercise-1-verdict'), '');
  assert.equal(await page.textContent('#exercise-1-tolerance'), `(within ${want.answer.tolerance * 100} % counts)`);
  assert.ok(await page.isVisible('#exercise-1-tolerance'));
  const right = String(Number(want.answer.value.toPrecision(5)));
  await page.fill('#exercise-1-answer', right);
  await page.click('#exercise-1-check');
  await page.waitForSelector('#exercise-1-verdict.right');
  assert.equal(await page.textContent('#exercise-1-verdict'), `Right: ${right} ${want.answer.unit}, within ${want.answer.tolerance * 100} % of the answer.`);
  await page.fill('#exercise-1-answer', '');
  await page.click('#exercise-1-check');
  await page.waitForFunction(() => /kept/.test(document.querySelector('#exercise-1-verdict').textContent));
  assert.match(await page.textContent('#exercise-1-verdict'), new RegExp(`^Not read: .*Your last answer \\(${right}\\) is kept\\.$`));
  const csv = await downloaded(page, '#exercises-csv');
  assert.match(csv.text.trim().split('\n')[1], new RegExp(`,${right},right,1,0,no,`));
  await page.reload();
  await page.waitForSelector('#exercise-1-verdict.right', { timeout: 60000 });
  assert.equal(await page.inputValue('#exercise-1-answer'), right);
  // An entry that could not be read was never checked: the one kept is the
  // last that was.
  await page.fill('#exercise-1-answer', 'abc');
  await page.click('#exercise-1-check');
  await page.waitForSelector('#exercise-1-verdict.unreadable');
  await page.fill('#exercise-1-answer', '');
  await page.click('#exercise-1-check');
  await page.waitForFunction(() => /kept/.test(document.querySelector('#exercise-1-verdict').textContent));
  assert.match(await page.textContent('#exercise-1-verdict'), new RegExp(`Your last answer \\(${right}\\) is kept\\.$`));
});

/** Whether an element matching `sel` is laid out and visible (in the
 * media emulated: print shows what a printed page holds). */
const shown = (page, sel) => page.$$eval(sel, (list) => list.some((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'));

/** Dark pixels drawn inside an element (its bottom border, an answer line,
 * left out): what a printed answer box shows besides its line. */
async function ink(page, selector) {
  const png = await page.locator(selector).screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    Object.assign(c, { width: img.width, height: img.height });
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const rows = Math.max(1, img.height - 4);
    const d = g.getImageData(0, 0, img.width, rows).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 3 * 160) n++;
    return n;
  }, png.toString('base64'));
}

/** Prints the page on screen to a PDF in the screenshots' folder (as the
 * browser prints it: its beforeprint and afterprint run), and to PNGs of
 * its pages where poppler's pdftoppm is installed, to look at. */
async function printed(page, name) {
  const pdf = path.join(shots, `${name}.pdf`);
  // No media emulated: a PDF is printed with print media.
  await page.emulateMedia({ media: null });
  await page.pdf({ path: pdf, format: 'A4' });
  try {
    execFileSync('pdftoppm', ['-r', '60', '-png', pdf, path.join(shots, name)], { stdio: 'ignore' });
  } catch { /* not installed: the PDF alone */ }
}

/** A sheet of three exercises (a number, a choice, a number with a unit)
 * with a long title, opened from a file. */
const PRINTED = { model: 'exercises', title: 'Divisible load theory, week 5: homework to hand in on Friday', seed: 31,
  items: [{ exercise: 'metrics-efficiency' }, { exercise: 'metrics-isoefficiency' }, { exercise: 'linear-split' }] };

async function openPrinted(page) {
  await page.click('#tab-exercises');
  await page.setInputFiles('#exercises-open', { name: 'week-5.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(PRINTED)) });
  await page.waitForFunction((t) => document.querySelector('#exercises-sheet-title')?.textContent === t, PRINTED.title, { timeout: 60000 });
}

test('a printed exercise sheet is a handout: blank answer lines, a name line, its link and the works it cites', async (page) => {
  await openPrinted(page);
  const want = cli(PRINTED);
  // The title box shows the whole title.
  await page.click('#exercises-settings summary');
  assert.ok(await page.$eval('#exercises-title', (e) => e.scrollWidth <= e.clientWidth), 'the title box cuts the title');
  await page.click('#exercises-settings summary');
  // On screen an empty box shows its placeholder.
  assert.ok(await ink(page, '#exercise-3-answer') > 20, 'no placeholder on screen');
  // Answers typed, one checked, a choice picked and a solution shown:
  // none of them is printed.
  await page.fill('#exercise-1-answer', '0.5');
  await page.click('#exercise-1-check');
  await page.waitForFunction(() => document.querySelector('#exercise-1-verdict').textContent !== '');
  await page.check('#exercise-2-option-2');
  await page.fill('#exercise-3-answer', '123.456');
  page.once('dialog', (d) => d.accept());
  await page.click('#exercise-3-show-solution');
  const chrome = ['nav', '#status', '#exercises-settings', 'footer', '#bibliography', '#large-text', '#exercise-1-check',
    '#exercise-1-hint', '#exercise-1-open', '#exercises-csv', '#exercise-1-verdict', '#exercises-about', '#exercises > h2',
    '#exercise-3-solution', '#exercises-answer-key'];
  assert.ok(await ink(page, '#exercise-1-answer') > 20 && await ink(page, '#exercise-3-answer') > 20, 'no typed answer on screen');
  try {
    await page.emulateMedia({ media: 'print' });
    for (const sel of chrome) assert.ok(!(await shown(page, sel)), `${sel} is printed`);
    for (const e of want.exercises) assert.ok(await shown(page, `#exercise-${e.number} .question`));
    // Blank answer lines: no typed answer, no placeholder ("e.g. 5.75").
    for (const n of [1, 3]) assert.equal(await ink(page, `#exercise-${n}-answer`), 0, `exercise ${n}'s typed answer is printed`);
    await page.fill('#exercise-3-answer', '');
    assert.equal(await ink(page, '#exercise-3-answer'), 0, 'the placeholder is printed');
    const circles = await page.$$eval('#exercise-2-answer input', (rs) => rs.map((r) => {
      const c = getComputedStyle(r);
      return [c.appearance, c.backgroundColor, c.borderTopColor].join(' ');
    }));
    assert.equal(new Set(circles).size, 1, `the chosen option is marked in print: ${circles}`);
    // The name and date line with the seed, and the link that reopens the sheet.
    assert.match(await page.innerText('#exercises-sheet-head'), new RegExp(`^Name: +Date: +Seed ${PRINTED.seed}$`));
    const link = await page.getAttribute('#exercises-sheet-link a', 'href');
    assert.equal(await page.innerText('#exercises-sheet-link'), `This sheet online: ${link}`);
    assert.ok(link.length < 400 && !/hierarchical\.|metrics\./.test(link), `the link is not the sheet's alone: ${link}`);
    // The works the exercises cite, numbered as their citations.
    const cited = await page.$$eval('li.exercise h4 a.cite', (as) => as.map((a) => [a.getAttribute('href').slice(5), a.textContent]));
    const works = await page.$$eval('#exercises-result .works-cited li', (lis) => lis.map((li) => [li.value, li.textContent]));
    const keys = [...new Set(want.exercises.map((e) => e.source))];
    assert.equal(works.length, keys.length);
    for (const [key, mark] of cited) {
      const bib = await page.$eval(`#bib-${key}`, (li) => [[...li.parentElement.children].indexOf(li) + 1, li.textContent]);
      assert.equal(mark, `[${bib[0]}]`);
      assert.ok(works.some(([n, text]) => n === bib[0] && text === bib[1]), `${key} is not printed as [${bib[0]}]`);
    }
    assert.ok(await shown(page, '#exercises-result .works-cited'));
    await page.screenshot({ path: path.join(shots, 'print-exercises.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    assert.ok(await shown(page, '#exercise-1-check') && await shown(page, 'nav'));
    assert.ok(!(await shown(page, '#exercises-sheet-link')) && !(await shown(page, '#exercises-result .works-cited')));
    await printed(page, 'print-exercises');
    // The printed link opens the same sheet.
    const context = await page.context().browser().newContext({ serviceWorkers: 'block' });
    const other = await context.newPage();
    try {
      await other.goto(link);
      await other.waitForFunction((t) => document.querySelector('#exercises-sheet-title')?.textContent === t, PRINTED.title, { timeout: 60000 });
      assert.equal(await other.innerHTML('#exercise-3 .question'), want.exercises[2].question);
    } finally {
      await context.close();
    }
  } finally {
    await page.emulateMedia({ media: null });
  }
});

test('the answer key prints alone when asked for: the answers and worked solutions the core wrote', async (page) => {
  await openPrinted(page);
  const want = cli(PRINTED);
  const plainText = (html) => html.replace(/<[^>]+>/g, '');
  try {
    await page.emulateMedia({ media: 'print' });
    assert.ok(!(await shown(page, '#exercises-answer-key')), 'the key is printed unasked');
    await page.emulateMedia({ media: null });
    // The browser's print dialog is the test's counter.
    await page.evaluate(() => { window.print = () => { window.printed = (window.printed ?? 0) + 1; }; });
    await page.click('#exercises-settings summary');
    await page.click('#exercises-print');
    assert.equal(await page.evaluate(() => [window.printed, document.documentElement.classList.contains('print-key')].join()), '1,false');
    await page.click('#exercises-print-key');
    assert.equal(await page.evaluate(() => window.printed), 2);
    assert.ok(!(await shown(page, '#exercises-answer-key')), 'the key is shown on screen');
    await page.emulateMedia({ media: 'print' });
    assert.ok(await shown(page, '#exercises-answer-key'));
    assert.ok(!(await shown(page, 'li.exercise')) && !(await shown(page, '#exercises-sheet-title')), 'the sheet is printed with its key');
    assert.match(await page.innerText('#exercises-answer-key h3'), new RegExp(`^Answer key: ${PRINTED.title}$`));
    const items = await page.$$eval('#exercises-answer-key li', (lis) => lis.map((li) => [li.value, li.querySelector('.key-answer').textContent, li.querySelectorAll('p').length]));
    assert.deepEqual(items, want.exercises.map((e) => [e.number,
      `Answer: ${e.answer.kind === 'number' ? `${plainText(e.answer.asked)} = ${e.shown}` : e.shown}`, 1 + e.solution.length]));
    await page.screenshot({ path: path.join(shots, 'print-answer-key.png'), fullPage: true });
    await page.emulateMedia({ media: null });
    await printed(page, 'print-answer-key');
    // Printed once: the next print is the sheet again.
    await page.emulateMedia({ media: 'print' });
    assert.ok(!(await shown(page, '#exercises-answer-key')) && await shown(page, 'li.exercise'), 'the key is printed again unasked');
  } finally {
    await page.emulateMedia({ media: null });
    await page.click('#exercises-settings summary');
  }
});

test('a printed result keeps its column heads with their units and its charts, drawn for the page, with no "Download:"', async (page) => {
  await page.click('#tab-linear');
  await result(page, 'linear');
  const heads = () => page.$$eval('#linear-result table', (ts) => ts.map((t) => [t.id, [...t.tHead.rows[0].cells].map((c) => c.innerText)]));
  const onScreen = await heads();
  assert.deepEqual(onScreen.find(([id]) => id === 'linear-energy')[1], ['part', 'energy (J)']);
  assert.deepEqual(onScreen.find(([id]) => id === 'linear-sizes')[1], ['machine', 'α (units)']);
  const charts = () => page.$$eval('#linear-result canvas', (cs) => cs.map((c) => [c.dataset.width, c.width]));
  const screen = await charts();
  try {
    await page.emulateMedia({ media: 'print' });
    assert.deepEqual(await heads(), onScreen);
    const captions = await page.$$eval('#linear-result figcaption', (fs) => fs.map((f) => f.innerText));
    assert.deepEqual(captions, ['Gantt chart.', 'Energy E against schedule length T(m), m growing.', 'Speedup T(1)/T(m).']);
    assert.ok(!(await shown(page, '#linear-result button:not(.sort)')), 'a button is printed');
    assert.ok(await shown(page, '#linear-result .works-cited'));
    // Charts are drawn for the page's width when the browser prints
    // (sharper, their text at its size), and for the screen after.
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    assert.deepEqual(await charts(), screen.map(() => ['680', 2040]));
    for (const name of ['gantt', 'energy', 'speedup']) {
      assert.ok(await colouredPixels(page, `#linear-result figure[data-name="${name}"] canvas`) > 300, `${name} is not drawn for print`);
    }
    await page.screenshot({ path: path.join(shots, 'print-result.png'), fullPage: true });
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    assert.deepEqual(await charts(), screen);
    await page.emulateMedia({ media: null });
    await printed(page, 'print-result');
    assert.deepEqual(await charts(), screen);
    // A result that is not for the inputs printed says so.
    await page.fill('#linear-V', '');
    await page.waitForSelector('#linear-stale:not([hidden])');
    await page.emulateMedia({ media: 'print' });
    assert.ok(await shown(page, '#linear-stale'), 'a stale result is printed without its note');
    await page.emulateMedia({ media: null });
    await page.fill('#linear-V', '1000');
    await page.waitForFunction(() => !document.querySelector('#linear-result').classList.contains('stale'), null, { timeout: 20000 });
  } finally {
    await page.emulateMedia({ media: null });
  }
});

test('printed, a wide table of machines (M7\'s fourteen columns) fits an A4 page\'s width, no column cut', async (page) => {
  await page.goto(`${base}?tab=heterogeneous`);
  await page.waitForSelector('#heterogeneous-result:not([hidden]):not(.stale)', { timeout: 120000 });
  // A4 less the page's 1.5 cm margins is 180 mm: 680 CSS pixels.
  await page.setViewportSize({ width: 680, height: 1000 });
  await page.emulateMedia({ media: 'print' });
  try {
    const [table, wrap] = await page.$eval('#heterogeneous-rows', (t) => [t.getBoundingClientRect().width, t.parentElement.getBoundingClientRect().width]);
    assert.ok(table <= wrap + 1, `the machines' table is ${table} px wide on a ${wrap} px page`);
    // Every value shown whole in its cell.
    const cut = await page.$$eval('#heterogeneous-rows input', (inputs) => inputs.filter((i) => i.scrollWidth > i.clientWidth + 1).map((i) => i.value));
    assert.deepEqual(cut, []);
  } finally {
    await page.emulateMedia({ media: null });
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('opening a file that is not a sheet says what file was expected and what was found', async (page) => {
  await page.click('#tab-exercises');
  await page.setInputFiles('#exercises-open', { name: 'machines.csv', mimeType: 'text/csv', buffer: Buffer.from('machines,energy\n1,2\n') });
  await page.waitForSelector('#exercises-error:not([hidden])');
  const said = await page.textContent('#exercises-error');
  assert.match(said, /^The sheet could not be opened: machines\.csv is a CSV table, not JSON \(it starts with "machines,energy 1,2"\); expected an exercise sheet: a JSON file saved with "Download the sheet \(JSON\)"$/);
  assert.doesNotMatch(said, /Unexpected token/);
  await page.setInputFiles('#exercises-open', { name: 'm1.json', mimeType: 'application/json', buffer: Buffer.from('{"model": "linear"}') });
  await page.waitForFunction(() => /m1\.json is a request of the linear model, not an exercise sheet/.test(document.querySelector('#exercises-error').textContent));
});

test('Escape cancels a running computation and focus returns to the button that started it', async (page) => {
  const { query } = slowInstance();
  await page.goto(`${base}?V=40&${query}`);
  await result(page, 'hierarchical');
  const before = await full(page, '#hierarchical-makespan');
  await page.check('#hierarchical-best');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.focus('#hierarchical-compute');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 5000 });
  assert.ok(await page.isHidden('#cancel'));
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'hierarchical-compute');
  assert.equal(await full(page, '#hierarchical-makespan'), before);
  // The Cancel button too gives focus back.
  await page.click('#hierarchical-compute');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'hierarchical-compute');
  await page.uncheck('#hierarchical-best');
});

test('the duplicate-row button draws its icon (no "⧉" glyph) and duplicates the row', async (page) => {
  await page.goto(`${base}?tab=hierarchical`);
  await result(page, 'hierarchical');
  const button = '#hierarchical-form tbody tr:first-child .row-edit[aria-label^="duplicate"]';
  assert.equal(await page.$eval(button, (b) => b.textContent), '');
  assert.ok(await page.$eval(button, (b) => {
    const svg = b.querySelector('svg');
    return svg !== null && svg.getBoundingClientRect().width >= 8 && svg.querySelectorAll('rect').length === 2;
  }), 'no icon drawn');
  assert.equal(await page.locator('#hierarchical-form tbody .row-edit', { hasText: '⧉' }).count(), 0);
  const rows = await page.locator('#hierarchical-form tbody tr').count();
  await page.click(button);
  assert.equal(await page.locator('#hierarchical-form tbody tr').count(), rows + 1);
  await page.click('#hierarchical-form tbody tr:nth-child(2) .row-edit[aria-label^="remove"]');
  assert.equal(await page.locator('#hierarchical-form tbody tr').count(), rows);
});

test('every number field is as wide as its value (MapReduce\'s 1e15 load), on every tab', async (page) => {
  await page.goto(base);
  await result(page, 'hierarchical');
  assert.equal(await page.inputValue('#mapreduce-V'), '1000000000000000');
  const cut = await page.evaluate((tabs) => tabs.flatMap((tab) => {
    const section = document.getElementById(tab);
    section.hidden = false;
    const inputs = [...section.querySelectorAll('form input[inputmode="decimal"]')];
    const narrow = inputs.filter((i) => i.value !== '' && i.scrollWidth > i.clientWidth).map((i) => `${tab}: ${i.dataset.field} = ${i.value}`);
    section.hidden = tab !== 'hierarchical';
    return narrow;
  }), TABS);
  assert.deepEqual(cut, []);
});

test('every tab fits a 360 px phone with chart text at full size, and reads on a projector with larger text', async (page) => {
  const tabs = TABS;
  const visit = async (tab) => {
    await page.click(`#tab-${tab}`);
    await page.waitForSelector(`#${tab}-result:not([hidden])`, { timeout: 120000 });
    // A fresh drawing at this width (charts are sized when drawn); the
    // exercise sheet's settings may be folded away.
    await page.$eval(`#${tab}-compute`, (b) => b.click());
    await page.waitForSelector(`#${tab}-result:not([hidden]):not(.stale)`, { timeout: 120000 });
    await page.waitForFunction(() => !/^Computing/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 120000 });
  };
  // Canvases laid out no wider than shown (their text, 11 px and up, is not
  // shrunk), and their buffers at the screen's pixel density (sharp).
  const shrunk = () => page.evaluate(() => [...document.querySelectorAll('section:not([hidden]) canvas')]
    .filter((c) => c.getBoundingClientRect().width > 0)
    .flatMap((c) => {
      const shown = c.getBoundingClientRect().width;
      const laid = shown / Number(c.dataset.width);
      const sharp = c.width / (shown * devicePixelRatio);
      return [laid, sharp].filter((r) => r < 0.99);
    }));
  await page.setViewportSize({ width: 360, height: 800 });
  try {
    for (const tab of tabs) {
      await visit(tab);
      // The "About the model" panel, opened: its formulas, its sources linked.
      await page.click(`#${tab}-about summary`);
      assert.ok(await page.locator(`#${tab}-about dd`).count() >= 2, `${tab}: no formulas`);
      assert.ok(await page.locator(`#${tab}-about a[href^="#bib-"]`).count() >= 1, `${tab}: no source`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${tab}: the page is ${overflow}px wider than the screen`);
      assert.deepEqual(await shrunk(), [], `${tab}: a chart's text is drawn smaller than 11 px`);
      await page.screenshot({ path: path.join(shots, `360-${tab}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const tab of tabs) {
      await visit(tab);
      await page.screenshot({ path: path.join(shots, `1280-${tab}.png`), fullPage: true });
    }
    // Larger text on a projector: the page's text and the charts' are 1.4 times larger.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.click('#tab-hierarchical');
    const before = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('#hierarchical .explain')).fontSize));
    await page.click('#large-text');
    assert.equal(await page.getAttribute('#large-text', 'aria-pressed'), 'true');
    const after = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('#hierarchical .explain')).fontSize));
    assert.ok(after >= 1.35 * before, `${before} → ${after}`);
    const [scale, sharp] = await page.evaluate(() => {
      const c = document.querySelector('#hierarchical-result canvas');
      const shown = c.getBoundingClientRect().width;
      return [shown / Number(c.dataset.width), c.width / (shown * devicePixelRatio)];
    });
    assert.ok(scale > 1.3, `the Gantt chart is laid out at ${scale}×`);
    assert.ok(sharp > 0.99, `the Gantt chart's buffer is ${sharp}× the screen's pixels`);
    await page.screenshot({ path: path.join(shots, '1920-large-text-m3.png'), fullPage: true });
    await page.click('#large-text');
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('every tab at 2× pixel density, screenshots to look at', async (page) => {
  const context = await page.context().browser().newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2,
    serviceWorkers: 'block' });
  try {
    const dense = await context.newPage();
    const errors = [];
    dense.on('pageerror', (e) => errors.push(String(e)));
    for (const tab of TABS) {
      await dense.goto(`${base}?tab=${tab}`);
      await dense.waitForSelector(`#${tab}-result:not([hidden]):not(.stale)`, { timeout: 120000 });
      await dense.waitForFunction(() => !/^Computing/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 120000 });
      await dense.screenshot({ path: path.join(shots, `2x-${tab}.png`), fullPage: true });
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('every tab names its model by the number the README gives it (M1 … M9)', async (page) => {
  await page.goto(base);
  await result(page, 'hierarchical');
  // The README's table of models: | `metrics` | M1 | … |
  const numbers = Object.fromEntries([...readFileSync(path.join(root, 'README.md'), 'utf8')
    .matchAll(/^\| `([a-z0-9]+)` \| (M\d)? *\|/gm)].map((m) => [m[1], m[2] ?? '']));
  const tabs = await page.$$eval('[role="tab"]', (ts) => ts.map((t) => [t.id.slice(4), t.textContent]));
  assert.deepEqual(tabs.map(([id]) => id).sort(), Object.keys(numbers).sort(), 'the README lists other models than the tabs');
  for (const [id, text] of tabs) {
    if (numbers[id]) assert.ok(text.startsWith(`${numbers[id]} `), `${id}: "${text}" is not ${numbers[id]}`);
    else assert.doesNotMatch(text, /^M\d/, `${id}: "${text}" has a number the README does not give it`);
  }
});

/** Every table of the tab on screen: its width, its wrap's, whether it
 * says it scrolls, whether it is laid out a block per row, and whether
 * its caption's text lies within the wrap. */
function tables(page) {
  return page.evaluate(() => [...document.querySelectorAll('section:not([hidden]) .table-wrap')]
    .filter((w) => w.checkVisibility())
    .map((w) => {
      const table = w.querySelector(':scope > table');
      const hint = w.querySelector('.scroll-hint');
      const caption = table.querySelector('caption > span')?.getBoundingClientRect();
      const room = w.getBoundingClientRect();
      return {
        id: table.id, width: table.offsetWidth, room: w.clientWidth, hint: !hint.hidden && hint.getClientRects().length > 0,
        stacked: table.classList.contains('stacked'),
        captionInside: Boolean(caption) && caption.left >= room.left - 1 && caption.right <= room.right + 1,
      };
    }));
}

test('wide tables: none scrolls at 1 280 px (M7 folds its powers), a phone is told which do, captions are never cut', async (page) => {
  const settled = async (tab) => {
    await page.goto(`${base}?tab=${tab}`);
    await page.waitForSelector(`#${tab}-result:not([hidden]):not(.stale)`, { timeout: 120000 });
    await page.waitForFunction(() => !/^Computing/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 120000 });
    // The layout follows the wraps' widths a frame later.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  };
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const tab of TABS) {
      await settled(tab);
      for (const t of await tables(page)) {
        assert.ok(t.width <= t.room && !t.hint, `1280 px, ${tab}: ${JSON.stringify(t)}`);
        assert.ok(t.captionInside, `1280 px, ${tab}: a caption is cut: ${JSON.stringify(t)}`);
      }
    }
    // M7's machines fit by folding the five power columns; shown, they scroll, and say so.
    await settled('heterogeneous');
    const fold = '#heterogeneous-rows-fold-power';
    assert.equal(await page.getAttribute(fold, 'aria-expanded'), 'false');
    assert.match(await page.textContent(fold), /^Show the 5 power columns \(P sleep, P wake, P idle, P net, P comp\)$/);
    assert.ok(await page.isHidden('[data-field="machines[0].power.idle"]'));
    const folded = await page.$eval('#heterogeneous-rows', (t) => t.offsetWidth);
    await page.click(fold);
    assert.equal(await page.getAttribute(fold, 'aria-expanded'), 'true');
    assert.ok(await page.isVisible('[data-field="machines[0].power.idle"]'));
    await page.waitForFunction(() => !document.querySelector('#heterogeneous-rows .scroll-hint').hidden);
    assert.ok(await page.$eval('#heterogeneous-rows', (t) => t.offsetWidth) > folded);
    // Folded again, a message in a power column unfolds them: no message is folded away.
    await page.click(fold);
    await page.$eval('[data-field="machines[0].power.idle"]', (input) => {
      input.value = '-1';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction((f) => document.querySelector(f).getAttribute('aria-expanded') === 'true', fold);
    assert.ok(await page.isVisible('[data-error-for="machines[0].power.idle"]'));

    await page.setViewportSize({ width: 360, height: 800 });
    for (const tab of TABS) {
      await settled(tab);
      for (const t of await tables(page)) {
        assert.equal(t.hint, t.width > t.room + 1, `360 px, ${tab}: a table scrolls sideways unsaid (or says so wrongly): ${JSON.stringify(t)}`);
        assert.ok(t.captionInside, `360 px, ${tab}: a caption is cut: ${JSON.stringify(t)}`);
      }
    }
    // The fit's tables of prose are a block per row on a phone, not squeezed columns.
    await settled('fit');
    const fit = await tables(page);
    assert.ok(fit.find((t) => t.id === 'fit-requests').stacked, JSON.stringify(fit));
    assert.ok(fit.every((t) => t.width <= t.room), JSON.stringify(fit));
    const narrowest = await page.$$eval('#fit-requests td', (tds) => Math.min(...tds.map((td) => td.getBoundingClientRect().width)));
    assert.ok(narrowest > 300, `a cell of the fitted requests is ${narrowest} px wide`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('M1: the charts follow the headline; the 131 lines of curves are folded under them', async (page) => {
  await page.goto(`${base}?tab=metrics`);
  await page.waitForSelector('#metrics-result:not([hidden]):not(.stale)', { timeout: 60000 });
  const order = await page.evaluate(() => {
    const result = document.querySelector('#metrics-result');
    const at = (e) => [...result.querySelectorAll('*')].indexOf(e);
    const fold = document.querySelector('#metrics-curves').closest('details');
    return {
      figure: at(result.querySelector('figure')), table: at(document.querySelector('#metrics-curves')),
      folded: Boolean(fold) && !fold.open, rows: document.querySelectorAll('#metrics-curves tbody tr').length,
      gap: result.querySelector('figure').getBoundingClientRect().top - result.querySelector('.headline').getBoundingClientRect().bottom,
    };
  });
  assert.ok(order.figure < order.table, JSON.stringify(order));
  assert.ok(order.folded, 'the long table is not folded');
  assert.ok(order.rows > 100, JSON.stringify(order));
  assert.ok(order.gap < 400, `the first chart is ${order.gap} px under the headline`);
  await page.click('#metrics-curves-fold summary');
  assert.ok(await page.isVisible('#metrics-curves tbody tr:last-child'));
  // Opened on a phone, it says that it scrolls sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  try {
    await page.waitForFunction(() => !document.querySelector('#metrics-curves .scroll-hint').hidden);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

/** What the page offers to be used, and how its loading is shown. */
function firstScreen(page) {
  return page.evaluate(() => {
    const shown = (e) => !e.closest('[hidden]') && e.getClientRects().length > 0;
    const bar = document.querySelector('#progress');
    return {
      controls: [...document.querySelectorAll('button, input, select, textarea, a[href], [tabindex]')]
        .filter((e) => shown(e) && !e.disabled).map((e) => e.id || e.tagName),
      footer: shown(document.querySelector('footer')),
      bar: shown(bar) ? (bar.position < 0 ? 'indeterminate' : bar.value) : 'hidden',
      status: document.querySelector('#status-text').textContent,
    };
  });
}

test('first visit: a progress bar while the wasm loads, and no control before the calculator works', async (shared) => {
  const browser = shared.context().browser();
  // Held before its first byte: the bar cannot know the size yet.
  let context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  let page = await context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  let asked = 0;
  await page.route('**/pkg/dlt_calc_bg.wasm', async (route) => { asked++; await held; await route.continue(); });
  try {
    await page.goto(base);
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('.wasm'))
      || document.querySelector('#status-text').textContent.startsWith('Loading'));
    await page.waitForTimeout(300);
    const before = await firstScreen(page);
    assert.ok(asked >= 1, 'the wasm was not asked for');
    assert.deepEqual(before, { controls: ['large-text'], footer: false, bar: 'indeterminate', status: 'Loading the calculator…' });
    release();
    await page.waitForFunction(() => document.querySelector('#status-text').textContent === 'Ready.'
      || /^Comput/.test(document.querySelector('#status-text').textContent), null, { timeout: 60000 });
    await result(page, 'hierarchical');
    const after = await firstScreen(page);
    assert.ok(after.controls.includes('jump-result') && after.controls.includes('tab-hierarchical')
      && after.controls.includes('hierarchical-compute'), JSON.stringify(after.controls));
    assert.ok(after.footer);
    assert.match((await page.textContent('footer')).trim(), /^dlt-calc \d+\.\d+\.\d+\./);
  } finally {
    release();
    await context.close();
  }
  // Arriving slowly (2 MB/s): the bar and the status count the megabytes.
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 2e6, uploadThroughput: 2e6 });
    await page.goto(base);
    const seen = [];
    for (let k = 0; k < 40 && !/^(Starting|Ready|Comput)/.test(seen.at(-1)?.status ?? ''); k++) {
      seen.push(await firstScreen(page));
      await page.waitForTimeout(100);
    }
    const counting = seen.filter((s) => /^Loading the calculator: [\d.]+ of [\d.]+ MB$/.test(s.status));
    assert.ok(counting.length >= 2, `no count of the download: ${JSON.stringify(seen.map((s) => [s.status, s.bar]))}`);
    for (const s of counting) {
      assert.deepEqual(s.controls, ['large-text']);
      assert.ok(typeof s.bar === 'number' && s.bar >= 0 && s.bar <= 1, JSON.stringify(s));
    }
    assert.ok(counting.at(-1).bar > counting[0].bar, `the bar sat still: ${JSON.stringify(counting.map((s) => s.bar))}`);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await result(page, 'hierarchical');
  } finally {
    await context.close();
  }
});

test('the tabs follow the WAI-ARIA tabs pattern: one in the Tab order, arrows, Home and End', async (page) => {
  await page.goto(`${base}?tab=linear`);
  await result(page, 'linear');
  const strip = await page.evaluate(() => {
    const list = document.querySelector('[role="tablist"]');
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    return {
      own: tabs.every((t) => t.parentElement === list),
      focusable: tabs.filter((t) => t.tabIndex === 0).map((t) => t.id),
      selected: tabs.filter((t) => t.getAttribute('aria-selected') === 'true').map((t) => t.id),
      // Each tab controls its panel, which is labelled by the tab.
      paired: tabs.every((t) => document.getElementById(t.getAttribute('aria-controls'))?.getAttribute('aria-labelledby') === t.id),
      first: tabs[0].id,
      last: tabs.at(-1).id,
    };
  });
  assert.ok(strip.own, 'a tab is not a child of the tablist');
  assert.deepEqual(strip.focusable, ['tab-linear']);
  assert.deepEqual(strip.selected, ['tab-linear']);
  assert.ok(strip.paired, 'a tab and its panel do not name each other');
  const at = () => page.evaluate(() => [document.activeElement.id,
    document.querySelector('[role="tab"][aria-selected="true"]').id, document.querySelector('[role="tab"][tabindex="0"]').id]);
  await page.focus('#tab-linear');
  await page.keyboard.press('End');
  assert.deepEqual(await at(), [strip.last, strip.last, strip.last]);
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await at(), [strip.first, strip.first, strip.first]);
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await at(), [strip.last, strip.last, strip.last]);
  await page.keyboard.press('Home');
  assert.deepEqual(await at(), [strip.first, strip.first, strip.first]);
  // Tab leaves the strip (for the status bar's jump to the result, then the panel).
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.getAttribute('role')), 'tab', 'Tab went to another tab');
});

/** axe-core's findings on `page` as it stands, by the WCAG 2.1 A and AA
 * rules, that are serious or critical. */
async function accessibility(page) {
  if (!await page.evaluate(() => Boolean(globalThis.axe))) {
    // Evaluated by the browser's debugger, not as a script of the page,
    // which the page's Content-Security-Policy would refuse.
    const engine = path.join(root, 'tests/e2e/node_modules/axe-core/axe.min.js');
    if (!existsSync(engine)) throw new Error('axe-core is missing: run (cd tests/e2e && npm ci --no-audit --no-fund)');
    await page.evaluate(readFileSync(engine, 'utf8'));
  }
  const found = await page.evaluate(() => globalThis.axe.run(document,
    { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] }));
  return found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

test('accessibility: axe finds nothing serious on any tab with its result, at 1 280 px and 360 px', async (shared) => {
  const context = await shared.context().browser().newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const found = [];
  try {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const tab of TABS) {
        await page.goto(`${base}?tab=${tab}`);
        await page.waitForSelector(`#${tab}-result:not([hidden]):not(.stale)`, { timeout: 120000 });
        await page.waitForFunction(() => !/^Computing/.test(document.querySelector('#status-text')?.textContent ?? ''), null, { timeout: 120000 });
        // The formulas' panel open, so that its content is checked too.
        await page.click(`#${tab}-about summary`);
        found.push(...(await accessibility(page)).map((f) => `${width} px, ${tab}: ${f}`));
        // Two elements with one id (axe rates it minor): a label, a link to
        // it or a test then reaches the wrong one.
        const twice = await page.$$eval('[id]', (es) => es.map((e) => e.id).filter((id, k, all) => all.indexOf(id) !== k));
        found.push(...twice.map((id) => `${width} px, ${tab}: the id ${id} twice`));
      }
    }
    // Every exercise answered (a number or a choice), with a hint and its
    // worked solution shown.
    await page.setViewportSize({ width: 1280, height: 800 });
    page.on('dialog', (d) => d.accept());
    for (const id of await page.$$eval('li.exercise', (es) => es.map((e) => `#${e.id}`))) {
      if (await page.locator(`${id}-option-1`).count()) await page.check(`${id}-option-1`);
      else await page.fill(`${id}-answer`, '1');
      await page.click(`${id}-check`);
      await page.waitForFunction((s) => document.querySelector(s).textContent !== '', `${id}-verdict`);
      await page.click(`${id}-hint`);
      await page.click(`${id}-show-solution`);
    }
    found.push(...(await accessibility(page)).map((f) => `exercises answered: ${f}`));
    assert.deepEqual(found, []);
  } finally {
    await context.close();
  }
});

test('runs the star on this computer with tiny sizes: cancel, calibrate, fit, run, check, keep, download, open in Fit', async (page) => {
  await page.goto(`${base}?tab=star&star.size=tiny&star.machines=2`);
  await page.waitForSelector('#star-start:not([disabled])');
  await page.evaluate(() => localStorage.removeItem('dlt-calc:star:last'));
  assert.match(await page.textContent('#star-timer'), /clock ticks every \d/);
  // Cancel ends the experiment and keeps nothing.
  await page.click('#star-start');
  await page.waitForSelector('#star-cancel', { state: 'visible' });
  await page.click('#star-cancel');
  assert.match(await page.textContent('#star-status'), /Cancelled/);
  assert.equal(await page.evaluate(() => localStorage.getItem('dlt-calc:star:last')), null);
  // The whole pipeline, in seconds.
  await page.click('#star-start');
  await page.waitForFunction(() => document.querySelector('#star-result').dataset.done === '1'
    || document.querySelector('#star-status').className === 'error', null, { timeout: 60000 });
  assert.equal(await page.$eval('#star-status', (e) => e.className), '', await page.textContent('#star-status'));
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('dlt-calc:star:last')));
  const { summary } = kept;
  // Every M3 run beside M2's and the equal split's, each checked by M9.
  assert.ok(summary.rows.length >= 3, `${summary.rows.length} rows`);
  for (const row of summary.rows) {
    assert.ok(row.m3 && row.m2 && row.equal > 0, JSON.stringify(row));
    assert.ok(Number.isFinite(row.m3[2]) && row.m3[1] > 0, JSON.stringify(row));
  }
  assert.ok(Number.isFinite(summary.m3_error) && Number.isFinite(summary.m2_error));
  assert.ok(summary.together, 'the calibration with every worker at once is compared');
  assert.ok((await page.$$('#star-reading p')).length >= 3);
  // M9's answer: its charts drawn (computing times with the fit, measured against predicted).
  assert.ok((await page.$$('#star-fit canvas')).length >= 2);
  // The tables `dlt fit` reads.
  const [link] = await Promise.all([page.waitForEvent('download'), page.click('#star-exports [data-file="link.csv"]')]);
  const text = readFileSync(await link.path(), 'utf8');
  assert.match(text, /^# link: emulated[^\n]*\n# time:[^\n]*\nsize_MB,time_s\n[\d.]+,[\d.e-]+\n/);
  // Kept across a reload.
  await page.reload();
  await page.waitForFunction(() => /Kept from an earlier visit/.test(document.querySelector('#star-when')?.textContent ?? ''));
  await page.waitForFunction(() => document.querySelector('#star-fit canvas'), null, { timeout: 30000 });
  // Opened in the Fit tab with the runs: the Fit tab checks them too.
  await page.click('#star-open-fit');
  await page.waitForFunction(() => document.querySelector('#tab-fit').getAttribute('aria-selected') === 'true');
  await page.waitForFunction(() => /M3|hierarchical/i.test(document.querySelector('#fit-result')?.textContent ?? '')
    && /error/i.test(document.querySelector('#fit-result')?.textContent ?? ''), null, { timeout: 30000 });
});

test('checks a schedule of one\'s own under the result: valid at its gap, broken with its rules and amounts', async (page) => {
  await page.goto(base);
  await result(page, 'hierarchical');
  // Models whose answers are no schedules have no checker.
  assert.equal(await page.$('#mapreduce-check'), null);
  await page.click('#hierarchical-check > summary');
  // At first the answer's own chunks: valid, at no gap.
  const own = JSON.parse(await page.inputValue('#hierarchical-check-input'));
  assert.ok(own.chunks.length > 0);
  await page.click('#hierarchical-check-run');
  await page.waitForSelector('#hierarchical-check-verdict.ok');
  const makespan = await full(page, '#hierarchical-makespan');
  const valid = await page.textContent('#hierarchical-check-verdict');
  assert.match(valid, /^valid; makespan .*, 0 % above the proven optimum /);
  assert.ok(valid.includes(makespan.slice(0, 4)), `${valid} / ${makespan}`);
  // Half a unit more in the first chunk: the load and its send time named.
  own.chunks[0].size += 0.5;
  await page.fill('#hierarchical-check-input', JSON.stringify(own));
  await page.click('#hierarchical-check-run');
  await page.waitForSelector('#hierarchical-check-verdict.bad');
  assert.match(await page.textContent('#hierarchical-check-verdict'), /^not valid: \d+ violation\(s\) of .*load-total/);
  const rules = await page.$$eval('#hierarchical-check-rules tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.ok(rules.includes('load-total'), rules.join());
  await (await page.$('#hierarchical-check')).screenshot({ path: path.join(shots, 'check-schedule.png') });
  // Bad input: the field named, as everywhere else.
  await page.fill('#hierarchical-check-input', '{"chunks": [{"machine": 9, "size": 1}]}');
  await page.click('#hierarchical-check-run');
  await page.waitForFunction(() => /schedule\.chunks\[0\]\.machine: refers to entry 9/.test(
    document.querySelector('#hierarchical-check-verdict')?.textContent ?? ''));
});

async function main() {
  mkdirSync(shots, { recursive: true });
  const server = await serve(root, port, base, 'E2E_PORT');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Service workers are blocked here (request interception does not see
  // what a service worker serves); the offline test opens its own context.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true,
    serviceWorkers: 'block' });
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  test('no errors on the console', async () => {
    assert.deepEqual(consoleErrors, []);
  });

  let passed = 0;
  let failed = 0;
  const failures = [];
  try {
    // E2E_ONLY (a regular expression) runs the matching tests alone, after
    // the first one, which loads the page.
    const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
    for (const [i, { name, fn }] of tests.entries()) {
      if (only && i > 0 && !only.test(name)) continue;
      const t0 = Date.now();
      try {
        await fn(page);
        passed++;
        console.log(`test ${name} ... ok (${Date.now() - t0} ms)`);
      } catch (err) {
        failed++;
        failures.push(`${name}: ${String(err.message ?? err).split('\n')[0]}`);
        console.log(`test ${name} ... FAILED\n${err.stack ?? err}`);
        await page.screenshot({ path: path.join(shots, `failed-${passed + failed}.png`), fullPage: true }).catch(() => {});
      }
    }
  } finally {
    await browser.close();
    server.kill();
  }
  console.log(`screenshots in ${path.relative(root, shots)}/`);
  if (failed) {
    // Repeated last, so that the end of a long log names every failure.
    for (const f of failures) console.log(`failed: ${f}`);
    console.log(`e2e: ${failed} failed, ${passed} passed`);
    process.exit(1);
  }
  console.log(`e2e: ${passed} passed`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
