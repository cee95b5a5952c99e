// End-to-end test of the served page in Debian's Chromium, driven by
// playwright-core. Serves the crate's root folder, so the calculator is at
// /www/: a sub-folder, which proves every path in the page is relative.
// Expects `make build` (www/pkg) and `cargo build --release --bin dlt` first.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.E2E_PORT ?? 8917);
const base = `http://127.0.0.1:${port}/www/`;
const shots = path.join(root, 'target', 'e2e');
const dlt = path.join(root, 'target', 'release', 'dlt');

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

/** The CLI's answer for a request, as the page formats numbers. */
function cli(request) {
  const out = execFileSync(dlt, ['solve', '--compact'], { input: JSON.stringify(request) });
  return JSON.parse(out);
}
const fmt = (x) => String(Number(x.toPrecision(10)));

function worked(load) {
  const p = { startup: 1, rate: 1, levels: [{ intercept: 1, slope: 1 }, { intercept: -9, slope: 10 }] };
  return { model: 'hierarchical', load, processors: [p, p] };
}

async function makespanChange(page, from) {
  await page.waitForFunction((old) => {
    const t = document.querySelector('#makespan').textContent;
    return t !== '' && t !== old;
  }, from, { timeout: 20000 });
  return page.textContent('#makespan');
}

/** Pixels of the chart canvas that have exactly one of the chart's colours. */
async function chartPixels(page) {
  return page.evaluate(() => {
    const c = document.querySelector('#gantt');
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = { receive: [70, 130, 180], inCore: [46, 139, 87], outOfCore: [205, 92, 92] };
    const counts = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]));
    for (let i = 0; i < data.length; i += 4) {
      for (const [k, [r, g, b]] of Object.entries(colours)) {
        if (data[i] === r && data[i + 1] === g && data[i + 2] === b) counts[k]++;
      }
    }
    return counts;
  });
}

