// ktuned's dashboard in headless Chromium (Debian's, driven by playwright-core): against a real
// daemon with tuned workloads, a fresh one, one that needs a token, and measured answers from a
// GPU (recorded in measured_fixture.json, served in place of the API). Each page must render its
// charts and log no console error. run.sh installs playwright-core and starts this file.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { after, before, test } = require('node:test');
const { chromium } = require('playwright-core');
const { api, startKtuned } = require('./ktuned.js');
const { chartPixels, imageColours, watchErrors } = require('./page_checks.js');

const SOURCE_DIR = process.env.KTUNE_SOURCE_DIR ?? path.resolve(__dirname, '../..');
const OUT_DIR = process.env.KTUNE_DASHBOARD_OUT ?? fs.mkdtempSync('/tmp/ktune-dashboard-out-');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const MATRICES = ['hammond.mtx.gz', 'gemat12.mtx.gz', 'wathenSmall.mtx.gz', 'szdMat.mtx.gz'];
const GENERATORS = [{ generator: 'stencil2d', n: 40 }, { generator: 'stencil3d', n: 24 },
  { generator: 'banded', n: 50000, bandwidth: 7, seed: 1 }, { generator: 'rmat', scale: 14, edge_factor: 8, seed: 1 }];
// Long enough (all 126 SpMV configurations emulated on 8M entries) to be seen running; cancelled.
const SLOW_JOB = { kernel: 'spmv', dtype: 'f32', wait: false, budget: { compiles: 1000 },
  workload: { generator: 'rmat', scale: 19, edge_factor: 16, seed: 7 } };

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); });

// Opens the dashboard in a fresh browser context (its own sessionStorage) and waits for its first
// complete render (body[data-state] leaves "loading").
async function openDashboard(url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.state !== 'loading', null, { timeout: 20000 });
  return { page, errors, close: () => context.close() };
}

async function assertChartDrawn(page, selector) {
  const pixels = await chartPixels(page, selector);
  assert.ok(pixels.width > 100 && pixels.height > 100, `${selector}: no canvas (${JSON.stringify(pixels)})`);
  assert.ok(pixels.coloured > 50, `${selector}: no series drawn (${pixels.coloured} coloured pixels)`);
}

test('a daemon with tuned workloads: tables, charts, live progress, no console errors', async () => {
  const daemon = await startKtuned();
  try {
    for (const name of MATRICES) {
      const upload = await api(daemon, 'POST', `/v1/matrices?name=${name.replace('.mtx.gz', '')}`,
        fs.readFileSync(path.join(SOURCE_DIR, 'data/matrices', name)), { contentType: 'application/octet-stream' });
      await api(daemon, 'POST', '/v1/tune',
        { kernel: 'spmv', dtype: 'f32', workload: { upload: upload.id }, budget: { compiles: 24 }, wait: true });
    }
    for (const workload of GENERATORS)
      await api(daemon, 'POST', '/v1/tune', { kernel: 'spmv', dtype: 'f32', workload, budget: { compiles: 24 }, wait: true });
    const slow = await api(daemon, 'POST', '/v1/tune', SLOW_JOB);
    const report = await api(daemon, 'GET', '/v1/report');

    const { page, errors, close } = await openDashboard(daemon.url);
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
    assert.equal(await page.locator('#workloads-table tbody tr').count(), report.results.length);
    assert.match(await page.textContent('#workloads-table'), /hammond/);
    for (const chart of ['#workloads-chart', '#convergence-chart', '#sensitivity-chart']) await assertChartDrawn(page, chart);
    assert.match(await page.textContent('#accuracy-note'), /No measurements/);  // model-only
    assert.match(await page.textContent('#bottleneck'), /bottleneck \w+/);

    // Live progress: the slow job shows up running with a progress bar, and leaves when cancelled.
    await page.waitForSelector(`#running-table tr[data-job="${slow.job}"] progress`, { timeout: 15000 });
    await page.waitForTimeout(2500);  // a poll or two: progress moves, the charts settle
    const png = await page.screenshot({ fullPage: true });
    fs.writeFileSync(path.join(OUT_DIR, 'dashboard.png'), png);
    if (process.env.KTUNE_DASHBOARD_SCREENSHOT) fs.writeFileSync(process.env.KTUNE_DASHBOARD_SCREENSHOT, png);
    const image = await imageColours(browser, png);
    assert.ok(image.distinct > 50 && image.commonest < 0.9, `the screenshot looks blank: ${JSON.stringify(image)}`);
    await api(daemon, 'DELETE', `/v1/jobs/${slow.job}`);
    await page.waitForSelector(`#running-table tr[data-job="${slow.job}"]`, { state: 'detached', timeout: 10000 });
    assert.match(await page.textContent(`#recent-table tr[data-job="${slow.job}"]`), /cancelled/);

    // Picking another job shows its convergence.
    const other = report.results[report.results.length - 1].job;
    await page.click(`#recent-table tr[data-job="${other}"]`);
    await page.waitForFunction((id) => document.getElementById('job-title').textContent.includes(id), other);
    await assertChartDrawn(page, '#convergence-chart');
    await close();
    assert.deepEqual(errors, []);
  } finally {
    await daemon.stop();
  }
});

