/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IBM classic (text) heapdump codec: what the decoder and the encoder share.
 * Nothing here is exported; the only public symbol is pd_format_ibm_classic.
 * doc/formats-classic.md describes the mapping to events.
 */
#ifndef PD_CLASSIC_H
#define PD_CLASSIC_H

#include "internal.h"
#include "util/hashmap.h"

/* Meta comment keys the decoder sets and the encoder honours. */
#define PD_CLASSIC_KEY_STYLE "style"       /* "jdmpview" or "classblock"; absent: openj9 */
#define PD_CLASSIC_KEY_LINE_END "line_end" /* "crlf"; absent: "lf" */
#define PD_CLASSIC_KEY_LAYOUT "layout"     /* "single-line"; absent: two-line */

/*
 * Attachments the decoder emits so that a rewrite reproduces what the
 * records alone cannot say. Their names end in ":N", N the dump (from 1):
 * - "ibm-classic/trailer:N", just before dump N's dump_end, when its trailer
 *   says more than the records (OpenJ9 counts null references without
 *   printing them) or is spelled otherwise than the encoder would: the two
 *   trailer lines as read, without line ends, joined by "\n".
 * - "ibm-classic/header:N", just before the dump_begin of dump N >= 2 when
 *   its header line differs from the first dump's: the line as read ("" when
 *   the dump had none). The first dump's header is meta.version.
 */
#define PD_CLASSIC_ATT_TRAILER "ibm-classic/trailer:"
#define PD_CLASSIC_ATT_HEADER "ibm-classic/header:"

typedef enum pd_classic_style {
	PD_CLASSIC_OPENJ9 = 0,   /* runtime/rasdump/heapdump_classic.c */
	PD_CLASSIC_JDMPVIEW = 1, /* jdmpview's ClassicHeapDumpFormatter */
	PD_CLASSIC_CLASSBLOCK = 2 /* IBM Java 6: class-block address first on the reference line */
} pd_classic_style;

/* What the two trailer lines state. */
typedef struct pd_classic_trailer {
	int has_breakdown, has_eof;
	int bd_compact;  /* jdmpview's Breakdown spelling: "Classes:1" */
	int eof_compact; /* jdmpview's EOF spelling: "// EOF: Total ... :1,2(3)" */
	uint64_t classes, objects, arrays, prims;
	uint64_t total, refs, nulls;
} pd_classic_trailer;

/* Parse a "// Breakdown - ..." line (without line end); 0 or -1 when malformed. */
int pd_classic_parse_breakdown(const unsigned char *p, size_t len, pd_classic_trailer *t);
/* Parse a "// EOF: ..." line; 0 or -1. */
int pd_classic_parse_eof(const unsigned char *p, size_t len, pd_classic_trailer *t);

/*
 * The trailer the encoder writes by default for these counts: two lines
 * joined by "\n", no line end. Returns the length (as snprintf).
 */
int pd_classic_format_trailer(char *buf, size_t cap, int compact, uint64_t classes, uint64_t objects,
                              uint64_t arrays, uint64_t prims, uint64_t refs, uint64_t nulls);

/*
 * Kind of a JVM type name: PROFDATA_OBJECT_INSTANCE for a class name,
 * PROFDATA_OBJECT_PRIM_ARRAY with *elem_type for "[C" and the like,
 * PROFDATA_OBJECT_ARRAY for "[L...;" and "[[...".
 */
int pd_classic_type_kind(const char *name, size_t len, uint8_t *elem_type);

/* The one-letter JVM signature of basic type `type`, or 0. */
char pd_classic_type_letter(int type);

/* A u64 -> u32 map over the seeded pd_map (values stored plus one), for the encoder. */
typedef struct pd_classic_map {
	pd_map map;
} pd_classic_map;

/* 1 and *val when found, else 0. */
int pd_classic_map_get(const pd_classic_map *m, uint64_t key, uint32_t *val);
/* Set key to val (replacing). 0 or PROFDATA_ENOMEM. */
int pd_classic_map_put(pd_classic_map *m, uint64_t key, uint32_t val);
void pd_classic_map_free(pd_classic_map *m);

extern const struct profdata_format pd_format_ibm_classic;

int pd_classic_decode(const pd_decode_args *a);
int pd_classic_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w,
                           const pd_options *opts);

#endif
