// Our flame graphs in headless Chromium, and our speedscope, chrome-trace,
// folded and pprof outputs in speedscope's own app (served from its npm
// package on 127.0.0.1). Run by run.sh, which makes the outputs:
//   node browser-test.js MODULES CHROMIUM DIR NAME... [--screenshots DOCDIR]
// Each NAME has DIR/NAME.svg, .speedscope.json, .trace.json, .folded, .pb.gz.
// --screenshots writes DOCDIR/speedscope.png (cpu-100hz in speedscope);
// doc/flamegraph.png is the quick start's own profile (tools/flamegraph-png.sh).
'use strict';
const fs = require('fs');
const path = require('path');

const [modules, chromiumPath, dir, ...rest] = process.argv.slice(2);
const shotIndex = rest.indexOf('--screenshots');
const shotDir = shotIndex >= 0 ? rest[shotIndex + 1] : null;
const names = shotIndex >= 0 ? rest.slice(0, shotIndex) : rest;
const { chromium } = require(path.join(modules, 'playwright-core'));
const Ajv = require(path.join(modules, 'ajv'));
const appDir = path.join(modules, 'speedscope', 'dist', 'release');

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

// /app/... is speedscope's release folder, /data/... our outputs; nothing else.
const serve = () => require('./serve.js').serve(appDir, dir);

// Folded's total: what every picture must show.
function foldedTotal(name) {
  const text = fs.readFileSync(path.join(dir, name + '.folded'), 'utf8');
  let total = 0;
  for (const line of text.split('\n'))
    if (line) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}

// Our trace's threads' spans in microseconds: from each thread's first begin or end to its last.
function threadSpans(name) {
  const spans = new Map();
  for (const e of JSON.parse(fs.readFileSync(path.join(dir, name + '.trace.json'), 'utf8')).traceEvents) {
    if (e.ph !== 'B' && e.ph !== 'E') continue;
    const key = `${e.pid}/${e.tid}`, s = spans.get(key) || [e.ts, e.ts];
    spans.set(key, [Math.min(s[0], e.ts), Math.max(s[1], e.ts)]);
  }
  return [...spans.values()].map(([a, b]) => b - a);
}