test('loads the calculator with the reference instance computed in the worker', async (page) => {
  await page.goto(base);
  await page.waitForFunction(() => document.querySelector('#makespan').textContent !== '', null, { timeout: 30000 });
  assert.equal(await page.textContent('#makespan'), '5.75');
  const sizes = await page.$$eval('#chunks tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(sizes, ['1.25', '0.75']);
  assert.match(await page.textContent('#verdict'), /verified/);
  const memory = await page.$$eval('#chunks tbody tr td:nth-child(3)', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(memory, ['out of core', 'in core']);
  const predicted = await page.$$eval('#comparison tbody tr td:nth-child(3)', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(predicted, ['4.333333333', '13.04761905']);
  const px = await chartPixels(page);
  assert.ok(px.receive > 500 && px.inCore > 500 && px.outOfCore > 500, `chart not drawn: ${JSON.stringify(px)}`);
  await page.screenshot({ path: path.join(shots, 'calculator.png'), fullPage: true });
});

test('editing an input recomputes and agrees with the CLI', async (page) => {
  const before = await page.textContent('#makespan');
  await page.fill('#load', '3');
  const after = await makespanChange(page, before);
  assert.equal(after, fmt(cli(worked(3)).report.makespan));
  assert.match(page.url(), /[?&]V=3(&|$)/);
  const drawn = await page.getAttribute('#gantt', 'data-drawn');
  assert.ok(Number(drawn) >= 2, 'the chart was not redrawn');
});

test('an invalid input shows its message next to the field and keeps the result', async (page) => {
  const before = await page.textContent('#makespan');
  await page.fill('[data-field="processors[0].rate"]', '-1');
  const slot = '[data-error-for="processors[0].rate"]';
  await page.waitForFunction((s) => document.querySelector(s).textContent !== '', slot);
  assert.equal(await page.textContent(slot), 'must not be negative (got -1)');
  assert.equal(await page.getAttribute('[data-field="processors[0].rate"]', 'aria-invalid'), 'true');
  assert.equal(await page.textContent('#makespan'), before);
  assert.match(await page.textContent('#status-text'), /previous input/);

  await page.fill('#load', '');
  await page.waitForFunction(() => document.querySelector('[data-error-for="load"]').textContent !== '');
  assert.equal(await page.textContent('[data-error-for="load"]'), 'must be a finite number');
  await page.fill('#load', '3');

  // An out-of-core line faster than the core line is not convex.
  await page.fill('[data-field="processors[1].levels[1].slope"]', '0.5');
  const convex = '[data-error-for="processors[1].levels[1].slope"]';
  await page.waitForFunction((s) => document.querySelector(s).textContent !== '', convex);
  assert.match(await page.textContent(convex), /must be slower than the level above it/);
  assert.equal(await page.textContent('#makespan'), before);
});

test('a reload restores every input, the invalid ones included', async (page) => {
  await page.reload();
  await page.waitForFunction(() => document.querySelector('[data-error-for="processors[0].rate"]').textContent !== '');
  assert.equal(await page.inputValue('[data-field="processors[0].rate"]'), '-1');
  assert.equal(await page.inputValue('#load'), '3');
  await page.fill('[data-field="processors[0].rate"]', '1');
  await page.fill('[data-field="processors[1].levels[1].slope"]', '10');
  await page.waitForFunction(() => document.querySelector('#makespan').textContent !== '', null, { timeout: 30000 });
  await page.waitForFunction((want) => document.querySelector('#makespan').textContent === want,
    fmt(cli(worked(3)).report.makespan), { timeout: 20000 });
});

test('long work shows progress and cancel keeps the previous result', async (page) => {
  // Eight different processors; trying every order is 8! = 40320 LPs.
  const r = (x) => Number(x.toFixed(2));
  const processors = Array.from({ length: 8 }, (_, i) => ({
    startup: r(0.5 + 0.1 * i), rate: r(0.2 + 0.05 * i),
    levels: [{ intercept: 0, slope: r(1 + 0.1 * i) }, { intercept: -20 - i, slope: 10 + i }],
  }));
  const query = processors.map((p) => `p=${[p.startup, p.rate, 0, p.levels[0].slope, p.levels[1].intercept,
    p.levels[1].slope, ''].join(',')}`).join('&');
  await page.goto(`${base}?V=40&${query}`);
  await page.waitForFunction(() => document.querySelector('#makespan').textContent !== '', null, { timeout: 30000 });
  const before = await page.textContent('#makespan');
  assert.equal(before, fmt(cli({ model: 'hierarchical', load: 40, processors }).report.makespan));
  await page.check('#best-order');
  await page.waitForSelector('#cancel', { state: 'visible', timeout: 10000 });
  await page.waitForFunction(() => document.querySelector('#progress').value > 0, null, { timeout: 20000 });
  await page.screenshot({ path: path.join(shots, 'progress.png') });
  await page.click('#cancel');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#status-text').textContent));
  assert.equal(await page.textContent('#makespan'), before);
  assert.ok(await page.isHidden('#cancel'));
  // The restarted worker still computes.
  await page.uncheck('#best-order');
  await page.fill('#load', '41');
  await makespanChange(page, before);
});

test('exports the chart as SVG and PNG', async (page) => {
  for (const [button, kind] of [['#export-svg', 'svg'], ['#export-png', 'png']]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    const file = path.join(shots, `gantt.${kind}`);
    await download.saveAs(file);
    const head = execFileSync('head', ['-c', '8', file]).toString('latin1');
    assert.ok(kind === 'svg' ? head.startsWith('<svg') : head.includes('PNG'), `${kind} export: ${head}`);
  }
});

test('fits a phone-width screen', async (page) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: path.join(shots, 'phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
});

async function serve() {
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root],
    { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(base)).ok) return server;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill();
  throw new Error(`the test server did not start on port ${port}`);
}

async function main() {
  mkdirSync(shots, { recursive: true });
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  test('no errors on the console', async () => {
    assert.deepEqual(consoleErrors, []);
  });

  let passed = 0;
  let failed = 0;
  try {
    for (const { name, fn } of tests) {
      const t0 = Date.now();
      try {
        await fn(page);
        passed++;
        console.log(`test ${name} ... ok (${Date.now() - t0} ms)`);
      } catch (err) {
        failed++;
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
    console.log(`e2e: ${failed} failed, ${passed} passed`);
    process.exit(1);
  }
  console.log(`e2e: ${passed} passed`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
