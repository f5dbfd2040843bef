/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writers from the model: the encoder that builds a profile for them, and
 * what their write_model functions share (model_encoder.c). Codecs whose
 * descriptor has write_model include this.
 */
#ifndef PD_MODEL_ENCODER_H
#define PD_MODEL_ENCODER_H

#include "internal.h"

/*
 * The encoder of a format that has write_model and no encoder_new: its
 * events build a profile, and finish calls f->write_model on it. `opts` must
 * outlive the encoder.
 */
int pd_model_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts,
                         const profdata_format *f);

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
	profdata_writer *w;
	const char *format;
	uint32_t *stack_of_serial;  /* serial -> stack index + 1 (0: none); NULL: ask the model */
	size_t nserials;
	size_t next, nsamples;      /* the sample pd_sample_walk_next gives next, of how many */
} pd_sample_walk;

/* 0 or PROFDATA_ENOMEM (said on `w` in the name of `format`). */
int pd_sample_walk_init(pd_sample_walk *sw, const profdata_profile *p, profdata_writer *w, const char *format);
void pd_sample_walk_free(pd_sample_walk *sw);
/*
 * The next sample, in the model's order, and the index of its stack: 1, 0
 * after the last, or PROFDATA_EINVAL, said on `w`, when no stack has its
 * serial. A writer's loop: while (rc == 0 && (rc = pd_sample_walk_next(...)) > 0) rc = use(...);
 */
int pd_sample_walk_next(pd_sample_walk *sw, profdata_sample *s, size_t *stack_index);

/*
 * Buffered output for writers that build text piece by piece: pieces go to
 * a buffer that goes to the writer every 64 KiB. The first error sticks in
 * rc and makes later calls do nothing; pd_outbuf_finish flushes, frees and
 * returns it.
 */
typedef struct pd_outbuf {
	profdata_writer *w;
	pd_strbuf buf;
	int rc;
} pd_outbuf;

void pd_outbuf_add(pd_outbuf *o, const char *s, size_t n);
void pd_outbuf_str(pd_outbuf *o, const char *s);
void pd_outbuf_printf(pd_outbuf *o, const char *fmt, ...) PD_PRINTF(2, 3);
/* `s` as a JSON string, quotes included; bytes that are not UTF-8 become U+FFFD. */
void pd_outbuf_json_string(pd_outbuf *o, const char *s, size_t n);
int pd_outbuf_finish(pd_outbuf *o);

/*
 * The descriptor pd_format_<ident> of a whole-profile export (it writes from
 * the built profile and reads nothing): its name, what it writes ("; export
 * only" is added), its write_model, the transforms it wants in front (NULL
 * or pd_transforms_samples), then the names of its write options (NULL for
 * none).
 */
#define PD_MODEL_EXPORT(ident, format_name, what, write_model_fn, transform_list, ...) \
	const struct profdata_format pd_format_##ident = { \
		.name = format_name, \
		.description = what "; export only", \
		.write_model = write_model_fn, \
		.transforms = transform_list, \
		.write_options = (const char *const[]){ __VA_ARGS__, NULL }, \
	}

#endif
