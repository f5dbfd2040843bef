#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every public header compiles alone, as strict C99 and as C++, with and
# without the experimental tier; a deprecated call warns unless the caller
# asks for silence (doc/conventions.md).
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
  for tier in -UPROFDATA_EXPERIMENTAL -DPROFDATA_EXPERIMENTAL; do
    "$cc" -std=c99 -pedantic -Wall -Wextra -Werror "$tier" "${inc[@]}" -c "$tmp/t.c" -o "$tmp/t.o"
    if [ -n "$cxx" ]; then
      cp "$tmp/t.c" "$tmp/t.cpp"
      "$cxx" -std=c++11 -pedantic -Wall -Wextra -Werror "$tier" "${inc[@]}" -c "$tmp/t.cpp" -o "$tmp/t.o"
    fi
  done
  n=$((n + 1))
done
# The macros callers expand (sized getters, initialisers) compile cleanly too.
cat > "$tmp/use.c" <<'EOF2'
#include <profdata/profdata.h>
int use(const profdata_profile *p);
int use(const profdata_profile *p)
{
	profdata_events ev;
	profdata_object o;
	profdata_class_info c;
	profdata_root r;
	profdata_sample_group g;
	profdata_attachment a;
	uint32_t dump;
	size_t first, count;
	int e = profdata_events_init(&ev, sizeof ev);
	e += profdata_profile_object(p, 0, &o) + profdata_profile_class(p, 0, &c);
	e += profdata_profile_root(p, 0, &r, &dump) + profdata_profile_sample_group(p, 0, &g, &first, &count);
	e += profdata_profile_find_attachment(p, "maps", &a);
	profdata_heap_options ho = PROFDATA_HEAP_OPTIONS_INIT;
	profdata_read_options ro = PROFDATA_READ_OPTIONS_INIT;
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	e += profdata_heap_options_init(&ho, sizeof ho) + profdata_read_options_init(&ro, sizeof ro);
	e += profdata_write_options_init(&wo, sizeof wo) + (int)(profdata_features() & PROFDATA_FEATURE_GZIP);
	return e + profdata_profile_replay(p, profdata_profile_builder_events(), NULL);
}
EOF2
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror "${inc[@]}" -c "$tmp/use.c" -o "$tmp/use.o"
if [ -n "$cxx" ]; then
  cp "$tmp/use.c" "$tmp/use.cpp"
  "$cxx" -std=c++11 -pedantic -Wall -Wextra -Werror "${inc[@]}" -c "$tmp/use.cpp" -o "$tmp/use.o"
fi
# A deprecated call is a warning (an error under -Werror) that names its
# replacement, and nothing with PROFDATA_NO_DEPRECATION_WARNINGS.
cat > "$tmp/old.c" <<'EOF2'
#include <profdata/profdata.h>
void old_progress(profdata_reader *r);
void old_progress(profdata_reader *r) { profdata_reader_set_progress(r, NULL, NULL, 0); }
EOF2
if "$cc" -std=c99 -Wall -Werror "${inc[@]}" -c "$tmp/old.c" -o "$tmp/old.o" 2> "$tmp/old.err"; then
  echo "a deprecated call compiled without a warning"
  exit 1
fi
grep -q profdata_reader_set_progress_cb "$tmp/old.err" || { cat "$tmp/old.err"; echo "the warning does not name the replacement"; exit 1; }
"$cc" -std=c99 -Wall -Werror -DPROFDATA_NO_DEPRECATION_WARNINGS "${inc[@]}" -c "$tmp/old.c" -o "$tmp/old.o"
echo "$n headers compile as C99${cxx:+ and C++}, with and without PROFDATA_EXPERIMENTAL, and so do the macros callers expand; deprecated calls warn"
