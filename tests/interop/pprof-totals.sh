#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The *_total functions are only called through report(), which shellcheck
# cannot follow.
# shellcheck disable=SC2317

# Prints the total sample count of a profile as the reference tools see it,
# so interop tests can compare our reader/exporter against them.
#
# Usage: pprof-totals.sh [--tool go|google-pprof] FILE
#   FILE  a gperftools CPU profile (binary legacy format) or a pprof profile
#         (protobuf, gzipped or not)
#
# Without --tool, prints one "TOOL TOTAL" line per applicable tool that is
# installed:
#   go TOTAL            `go tool pprof -raw`, summing the samples/count column
#                       (or the first column when no value type is "samples")
#   google-pprof TOTAL  the "Total: N samples" line of `google-pprof --text`;
#                       only for gperftools files, which is all it reads
# With --tool, prints only that tool's number.
#
# Exit status: 0 all tools read the file; 1 a tool rejected it (its line
# then says "TOOL error" and its message goes to stderr); 2 usage;
# 77 no applicable tool is installed (the automake/Meson "skip" code).
#
# Both tools run offline: go's symbolizer is off, and HOME and the Go
# caches point into a throw-away directory so a read-only or empty HOME
# does not matter and nothing is looked up on the network.
set -euo pipefail

usage() {
    echo "usage: $0 [--tool go|google-pprof] FILE" >&2
    exit 2
}

only=
if [[ ${1:-} == --tool ]]; then
    [[ $# -ge 2 ]] || usage
    only=$2
    shift 2
    case $only in go|google-pprof) ;; *) usage ;; esac
fi
[[ $# -eq 1 ]] || usage
file=$1
if [[ ! -r $file ]]; then
    echo "$0: cannot read $file" >&2
    exit 2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch/home GOPATH=$scratch/gopath GOCACHE=$scratch/gocache
export GOFLAGS='' GOPROXY=off GOTOOLCHAIN=local PPROF_TMPDIR=$scratch/pprof
# An empty binary search path stops go pprof from hunting for the profiled
# executable (it would find it under /tmp for freshly recorded fixtures).
export PPROF_BINARY_PATH=$scratch/nobinaries
mkdir -p "$HOME"

# A protobuf never starts with a zero byte (field number 0 is invalid) while
# every legacy header does, 32- or 64-bit, either byte order.  An empty file
# is what a SIGKILL'd gperftools run leaves, so count it as legacy too.
is_legacy() {
    local first
    first=$(od -An -tx1 -N4 "$file" | tr -d ' \n')
    [[ -z $first || $first == 00000000 ]]
}

have_go() {
    command -v go >/dev/null 2>&1 && go tool -n pprof >/dev/null 2>&1
}

have_google_pprof() {
    command -v google-pprof >/dev/null 2>&1 &&
        command -v nm >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1
}

go_total() {
    # -raw lists every sample as "V1 V2 ...: LOCATION-IDS"; the line after
    # "Samples:" names the value types, which picks the column to add up.
    go tool pprof -raw -symbolize=none "$file" 2>"$scratch/err" |
        awk '
            /^Samples:$/ { insamples = 1; header = 1; next }
            insamples && header {
                col = 1
                for (i = 1; i <= NF; i++)
                    if ($i ~ /^samples\//) { col = i; break }
                header = 0
                next
            }
            /^[A-Za-z]/ { insamples = 0 }
            !insamples { next }
            {
                split($0, parts, ":")
                n = split(parts[1], vals, " ")
                if (n < col || vals[col] !~ /^-?[0-9]+$/) next
                total += vals[col]
            }
            END { printf "%d\n", total }
        '
    # The awk END block runs even when pprof failed; report that failure.
    return "${PIPESTATUS[0]}"
}

google_pprof_total() {
    # The perl tool insists on a program argument before the profile; any
    # executable works because the totals do not depend on symbols.  It
    # prints nothing at all (and succeeds) when the profile has no samples.
    local out
    out=$(google-pprof --text --nodecount=1 /bin/true "$file" 2>"$scratch/err") ||
        return 1
    if grep -q 'substr outside of string\|uninitialized value' "$scratch/err"; then
        return 1
    fi
    awk '/^Total: [0-9]+ samples/ { t = $2 } END { printf "%d\n", t }' <<<"$out"
}

status=0
ran=0

report() {
    local tool=$1 fn=$2 total
    ran=1
    if total=$("$fn"); then
        if [[ -n $only ]]; then echo "$total"; else echo "$tool $total"; fi
    else
        sed "s|^|$tool: |" "$scratch/err" >&2
        if [[ -n $only ]]; then echo error; else echo "$tool error"; fi
        status=1
    fi
}

if [[ -z $only || $only == go ]]; then
    if have_go; then
        report go go_total
    elif [[ -n $only ]]; then
        echo "$0: go tool pprof not installed" >&2
    fi
fi

if [[ -z $only || $only == google-pprof ]]; then
    if ! is_legacy; then
        [[ -n $only ]] && echo "$0: google-pprof reads only gperftools files" >&2
    elif have_google_pprof; then
        report google-pprof google_pprof_total
    elif [[ -n $only ]]; then
        echo "$0: google-pprof (or binutils) not installed" >&2
    fi
fi

if (( ! ran )); then
    exit 77
fi
exit "$status"
