#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Writes the service-shaped heap dump of the heap-analysis benchmark (not committed).
#
# Usage: tests/bench/gen-service-hprof.sh [OUTPUT [CUSTOMERS]]
#   OUTPUT          default /tmp/profdata-service.hprof (replaced if present)
#   CUSTOMERS       default 240000: about 7 million objects, a dump of
#                   about 440 MB (ServiceHeap.java)
# Needs java, javac and jcmd, about 2 GB of free memory for the JVM, and
# disk space for the dump.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec bash "$here/jcmd-dump.sh" gen-service-hprof ServiceHeap 2g "${1:-/tmp/profdata-service.hprof}" "${2:-240000}"
