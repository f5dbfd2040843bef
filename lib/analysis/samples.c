/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading a built profile's samples and names the way every writer and
 * analysis does (analysis/samples.h).
 */
#include "analysis/samples.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int pd_class_prefix(pd_strbuf *b, const profdata_profile *p, uint32_t class_serial, int java_form)
{
	size_t ci, len;
	profdata_class_info info;
	if (!class_serial || profdata_profile_find_class_serial(p, class_serial, &ci) < 0 ||
	    profdata_profile_class(p, ci, &info) < 0 || !info.has_load)
		return 0;
	const char *name = pd_profile_text(p, info.load.name_id, &len);
	if (!name || !len)
		return 0;
	if (!java_form)
		return pd_strbuf_add(b, name, len) || pd_strbuf_add(b, ".", 1) ? PROFDATA_ENOMEM : 0;
	char small[256];
	size_t need = profdata_java_name(name, len, small, sizeof small);
	int rc;
	if (need < sizeof small) {
		rc = pd_strbuf_add(b, small, need);
	} else {
		char *big = malloc(need + 1);
		if (!big)
			return PROFDATA_ENOMEM;
		profdata_java_name(name, len, big, need + 1);
		rc = pd_strbuf_add(b, big, need);
		free(big);
	}
	return rc || pd_strbuf_add(b, ".", 1) ? PROFDATA_ENOMEM : 0;
}

static int string_is(const profdata_profile *p, uint64_t id, const char *s)
{
	size_t len;
	const char *t = pd_profile_text(p, id, &len);
	return t && len == strlen(s) && memcmp(t, s, len) == 0;
}

size_t pd_sample_count_index(const profdata_profile *p)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES);
	for (size_t i = 0; i < n; i++) {
		profdata_sample_type t;
		profdata_profile_sample_type(p, i, &t);
		if (string_is(p, t.type_id, "samples") && string_is(p, t.unit_id, "count"))
			return i;
	}
	return 0;
}

int pd_heap_only(const profdata_profile *p)
{
	if (profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) > 0 || profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS) > 0)
		return 0;
	return profdata_profile_count(p, PROFDATA_TABLE_OBJECTS) > 0 || profdata_profile_count(p, PROFDATA_TABLE_CLASSES) > 0;
}

int pd_need_samples(const profdata_profile *p, profdata_writer *w, const char *format)
{
	if (!pd_heap_only(p))
		return 0;
	return pd_out_error(w, PROFDATA_EUNSUPPORTED,
	                    "%s: the input holds no samples, only a heap (classes and objects); %s output is "
	                    "made of samples (convert a CPU profile, or write hprof or ibm-classic)",
	                    format, format);
}

int pd_sample_walk_init(pd_sample_walk *sw, const profdata_profile *p, pd_diag *diag, const char *format)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_STACKS), max = 0;
	memset(sw, 0, sizeof *sw);
	sw->p = p;
	sw->diag = diag;
	sw->format = format;
	sw->nsamples = profdata_profile_count(p, PROFDATA_TABLE_SAMPLES);
	for (size_t i = 0; i < n; i++) {
		profdata_stack st;
		profdata_profile_stack(p, i, &st);
		if (st.serial > max)
			max = st.serial;
	}
	if (n == 0 || max > 4 * n + 1024 || n >= UINT32_MAX)
		return 0;
	sw->stack_of_serial = calloc(max + 1, sizeof *sw->stack_of_serial);
	if (!sw->stack_of_serial)
		return pd_diag_error(diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "%s: out of memory", format);
	sw->nserials = max + 1;
	for (size_t i = 0; i < n; i++) {
		profdata_stack st;
		profdata_profile_stack(p, i, &st);
		sw->stack_of_serial[st.serial] = (uint32_t)i + 1;
	}
	return 0;
}

void pd_sample_walk_free(pd_sample_walk *sw)
{
	free(sw->stack_of_serial);
	sw->stack_of_serial = NULL;
}

int pd_sample_walk_next(pd_sample_walk *sw, profdata_sample *s, size_t *stack_index)
{
	if (sw->next >= sw->nsamples)
		return 0;
	profdata_profile_sample(sw->p, sw->next++, s);
	if (sw->stack_of_serial) {
		uint32_t row = s->stack_serial < sw->nserials ? sw->stack_of_serial[s->stack_serial] : 0;
		*stack_index = (size_t)row - 1;
		if (row)
			return 1;
	} else if (profdata_profile_find_stack(sw->p, s->stack_serial, stack_index) == 0) {
		return 1;
	}
	return pd_diag_error(sw->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "%s: a sample refers to stack %" PRIu32
	                    " that no stack event defined", sw->format, s->stack_serial);
}
