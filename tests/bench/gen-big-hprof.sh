#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Writes a large HotSpot heap dump for reader benchmarks (not committed).
#
# Usage: tests/bench/gen-big-hprof.sh [OUTPUT [TARGET_OBJECTS]]
#   OUTPUT          default /tmp/profdata-big.hprof (replaced if present)
#   TARGET_OBJECTS  objects the program allocates, default 37000000, which
#                   gives a dump of about 1.8 GB; the JDK adds ~10k more
# Needs java, javac and jcmd, about 6 GB of free memory for the JVM, and
# disk space for the dump.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec bash "$here/jcmd-dump.sh" gen-big-hprof BigHeap 6g "${1:-/tmp/profdata-big.hprof}" "${2:-37000000}"
