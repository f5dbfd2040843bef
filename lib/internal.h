/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the core offers codecs: input windows, output buffers, diagnostics,
 * option parsing (each declared in its layer's header, included here), the
 * event tables and the codec descriptor. Not installed. A codec includes
 * this, its own folder's headers and only these others: util/ headers,
 * jvm/jvm.h, model/model.h, analysis/samples.h and analysis/stacks.h (a
 * profile as writers read it) and transform/transform.h (the transforms its
 * descriptor names); never another codec's (doc/design.md, "Layout";
 * tests/check-layers.sh checks it).
 */
#ifndef PD_INTERNAL_H
#define PD_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "profdata/profdata.h"
#include "event_list.h"
/* What the layers below offer, each declared in its own header. */
#include "util/base.h"      /* compiler hints, pd_grow, pd_strbuf, PD_FREE_ALL, big-endian loads */
#include "util/diag.h"      /* pd_diag: errors and warnings */
#include "util/options.h"   /* pd_options: key=value,... */
#include "util/hashmap.h"   /* pd_intern: the string ids of text decoders (pd_emit_interned_string) */
#include "io/reader.h"      /* input windows: pd_in_fill, pd_in_error, pd_in_damage, ...; io/blob.h */
#include "io/writer.h"      /* output buffers: pd_out_write, pd_out_reserve, ...; pd_outbuf */
#include "io/lines.h"       /* a text input's lines: pd_lines_next */

/*
 * Ids from the top 256 values of the id space are reserved for ids that
 * decoders make up (HPROF's sample type strings): no JVM uses them, and
 * nothing that makes up ids of its own (a transform) may take them.
 */
#define PD_RESERVED_ID_MIN UINT64_C(0xFFFFFFFFFFFFFF00)

/* ---- codecs (registry.c) ---- */

typedef struct pd_decode_args {
	profdata_reader *in;
	/* Full size whatever the consumer's version: members it does not declare are NULL. */
	const profdata_events *ev;
	void *payload;
	int mode;                 /* profdata_mode */
	const pd_options *opts;
	/* PD_EMIT leaves here the last non-zero return of a consumer's callback, so
	 * that the driver hands it to its caller whatever the decoder returns. */
	int *callback_rc;
	unsigned flags;           /* PD_DECODE_* */
} pd_decode_args;

/*
 * The consumer never reads primitive arrays' data (the histogram): a
 * decoder reading a stream may give such arrays data NULL, length kept,
 * and read past their bytes instead of holding them.
 */
#define PD_DECODE_NO_PRIMITIVE_DATA 1u

/* profdata_decode() with PD_DECODE_* flags (core/format.c). */
int pd_decode_with_flags(profdata_reader *in, const profdata_read_options *opts, const profdata_events *ev,
                         void *payload, unsigned flags);

typedef struct pd_encoder_ops {
	/* Called with the encoder's state as payload; events->version set by the codec. */
	profdata_events events;
	int (*finish)(void *state);
	void (*free)(void *state);
	/*
	 * The events the format has no place for, as PD_EVENT_BIT()s: the core
	 * counts them (the state must then begin with a pd_dropped) and warns
	 * once per kind when the encoder finishes, "FORMAT: N mappings dropped".
	 * Their members in `events` are left NULL.
	 */
	uint64_t drops;
} pd_encoder_ops;

/* What the state of an encoder with pd_encoder_ops.drops begins with: the counts, by PD_EVENT_INDEX_*. */
typedef struct pd_dropped {
	uint64_t n[PD_EVENT_COUNT];
} pd_dropped;

