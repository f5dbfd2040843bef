#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Print the node_modules folder the browser checks use: tests/interop/browser/
# node_modules when it holds what package-lock.json asks for, else DEST/
# node_modules, installed there with `npm ci` from the committed lock (once per
# lock). Exit 1 when neither can be had. usage: install.sh HERE DEST
set -euo pipefail
here=$1 dest=$2
has() { [ -f "$1/playwright-core/package.json" ] && [ -f "$1/speedscope/dist/release/index.html" ] && [ -f "$1/ajv/package.json" ]; }
if has "$here/node_modules"; then echo "$here/node_modules"; exit 0; fi
if [ -f "$dest/.lock-installed" ] && cmp -s "$dest/.lock-installed" "$here/package-lock.json" && has "$dest/node_modules"; then
	echo "$dest/node_modules"
	exit 0
fi
command -v npm >/dev/null || exit 1
mkdir -p "$dest"
cp "$here/package.json" "$here/package-lock.json" "$dest/"
# No browser download: the checks drive Debian's chromium.
(cd "$dest" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts >&2) || exit 1
cp "$here/package-lock.json" "$dest/.lock-installed"
echo "$dest/node_modules"