test('a fresh daemon: every section says it is empty, nothing breaks', async () => {
  const daemon = await startKtuned();
  try {
    const { page, errors, close } = await openDashboard(daemon.url);
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
    for (const empty of ['#running-empty', '#workloads-empty', '#job-empty', '#recent-empty'])
      assert.ok(await page.isVisible(empty), `${empty} is not shown`);
    assert.equal(await page.locator('canvas').count(), 0);
    await close();
    assert.deepEqual(errors, []);
  } finally {
    await daemon.stop();
  }
});

test('a daemon with a token: taken from the address or the form, sent as a bearer token', async () => {
  const token = 'dashboard-test-token-0123456789';
  const tokenFile = path.join(fs.mkdtempSync('/tmp/ktune-token-'), 'token');
  fs.writeFileSync(tokenFile, token, { mode: 0o600 });
  const daemon = await startKtuned({ extraArgs: ['--auth-token-file', tokenFile] });
  try {
    await api(daemon, 'POST', '/v1/tune', { kernel: 'spmv', dtype: 'f32', workload: GENERATORS[0], wait: true }, { token });

    const fromAddress = await openDashboard(`${daemon.url}/#token=${token}`);
    assert.equal(await fromAddress.page.evaluate(() => document.body.dataset.state), 'ready');
    assert.equal(await fromAddress.page.evaluate(() => location.hash), '');  // not left in the address
    await assertChartDrawn(fromAddress.page, '#workloads-chart');
    await fromAddress.close();
    assert.deepEqual(fromAddress.errors, []);

    const prompted = await openDashboard(daemon.url);
    assert.equal(await prompted.page.evaluate(() => document.body.dataset.state), 'auth');
    assert.ok(await prompted.page.isVisible('#token-form'));
    await prompted.page.fill('#token', token);
    await prompted.page.click('#token-form button');
    await prompted.page.waitForFunction(() => document.body.dataset.state === 'ready');
    await assertChartDrawn(prompted.page, '#workloads-chart');
    await prompted.close();
    // The only errors: Chromium's note of the 401 that made the page ask.
    assert.deepEqual(prompted.errors.filter((e) => !/status of 401/.test(e)), []);
  } finally {
    await daemon.stop();
    fs.rmSync(path.dirname(tokenFile), { recursive: true, force: true });
  }
});

test('measured answers: speedups over the vendor and the model against the GPU', async () => {
  const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'measured_fixture.json'), 'utf8'));
  const daemon = await startKtuned();
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.route('**/v1/**', (route) => {
      const url = new URL(route.request().url());
      const body = fixture.routes[url.pathname + url.search];
      return body ? route.fulfill({ json: body }) : route.fulfill({ status: 404, json: { error: `not in the fixture: ${url}` } });
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(daemon.url);
    await page.waitForFunction(() => document.body.dataset.state !== 'loading', null, { timeout: 20000 });
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready');
    assert.match(await page.textContent('#workloads-caption'), /Speedup over the vendor/);
    assert.match(await page.textContent('#accuracy-note'), /candidates measured; median error \d+%, rank correlation/);
    for (const chart of ['#workloads-chart', '#convergence-chart', '#accuracy-chart', '#sensitivity-chart'])
      await assertChartDrawn(page, chart);
    fs.writeFileSync(path.join(OUT_DIR, 'dashboard-measured.png'), await page.screenshot({ fullPage: true }));
    await context.close();
    assert.deepEqual(errors, []);
  } finally {
    await daemon.stop();
  }
});
