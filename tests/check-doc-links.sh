#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The installed documentation stands alone: every relative link of every
# installed Markdown page names a file that was installed too.
# Usage: check-doc-links.sh BUILD_DIR
set -euo pipefail
build=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
meson install -C "$build" --destdir "$root" --quiet >/dev/null
docs=$(find "$root" -type d -path '*/share/doc/libprofdata' | head -n1)
[ -n "$docs" ] || { echo "skipped: docs are not installed (-Ddocs=disabled)"; exit 77; }
[ -f "$docs/README.md" ] || { echo "README.md not installed"; exit 1; }
bad=0 pages=0 links=0
while IFS= read -r -d '' page; do
  pages=$((pages + 1))
  dir=$(dirname "$page")
  while IFS= read -r target; do
    target=${target%%#*}
    case $target in ''|http://*|https://*|mailto:*) continue ;; esac
    links=$((links + 1))
    if [ ! -e "$dir/$target" ]; then
      echo "${page#"$docs"/}: link to $target: not installed"
      bad=1
    fi
  done < <(grep -oE '\]\([^)]+\)' "$page" | sed -E 's/^\]\((.*)\)$/\1/')
done < <(find "$docs" -name '*.md' -print0)
echo "$pages pages, $links relative links, all to installed files"
exit $bad
