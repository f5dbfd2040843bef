#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# profdata convert IN OUT without --to: the format comes from OUT's ending
# when a format claims that ending (the library's table), and the tool says
# which; an ending no format claims (.txt, .json) asks for --to (status 2),
# naming the endings that end alike (.speedscope.json for .json).
set -eu
profdata=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in="$src/tests/data/gperftools/cpu-100hz.prof"
check() { # OUT FORMAT
	"$profdata" convert "$in" "$tmp/$1" 2>"$tmp/err"
	grep -q "as $2 (from its name" "$tmp/err" || { echo "$1: not chosen as $2:"; cat "$tmp/err"; exit 1; }
}
check out.svg flamegraph
check out.folded folded
check out.pb.gz pprof
check out.speedscope.json speedscope
check out.trace.json chrome-trace
check out.prof gperftools
head -c 5 "$tmp/out.svg" | grep -q '<?xml'
cmp <("$profdata" convert "$in" - --to folded) "$tmp/out.folded"
for amb in out.txt out.json; do
	status=0
	"$profdata" convert "$in" "$tmp/$amb" 2>"$tmp/err" || status=$?
	[ "$status" = 2 ] && grep -q "needs --to FORMAT" "$tmp/err" || { echo "$amb: status $status"; cat "$tmp/err"; exit 1; }
done
grep -q "\.speedscope\.json (speedscope)" "$tmp/err" || { echo "out.json: no word of .speedscope.json"; cat "$tmp/err"; exit 1; }
# A .gz after a format's own ending gzips that format (when this build has gzip output).
if "$profdata" convert "$in" - --to folded --gzip >/dev/null 2>&1; then
	"$profdata" convert "$in" "$tmp/out.folded.gz" 2>"$tmp/err"
	grep -q "as folded, gzip'd (from its name" "$tmp/err" || { echo "out.folded.gz:"; cat "$tmp/err"; exit 1; }
	cmp <(gzip -dc "$tmp/out.folded.gz") "$tmp/out.folded"
fi
# --to still wins over the name
"$profdata" convert "$in" "$tmp/x.svg" --to folded --quiet
cmp "$tmp/x.svg" "$tmp/out.folded"
echo "convert picks formats from OUT's ending"
