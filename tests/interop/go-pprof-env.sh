# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts that compare with go tool pprof: skip (77) without
# go, a scratch folder removed on exit, and go run offline in it (HOME and
# the caches inside, no module proxy, no search for the profiled binaries).
command -v go >/dev/null || { echo "go is not installed: skipped"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch/home GOPATH=$scratch/gopath GOCACHE=$scratch/gocache
export GOFLAGS='' GOPROXY=off GOTOOLCHAIN=local PPROF_TMPDIR=$scratch/pprof PPROF_BINARY_PATH=$scratch/nobinaries
mkdir -p "$HOME"
fail=0 checks=0
# same WHAT WANT GOT: "ok WHAT" when the two files are equal, else "FAIL WHAT" and their first differences; counted
same() {
    checks=$((checks + 1))
    if cmp -s "$2" "$3"; then
        echo "ok   $1"
    else
        echo "FAIL $1"
        diff "$2" "$3" | head -10
        fail=$((fail + 1))
    fi
}
