// The page of `profdata report` in headless Chromium, checked against the
// data the tool put in it (report.sh makes the reports):
//   node report-test.js MODULES CHROMIUM REPORT.html [--suspect CLASS]... [--string TEXT]
//        [--grew CLASS] [--max-load MS] [--screenshot DOCDIR]
// --suspect: a leak suspect that must be shown by that class name; --string:
// a duplicate string whose text must be shown; --grew: the class the diff
// must list first; --max-load: the most milliseconds from navigation to the
// treemap drawn; --screenshot: writes DOCDIR/report.png (1280x800).
'use strict';
const fs = require('fs');
const path = require('path');

const [modules, chromiumPath, given, ...rest] = process.argv.slice(2);
const file = path.resolve(given), url = require('url').pathToFileURL(file).href;
const opts = { suspect: [], string: null, grew: null, maxLoad: null, screenshot: null };
for (let i = 0; i < rest.length; i += 2) {
  const key = { '--suspect': 'suspect', '--string': 'string', '--grew': 'grew', '--max-load': 'maxLoad',
                '--screenshot': 'screenshot' }[rest[i]];
  if (!key || i + 1 >= rest.length) throw new Error(`report-test.js: what is ${rest[i]}?`);
  if (key === 'suspect') opts.suspect.push(rest[i + 1]);
  else opts[key] = rest[i + 1];
}
const { chromium } = require(path.join(modules, 'playwright-core'));

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

// The data as the tool wrote it, read from the file rather than from the page.
function reportData(html) {
  const m = /^<script type="application\/json" id="profdata-data">([^]*?)<\/script>$/m.exec(html);
  if (!m) throw new Error(`${file}: no profdata-data element`);
  const d = JSON.parse(m[1]), h = d.histogram;
  // histo --retained --json's rows, as the page shows them
  if (!Array.isArray(h))
    d.histogram = h.classes.map(c => ({ class: c.name, instances: c.instances, shallow: c.bytes, retained: c.retained }));
  return d;
}

// The first number in a text: "1,234 bytes" -> 1234, "\u2212512" -> -512.
function number(s) {
  const m = /[+\u2212-]?\d[\d,]*/.exec(String(s));
  return m ? Number(m[0].replace(/[,+]/g, '').replace('\u2212', '-')) : NaN;
}
const nameOf = o => o.class_object !== undefined ? 'class ' + o.class_object : o.class;
const same = (a, b) => Math.abs(a - b) <= 1;

async function checkOverview(page, o) {
  const text = async key => page.textContent(`#ov-${key}`);
  for (const key of ['objects', 'classes', 'instances', 'object_arrays', 'primitive_arrays']) {
    if (o[key] === undefined) continue;
    const v = number((await page.textContent(`#ov-${key} .v`)));
    check(v === o[key], `overview ${key}: ${v} (data ${o[key]})`);
  }
  const shallow = await text('shallow_bytes');
  check(shallow.includes(`${o.shallow_bytes.toLocaleString('en-US')} bytes`), `overview shallow bytes: "${shallow}"`);
  for (const side of ['reachable', 'unreachable']) {
    const t = await text(side), want = `${o[side + '_objects'].toLocaleString('en-US')} objects, ` +
                                        `${o[side + '_bytes'].toLocaleString('en-US')} bytes`;
    check(t.includes(want), `overview ${side}: "${t}" has "${want}"`);
  }
  const roots = await page.$$eval('#ov-roots tbody tr', trs => trs.map(tr => [...tr.cells].map(c => c.textContent)));
  const want = o.roots.map(r => [r.kind, r.count.toLocaleString('en-US')]);
  check(JSON.stringify(roots.slice(0, -1)) === JSON.stringify(want), `GC roots by kind: ${roots.length - 1} kinds as the data`);
}

// The box of the cell of data node `index` (-1 the root), or null when not drawn.
const cellBox = (page, index) => page.locator(`#treemap .cell[data-node="${index}"]`).boundingBox().catch(() => null);
const crumbs = page => page.$$eval('#crumbs .crumb', bs => bs.map(b => b.textContent));

