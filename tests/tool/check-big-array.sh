#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The commands that analyse a heap dump never read primitive arrays'
# elements, so a gzip'd dump of 1 MB holding one 512 MiB byte[] costs them
# no 512 MiB: info, top, path, histo and check each stay under 64 MB peak.
# Usage: check-big-array.sh PROFDATA PYTHON
set -euo pipefail
tool=$1 python=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (Debian: time): skipped"; exit 77; }

# HPROF 1.0.2, 4-byte ids: one heap dump segment holding a GC root and the byte[] it names.
"$python" - "$dir/big.hprof.gz" <<'PY'
import gzip, struct, sys
n = 512 << 20
root = struct.pack(">BI", 0xFF, 0x100)
head = struct.pack(">BIIIB", 0x23, 0x100, 0, n, 8)
with gzip.open(sys.argv[1], "wb", compresslevel=6) as f:
    f.write(b"JAVA PROFILE 1.0.2\0" + struct.pack(">IQ", 4, 0))
    f.write(struct.pack(">BII", 0x1C, 0, len(root) + len(head) + n) + root + head)
    zeros = bytes(1 << 20)
    for _ in range(n >> 20):
        f.write(zeros)
    f.write(struct.pack(">BII", 0x2C, 0, 0))
PY
echo "made a $(($(stat -c %s "$dir/big.hprof.gz") / 1024)) KB gzip'd dump holding a 512 MiB byte[]"

big=$dir/big.hprof.gz
run() { # NAME ARGS...: run the tool under time, say its peak, fail past 64 MB
  /usr/bin/time -o "$dir/time" -f '%M %e' "$tool" "$@" --quiet >"$dir/out" 2>"$dir/err" || fail "$1: $(cat "$dir/err")"
  read -r kb s <"$dir/time"
  echo "$1: peak RSS $((kb / 1024)) MB, $s s"
  [ "$kb" -le $((64 * 1024)) ] || fail "$1 took $((kb / 1024)) MB for a dump of one 512 MiB array"
}
run info "$big"
run top -n 1 "$big"
grep -q "byte\[\]" "$dir/out" || fail "top does not show the byte[]: $(cat "$dir/out")"
run path "$big" 0x100
run histo "$big"
run check "$big"
