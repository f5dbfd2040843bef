/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Call stacks as pictures show them: every frame's name as folded stacks
 * write it, the samples summed per stack, and the call tree those make
 * (identical names along a chain are one node, as identical folded lines
 * are one line). Folded, the flame graph, speedscope and chrome-trace all
 * read samples through these, so that they agree on names and totals.
 */
#ifndef PD_ANALYSIS_STACKS_H
#define PD_ANALYSIS_STACKS_H

#include "internal.h"
#include "util/hashmap.h"

/* Addresses in the upper half are the kernel's on the 64-bit systems that profile. */
static inline int pd_kernel_address(uint64_t address)
{
	return address >= UINT64_C(0xffff800000000000);
}

/* What a frame is, for colours: a picture tells JVM code from native code. */
typedef enum pd_frame_kind {
	PD_FRAME_UNKNOWN = 0,
	PD_FRAME_JVM,
	PD_FRAME_NATIVE,
	PD_FRAME_KERNEL
} pd_frame_kind;

/* Every frame's name, rendered once: the function (Java frames as package.Class.method), else its PC in hex, else "[unknown]". */
typedef struct pd_frame_names {
	pd_strbuf text;
	size_t *off;               /* frame index -> offset in text; nframes + 1 entries */
	unsigned char *kind;       /* frame index -> pd_frame_kind */
	size_t nframes;
} pd_frame_names;

/* 0 or PROFDATA_ENOMEM. ';' and line breaks in names become '_' (they would break folded lines). */
int pd_frame_names_render(const profdata_profile *p, pd_frame_names *names);
void pd_frame_names_free(pd_frame_names *names);

static inline const char *pd_frame_name(const pd_frame_names *names, size_t frame_index, size_t *len)
{
	*len = names->off[frame_index + 1] - names->off[frame_index];
	return names->text.p + names->off[frame_index];
}

/*
 * Frame names as ids of an interner the caller owns (and may add other
 * names to): equal names, equal ids, so chains compare as arrays of ids.
 */
typedef struct pd_frame_name_ids {
	uint32_t *of_frame;        /* frame index -> id */
	uint32_t empty;            /* "[empty]": a stack without frames */
	uint32_t unknown;          /* "[unknown]": a frame id the profile does not hold */
} pd_frame_name_ids;

/* 0 or PROFDATA_ENOMEM. */
int pd_frame_name_ids_init(pd_frame_name_ids *ids, const pd_frame_names *frames, pd_intern *names);
void pd_frame_name_ids_free(pd_frame_name_ids *ids);

/*
 * Append the name of function `function_id` (class prefix in Java form and
 * method name, cleaned as frame names are). 1 when appended, 0 when the
 * profile has no such function or it has no name, or PROFDATA_ENOMEM.
 */
int pd_function_name(const profdata_profile *p, uint64_t function_id, pd_strbuf *b);

/* The samples' values summed per stack. */
typedef struct pd_stack_sums {
	int64_t *value;            /* stack index -> summed value */
	unsigned char *seen;
	uint32_t *order;           /* stack indexes in order of first sample */
	size_t nordered;
} pd_stack_sums;

/*
 * Sum value `value_index` of every sample (pd_sample_count: 1 for samples
 * without values) per stack. 0, or an error said in `diag` in the name of
 * `format`.
 */
int pd_stack_sums_compute(const profdata_profile *p, size_t value_index, pd_stack_sums *sums, pd_diag *diag,
                          const char *format);
void pd_stack_sums_free(pd_stack_sums *sums);

/* A node of the call tree: one frame name below one parent. */
typedef struct pd_call_node {
	uint32_t parent;           /* node index; the root's is itself (0) */
	uint32_t name;             /* index in pd_call_tree.names; PD_CALL_ROOT for the root */
	uint32_t depth;            /* root 0 */
	uint8_t kind;              /* pd_frame_kind */
	int64_t total;             /* the node and everything it calls */
	int64_t self;              /* samples whose leaf it is */
	int64_t x;                 /* offset from the left, in value units, siblings in name order */
	int64_t other;             /* a second value's total (pd_call_tree_add_other), else 0 */
} pd_call_node;

#define PD_CALL_ROOT UINT32_MAX

