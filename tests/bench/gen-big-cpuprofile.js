// SPDX-License-Identifier: Apache-2.0
// A large V8 .cpuprofile for the cpuprofile benchmark, shaped as Node
// writes one (nodes with callFrame and children, then startTime, endTime,
// samples and timeDeltas), written as a stream.
//   node gen-big-cpuprofile.js OUT [SAMPLES]   (default 22,000,000: about 220 MB)
'use strict';
const fs = require('fs');
const out = process.argv[2];
const nsamples = Number(process.argv[3] || 22000000);
const nnodes = 20000;
let seed = 12345;
function rand(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }

const fd = fs.openSync(out, 'w');
let buf = [];
let size = 0;
function put(s) {
  buf.push(s);
  size += s.length;
  if (size > 1 << 20) { fs.writeSync(fd, buf.join('')); buf = []; size = 0; }
}
// node 1 is (root); node i > 1 hangs below a node before it, children listed after
const children = Array.from({ length: nnodes + 1 }, () => []);
for (let i = 2; i <= nnodes; i++) children[i < 40 ? 1 : 1 + rand(i - 1)].push(i);
put('{"nodes":[');
for (let i = 1; i <= nnodes; i++) {
  const name = i === 1 ? '(root)' : 'fn' + (i % 3000);
  put((i > 1 ? ',' : '') + `{"id":${i},"callFrame":{"functionName":"${name}","scriptId":"${i % 90}",` +
      `"url":"file:///srv/app/lib/m${i % 200}.js","lineNumber":${i % 700},"columnNumber":${i % 60}},` +
      `"hitCount":${rand(100)}` + (children[i].length ? `,"children":[${children[i].join(',')}]` : '') + '}');
}
put('],"startTime":1234567890,"endTime":' + (1234567890 + nsamples * 1000) + ',"samples":[');
for (let i = 0; i < nsamples; i++) put((i ? ',' : '') + (2 + rand(nnodes - 1)));
put('],"timeDeltas":[');
for (let i = 0; i < nsamples; i++) put((i ? ',' : '') + (500 + rand(1500)));
put(']}');
fs.writeSync(fd, buf.join(''));
fs.closeSync(fd);
