// What the dashboard test asserts about a page: no console errors, charts with their series
// drawn, and a screenshot that is not blank.
'use strict';

// Collects console errors, uncaught exceptions and failed requests of `page` as text.
function watchErrors(page) {
  const errors = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  return errors;
}

// The chart in `selector`: its canvas size and how many of its pixels have a series' colour
// (saturated blue, orange or green: axes, grid and text are grey).
async function chartPixels(page, selector) {
  return page.$eval(selector, (element) => {
    const canvas = element.querySelector('.uplot canvas');
    if (!canvas) return { width: 0, height: 0, coloured: 0 };
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 60) ++coloured;
    }
    return { width: canvas.width, height: canvas.height, coloured };
  });
}

// Distinct colours in a PNG and the share of the commonest, decoded by the browser itself.
async function imageColours(browser, png) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (dataUrl) => {
      const image = new Image();
      image.src = dataUrl;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      const counts = new Map();
      for (let i = 0; i < data.length; i += 4) {
        const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      let commonest = 0;
      for (const n of counts.values()) commonest = Math.max(commonest, n);
      return { width: image.width, height: image.height, distinct: counts.size, commonest: commonest / (data.length / 4) };
    }, `data:image/png;base64,${png.toString('base64')}`);
  } finally {
    await page.close();
  }
}

module.exports = { watchErrors, chartPixels, imageColours };
