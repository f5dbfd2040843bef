/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The heap analysis on whatever HPROF reads permissively into a model: the
 * dominators and retained sizes of every dump, the biggest objects with
 * their dominators and paths to a GC root, and the retained histogram.
 * Cycles, self references, dangling ids, weak referents, static fields and
 * objects outside any dump must neither crash nor hang it.
 */
#include "fuzz-common.h"

#include <profdata/heap.h>

static void look_at(profdata_heap *h, const profdata_profile *p)
{
	size_t top[8], dominator, n;
	profdata_heap_top_nodes(top, &n, h, 8);
	for (size_t k = 0; k < n; k++) {
		profdata_heap_root_path *path;
		profdata_heap_root_path_new(&path, h, top[k], NULL, NULL);
		profdata_heap_root_path_free(path);
		profdata_heap_dominator_of(&dominator, h, top[k]);
	}
	uint64_t bytes;
	size_t nclasses = profdata_profile_count(p, PROFDATA_TABLE_CLASSES);
	for (size_t c = 0; c < nclasses && c < 64; c++)
		profdata_heap_retained_by_class(&bytes, h, c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	profdata_profile *p = fuzz_read(data, size, "hprof", PROFDATA_MODE_PERMISSIVE, NULL);
	if (!p)
		return 0;
	size_t ndumps = profdata_profile_count(p, PROFDATA_TABLE_DUMPS);
	for (size_t d = 0; d < ndumps && d < 4; d++) {
		profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
		o.dump = (long)d;
		o.node_bits = (size + d) % 2 ? 64 : 0; /* both widths of the analysis (heap.h), by the input's length */
		profdata_heap *h;
		if (profdata_heap_new(&h, p, &o) == 0)
			look_at(h, p);
		profdata_heap_free(h); /* a failed one holds its message */
	}
	profdata_profile_free(p);
	return 0;
}
