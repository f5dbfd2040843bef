#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's Python steps work as written: the first ```sh block under
# "## Python" in README.md, run in a fresh venv and again with
# --system-site-packages, in a copy of the source folder whose build/ is this
# build, with no package index, no PROFDATA_LIBRARY and no LD_LIBRARY_PATH;
# then the installed module reads a heap dump, and pip wrote nothing into the
# binding's folder (no profdata.egg-info/, no build/).
# Usage: check-pip-install.sh PYTHON SOURCE_ROOT BUILD_ROOT
set -euo pipefail
python=$1 src=$2 build=$3
block=$(awk '/^## Python/ {py = 1} py && /^```sh$/ {inside = 1; next} inside && /^```$/ {exit} inside {print}' \
  "$src/README.md")
[ -n "$block" ] || { echo "no sh block under '## Python' in README.md"; exit 1; }
plain='python3 -m venv venv '
[ "$(grep -c -F -- "$plain" <<<"$block")" = 1 ] || { echo "README: no single line '$plain' to vary"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Only a Python that cannot make a venv with pip (Debian: no python3-venv) skips.
if ! probe=$("$python" -m venv "$work/probe" 2>&1); then
  echo "skipped: $python cannot create a venv with pip (apt-get install python3-venv): $probe"
  exit 77
fi
rm -rf "$work/probe"

# `python3` in the steps is the Python under test (PATH's may be another one).
mkdir "$work/bin"
ln -s "$python" "$work/bin/python3"
tree=$work/tree
mkdir -p "$tree/bindings"
for entry in "$src"/*; do
  case ${entry##*/} in build|bindings) ;; *) ln -s "$entry" "$tree/${entry##*/}" ;; esac
done
ln -s "$build" "$tree/build"
cp -r "$src/bindings/python" "$tree/bindings/python"
find "$tree/bindings/python" | sort >"$work/before"

run_steps() {  # KIND STEPS
  echo "== $1 venv: README's steps"
  rm -rf "$tree/venv"
  (cd "$tree" && env -u PROFDATA_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH -u PYTHONHOME \
     PATH="$work/bin:$PATH" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 bash -euo pipefail -c "$2") \
    >"$work/out" 2>&1 || { cat "$work/out"; echo "the README's steps failed in a $1 venv"; exit 1; }
  cat "$work/out"
  grep -q '(.* classes)$' "$work/out" || { echo "no class table from the example"; exit 1; }
  (cd "$work" && env -u PROFDATA_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH "$tree/venv/bin/python" -c '
import os, sys, profdata
with profdata.open(sys.argv[1]) as p:
    n = p.count("objects")
print("imported from", os.path.dirname(profdata.__file__), "library", profdata._lib._name, "objects", n)
assert n > 0 and os.path.dirname(profdata.__file__).endswith("site-packages")
' "$src/tests/data/hprof/jdk17-minimal.hprof") || { echo "import profdata failed in a $1 venv"; exit 1; }
}
run_steps fresh "$block"
run_steps system-site-packages "${block/"$plain"/python3 -m venv --system-site-packages venv }"

find "$tree/bindings/python" | sort >"$work/after"
diff "$work/before" "$work/after" || { echo "pip install wrote into the source folder"; exit 1; }
