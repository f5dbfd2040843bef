/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the core offers codecs: input windows, output buffers, diagnostics,
 * option parsing and the codec descriptor. Not installed; codecs include
 * this and their own headers only, never another codec's.
 */
#ifndef PD_INTERNAL_H
#define PD_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "profdata/profdata.h"

#if defined(__GNUC__)
#define PD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define PD_LIKELY(x) __builtin_expect(!!(x), 1)
#define PD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PD_PRINTF(a, b)
#define PD_LIKELY(x) (x)
#define PD_UNLIKELY(x) (x)
#endif

#define PD_NO_OFFSET UINT64_MAX

/*
 * Ids from the top 256 values of the id space are reserved for ids that
 * decoders make up (HPROF's sample type strings): no JVM uses them, and
 * nothing that makes up ids of its own (a transform) may take them.
 */
#define PD_RESERVED_ID_MIN UINT64_C(0xFFFFFFFFFFFFFF00)

/* ---- diagnostics (diag.c): one error and a bounded list of warnings ---- */

typedef struct pd_diag {
	profdata_error err;
	int has_err;
	char *err_msg;
	char *name;
	profdata_error *warnings;
	char **warning_msgs;
	size_t nwarnings, kept, cap;
} pd_diag;

#define PD_MAX_WARNINGS 1000

void pd_diag_init(pd_diag *d, const char *name);
void pd_diag_free(pd_diag *d);
/* Record an error; returns `code` so that callers can `return pd_diag_error(...)`. */
int pd_diag_error(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, ...) PD_PRINTF(5, 6);
int pd_diag_verror(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, va_list ap) PD_PRINTF(5, 0);
void pd_diag_warn(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, ...) PD_PRINTF(5, 6);
void pd_diag_vwarn(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, va_list ap) PD_PRINTF(5, 0);
const profdata_error *pd_diag_last(const pd_diag *d);
const profdata_error *pd_diag_warning(const pd_diag *d, size_t i);

/* ---- input (reader.c) ---- */

/* The stable span under a mapped or in-memory input (pd_blob_data, pd_blob_size, ...). */
#include "io/blob.h"

/*
 * Make at least `want` bytes available at the current position; *p points to
 * them. Returns how many are available: `want` or more, fewer only at the end
 * of input; negative on an I/O or decompression error (kept on the reader).
 * The window is valid until the next pd_in_fill, pd_in_skip past it, or
 * pd_in_discard, unless pd_in_blob() is non-NULL: then every pointer into
 * the input stays valid as long as the blob.
 * Buffers grow only as bytes arrive, so a lying length cannot make the
 * reader allocate more than the input holds.
 */
int64_t pd_in_fill(profdata_reader *r, size_t want, const unsigned char **p);
/* Consume `n` bytes that a fill made available. */
void pd_in_skip(profdata_reader *r, size_t n);
/* Consume `n` bytes, reading through them when not yet available. Returns
 * n, fewer at the end of input, or negative on error. */
int64_t pd_in_discard(profdata_reader *r, uint64_t n);
/* Offset of the current position in the (decompressed) input. */
uint64_t pd_in_offset(const profdata_reader *r);
/* The whole input as one stable span (uncompressed memory or mapped file), or NULL. */
pd_blob *pd_in_blob(profdata_reader *r);
/* Peek at up to `want` bytes without consuming; for sniffing. */
int64_t pd_in_peek(profdata_reader *r, size_t want, const unsigned char **p);
pd_diag *pd_in_diag(profdata_reader *r);
/* The code the reader's progress callback stopped reading with (PROFDATA_STOPPED or its negative code), else e. */
int pd_in_stop_code(const profdata_reader *r, int e);
/* The mode of the decoder about to read `r` (profdata_mode): a truncated .gz
 * file then reads as a truncated plain file would (the core sets it; until
 * then a truncated .gz file is an error). */
void pd_in_set_mode(profdata_reader *r, int mode);

