#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Makes the Go runtime profiles of tests/data/pprof (cpu with labels, heap,
# allocs, mutex, block, goroutine, threadcreate) with main.go beside this
# script, offline: a temporary HOME and GOCACHE, no module downloads.
# Usage: gen.sh [OUTDIR]   (default: tests/data/pprof)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../data/pprof}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
HOME=$tmp GOCACHE=$tmp/cache GOPATH=$tmp/go GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local \
	go build -trimpath -o "$tmp/pprofgen" .
"$tmp/pprofgen" "$out"