function svgFrames(text) {
  const re = /<g class="f" fg:x="(\d+)" fg:w="(\d+)" fg:d="(\d+)"><title>([^<]*) \([^(<]*\)<\/title>/g;
  const frames = [];
  for (let m; (m = re.exec(text));)
    frames.push({ x: +m[1], w: +m[2], d: +m[3], name: m[4].replace(/&lt;/g, '<').replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"').replace(/&amp;/g, '&') });
  return frames;
}

async function distinctColours(page, png) {
  return page.evaluate(async b64 => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data, seen = new Set();
    for (let i = 0; i < d.length; i += 4 * 3) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, png.toString('base64'));
}

function escapeRegex(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

async function checkSvg(context, base, name, blank) {
  const text = fs.readFileSync(path.join(dir, name + '.svg'), 'utf8');
  const frames = svgFrames(text), total = foldedTotal(name);
  const written = (text.match(/<g class="f"/g) || []).length;
  check(!/(href|src)="https?:/.test(text), `${name}.svg: nothing from the network`);
  check(frames.length === written && text.includes(`fg:count="${written}"`), `${name}.svg: ${written} frames written`);
  check(written === 0 || frames[0].w === total, `${name}.svg: root ${written ? frames[0].w : 0} = folded total ${total}`);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto(`${base}/data/${name}.svg`);
  await page.waitForSelector('#frames', { state: 'attached' });
  const shown = await page.$$eval('g.f', els => els.length);
  check(shown === written, `${name}.svg: Chromium has ${shown} frame elements, we wrote ${written}`);
  const png = await page.screenshot();
  const colours = await distinctColours(blank, png);
  check(colours > (written > 1 ? 8 : 2), `${name}.svg: screenshot not blank (${colours} colours)`);
  if (written > 1) {
    // The widest frame that is not full width: a click makes it so.
    const pick = await page.$$eval('g.f', els => {
      let best = -1, bestW = 0;
      els.forEach((g, i) => {
        const w = parseFloat(g.querySelector('rect').getAttribute('width'));
        if (w < 1100 && w > bestW && g.getAttribute('fg:d') !== '0') { best = i; bestW = w; }
      });
      return best;
    });
    if (pick >= 0) {
      await page.locator('g.f').nth(pick).locator('rect').click({ force: true });
      const w = parseFloat(await page.locator('g.f').nth(pick).locator('rect').getAttribute('width'));
      check(Math.abs(w - 1180) < 0.5, `${name}.svg: a click zooms frame ${pick} to the full width (${w} px)`);
      const hidden = await page.$$eval('g.f.hide', els => els.length), p = frames[pick];
      const outside = frames.filter(f => f.x + f.w <= p.x || f.x >= p.x + p.w).length;
      check(hidden === outside, `${name}.svg: the ${outside} frames beside it hidden (${hidden})`);
      await page.click('#unzoom');
      const back = parseFloat(await page.locator('g.f').nth(pick).locator('rect').getAttribute('width'));
      check(back < 1100, `${name}.svg: Reset Zoom puts it back (${back} px)`);
      // Search for its name: every frame of that name, and the share they cover.
      const target = frames[pick].name, term = '^' + escapeRegex(target) + '$';
      const matches = frames.filter(f => f.name === target);
      let sum = 0, end = -1;
      for (const f of matches.slice().sort((a, b) => a.x - b.x || b.w - a.w)) {
        if (f.x >= end) { sum += f.w; end = f.x + f.w; } else if (f.x + f.w > end) { sum += f.x + f.w - end; end = f.x + f.w; }
      }
      page.once('dialog', d => d.accept(term));
      await page.click('#search');
      const highlighted = await page.$$eval('g.match', els => els.length);
      check(highlighted === matches.length, `${name}.svg: searching ${term} highlights ${highlighted} of ${matches.length} frames`);
      const said = await page.textContent('#matched');
      const want = `Matched: ${(100 * sum / total).toFixed(2)}%`;
      check(said.startsWith(want), `${name}.svg: "${said}" (${want})`);
    }
  }
  check(errors.length === 0, `${name}.svg: no script errors ${errors.join('; ')}`);
  await page.close();
}

// speedscope's app opens the file, we export what it shows, and read its total from the export.
async function checkSpeedscope(context, base, name, ext, totals) {
  const page = await context.newPage();
  const logs = [];
  page.on('console', m => logs.push(m.text()));
  page.on('pageerror', e => logs.push('error: ' + e));
  const url = `${base}/data/${name}${ext}`;
  await page.goto(`${base}/app/index.html#profileURL=${encodeURIComponent(url)}`);
  await page.waitForFunction(() => /Export|went wrong|rror/.test(document.body.innerText), null, { timeout: 60000 });
  const body = await page.evaluate(() => document.body.innerText);
  const imported = logs.find(l => l.startsWith('Importing as')) || '(no importer named)';
  if (/went wrong|rror/.test(body) && !/Export/.test(body)) {
    check(false, `${name}${ext}: speedscope failed: ${body.slice(0, 200)} ${logs.join(' | ').slice(0, 400)}`);
    await page.close();
    return;
  }
  if (shotDir && name === 'cpu-100hz' && ext === '.speedscope.json') {
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(shotDir, 'speedscope.png') });
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Export')]);
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  const shown = exported.profiles[exported.activeProfileIndex || 0];
  const value = shown.type === 'sampled' ? shown.weights.reduce((a, b) => a + b, 0) : shown.endValue - shown.startValue;
  const ok = totals.some(t => Math.abs(value - t) <= 1e-6 * Math.max(1, t));
  if (!ok) console.log(JSON.stringify(exported.profiles.map(p => [p.name, p.type, p.startValue, p.endValue, (p.events || []).length])));
  check(ok, `${name}${ext}: speedscope imports it (${imported}) and shows ${value} ${shown.unit} (ours: ${totals.join(' or ')})`);
  await page.close();
}

// A method trace (make-trace.c): evented profiles, one per thread, whose durations speedscope shows.
async function checkTrace(context, base, validate) {
  const ours = JSON.parse(fs.readFileSync(path.join(dir, 'trace.speedscope.json'), 'utf8'));
  const valid = validate(ours);
  check(valid, 'trace.speedscope.json: valid against the schema' + (valid ? '' : ' ' + JSON.stringify(validate.errors.slice(0, 3))));
  const evented = ours.profiles.filter(p => p.type === 'evented');
  check(evented.length === 2, `trace.speedscope.json: ${evented.length} evented profiles, one per thread`);
  const ns = evented.map(p => p.endValue - p.startValue);
  const trace = JSON.parse(fs.readFileSync(path.join(dir, 'trace.trace.json'), 'utf8')).traceEvents;
  const begins = trace.filter(e => e.ph === 'B').length, ends = trace.filter(e => e.ph === 'E').length;
  check(begins === ends && begins === 22, `trace.trace.json: ${begins} begins, ${ends} ends`);
  await checkSpeedscope(context, base, 'trace', '.speedscope.json', ns);
  await checkSpeedscope(context, base, 'trace', '.trace.json', ns.map(v => v / 1000));
}

// A real method trace (the corpus's TPTP traces, names "xml-...", and evented speedscope files,
// "evented-..."): its flame graph against folded,
// its evented profiles (one per thread) whose durations speedscope shows from our speedscope
// and chrome-trace files, and its derived call counts from folded and pprof.
async function checkTraceFile(context, base, name, validate, blank) {
  const total = foldedTotal(name);
  const ours = JSON.parse(fs.readFileSync(path.join(dir, name + '.speedscope.json'), 'utf8'));
  const valid = validate(ours);
  check(valid, `${name}.speedscope.json: valid against the schema` + (valid ? '' : ' ' + JSON.stringify(validate.errors.slice(0, 3))));
  const ns = ours.profiles.filter(p => p.type === 'evented').map(p => p.endValue - p.startValue);
  check(ns.length > 0, `${name}.speedscope.json: ${ns.length} evented profiles, one per thread`);
  await checkSvg(context, base, name, blank);
  await checkSpeedscope(context, base, name, '.speedscope.json', ns);
  await checkSpeedscope(context, base, name, '.trace.json', ns.map(v => v / 1000));
  await checkSpeedscope(context, base, name, '.folded', [total]);
  // pprof: speedscope shows the last sample type, the calls' self time (wall/nanoseconds)
  const wall = svgFrames(fs.readFileSync(path.join(dir, name + '.wall.svg'), 'utf8'))[0].w;
  await checkSpeedscope(context, base, name, '.pb.gz', [total, wall]);
}

async function main() {
  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true,
                                          args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1200, height: 700 } });
  const blank = await context.newPage();
  const schema = JSON.parse(fs.readFileSync(path.join(appDir, 'file-format-schema.json'), 'utf8'));
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  try {
    for (const name of names) {
      if (name === 'trace') {
        await checkTrace(context, base, validate);
        continue;
      }
      if (name.startsWith('xml-') || name.startsWith('evented-')) {
        await checkTraceFile(context, base, name, validate, blank);
        continue;
      }
      const total = foldedTotal(name);
      const ours = JSON.parse(fs.readFileSync(path.join(dir, name + '.speedscope.json'), 'utf8'));
      const valid = validate(ours);
      check(valid, `${name}.speedscope.json: valid against speedscope's file-format-schema.json` +
            (valid ? '' : ' ' + JSON.stringify(validate.errors.slice(0, 3))));
      const sampledTotals = ours.profiles.filter(p => p.type === 'sampled').map(p => p.weights.reduce((a, b) => a + b, 0));
      check(sampledTotals[ours.activeProfileIndex || 0] === total, `${name}.speedscope.json: active profile's weights ${sampledTotals[ours.activeProfileIndex || 0]} = folded ${total}`);
      await checkSvg(context, base, name, blank);
      if (total === 0) continue;  // nothing for speedscope to show
      await checkSpeedscope(context, base, name, '.speedscope.json', [total]);
      await checkSpeedscope(context, base, name, '.folded', [total]);
      await checkSpeedscope(context, base, name, '.pb.gz', sampledTotals);
      // chrome-trace: the call tree in microseconds, time units converted, counts at 1 µs each
      const usPer = { nanoseconds: 0.001, microseconds: 1, milliseconds: 1000, seconds: 1e6 };
      const unit = ours.profiles[ours.activeProfileIndex || 0].unit;
      // (samples with times: each thread's timeline instead, from its first event to its last)
      await checkSpeedscope(context, base, name, '.trace.json', [total * (usPer[unit] || 1), ...threadSpans(name)]);
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(failures ? `${failures} checks failed` : 'all browser checks passed');
  process.exit(failures ? 1 : 0);
}

main().catch(e => { console.error(e); process.exit(1); });
