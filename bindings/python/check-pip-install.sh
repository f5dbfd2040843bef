#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `pip install --no-build-isolation ./bindings/python` works with no package
# index: in a venv (created in the build folder, seeing the system's
# setuptools), then `import profdata` loads the library.
# Usage: check-pip-install.sh PYTHON SOURCE_DIR BUILD_DIR LIBRARY
set -euo pipefail
python=$1 src=$2 build=$3 lib=$4
"$python" -c 'import setuptools, venv' 2>/dev/null || { echo "skipped: no setuptools/venv for $python"; exit 77; }
venv=$build/pip-venv
rm -rf "$venv"
"$python" -m venv --system-site-packages "$venv" || { echo "skipped: venv cannot be created (python3-venv)"; exit 77; }
trap 'rm -rf "$venv"' EXIT
work=$(mktemp -d)
trap 'rm -rf "$venv" "$work"' EXIT
cp -r "$src" "$work/python"   # pip builds in place: keep the source tree clean
"$venv/bin/python" -m pip install --no-index --no-build-isolation --quiet "$work/python"
cd "$work"
out=$(PROFDATA_LIBRARY=$lib "$venv/bin/python" -c 'import profdata, os; print(profdata.version(), os.path.basename(os.path.dirname(profdata.__file__)))')
echo "installed: $out"
case $out in *site-packages) ;; *) echo "profdata was not imported from the venv"; exit 1 ;; esac
