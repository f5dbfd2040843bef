/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A second value on the nodes of a call tree already built (stacks.h):
 * what a differential flame graph shows beside each frame's own value (the
 * base profile's, the frame's width being the new one's). Each stack's sum
 * of the second value goes down the chain of nodes its frames name, as far
 * as the tree has them: a chain the tree has no node for (the stack's
 * first value is 0, or its frames were too narrow to draw) still counts in
 * every node above where it leaves the tree.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/stacks.h"

/* The node below `node` named by the frame `frame_id`, or 0 when the tree has none. */
static uint32_t child_named(const profdata_profile *p, const pd_call_tree *t, const pd_frame_names *frames,
                            const pd_map *children, uint32_t node, uint64_t frame_id)
{
	size_t fi, len;
	const char *s = "[unknown]";
	uint32_t name;
	len = 9;
	if (profdata_profile_find_frame(p, frame_id, &fi) == 0)
		s = pd_frame_name(frames, fi, &len);
	if (!pd_intern_find(&t->names, s, len, &name))
		return 0;
	uint32_t child = pd_map_get(children, (uint64_t)node << 32 | name);
	return child ? child - 1 : 0;
}

/* Add `v` to the nodes of stack `si`'s chain, root first. */
static void add_chain(const profdata_profile *p, pd_call_tree *t, const pd_frame_names *frames,
                      const pd_map *children, size_t si, int64_t v)
{
	profdata_stack st;
	uint32_t node = 0, name;
	profdata_profile_stack(p, si, &st);
	t->nodes[0].other = pd_wrapping_add(t->nodes[0].other, v);
	if (st.nframes == 0) {
		uint32_t child = pd_intern_find(&t->names, "[empty]", 7, &name) ?
		                 pd_map_get(children, (uint64_t)name) : 0;
		if (child)
			t->nodes[child - 1].other = pd_wrapping_add(t->nodes[child - 1].other, v);
		return;
	}
	for (size_t d = 0; d < st.nframes; d++) {
		node = child_named(p, t, frames, children, node, st.frame_ids[st.nframes - 1 - d]);
		if (!node)
			return;
		t->nodes[node].other = pd_wrapping_add(t->nodes[node].other, v);
	}
}

int pd_call_tree_add_other(const profdata_profile *p, size_t value_index, pd_call_tree *t, pd_diag *diag,
                           const char *format)
{
	pd_stack_sums sums;
	pd_frame_names frames;
	pd_map children;
	memset(&frames, 0, sizeof frames);
	memset(&children, 0, sizeof children);
	int rc = pd_stack_sums_compute(p, value_index, &sums, diag, format);
	if (rc == 0 && pd_frame_names_render(p, &frames) < 0)
		rc = PROFDATA_ENOMEM;
	for (size_t k = 1; k < t->n && rc == 0; k++)
		if (pd_map_put(&children, (uint64_t)t->nodes[k].parent << 32 | t->nodes[k].name, (uint32_t)k + 1) < 0)
			rc = PROFDATA_ENOMEM;
	for (size_t k = 0; k < sums.nordered && rc == 0; k++)
		if (sums.value[sums.order[k]] != 0)
			add_chain(p, t, &frames, &children, sums.order[k], sums.value[sums.order[k]]);
	if (rc == PROFDATA_ENOMEM)
		rc = pd_diag_error(diag, rc, PD_NO_OFFSET, 0, "%s: out of memory", format);
	pd_frame_names_free(&frames);
	pd_stack_sums_free(&sums);
	pd_map_free(&children);
	return rc;
}