async function checkTreemap(page, tree) {
  const cells = await page.$$eval('#treemap .cell', els => els.length);
  check(cells > 1, `treemap: ${cells} cells drawn`);
  const area = await page.locator('#treemap').boundingBox();
  const fills = b => b && same(b.x, area.x) && same(b.y, area.y) && same(b.width, area.width) && same(b.height, area.height);
  check(fills(await cellBox(page, -1)), 'treemap: the GC roots fill the area');
  // the root's largest child: a click on it zooms
  let big = -1;
  tree.nodes.forEach((n, i) => { if (n.parent === -1 && (big < 0 || n.retained > tree.nodes[big].retained)) big = i; });
  check(big >= 0, 'treemap: the root has children');
  if (big < 0) return;
  const node = tree.nodes[big], before = await cellBox(page, big);
  check(before && !fills(before), `treemap: ${nameOf(node)} has a cell of its own`);
  // hover: the tooltip names the node and gives its exact retained bytes and its id
  await page.locator(`#treemap .cell[data-node="${big}"]`).hover({ position: { x: 3, y: 3 } });
  const tip = await page.textContent('#tip');
  check(tip.includes(nameOf(node)) && tip.includes(node.retained.toLocaleString('en-US') + ' bytes') &&
        tip.includes(String(node.id)), `hover: "${tip}"`);
  await page.locator(`#treemap .cell[data-node="${big}"]`).click({ position: { x: 3, y: 3 } });
  const path = await crumbs(page);
  check(path.length === 2 && path[1] === nameOf(node), `zoom: breadcrumbs ${JSON.stringify(path)}`);
  check(fills(await cellBox(page, big)), `zoom: ${nameOf(node)} fills the area`);
  await page.click('#crumbs .crumb >> nth=0');
  const back = await crumbs(page), after = await cellBox(page, big);
  check(back.length === 1 && fills(await cellBox(page, -1)) && after && same(after.width, before.width) &&
        same(after.height, before.height), `breadcrumb "${back[0]}": back to the GC roots`);
}

// Column `col` of the histogram's rows as numbers (bytes from the exact figure on hover), or text.
function column(page, col) {
  return page.$$eval('#histo tbody tr', (trs, col) => trs.map(tr => {
    const td = tr.cells[col], exact = td.querySelector('[title]');
    return exact ? exact.getAttribute('title') : td.textContent;
  }), col);
}
const ordered = (list, cmp) => list.every((v, i) => i === 0 || cmp(list[i - 1], v) <= 0);

async function checkHistogram(page, rows) {
  const shown = Math.min(rows.length, 500);
  check((await column(page, 0)).length === shown, `histogram: ${shown} rows of ${rows.length}`);
  for (const [col, title] of [[1, 'Instances'], [3, 'Retained bytes']]) {
    await page.click(`#histo th >> text="${title}"`);
    const down = (await column(page, col)).map(number);
    check(ordered(down, (a, b) => b - a), `histogram: ${title} click sorts largest first (${down.slice(0, 3)})`);
    await page.click(`#histo th >> text="${title}"`);
    const up = (await column(page, col)).map(number);
    check(ordered(up, (a, b) => a - b), `histogram: ${title} again sorts smallest first (${up.slice(0, 3)})`);
  }
  await page.click('#histo th >> text="Class"');
  const names = await column(page, 0);
  check(ordered(names, (a, b) => (a < b ? -1 : a > b ? 1 : 0)), `histogram: Class sorts A-Z (${names.slice(0, 2)})`);
  await page.fill('#histo-filter', 'HashMap');
  const want = rows.filter(r => r.class.toLowerCase().includes('hashmap')).length, got = await column(page, 0);
  const count = await page.textContent('#histo-count');
  check(got.length === Math.min(want, 500) && got.every(n => n.toLowerCase().includes('hashmap')) &&
        count.startsWith(`${want.toLocaleString('en-US')} of`), `histogram filter "HashMap": ${got.length} rows, "${count}"`);
  await page.fill('#histo-filter', '');
}

