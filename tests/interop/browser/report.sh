#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The page of `profdata report DUMP -o OUT.html` in headless Chromium
# (report-test.js): exit 77 when node, chromium or the npm packages are
# missing. Reports of the JDK's own dumps (tests/data/hprof): jdk17-leaks
# (the planted suspects), jdk17-waste (the planted duplicate string) and
# jdk17-growth-2 against jdk17-growth-1 (the planted growth of
# GrowthFixture$Order). With PD_REPORT_BIG naming a dump, its report too,
# which must draw its treemap within 3 s of navigation.
# usage: report.sh PROFDATA SOURCE_ROOT BUILD_ROOT [--screenshot DOCDIR]
set -euo pipefail
profdata=$1 src=$2 build=$3
shift 3
# shellcheck source=tests/interop/browser/browser-env.sh
. "$src/tests/interop/browser/browser-env.sh"
data="$src/tests/data/hprof"
test_page() { echo "== $1"; node "$here/report-test.js" "$modules" "$chromium" "$@"; }

"$profdata" report --quiet "$data/jdk17-leaks.hprof.gz" -o "$out/leaks.html"
test_page "$out/leaks.html" --suspect 'class LeaksFixture' --suspect 'LeaksFixture$Session' "$@"
"$profdata" report --quiet "$data/jdk17-waste.hprof.gz" -o "$out/waste.html"
test_page "$out/waste.html" --string 'waste-fixture: one string, 2000 copies.!'
"$profdata" report --quiet "$data/jdk17-growth-2.hprof.gz" --baseline "$data/jdk17-growth-1.hprof.gz" -o "$out/growth.html"
test_page "$out/growth.html" --grew 'GrowthFixture$Order'

if [ -z "${PD_REPORT_BIG:-}" ]; then
	echo "PD_REPORT_BIG is not set: the big dump's load time is not measured"
	exit 0
fi
[ -r "$PD_REPORT_BIG" ] || { echo "PD_REPORT_BIG=$PD_REPORT_BIG cannot be read"; exit 1; }
start=$(date +%s%N)
"$profdata" report --quiet "$PD_REPORT_BIG" -o "$out/big.html"
echo "profdata report $(basename "$PD_REPORT_BIG"): $((($(date +%s%N) - start) / 1000000)) ms," \
	"$(stat -c %s "$out/big.html") bytes of HTML"
test_page "$out/big.html" --max-load 3000
