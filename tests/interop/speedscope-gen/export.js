// SPDX-License-Identifier: Apache-2.0
// speedscope's own app (from its npm package, on 127.0.0.1, in headless
// Chromium) imports a profile and exports it: a file speedscope itself wrote.
//   node export.js MODULES CHROMIUM INPUT OUTPUT
'use strict';
const fs = require('fs');
const path = require('path');

const [modules, chromiumPath, input, output] = process.argv.slice(2);
const { chromium } = require(path.join(modules, 'playwright-core'));
const appDir = path.join(modules, 'speedscope', 'dist', 'release');
const { serve } = require(path.join(__dirname, '..', 'browser', 'serve.js'));

async function main() {
  const server = await serve(appDir, path.dirname(path.resolve(input)));
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true,
                                          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const name = path.basename(input);
    const url = `${base}/data/${encodeURIComponent(name)}`;
    await page.goto(`${base}/app/index.html#profileURL=${encodeURIComponent(url)}&title=${name}`);
    await page.waitForFunction(() => /Export/.test(document.body.innerText), null, { timeout: 60000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Export')]);
    fs.copyFileSync(await download.path(), output);
  } finally {
    await browser.close();
    server.close();
  }
}
main().catch(e => { console.error(e); process.exit(1); });
