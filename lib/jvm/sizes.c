/* SPDX-License-Identifier: Apache-2.0 */
/* The shallow size rule VisualVM applies (jvm.h has it in words). */
#include "jvm/jvm.h"

#include <string.h>

/*
 * The static fields the reference size is read from, in the order they are
 * tried: two offsets of one class, whose difference is the size of the
 * field between them.
 */
static const struct offset_pair {
	const char *internal, *source; /* the class, in both forms */
	const char *later, *earlier;   /* the two fields */
} offset_pairs[PD_JVM_OFFSET_PAIRS] = {
	{ "java/lang/Class$Atomic", "java.lang.Class$Atomic", "annotationTypeOffset", "annotationDataOffset" },
	{ "java/util/concurrent/FutureTask", "java.util.concurrent.FutureTask", "waitersOffset", "runnerOffset" },
};

/* Record a static field relevant to the decision (by class and field name). */
static void note_static(pd_jvm_hints *h, const char *cls, const char *field, int64_t value)
{
	for (size_t i = 0; i < PD_JVM_OFFSET_PAIRS; i++) {
		const struct offset_pair *q = &offset_pairs[i];
		if (strcmp(cls, q->internal) != 0 && strcmp(cls, q->source) != 0)
			continue;
		if (strcmp(field, q->later) == 0) {
			h->pairs[i].later = value;
			h->pairs[i].seen |= 1;
		} else if (strcmp(field, q->earlier) == 0) {
			h->pairs[i].earlier = value;
			h->pairs[i].seen |= 2;
		}
		return;
	}
}

void pd_jvm_note_class(pd_jvm_hints *h, const char *class_name, uint64_t super_id, uint32_t instance_size,
                       const profdata_field *statics, size_t nstatics, pd_jvm_string_fn name_of,
                       const void *table)
{
	if (!class_name)
		return;
	if (!super_id && strcmp(class_name, "java/lang/Object") == 0)
		h->object_instance_size = instance_size;
	for (size_t i = 0; i < nstatics; i++) {
		int t = statics[i].type;
		if (t != PROFDATA_TYPE_LONG && t != PROFDATA_TYPE_INT)
			continue;
		const char *field = name_of(table, statics[i].name_id);
		if (field)
			note_static(h, class_name, field,
			            t == PROFDATA_TYPE_INT ? (int32_t)statics[i].value : (int64_t)statics[i].value);
	}
}

void pd_jvm_decide(unsigned id_size, const pd_jvm_hints *h, pd_jvm_sizes *out)
{
	if (h->object_instance_size > 0) {
		out->stated_instances = 1;
		out->header = h->object_instance_size;
		out->ref = out->header > 8 ? out->header - 8 : id_size;
		return;
	}
	if (id_size == 4) {
		*out = pd_jvm_sizes_of(4, 4);
		return;
	}
	unsigned ref = 8;
	for (size_t i = 0; i < PD_JVM_OFFSET_PAIRS; i++) {
		int64_t d = h->pairs[i].later - h->pairs[i].earlier;
		if (h->pairs[i].seen == 3 && (d == 4 || d == 8)) {
			ref = (unsigned)d;
			break;
		}
	}
	*out = pd_jvm_sizes_of(id_size, ref);
}

uint64_t pd_jvm_array_length(const pd_jvm_sizes *s, int kind, int elem_type, uint64_t size)
{
	uint64_t es = pd_jvm_element_size(s, kind, elem_type);
	if (!es || size <= (uint64_t)s->header + 4)
		return 0;
	return (size - s->header - 4) / es;
}

uint64_t pd_jvm_class_size(const pd_jvm_sizes *s, uint64_t static_prim_bytes, uint64_t static_refs)
{
	return pd_align8(s->header + static_prim_bytes + static_refs * s->ref);
}

uint64_t pd_jvm_payload_sums_size(const pd_jvm_sizes *s, const pd_jvm_payload_sums *sums)
{
	uint64_t h = s->header;
	uint64_t aligned = sums->aligned + sums->run_count * pd_align8(sums->run_len);
	uint64_t aligned_plus4 = sums->aligned_plus4 + sums->run_count * pd_align8(sums->run_len + 4);
	if (h % 8 == 0)
		return sums->count * h + aligned;
	if (h % 8 == 4)
		return sums->count * (h - 4) + aligned_plus4;
	/* A header no JVM has (a stated size not a multiple of 4): rounded up, as a whole. */
	return sums->count * pd_align8(h) + aligned;
}

unsigned pd_jvm_shape_index(const pd_jvm_sizes *s)
{
	return s->ref == 8 ? 2 : (s->header == 8 ? 0 : 1);
}
