#!/usr/bin/env bash
# Every source file names its licence in its first lines:
# "SPDX-License-Identifier: Apache-2.0" (LICENSE holds the text).
# Usage: check-spdx.sh SOURCE_ROOT [enforce]. Without "enforce" a missing line
# is reported and the test skips (77): the lines are added to every file at
# once, and tests/meson.build turns enforcement on then.
set -euo pipefail
root=$1
enforce=${2:-}
cd "$root"
missing=()
checked=0
while IFS= read -r -d '' f; do
  checked=$((checked + 1))
  head -n 5 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || missing+=("$f")
done < <(find . \( -path ./subprojects -o -path ./tests/data -o -path ./tests/fuzz/corpus \
                   -o -path './build*' -o -path ./.git -o -name node_modules \) -prune -o -type f \
              \( -name '*.c' -o -name '*.h' -o -name '*.h.in' -o -name '*.py' -o -name '*.sh' \
                 -o -name '*.java' -o -name '*.proto' -o -name 'meson.build' \
                 -o -name 'meson_options.txt' -o -name '*.map' -o -name 'run' \) -print0 | sort -z)
if [ ${#missing[@]} -eq 0 ]; then
  echo "$checked source files, all with SPDX-License-Identifier: Apache-2.0"
  exit 0
fi
echo "${#missing[@]} of $checked source files lack 'SPDX-License-Identifier: Apache-2.0' in their first 5 lines:"
printf '  %s\n' "${missing[@]}" | head -n 50
if [ "$enforce" = enforce ]; then
  exit 1
fi
echo "(not enforced yet: tests/meson.build spdx_enforced = false)"
exit 77
