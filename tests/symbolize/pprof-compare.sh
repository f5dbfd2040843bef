#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Symbolization against the reference, with the real producer at test time:
# compile tests/symbolize/workload.c with -g, run it under gperftools'
# libprofiler, name its frames with `profdata convert --to folded`, and
# compare with google-pprof's --text reading of the same profile and binary:
# the same function names, the same flat and cumulative counts, function by
# function. Then:
#   - an -O2 build whose helpers are always_inline: the inlined calls are
#     frames, as google-pprof shows them ("(inline)");
#   - a stripped binary with a separate debug file (objcopy --only-keep-debug,
#     --add-gnu-debuglink), found beside it and through --debug-dir;
#   - the binaries under --sysroot (a profile from another machine), the
#     workload's stripped, its debug file found by build id there;
#   - a binary replaced since the profile was taken: one warning, addresses;
#   - the pprof export opens in `go tool pprof` with the same names.
#
# Usage: pprof-compare.sh PROFDATA SOURCE_ROOT
# Exit: 0 all agree, 1 a difference, 77 a tool missing (named on stdout).
set -euo pipefail

profdata=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"

skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

command -v gcc >/dev/null || skip "gcc missing"
command -v google-pprof >/dev/null || skip "google-pprof missing (Debian: google-perftools)"
command -v objcopy >/dev/null && command -v nm >/dev/null || skip "binutils missing"
echo 'int main(void){return 0;}' > probe.c
gcc -o probe probe.c -Wl,--no-as-needed -lprofiler 2>/dev/null ||
    skip "libprofiler missing (Debian: libgoogle-perftools-dev)"

build() { # NAME CFLAGS...
    local name=$1; shift
    gcc -std=c99 -g -fno-omit-frame-pointer "$@" -o "$name" "$src/tests/symbolize/workload.c" \
        -Wl,--no-as-needed -lprofiler -Wl,--as-needed
}
record() { # BINARY PROFILE
    CPUPROFILE=$2 CPUPROFILE_FREQUENCY=1000 "$1" 1.0 >/dev/null 2>&1
}

build w0 -O0
record ./w0 w0.prof
out=$("$profdata" convert w0.prof w0.folded --to folded --symbolize=yes 2>&1) || true
case $out in *"built without symbolization"*) skip "this libprofdata has no symbolization (-Dsymbolize)";; esac
[[ -s w0.folded ]] || fail "convert: $out"