/* Diagnostics on a reader. */
int pd_in_error(profdata_reader *r, int code, uint64_t offset, const char *fmt, ...) PD_PRINTF(4, 5);
int pd_in_error_line(profdata_reader *r, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
	PD_PRINTF(5, 6);
void pd_in_warn(profdata_reader *r, int code, uint64_t offset, const char *fmt, ...) PD_PRINTF(4, 5);
void pd_in_warn_line(profdata_reader *r, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
	PD_PRINTF(5, 6);
/*
 * Damage that permissive mode repairs: with mode PROFDATA_MODE_STRICT an
 * error, whose code is returned; otherwise a warning, and 0 so that the
 * decoder goes on past it. line 0: the format has no lines.
 */
int pd_in_damage(profdata_reader *r, int mode, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
	PD_PRINTF(6, 7);

/* ---- output (writer.c) ---- */

/* Append bytes. Returns 0 or an error (kept on the writer). */
int pd_out_write(profdata_writer *w, const void *buf, size_t len);
/* A buffer of at least `n` bytes to fill, then pd_out_commit() what was used. NULL on error. */
unsigned char *pd_out_reserve(profdata_writer *w, size_t n);
void pd_out_commit(profdata_writer *w, size_t n);
int pd_out_printf(profdata_writer *w, const char *fmt, ...) PD_PRINTF(2, 3);
pd_diag *pd_out_diag(profdata_writer *w);
int pd_out_error(profdata_writer *w, int code, const char *fmt, ...) PD_PRINTF(3, 4);
void pd_out_warn(profdata_writer *w, const char *fmt, ...) PD_PRINTF(2, 3);

/* ---- codec options (options.c): "key=value,key=value" ---- */

typedef struct pd_option {
	char *key;
	char *value; /* "" when given as a bare key */
	int used;
} pd_option;

typedef struct pd_options {
	pd_option *items;
	size_t n;
} pd_options;

/*
 * Parse `text` (NULL or "" gives none). Keys must be among `known` (a
 * NULL-terminated list); anything else is PROFDATA_EINVAL with a message in
 * `d`.
 */
int pd_options_parse(pd_options *o, const char *text, const char *const *known, pd_diag *d);
void pd_options_free(pd_options *o);
const char *pd_options_get(const pd_options *o, const char *key);
/* Integer option with a default; PROFDATA_EINVAL (message in d) when not a number in [min, max]. */
int pd_options_int(const pd_options *o, const char *key, long long def, long long min, long long max,
                   long long *out, pd_diag *d);

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
} pd_encoder_ops;

struct profdata_format {
	const char *name;
	const char *description;
	/* 0: not this format; 1-100: confidence. buf holds the first bytes (decompressed). */
	int (*bid)(const unsigned char *buf, size_t len);
	/* Drive events from the input; NULL for write-only formats. */
	int (*decode)(const pd_decode_args *a);
	/* Create an encoder over `w`; fills *ops and *state. NULL for read-only formats. */
	int (*encoder_new)(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts);
	/* Optional: write a whole profile faster than replaying it into the encoder. */
	int (*write_model)(const profdata_profile *p, profdata_writer *w, const pd_options *opts);
	const char *const *read_options;  /* known option keys, NULL-terminated; NULL none */
	const char *const *write_options;
	/*
	 * Transforms (transform/transform.h) the core puts in front of this
	 * format's encoder, first one first; NULL-terminated, NULL none. They see
	 * the encoder's options too.
	 */
	const struct pd_transform_desc *const *transforms;
};

/*
 * The events outside heap dumps that carry one struct, as X(member, type):
 * for handlers generated one per event (core/model_encoder.c forwards them).
 */
#define PD_EACH_RECORD_EVENT(X) \
	X(class_load, profdata_class_load) X(class_unload, profdata_class_unload) \
	X(function, profdata_function) X(frame, profdata_frame) X(stack, profdata_stack) \
	X(thread_start, profdata_thread_start) X(thread_end, profdata_thread_end) \
	X(sample_type, profdata_sample_type) X(sample_group, profdata_sample_group) X(sample, profdata_sample) \
	X(alloc_sites, profdata_alloc_sites) X(heap_summary, profdata_heap_summary) \
	X(control_settings, profdata_control_settings) X(mapping, profdata_mapping) \
	X(unknown, profdata_unknown) X(attachment, profdata_attachment) X(trace_event, profdata_trace_event) \
	X(trace_context, profdata_trace_context)

/*
 * The initialisers of an events table whose handlers are named p<event>
 * (on_begin, on_string, ...), for consumers and transforms that take every
 * event: `.events = { PD_EVERY_EVENT(on_) }`; PD_PROFILE_EVENTS leaves out
 * the heap-dump contents (PD_HEAP_DUMP_EVENTS). These and
 * PD_EACH_RECORD_EVENT are the lists to extend when an event is added.
 */
#define PD_PROFILE_EVENTS(p) \
	.version = PROFDATA_EVENTS_VERSION, \
	.begin = p##begin, .string = p##string, .class_load = p##class_load, .class_unload = p##class_unload, \
	.function = p##function, .frame = p##frame, .stack = p##stack, .thread_start = p##thread_start, \
	.thread_end = p##thread_end, .sample_type = p##sample_type, .sample_group = p##sample_group, \
	.sample = p##sample, .alloc_sites = p##alloc_sites, .heap_summary = p##heap_summary, \
	.control_settings = p##control_settings, .mapping = p##mapping, .unknown = p##unknown, \
	.attachment = p##attachment, .trace_event = p##trace_event, .end = p##end, .trace_context = p##trace_context
#define PD_HEAP_DUMP_EVENTS(p) \
	.dump_begin = p##dump_begin, .heap_info = p##heap_info, .class_dump = p##class_dump, .root = p##root, \
	.object = p##object, .dump_end = p##dump_end
#define PD_EVERY_EVENT(p) PD_PROFILE_EVENTS(p), PD_HEAP_DUMP_EVENTS(p)

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

/* ---- event tables (a consumer's version, as the library's full table) ---- */

/* Bytes of a profdata_events table of version 1 (0.1 and 0.2): up to and including `end`. */
#define PD_EVENTS_SIZE_V1 (offsetof(profdata_events, end) + sizeof(int (*)(void *)))
/* Version 2 (0.2): up to and including `trace_context`. */
#define PD_EVENTS_SIZE_V2 \
	(offsetof(profdata_events, trace_context) + sizeof(int (*)(void *, const profdata_trace_context *)))

/*
 * Bytes a table of `version` holds, capped at the library's own size (a newer
 * caller's extra members are ones this library never calls); 0 for version 0.
 * When PROFDATA_EVENTS_VERSION is raised, add a line per version here.
 */
static inline size_t pd_events_size(unsigned version)
{
	if (version == 0)
		return 0;
	if (version == 1)
		return PD_EVENTS_SIZE_V1;
	if (version == 2)
		return PD_EVENTS_SIZE_V2;
	return sizeof(profdata_events);
}

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

/* ---- helpers ---- */

/* A growable byte buffer, kept NUL-terminated so that its text can be used as a C string. */
typedef struct pd_strbuf {
	char *p;
	size_t n, cap;
} pd_strbuf;

/* Append `n` bytes; 0 or PROFDATA_ENOMEM. */
int pd_strbuf_add(pd_strbuf *b, const char *s, size_t n);

/* Growable array helper: ensure room for `need` elements of `size`; 0 or PROFDATA_ENOMEM. */
int pd_grow(void **ptr, size_t *cap, size_t need, size_t size);

/*
 * Free every pointer listed (NULLs too): a state holding many buffers is torn
 * down by one call per group of them, not a line per buffer in every codec.
 */
void pd_free_each(void *const *ptrs, size_t n);
#define PD_FREE_ALL(...) \
	pd_free_each((void *const[]){ __VA_ARGS__ }, sizeof((void *[]){ __VA_ARGS__ }) / sizeof(void *))

/* -1, 0 or 1 as a is below, equal to or above b: the step of a qsort comparator, key after key. */
static inline int pd_order_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

/*
 * Sample values add modulo 2^64, as pprof's int64 sums do: a hostile file's
 * sums may wrap but never overflow a signed type (undefined behaviour).
 */
static inline int64_t pd_wrapping_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

/* Big-endian loads, used by several codecs. */
static inline uint16_t pd_be16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t pd_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t pd_be64(const unsigned char *p) { return ((uint64_t)pd_be32(p) << 32) | pd_be32(p + 4); }
static inline void pd_put_be16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)v; }
static inline void pd_put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}
static inline void pd_put_be64(unsigned char *p, uint64_t v)
{
	pd_put_be32(p, (uint32_t)(v >> 32)); pd_put_be32(p + 4, (uint32_t)v);
}
/* An identifier of `size` (4 or 8) bytes. */
static inline uint64_t pd_be_id(const unsigned char *p, unsigned size) { return size == 8 ? pd_be64(p) : pd_be32(p); }

#endif
