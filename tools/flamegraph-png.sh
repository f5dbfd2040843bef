#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# doc/flamegraph.png: the flame graph tools/quickstart.sh makes
# (build-quickstart/quickstart/busy.svg), as headless Chromium draws it, at
# 1200 pixels wide and the picture's own height. Uses the browser checks'
# playwright-core (tests/interop/browser/install.sh) and Debian's chromium.
# Usage: tools/flamegraph-png.sh [SVG [PNG [NODE_DIR]]]
set -euo pipefail
cd "$(dirname "$0")/.."
svg=${1:-build-quickstart/quickstart/busy.svg} png=${2:-doc/flamegraph.png}
node_dir=${3:-build-quickstart/browser-node}
[ -f "$svg" ] || { echo "$svg: not found (run tools/quickstart.sh first)" >&2; exit 1; }
chromium=$(command -v chromium || command -v chromium-browser) || { echo "chromium is not installed" >&2; exit 1; }
modules=$(realpath "$(bash tests/interop/browser/install.sh tests/interop/browser "$node_dir")")
node - "$modules" "$chromium" "$(realpath "$svg")" "$png" <<'JS'
const path = require('path');
const [modules, chromiumPath, svg, png] = process.argv.slice(2);
const { chromium } = require(path.join(modules, 'playwright-core'));
(async () => {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true,
                                          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  await page.goto('file://' + svg);
  await page.waitForSelector('#frames', { state: 'attached' });
  const height = Math.ceil(parseFloat(await page.evaluate(() => document.documentElement.getAttribute('height'))));
  await page.setViewportSize({ width: 1200, height });
  await page.screenshot({ path: png });
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
JS
echo "$png: $svg as Chromium draws it"
