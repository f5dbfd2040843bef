# SPDX-License-Identifier: Apache-2.0
# Sourced by the browser checks (run.sh, diff-graph.sh, report.sh) after they
# set $src and $build: sets $here, $chromium (CHROMIUM or Debian's) and
# $modules (the npm packages, install.sh), or exits 77 saying what is missing.
here="$src/tests/interop/browser"
command -v node >/dev/null || { echo "node is not installed: skipped"; exit 77; }
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "chromium is not installed (tools/deps.sh --interop): skipped"; exit 77; }
modules=$(bash "$here/install.sh" "$here" "$build/browser-node") || { echo "npm packages missing: skipped"; exit 77; }
# The temporary folder of a check's outputs, removed when it exits.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
