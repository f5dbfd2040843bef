// SPDX-License-Identifier: Apache-2.0
// An independent reading of a V8 CPU profile, for the cpuprofile reader's
// tests: JSON.parse of the whole file, then per-stack sample counts as
// folded lines (root first, ';' between names, count), sorted.
//   node cpuprofile-folded-independent.js FILE
// FILE is a .cpuprofile or a trace-event file with Profile/ProfileChunk
// events (profiles keyed by pid and id, as the chunks' nodes are). Names:
// the callFrame's functionName, "(anonymous)" when empty; the "(root)" node
// is left out; ';' and line breaks in a name become '_'; a sample of the
// root alone is "[empty]".
'use strict';
const fs = require('fs');
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));

function profiles() {
  if (!Array.isArray(doc) && doc.nodes) return [{ nodes: doc.nodes, samples: doc.samples || [] }];
  const events = Array.isArray(doc) ? doc : doc.traceEvents;
  const byKey = new Map();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' && e.name !== 'Profile') continue;
    const key = e.pid + '/' + e.id;
    if (!byKey.has(key)) byKey.set(key, { nodes: [], samples: [] });
    const cp = e.args && e.args.data && e.args.data.cpuProfile;
    if (!cp) continue;
    const p = byKey.get(key);
    for (const n of cp.nodes || []) p.nodes.push(n);
    for (const s of cp.samples || []) p.samples.push(s);
  }
  return [...byKey.values()];
}

const counts = new Map();
for (const p of profiles()) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) {
    for (const c of n.children || []) parent.set(c, n.id);
    if (n.parent !== undefined) parent.set(n.id, n.parent);
  }
  const stackOf = new Map();
  for (const s of p.samples) {
    if (!stackOf.has(s)) {
      const names = [];
      for (let id = s; id !== undefined; id = parent.get(id)) {
        const n = byId.get(id);
        const fn = n.callFrame.functionName;
        if (fn === '(root)' && !parent.has(id)) continue;
        names.push((fn || '(anonymous)').replace(/[;\r\n]/g, '_'));
      }
      stackOf.set(s, names.length ? names.reverse().join(';') : '[empty]');
    }
    const k = stackOf.get(s);
    counts.set(k, (counts.get(k) || 0) + 1);
  }
}
const lines = [...counts].map(([k, v]) => k + ' ' + v);
lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
if (lines.length) process.stdout.write(lines.join('\n') + '\n');
