#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's Python steps work as written: the first ```sh block under
# "## Python" in README.md builds a wheel offline with meson-python and
# installs it in a fresh venv, where a script reads a heap dump. Run in a
# copy of the source tree (links to its entries), with no package index and
# no PROFDATA_LIBRARY, LD_LIBRARY_PATH or PYTHONPATH; then the same wheel
# goes into a --system-site-packages venv (numpy and pandas of the system),
# and the installed package is imported from outside the source tree, reads
# a heap dump into pandas and gives a CPU profile's top functions; last,
# `pip install --no-build-isolation .` builds and installs in one step.
# Usage: check-wheel.sh PYTHON SOURCE_ROOT
set -euo pipefail
python=$1 src=$2
block=$(awk '/^## Python/ {py = 1} py && /^```sh$/ {inside = 1; next} inside && /^```$/ {exit} inside {print}' \
  "$src/README.md")
[ -n "$block" ] || { echo "no sh block under '## Python' in README.md"; exit 1; }
plain='python3 -m venv venv'
[ "$(grep -c -x -F -- "$plain" <<<"$block")" = 1 ] || { echo "README: no single line '$plain' to vary"; exit 1; }

# Skip (77) only for what the machine lacks: meson-python, or a venv with pip.
"$python" -c 'import mesonpy' 2>/dev/null ||
  { echo "skipped: $python has no meson-python (apt-get install python3-mesonpy)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! probe=$("$python" -m venv "$work/probe" 2>&1); then
  echo "skipped: $python cannot create a venv with pip (apt-get install python3-venv): $probe"
  exit 77
fi
rm -rf "$work/probe"

# `python3` in the steps is the Python under test (PATH's may be another one).
mkdir "$work/bin"
ln -s "$python" "$work/bin/python3"
# The suite shares the machine with the other tests: the wheel's build runs
# ninja with two jobs (meson-python and meson take ninja from NINJA).
real_ninja=$(command -v ninja)
printf '#!/bin/sh\nexec %s -j2 "$@"\n' "$real_ninja" >"$work/bin/ninja"
chmod +x "$work/bin/ninja"
tree=$work/tree
mkdir "$tree"
for entry in "$src"/*; do
  case ${entry##*/} in build*|venv|dist) ;; *) ln -s "$entry" "$tree/${entry##*/}" ;; esac
done

steps() {  # KIND STEPS
  echo "== $1: README's steps"
  rm -rf "$tree/venv"
  (cd "$tree" && env -u PROFDATA_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH -u PYTHONHOME \
     PATH="$work/bin:$PATH" NINJA="$work/bin/ninja" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 bash -euo pipefail -c "$2") \
    >"$work/out" 2>&1 || { tail -40 "$work/out"; echo "the README's steps failed ($1)"; exit 1; }
  tail -5 "$work/out"
  grep -q '(.* classes)$' "$work/out" || { echo "no class table from the example ($1)"; exit 1; }
  # Imported from the venv's site-packages, with the library inside the extension.
  (cd "$work" && env -u PROFDATA_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH "$tree/venv/bin/python" -c '
import os, sys, profdata, profdata._profdata as ext
with profdata.open(sys.argv[1]) as p:
    n = p.count("objects")
print("imported from", os.path.dirname(profdata.__file__), "extension", os.path.basename(ext.__file__), "objects", n)
assert n > 0 and os.path.dirname(profdata.__file__).endswith(os.path.join("site-packages", "profdata"))
assert ext.__file__.endswith(".abi3.so")
' "$src/tests/data/hprof/jdk17-minimal.hprof") || { echo "import profdata failed ($1)"; exit 1; }
  if ldd "$(cd "$work" && "$tree/venv/bin/python" -c 'import profdata._profdata as e; print(e.__file__)')" |
     grep -q libprofdata; then
    echo "the extension needs a libprofdata.so ($1)"; exit 1
  fi
}
steps "fresh venv" "$block"
# The wheel is built: the second venv takes the steps from the venv on.
rest=$(awk -v plain="$plain" '$0 == plain {on = 1} on' <<<"$block")
steps "--system-site-packages venv" "${rest/"$plain"/python3 -m venv --system-site-packages venv}"
# What a user of the wheel does first: a heap dump into pandas, a CPU
# profile's top functions (as a DataFrame: pandas is the system's here).
(cd "$work" && env -u PROFDATA_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH "$tree/venv/bin/python" -c '
import sys, profdata
with profdata.open(sys.argv[1]) as heap:
    objects = heap.to_pandas("objects")
    by_class = objects.groupby("class_name", observed=True)["size"].sum()
with profdata.open(sys.argv[2]) as cpu:
    top = cpu.top()
print("%d objects, most bytes in %s; busiest function %s" % (len(objects), by_class.idxmax(), top["name"][0]))
assert len(objects) > 0 and type(top).__name__ == "DataFrame" and len(top) > 0
' "$src/tests/data/hprof/jdk17-minimal.hprof" "$src/tests/data/gperftools/cpu-1000hz.prof") ||
  { echo "pandas and top through the installed wheel failed"; exit 1; }
# The wheel holds the package and its metadata, nothing else (no library,
# headers or tool): the extension carries the library.
wheel=$(ls "$tree"/dist/*.whl)
echo "$wheel"
"$python" -m zipfile -l "$wheel"
stray=$("$python" -c 'import sys, zipfile
print("\n".join(n for n in zipfile.ZipFile(sys.argv[1]).namelist()
                if not n.startswith(("profdata/", "profdata-0.3.0.dist-info/"))))' "$wheel")
[ -z "$stray" ] || { echo "the wheel holds more than the package: $stray"; exit 1; }
# meson-python builds in a .mesonpy-* folder of the source tree and removes it
# (0.12 leaves its .mesonpy-native-file.ini there, which .gitignore lists).
leftover=$(find "$tree"/ -maxdepth 1 -type d -name '.mesonpy-*')
[ -z "$leftover" ] || { echo "the build left $leftover"; exit 1; }

# `pip install --no-build-isolation .` builds and installs in one step, in a
# venv that sees the system's meson-python (a --system-site-packages one).
echo "== pip install --no-build-isolation ."
rm -rf "$tree/venv"
(cd "$tree" && env -u PROFDATA_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH -u PYTHONHOME \
   PATH="$work/bin:$PATH" NINJA="$work/bin/ninja" PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
   bash -euo pipefail -c 'python3 -m venv --system-site-packages venv && venv/bin/pip install --no-build-isolation .') \
  >"$work/out" 2>&1 || { tail -40 "$work/out"; echo "pip install --no-build-isolation . failed"; exit 1; }
(cd "$work" && env -u PYTHONPATH "$tree/venv/bin/python" -c '
import os, sys, profdata
with profdata.open(sys.argv[1]) as p:
    assert p.count("objects") > 0
assert os.path.dirname(profdata.__file__).endswith(os.path.join("site-packages", "profdata"))
print("installed by pip install . into", os.path.dirname(profdata.__file__))
' "$src/tests/data/hprof/jdk17-minimal.hprof") || { echo "import after pip install . failed"; exit 1; }
