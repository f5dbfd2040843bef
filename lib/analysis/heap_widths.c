/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The heap analysis' public calls: each hands its object to the width it
 * was made at (heap_width.h, heap_names.h), and profdata_heap_new() picks
 * that width: 32-bit node numbers while the dump's objects and classes fit
 * them, 64-bit past that or when the options ask. This file is compiled
 * once, without the renames: what it defines is all the library exports
 * of the heap analysis, and it reads the heap's options for both widths.
 */
#include "analysis/heap_calls.h"
#include "model/model_impl.h"
#include "util/versioned.h"

#include <stddef.h>
#include <string.h>

#define PD_HEAP_SKIP(...)

/* Version 1 ends with `payload`; version 2 adds graph_only, version 3 node_bits. */
static const size_t options_sizes[] = { offsetof(profdata_heap_options, payload) + sizeof(void *),
                                        offsetof(profdata_heap_options, graph_only) + sizeof(int),
                                        sizeof(profdata_heap_options) };

int profdata_heap_options_init(profdata_heap_options *opts, size_t size)
{
	return pd_versioned_init(opts, size, options_sizes, PROFDATA_HEAP_OPTIONS_VERSION);
}

int pd_heap_options_adopt(profdata_heap_options *o, const profdata_heap_options *opts)
{
	return pd_versioned_adopt(o, opts, options_sizes, PROFDATA_HEAP_OPTIONS_VERSION);
}

/* Each width's calls, named as heap_names.h names them. */
#define DECLARE_X(width, ret, name, params, args, obj) ret pd_w##width##_##name params;
#define DECLARE_V(width, name, params, args, obj) void pd_w##width##_##name params;
#define DECLARE_N(width, ret, name, params, args) ret pd_w##width##_##name params;
#define DECLARE_W32_X(...) DECLARE_X(32, __VA_ARGS__)
#define DECLARE_W32_V(...) DECLARE_V(32, __VA_ARGS__)
#define DECLARE_W32_N(...) DECLARE_N(32, __VA_ARGS__)
#define DECLARE_W64_X(...) DECLARE_X(64, __VA_ARGS__)
#define DECLARE_W64_V(...) DECLARE_V(64, __VA_ARGS__)
#define DECLARE_W64_N(...) DECLARE_N(64, __VA_ARGS__)
PD_HEAP_CALLS(DECLARE_W32_X, DECLARE_W32_V, DECLARE_W32_N, DECLARE_W32_N)
PD_HEAP_CALLS(DECLARE_W64_X, DECLARE_W64_V, DECLARE_W64_N, PD_HEAP_SKIP)

/* An object of the 64-bit analysis (NULL: the 32-bit calls answer for it, as for any). */
#define WIDE(obj) ((obj) != NULL && ((const pd_heap_head *)(const void *)(obj))->width == 64)

#define DISPATCH_X(ret, name, params, args, obj) \
	ret name params { return WIDE(obj) ? pd_w64_##name args : pd_w32_##name args; }
#define DISPATCH_V(name, params, args, obj) \
	void name params                           \
	{                                          \
		if (WIDE(obj))                     \
			pd_w64_##name args;        \
		else                               \
			pd_w32_##name args;        \
	}
#define DISPATCH_O(ret, name, params, args) \
	ret name params { return pd_w32_##name args; }
PD_HEAP_CALLS(DISPATCH_X, DISPATCH_V, PD_HEAP_SKIP, DISPATCH_O)

unsigned profdata_heap_node_bits(const profdata_heap *h) { return ((const pd_heap_head *)(const void *)h)->width; }

/* The width a heap of dump `dump` of p is made at, from the options already read into o. */
static unsigned width_of(const profdata_profile *p, long dump, unsigned node_bits)
{
	if (node_bits != 0 || dump < 0 || (size_t)dump >= p->dumps.n)
		return node_bits == 64 ? 64 : 32; /* (32 or a width we do not have: the 32-bit analysis says what is wrong) */
	size_t nodes = p->dumps.v[dump].nobjects;
	return nodes < PD_HEAP_MAX_NODES_32 && p->classes.n < PD_HEAP_MAX_NODES_32 - nodes ? 32 : 64;
}

int profdata_heap_new(profdata_heap **out, const profdata_profile *p, const profdata_heap_options *opts)
{
	profdata_heap_options o = PROFDATA_HEAP_OPTIONS_INIT;
	if (opts && pd_heap_options_adopt(&o, opts) != 0)
		return pd_w32_profdata_heap_new(out, p, opts); /* (it says what is wrong with them) */
	return width_of(p, o.dump, o.node_bits) == 64 ? pd_w64_profdata_heap_new(out, p, opts)
	                                              : pd_w32_profdata_heap_new(out, p, opts);
}

int profdata_heap_analyze(profdata_heap **out, const profdata_profile *p, const profdata_heap_options_0_2 *opts)
{
	profdata_heap_options_0_2 o; /* (read as heap.c reads it: `size` bytes of it) */
	memset(&o, 0, sizeof(o));
	if (opts)
		memcpy(&o, opts, opts->size && opts->size < sizeof(o) ? opts->size : sizeof(o));
	return width_of(p, o.dump, 0) == 64 ? pd_w64_profdata_heap_analyze(out, p, opts)
	                                  : pd_w32_profdata_heap_analyze(out, p, opts);
}
