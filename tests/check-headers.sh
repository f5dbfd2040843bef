#!/usr/bin/env bash
# Every public header compiles alone, as strict C99 and as C++.
set -euo pipefail
src=$1 build=$2 cc=${3:-cc}
cxx=$(command -v c++ || command -v g++ || command -v clang++ || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
inc=(-I"$src/include" -I"$build/include")
n=0
for h in "$src"/include/profdata/*.h "$build"/include/profdata/version.h; do
  name=profdata/$(basename "$h")
  printf '#include <%s>\nint main(void) { return 0; }\n' "$name" > "$tmp/t.c"
  "$cc" -std=c99 -pedantic -Wall -Wextra -Werror "${inc[@]}" -c "$tmp/t.c" -o "$tmp/t.o"
  if [ -n "$cxx" ]; then
    cp "$tmp/t.c" "$tmp/t.cpp"
    "$cxx" -std=c++11 -pedantic -Wall -Wextra -Werror "${inc[@]}" -c "$tmp/t.cpp" -o "$tmp/t.o"
  fi
  n=$((n + 1))
done
echo "$n headers compile as C99${cxx:+ and C++}"
