/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A built profile's samples and names as writers and analyses read them
 * (samples.c): the count value, the walk over samples with their stacks,
 * class prefixes, the refusal of a sample format for a heap. Below the
 * codecs and the core: they and analysis/stacks.c include it.
 */
#ifndef PD_ANALYSIS_SAMPLES_H
#define PD_ANALYSIS_SAMPLES_H

#include "internal.h"

/*
 * Append the name of the class loaded with `class_serial` and a '.', in Java
 * source form or as stored; nothing when the serial names no class or the
 * name is empty. 0 or PROFDATA_ENOMEM.
 */
int pd_class_prefix(pd_strbuf *b, const profdata_profile *p, uint32_t class_serial, int java_form);

/* The string `id`, or NULL (and *len 0) for id 0 and ids the profile lacks. */
static inline const char *pd_profile_text(const profdata_profile *p, uint64_t id, size_t *len)
{
	const char *s = id ? profdata_profile_string(p, id, len) : NULL;
	if (!s)
		*len = 0;
	return s;
}

/*
 * For formats made of samples only (folded, pprof): PROFDATA_EUNSUPPORTED,
 * with a message naming what the input holds instead, when it has objects
 * or classes (a heap dump) and no sample, rather than an empty output
 * nobody would understand. An input with nothing at all gives an empty
 * output. 0 otherwise.
 */
int pd_need_samples(const profdata_profile *p, profdata_writer *w, const char *format);
/* The condition pd_need_samples() refuses: objects or classes, and neither samples nor trace events. */
int pd_heap_only(const profdata_profile *p);

/* The value that counts a sample: the "samples"/"count" type, else the first. */
size_t pd_sample_count_index(const profdata_profile *p);
/* That value of `s` (1 for a sample without values, 0 when it has fewer). Inline: once per sample. */
static inline int64_t pd_sample_count(const profdata_sample *s, size_t count_index)
{
	if (count_index < s->nvalues)
		return s->values[count_index];
	return s->nvalues ? 0 : 1;
}

/*
 * The samples of a profile with the index of each one's stack, for writers
 * that walk them all: serials are numbered densely by every decoder, so a
 * direct table (serial -> index) replaces a lookup in the model per sample
 * when it is no bigger than a few times the stacks.
 */
typedef struct pd_sample_walk {
	const profdata_profile *p;
	pd_diag *diag;             /* where its errors are said */
	const char *format;
	uint32_t *stack_of_serial;  /* serial -> stack index + 1 (0: none); NULL: ask the model */
	size_t nserials;
	size_t next, nsamples;      /* the sample pd_sample_walk_next gives next, of how many */
} pd_sample_walk;

/* 0 or PROFDATA_ENOMEM (said in `diag` in the name of `format`). */
int pd_sample_walk_init(pd_sample_walk *sw, const profdata_profile *p, pd_diag *diag, const char *format);
void pd_sample_walk_free(pd_sample_walk *sw);
/*
 * The next sample, in the model's order, and the index of its stack: 1, 0
 * after the last, or PROFDATA_EINVAL, said in `diag`, when no stack has its
 * serial. A writer's loop: while (rc == 0 && (rc = pd_sample_walk_next(...)) > 0) rc = use(...);
 */
int pd_sample_walk_next(pd_sample_walk *sw, profdata_sample *s, size_t *stack_index);

#endif