struct profdata_format {
	const char *name;
	const char *description;
	/* Endings of its file names (".hprof", ".pb.gz"); NULL-terminated, NULL none (profdata_format_for_filename). */
	const char *const *extensions;
	/* 0: not this format; 1-100: confidence. buf holds the first bytes (decompressed). */
	int (*bid)(const unsigned char *buf, size_t len);
	/* Drive events from the input; NULL for formats the library only writes. */
	int (*decode)(const pd_decode_args *a);
	/* Create an encoder over `w`; fills *ops and *state. NULL for read-only formats. */
	int (*encoder_new)(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts);
	/*
	 * Write a whole profile: the writer of a format whose layout needs all
	 * of it first (the core then feeds it a model its encoder builds,
	 * core/model_encoder.c), or a faster path than replaying a model into
	 * encoder_new's encoder. A format may have it beside a decoder.
	 */
	int (*write_model)(const profdata_profile *p, profdata_writer *w, const pd_options *opts);
	/* write_model reads heap dumps too: the model it gets holds their contents (core/model_encoder.c). */
	int write_model_heap;
	/* Known option keys, NULL-terminated; NULL none. read_options include those of its read transforms. */
	const char *const *read_options;
	const char *const *write_options;
	/*
	 * Transforms (transform/transform.h) the core chains behind the decoder,
	 * each when its gate says so (symbolize=...), first one first; and in
	 * front of the encoder, first one first. NULL-terminated, NULL none.
	 * They see the options of their side.
	 */
	const struct pd_transform_desc *const *read_transforms;
	const struct pd_transform_desc *const *write_transforms;
};

/*
 * Call an event if the consumer has it; evaluates to its return value. The
 * table in `a` was made full size by pd_events_adopt(), so no version check
 * is needed here; a codec must not call a->ev members any other way.
 */
#define PD_EMIT(a, member, ...) \
	(((a)->ev->member) ? pd_emit_rc((a), (a)->ev->member((a)->payload, __VA_ARGS__)) : 0)
#define PD_EMIT0(a, member) \
	(((a)->ev->member) ? pd_emit_rc((a), (a)->ev->member((a)->payload)) : 0)

static inline int pd_emit_rc(const pd_decode_args *a, int rc)
{
	if (PD_UNLIKELY(rc != 0) && a->callback_rc)
		*a->callback_rc = rc;
	return rc;
}

/*
 * The string id of `s` in a decoder that numbers its strings by an
 * interner (index + 1), sending the `string` event when it is new: how
 * the text decoders name what they read. 0, or PROFDATA_ENOMEM or what
 * the consumer returned.
 */
static inline int pd_emit_interned_string(const pd_decode_args *a, pd_intern *t, const char *s, size_t len,
                                          uint64_t *id)
{
	uint32_t ix;
	int rc = pd_intern_put(t, s, len, &ix);
	if (rc < 0)
		return rc;
	*id = (uint64_t)ix + 1;
	if (rc == 0)
		return PD_EMIT(a, string, *id, pd_intern_str(t, ix, NULL), len);
	return 0;
}

/* ---- event tables (a consumer's version, as the library's full table) ---- */

/*
 * Bytes a table of `version` holds: up to its last member of that version
 * (event_list.h says which version added each), capped at the library's own
 * size (a newer caller's extra members are ones this library never calls);
 * 0 for version 0.
 */
static inline size_t pd_events_size(unsigned version)
{
	size_t size = 0;
	if (version == 0)
		return 0;
#define PD_EVENT_SIZE_STEP(a, shape, member, type, since, group, name) \
	if ((since) <= version) \
		size = offsetof(profdata_events, member) + sizeof(((profdata_events *)0)->member);
	PD_EVENT_LIST(PD_EVENT_SIZE_STEP, ~)
#undef PD_EVENT_SIZE_STEP
	return size;
}

/* Bytes of a profdata_events table of version 1 (0.1 and 0.2): up to and including `end`. */
#define PD_EVENTS_SIZE_V1 pd_events_size(1)

/*
 * Copy a consumer's table into `full`, reading no more than its version
 * declares and leaving the members beyond it NULL. Done once per pass, so
 * that drivers call any member without looking at versions.
 * PROFDATA_EINVAL for a NULL table or version 0.
 */
static inline int pd_events_adopt(profdata_events *full, const profdata_events *theirs)
{
	size_t n = theirs ? pd_events_size(theirs->version) : 0;
	if (n == 0)
		return PROFDATA_EINVAL;
	memset(full, 0, sizeof(*full));
	memcpy(full, theirs, n);
	full->version = PROFDATA_EVENTS_VERSION;
	return 0;
}

#endif