# Per function: flat (leaf) and cumulative (once per stack) counts, "name flat cum", sorted.
ours() {
    awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); flat[f[k]] += n
           delete seen; for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; cum[f[i]] += n } }
         END { for (fn in cum) print fn, flat[fn] + 0, cum[fn] }' "$1" | sort
}
theirs() { # BINARY PROFILE
    google-pprof --text --nodecount=100000 "$1" "$2" 2>/dev/null |
        awk '$2 ~ /%$/ && $5 ~ /%$/ { name = $6; for (i = 7; i <= NF; i++) if ($i != "(inline)") name = name " " $i
                                      print name, $1, $4 }' | sort
}
workload_only() {
    while read -r name flat cum; do
        grep -qw -- "$name" "$src/tests/symbolize/workload.c" && echo "$name $flat $cum"
    done
    return 0
}
compare() { # WHAT FOLDED BINARY PROFILE FUNCTIONS...
    local what=$1 folded=$2 bin=$3 prof=$4; shift 4
    local file=${what//[^a-z0-9]/_}
    # The workload's own functions: a sample that lands in the C library is
    # named differently by each reader (__GI_ aliases), and is not the workload.
    ours "$folded" | workload_only > "$file.ours"
    theirs "$bin" "$prof" | workload_only > "$file.theirs"
    [[ -s $file.theirs ]] || fail "$what: google-pprof printed nothing"
    if ! diff -u "$file.theirs" "$file.ours"; then
        fail "$what: names or counts differ from google-pprof (- google-pprof, + ours)"
    fi
    for f in "$@"; do
        grep -q "^$f " "$file.ours" || fail "$what: no samples named $f (a machine too busy to sample it?)"
    done
    echo "ok: $what: $(wc -l < "$file.ours") functions agree with google-pprof"
}

compare "-O0" w0.folded ./w0 w0.prof main busy_hash busy_sum sum_squares mix_bits

# Inlined calls: frames of their own, as google-pprof shows them.
build w2 -O2 -DINLINE_HELPERS
record ./w2 w2.prof
"$profdata" convert w2.prof w2.folded --to folded --symbolize=yes
compare "-O2 inlined" w2.folded ./w2 w2.prof main hash_block mix_bits
grep -q ';hash_block;mix_bits ' w2.folded || fail "-O2: no stack with the inlined calls hash_block;mix_bits"

# A stripped binary with a separate debug file: w0.prof's binary is replaced by
# its stripped copy (the same code at the same offsets, the same build id);
# google-pprof reads the unstripped one.
mkdir -p debug
objcopy --only-keep-debug w0 debug/w0.debug
objcopy --strip-all --add-gnu-debuglink=debug/w0.debug w0 w0.stripped
[[ -z $(nm w0.stripped 2>/dev/null) ]] || fail "the stripped binary still has symbols"
cp w0 w0.full
cp w0.stripped w0 && cp debug/w0.debug .
"$profdata" convert w0.prof w0s.folded --to folded --symbolize=yes
rm w0.debug
"$profdata" convert w0.prof w0s-dir.folded --to folded --symbolize=yes --debug-dir "$scratch/debug"
"$profdata" convert w0.prof w0s-none.folded --to folded --symbolize=yes
cp w0.full w0
compare "stripped, debug link beside it" w0s.folded ./w0 w0.prof main sum_squares
compare "stripped, --debug-dir" w0s-dir.folded ./w0 w0.prof main sum_squares
grep -q 'sum_squares' w0s-none.folded && fail "stripped without its debug file: named anyway?"

# A profile from another machine: its binaries under --sysroot.
mkdir -p "sysroot$scratch"
grep -a -o ' /[^ ]*$' w0.prof | sort -u | while read -r lib; do
    [[ -f $lib && $lib != "$scratch/w0" ]] && cp --parents "$lib" sysroot/
done
# There, the stripped binary, its debug file where Debian puts them: by build id in /usr/lib/debug.
build_id=$(objcopy --dump-section .note.gnu.build-id=/dev/stdout w0 | od -An -tx1 -v | tr -d ' \n' | cut -c33-)
mkdir -p "sysroot/usr/lib/debug/.build-id/${build_id:0:2}"
cp debug/w0.debug "sysroot/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug"
cp w0.stripped "sysroot$scratch/w0"
mv w0 w0.away
"$profdata" convert w0.prof w0-sysroot.folded --to folded --symbolize=yes --sysroot "$scratch/sysroot"
mv w0.away w0
compare "--sysroot" w0-sysroot.folded ./w0 w0.prof main sum_squares

# A binary replaced since the profile was taken (here by another program, whose
# text is not the size mapped): left as addresses, one warning naming it.
# Detection is by build id (when the profile has them) or by the segments'
# sizes: a rebuild that keeps every segment's size is not seen.
cp w0 w0.saved && cp "$(command -v gcc)" w0
"$profdata" convert w0.prof replaced.folded --to folded --symbolize=yes 2> replaced.err
cp w0.saved w0
[[ $(grep -c "$scratch/w0 .*left as addresses" replaced.err) == 1 ]] ||
    fail "replaced binary: expected one warning naming it, got: $(cat replaced.err)"
grep -q 'sum_squares' replaced.folded && fail "replaced binary: its frames were named anyway"
echo "ok: a replaced binary is detected: $(head -1 replaced.err)"

# The pprof export, read by go tool pprof: the same names and flat counts.
if command -v go >/dev/null 2>&1 && go tool -n pprof >/dev/null 2>&1; then
    "$profdata" convert w0.prof w0.pb.gz --to pprof --symbolize=yes
    go tool pprof -symbolize=none -raw w0.pb.gz > go.raw 2>&1 || fail "go tool pprof rejected the export: $(cat go.raw)"
    go tool pprof -symbolize=none -top -nodecount=1000 -unit=ms w0.pb.gz > go.top 2>&1
    for f in main busy_hash busy_sum sum_squares mix_bits; do
        grep -q " $f\$" go.top || fail "go tool pprof: no $f in: $(cat go.top)"
    done
    echo "ok: go tool pprof reads the export with the workload's names"
    # Inlined calls are lines of the location of the call they were inlined into, as pprof has them:
    # go tool pprof marks them "(inline)" and still counts their samples flat.
    "$profdata" convert w2.prof w2.pb.gz --to pprof --symbolize=yes
    go tool pprof -symbolize=none -top -nodecount=1000 -sample_index=0 w2.pb.gz > go2.top 2>&1
    grep -q " mix_bits (inline)\$" go2.top || fail "go tool pprof: mix_bits not inlined in: $(cat go2.top)"
    flat_folded=$(awk '{ n = split($1, f, ";"); if (f[n] == "mix_bits") s += $2 } END { print s + 0 }' w2.folded)
    flat_go=$(awk '$NF == "(inline)" && $(NF-1) == "mix_bits" { print $1 + 0 }' go2.top)
    [ "$flat_folded" -gt 0 ] && [ "$flat_go" = "$flat_folded" ] ||
        fail "mix_bits flat: go tool pprof $flat_go, folded $flat_folded: $(cat go2.top)"
    echo "ok: inlined calls are lines of one location (go tool pprof: mix_bits (inline), flat $flat_go as folded)"
else
    echo "go tool pprof missing: the pprof export check is skipped (the rest passed)"
fi