async function checkSuspects(page, su) {
  const cards = await page.$$eval('#suspects-body .suspect', els => els.map(e => ({
    text: e.textContent, steps: e.querySelectorAll('ol.path li').length })));
  check(cards.length === su.suspects.length, `suspects: ${cards.length} cards, the data has ${su.suspects.length}`);
  su.suspects.forEach((s, i) => check(cards[i] && cards[i].steps === s.path.length &&
    cards[i].text.includes(s.retained.toLocaleString('en-US')), `suspect ${i + 1} (${nameOf(s)}): ${s.path.length} path steps`));
  for (const name of opts.suspect) {
    const card = cards.find(c => c.text.includes(name));
    check(card !== undefined, `suspects: ${name} shown`);
  }
}

async function checkWaste(page, w) {
  const texts = await page.$$eval('#waste-body td.text', tds => tds.map(td => td.textContent));
  check(texts.length === w.strings.top.length, `waste: ${texts.length} duplicate strings shown`);
  const total = w.strings.wasted + w.arrays.wasted + w.collections.wasted + w.boxed.wasted;
  const shown = await page.getAttribute('#waste-total .v span', 'title');
  check(number(shown) === total, `waste: total ${shown}`);
  if (opts.string) check(texts.includes(opts.string), `waste: the string "${opts.string}" shown`);
}

async function checkDiff(page, diff) {
  const visible = await page.isVisible('#diff');
  check(visible === (diff !== null), `diff section ${visible ? 'shown' : 'hidden'}`);
  if (!diff) return;
  const rows = await page.$$eval('#diff-body table:first-of-type tbody tr', trs => trs.map(tr => tr.cells[0].textContent));
  check(rows.length === diff.classes.length && rows[0] === diff.classes[0].class, `diff: ${rows.length} classes, first ${rows[0]}`);
  if (opts.grew) check(rows[0] === opts.grew, `diff: ${opts.grew} grew most`);
}

(async () => {
  const data = reportData(fs.readFileSync(file, 'utf8'));
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true,
                                          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Nothing may leave the file: every request but the page itself fails the test.
  const outside = [];
  await context.route('**/*', route => {
    if (route.request().url() === url) return route.continue();
    outside.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 60000 });
  const times = await page.evaluate(() => ({
    drawn: performance.getEntriesByName('profdata-treemap-drawn')[0].startTime,
    loaded: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd }));
  console.log(`load: treemap drawn ${times.drawn.toFixed(0)} ms after navigation, DOMContentLoaded done at ` +
              `${times.loaded.toFixed(0)} ms (${(fs.statSync(file).size / 1e6).toFixed(1)} MB, ` +
              `${data.tree.nodes.length} tree nodes, ${data.histogram.length} classes)`);
  if (opts.maxLoad) check(times.drawn < +opts.maxLoad, `load: ${times.drawn.toFixed(0)} ms < ${opts.maxLoad} ms`);
  if (opts.screenshot) {
    const png = path.join(opts.screenshot, 'report.png');
    await page.screenshot({ path: png });
    console.log(`wrote ${png} (${fs.statSync(png).size} bytes)`);
  }
  check((await page.textContent('#title')) === data.file, `header: ${data.file}`);
  await checkOverview(page, data.overview);
  await checkTreemap(page, data.tree);
  await checkHistogram(page, data.histogram);
  await checkSuspects(page, data.suspects);
  await checkWaste(page, data.waste);
  await checkDiff(page, data.diff);
  check(errors.length === 0, `no script or console errors ${errors.join('; ')}`);
  check(outside.length === 0, `no request leaves the file ${outside.join(' ')}`);
  await browser.close();
  console.log(failures ? `${failures} checks failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
})().catch(e => { console.error(e); process.exit(1); });
