/* SPDX-License-Identifier: Apache-2.0 */
/* A sample's frames with their names (profdata_profile_sample_frames(), model.h). */
#include "internal.h"

#include <string.h>

static const char *string_or_null(const profdata_profile *p, uint64_t id)
{
	return id ? profdata_profile_string(p, id, NULL) : NULL;
}

/* The names of frame `id`: its function's, and the class the function belongs to. */
static void name_frame(const profdata_profile *p, uint64_t id, profdata_named_frame *out)
{
	profdata_frame fr;
	profdata_function fn;
	profdata_class_info ci;
	size_t i;
	memset(out, 0, sizeof *out);
	out->frame_id = id;
	if (profdata_profile_find_frame(p, id, &i) != 0 || profdata_profile_frame(p, i, &fr) != 0)
		return;
	out->line = fr.line;
	out->address = fr.address;
	out->has_address = fr.has_address;
	if (!fr.function_id || profdata_profile_find_function(p, fr.function_id, &i) != 0 ||
	    profdata_profile_function(p, i, &fn) != 0)
		return;
	out->function = string_or_null(p, fn.name_id);
	out->signature = string_or_null(p, fn.signature_id);
	out->file = string_or_null(p, fn.source_file_id);
	if (fn.class_serial && profdata_profile_find_class_serial(p, fn.class_serial, &i) == 0 &&
	    profdata_profile_class(p, i, &ci) == 0)
		out->class_name = ci.name;
}

int profdata_profile_sample_frames(profdata_named_frame *out, size_t cap, size_t *count, const profdata_profile *p,
                                   size_t sample)
{
	profdata_sample s;
	profdata_stack st;
	size_t si;
	*count = 0;
	if (profdata_profile_sample(p, sample, &s) != 0 || profdata_profile_find_stack(p, s.stack_serial, &si) != 0 ||
	    profdata_profile_stack(p, si, &st) != 0)
		return PROFDATA_ENOTFOUND;
	*count = st.nframes;
	for (size_t k = 0; k < st.nframes && k < cap; k++)
		name_frame(p, st.frame_ids[k], &out[k]);
	return 0;
}
