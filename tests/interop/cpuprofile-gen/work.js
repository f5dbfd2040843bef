// SPDX-License-Identifier: Apache-2.0
// A small program for `node --cpu-prof`: three named functions, an
// anonymous one and a recursion, busy for about 300 ms.
'use strict';

function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

function hashLoop(rounds) {
  let h = 0;
  for (let i = 0; i < rounds; i++) h = (h * 31 + i) | 0;
  return h;
}

function sortWork(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7919) % 1000);
  return a.sort((x, y) => x - y)[0];
}

const until = Date.now() + 300;
let sink = 0;
while (Date.now() < until) {
  sink += fib(18);
  sink += hashLoop(50000);
  sink += sortWork(2000);
  sink += [1, 2, 3].map(function (x) { return hashLoop(1000 * x); })[0];
}
if (sink === 42) console.log(sink);
