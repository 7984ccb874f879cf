// The README's screenshot: ktuned's dashboard at URL, once rendered, to OUT.png (headless
// Chromium through playwright-core, as the dashboard test drives it).
//   NODE_PATH=<node_modules of run.sh> node tests/dashboard/screenshot.js URL OUT.png
'use strict';
const fs = require('node:fs');
const { chromium } = require('playwright-core');

async function main([url, out]) {
  if (!url || !out) throw new Error('usage: screenshot.js URL OUT.png');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20000 });
    await page.waitForTimeout(1500);  // the charts settle
    fs.writeFileSync(out, await page.screenshot({ fullPage: true }));
  } finally {
    await browser.close();
  }
}

main(process.argv.slice(2)).catch((e) => { console.error(e.message); process.exit(1); });
