// The differential flame graph in headless Chromium, checked against the
// folded stacks of its two sides (diff-graph.sh makes them):
//   node diff-graph-test.js MODULES CHROMIUM DIR
// DIR has diff.svg, base.folded and new.folded.
'use strict';
const fs = require('fs');
const path = require('path');

const [modules, chromiumPath, dir] = process.argv.slice(2);
const { chromium } = require(path.join(modules, 'playwright-core'));

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

// Folded stacks as [frames, value].
function folded(name) {
  return fs.readFileSync(path.join(dir, name), 'utf8').split('\n').filter(l => l).map(l => {
    const at = l.lastIndexOf(' ');
    return [l.slice(0, at).split(';'), Number(l.slice(at + 1))];
  });
}

// The value of the frame at `chain` (root first): the stacks that begin with it.
function valueAt(stacks, chain) {
  let sum = 0;
  for (const [frames, v] of stacks)
    if (chain.every((f, i) => frames[i] === f)) sum += v;
  return sum;
}

// Every frame a graph of `stacks` draws: the root and each distinct chain of a stack with a value.
function frameCount(stacks) {
  const chains = new Set();
  for (const [frames, v] of stacks)
    if (v > 0) frames.forEach((f, i) => chains.add(frames.slice(0, i + 1).join(';')));
  return chains.size + 1;
}

const number = s => Number(s.replace(/,/g, ''));

// The frame whose chain is `chain`: its element's index, title and fill.
async function frameOf(page, chain) {
  return page.$$eval('g.f', (els, chain) => {
    const byIndex = els.map(g => ({ x: +g.getAttribute('fg:x'), d: +g.getAttribute('fg:d'), g }));
    const name = g => { const t = g.querySelector('title').textContent; return t.substring(0, t.lastIndexOf(' (')); };
    // walk down from the root: at each depth the child of that name within its parent's span
    let parent = byIndex.find(f => f.d === 0), index = -1;
    for (let d = 1; d <= chain.length && parent; d++) {
      const px = parent.x, pw = +parent.g.getAttribute('fg:w');
      parent = byIndex.find(f => f.d === d && f.x >= px && f.x < px + pw && name(f.g) === chain[d - 1]);
    }
    if (!parent) return null;
    index = els.indexOf(parent.g);
    return { index, title: parent.g.querySelector('title').textContent,
             fill: parent.g.querySelector('rect').getAttribute('fill') };
  }, chain);
}

// rgb(r,g,b) -> [r, g, b]
const rgb = s => (s.match(/\d+/g) || []).map(Number);

async function checkFrame(page, base, now, chain, grew) {
  const label = chain[chain.length - 1], f = await frameOf(page, chain);
  check(f !== null, `${label}: drawn`);
  if (!f) return null;
  const b = valueAt(base, chain), n = valueAt(now, chain);
  const m = /\(([\d,]+) [^,]*, [\d.]+%; base (-?[\d,]+), ([+-]?[\d,]+)/.exec(f.title);
  check(m && number(m[1]) === n && number(m[2]) === b && number(m[3]) === n - b,
        `${label}: title "${f.title}" says new ${n}, base ${b}, change ${n - b}`);
  const [r, g, bl] = rgb(f.fill);
  check(grew ? r === 255 && g === bl && g < 210 : bl === 255 && r === g && r < 210,
        `${label}: ${f.fill} is ${grew ? 'red' : 'blue'}`);
  return f;
}

(async () => {
  const base = folded('base.folded'), now = folded('new.folded');
  const text = fs.readFileSync(path.join(dir, 'diff.svg'), 'utf8');
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true,
                                          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto('file://' + path.join(dir, 'diff.svg'));
  await page.waitForSelector('#frames', { state: 'attached' });
  const shown = await page.$$eval('g.f', els => els.length), want = frameCount(now);
  check(shown === want && text.includes(`fg:count="${want}"`), `${shown} frames shown, NEW's folded stacks make ${want}`);

  const grown = ['runtime.main', 'main.main', 'main.cpuWork'], shrunk = ['runtime.main', 'main.main', 'main.contend'];
  await checkFrame(page, base, now, grown, true);
  const s = await checkFrame(page, base, now, shrunk, false);
  if (s) {
    // The tooltip: hovering shows the title in the details line.
    await page.locator('g.f').nth(s.index).locator('rect').hover({ force: true });
    const details = await page.textContent('#details');
    check(details === 'Function: ' + s.title, `hover: "${details}"`);
  }
  // Search, as in every flame graph: the frames it matches, and their share of NEW.
  page.once('dialog', d => d.accept('^main\\.contend$'));
  await page.click('#search');
  const matched = await page.$$eval('g.match', els => els.map(g => g.querySelector('rect').getAttribute('fill')));
  const total = valueAt(now, []), share = (100 * valueAt(now, shrunk) / total).toFixed(2);
  check(matched.length === 1 && matched[0] === 'rgb(230,0,230)', `search highlights main.contend (${matched})`);
  const said = await page.textContent('#matched');
  check(said.startsWith(`Matched: ${share}%`), `search: "${said}" (${share}% of NEW)`);
  page.once('dialog', d => d.dismiss());
  await page.click('#search');
  const back = s ? await page.locator('g.f').nth(s.index).locator('rect').getAttribute('fill') : null;
  check(!s || back === s.fill, `Reset Search gives main.contend its colour back (${back})`);
  check(errors.length === 0, `no script errors ${errors.join('; ')}`);
  await browser.close();
  console.log(failures ? `${failures} checks failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
})().catch(e => { console.error(e); process.exit(1); });
