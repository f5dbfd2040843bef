# SPDX-License-Identifier: Apache-2.0
# Sourced by interop scripts: the corpus part of a test (README, "The corpus
# tests"). The folder is PROFDATA_CORPUS, else PD_CORPUS_OPTION (meson's
# -Dcorpus, passed by tests/meson.build), else ../shared/corpus beside the
# source root. A clone of the project alone has none: the corpus part is then
# skipped with a line saying why, and the rest of the test runs.

# corpus_files ARRAY ROOT SUBDIR PATTERN: ARRAY gets the corpus's
# SUBDIR/PATTERN files; with none, print why that part is skipped and return 1.
corpus_files() {
	local -n found=$1
	local dir=${PROFDATA_CORPUS:-${PD_CORPUS_OPTION:-$2/../shared/corpus}} f
	found=()
	if [ ! -d "$dir" ]; then
		echo "corpus part skipped ($3/$4): no corpus folder $dir (meson setup -Dcorpus=DIR or PROFDATA_CORPUS=DIR)"
		return 1
	fi
	for f in "$dir/$3"/$4; do
		[ -f "$f" ] && found+=("$f")
	done
	if [ ${#found[@]} -eq 0 ]; then
		echo "corpus part skipped ($3/$4): none in $dir"
		return 1
	fi
}