typedef struct pd_call_tree {
	pd_call_node *nodes;       /* parents before children */
	size_t n, cap;
	uint32_t *order;           /* node indexes: by parent, then siblings by name (x ascending) */
	pd_intern names;
	pd_map children;           /* (parent << 32 | name) -> node + 1 */
	uint32_t max_depth;
	size_t nstacks_skipped;    /* stacks whose sum is 0 */
} pd_call_tree;

/*
 * Build the tree of value `value_index`: an empty stack is one frame
 * "[empty]", an unknown frame id "[unknown]", as folded writes them; stacks
 * whose sum is 0 are left out. Nodes with a total of 0 or less get no width
 * (x stays with their parent's cursor). 0, or an error said in `diag`.
 */
int pd_call_tree_build(const profdata_profile *p, size_t value_index, pd_call_tree *t, pd_diag *diag,
                       const char *format);
/*
 * The call tree of value `value_index` as far as a picture `px_width`
 * pixels wide, drawing frames at least `min_width` pixels wide, shows it
 * (call_tree_visible.c): every node pd_call_tree_build() would make that
 * is drawn or a child of a drawn node, with the same names, kinds, totals
 * and offsets, and `order` by parent then name. 0, or an error said in
 * `diag`.
 */
int pd_call_tree_build_visible(const profdata_profile *p, size_t value_index, double px_width, double min_width,
                                pd_call_tree *t, pd_diag *diag, const char *format);
void pd_call_tree_free(pd_call_tree *t);
/*
 * Sum value `value_index` of every stack into the `other` of the nodes its
 * frames name, as far as the tree has them (call_tree_other.c): a
 * differential flame graph's base values beside the widths. 0, or an error
 * said in `diag`.
 */
int pd_call_tree_add_other(const profdata_profile *p, size_t value_index, pd_call_tree *t, pd_diag *diag,
                           const char *format);

/* Which value of HPROF ALLOC SITES a tree of allocations weighs. */
typedef enum pd_site_value {
	PD_SITE_ALLOC_BYTES = 1,
	PD_SITE_ALLOC_INSTANCES,
	PD_SITE_LIVE_BYTES,
	PD_SITE_LIVE_INSTANCES
} pd_site_value;

/*
 * The tree of the last ALLOC SITES record (each is a snapshot of all so
 * far): each site's trace, root first, then the allocated class (Java form,
 * "int[]" for primitive arrays) as the leaf, weighed by `which`
 * (pd_site_value). A trace no stack has is "[unknown]". 0 or an error said in `diag`.
 */
int pd_call_tree_build_sites(const profdata_profile *p, int which, pd_call_tree *t, pd_diag *diag,
                             const char *format);

static inline const char *pd_call_node_name(const pd_call_tree *t, const pd_call_node *n, size_t *len)
{
	if (n->name == PD_CALL_ROOT) {
		*len = 3;
		return "all";
	}
	return pd_intern_str(&t->names, n->name, len);
}

/*
 * A trace's method entries and exits (PROFDATA_TRACE_METHOD_ENTRY/EXIT in
 * the trace-event table), per thread in time order and well nested: an exit
 * closes the calls above its method too; an exit with no open call of its
 * method is dropped (and counted); calls still open at the thread's last
 * event close there.
 */
typedef struct pd_trace_call {
	uint32_t thread_serial;
	uint8_t open;              /* 1 open (entry), 0 close */
	uint64_t time_ns;
	uint64_t function_id;
} pd_trace_call;

typedef struct pd_trace_calls {
	pd_trace_call *calls;      /* by thread serial, then time */
	size_t n, cap;
	size_t nunmatched;         /* exits dropped */
	size_t nclosed_at_end;     /* calls closed at their thread's end */
} pd_trace_calls;

/* Append thread `serial`'s name as its start event gives it, else "thread N". 0 or PROFDATA_ENOMEM. */
int pd_thread_name(const profdata_profile *p, uint32_t serial, pd_strbuf *b);

/* 0 or PROFDATA_ENOMEM. */
int pd_trace_calls_collect(const profdata_profile *p, pd_trace_calls *c);
void pd_trace_calls_free(pd_trace_calls *c);

/*
 * The unit a sample type's values are in, for "N samples" style labels:
 * "samples" for counts (and profiles without sample types), else the type's
 * unit as stored ("nanoseconds", "bytes").
 */
const char *pd_sample_unit(const profdata_profile *p, size_t value_index, size_t *len);

#endif
