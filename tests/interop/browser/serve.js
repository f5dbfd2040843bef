// SPDX-License-Identifier: Apache-2.0
// The browser checks' web server on 127.0.0.1: /app/... is speedscope's
// release folder, /data/... the folder of the files to open; nothing else.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml',
                '.json': 'application/json', '.png': 'image/png', '.wasm': 'application/wasm' };

// A server listening on a free port (resolved once it listens).
function serve(appDir, dataDir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const [, root, ...parts] = decodeURIComponent(url.pathname).split('/');
    const base = root === 'app' ? appDir : root === 'data' ? dataDir : null;
    const file = base && path.join(base, ...parts);
    if (!file || !file.startsWith(base) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

module.exports = { serve };
