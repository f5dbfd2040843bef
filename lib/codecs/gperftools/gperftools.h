/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gperftools CPU profiles: what the bid, the decoder (decode.c, with the
 * chain pass in records.c and ahead.c, the maps text in maps.c and the
 * Java variant's symbols in java.c) and the writer (encode.c) share. The
 * format is described in gperftools.c.
 */
#ifndef PD_GPERFTOOLS_H
#define PD_GPERFTOOLS_H

#include "internal.h"
#include "util/hashmap.h"

#if defined(__GNUC__)
#define GPERFTOOLS_INLINE static inline __attribute__((always_inline))
#else
#define GPERFTOOLS_INLINE static inline
#endif

/* Meta comment carrying header slots beyond version and period (the padding
 * slot and any extra ones), when they differ from the usual single 0. */
#define GPERFTOOLS_HEADER_KEY "gperftools-header-extra"
/* At most this many header slots after slot 1: real files have 3. */
#define GPERFTOOLS_MAX_HEADER 4096

/* ---- slots: 4 or 8 bytes in the writer's byte order ---- */

GPERFTOOLS_INLINE uint64_t pd_gperftools_load(const unsigned char *p, unsigned ws, int be)
{
	if (ws == 8)
		return be ? ((uint64_t)pd_be32(p) << 32) | pd_be32(p + 4)
		          : ((uint64_t)(((uint32_t)p[7] << 24) | ((uint32_t)p[6] << 16) | ((uint32_t)p[5] << 8) | p[4]) << 32) |
		                ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
	return be ? pd_be32(p) : ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
}

GPERFTOOLS_INLINE void pd_gperftools_store(unsigned char *p, uint64_t v, unsigned ws, int be)
{
	for (unsigned i = 0; i < ws; i++)
		p[be ? ws - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* The four slot layouts, in the order google/pprof tries them. */
typedef struct pd_gperftools_layout {
	unsigned ws;
	int be;
} pd_gperftools_layout;

extern const pd_gperftools_layout pd_gperftools_layouts[4];

/*
 * How well `buf` matches a header of layout l: 2 full match with 3 header
 * slots and padding 0, 1 a valid but unusual header, -1 consistent so far
 * but cut short, 0 no.
 */
int pd_gperftools_header_match(const unsigned char *buf, size_t len, const pd_gperftools_layout *l);

/* word_size and byte_order options: *ws 0 and *be -1 when not given. */
int pd_gperftools_layout_options(const pd_options *o, pd_diag *diag, unsigned *ws, int *be);

int pd_gperftools_decode(const pd_decode_args *a);
int pd_gperftools_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts);

/* ---- the decoder's state, shared with the maps and symbol parsers ---- */

typedef struct pd_gperftools_chain {
	size_t off;              /* into chain_pcs */
	uint32_t n;
	uint32_t next_same_hash; /* another chain with the same hash: index + 1; 0 none */
} pd_gperftools_chain;

/* A record of the Java variant, kept until the symbols are known. */
typedef struct pd_gperftools_record {
	uint64_t count;
	uint32_t serial;
} pd_gperftools_record;

/* A record as the chain pass found it. */
typedef struct pd_gperftools_found {
	const unsigned char *pcs; /* its n PCs in the input (slots of the file's layout) */
	uint64_t count;
	size_t ids;               /* a chain new here: its frame ids in the batch's ids from here; else ..._SEEN */
	uint32_t serial, n;       /* its stack serial; its PCs */
} pd_gperftools_found;

#define PD_GPERFTOOLS_SEEN SIZE_MAX

typedef struct pd_gperftools_batch {
	pd_gperftools_found *found;
	size_t n, cap;
	uint64_t *ids;            /* the frame ids of the batch's new chains */
	size_t nids, ids_cap;
	size_t end;               /* ahead.c: the input's offset after the batch's records */
} pd_gperftools_batch;

typedef struct pd_gperftools_decoder {
	const pd_decode_args *a;
	profdata_reader *in;
	unsigned ws;
	int be;
	int version;
	uint64_t period;
	int stopped;                 /* a callback said stop */
	int maps_read;               /* the maps text was read before the records (decode.c: maps_first) */

	/* PC -> frame id (1, 2, ... in order of first appearance): frame id - 1 indexes the PCs.
	 * An index over a column rather than a map: 12 bytes a PC instead of 24-48. */
	uint64_t *pc_of_frame;
	size_t npcs, pcs_cap;
	pd_index frame_of_pc;

	/* call chain -> stack serial (= index + 1): chain hash -> the last chain added with it */
	pd_map chain_of_hash;
	uint64_t chain_seed;
	pd_gperftools_chain *chains;
	size_t nchains, chains_cap;
	uint64_t *chain_pcs;
	size_t chain_pcs_n, chain_pcs_cap;

	uint64_t *frame_ids;         /* scratch: frame ids for a stack event (java.c) */
	size_t frame_ids_cap;
	uint64_t frames_out;         /* frames emitted: ids 1 .. frames_out (decode.c) */

	pd_gperftools_record *records;
	size_t nrecords_kept, records_cap;
	pd_gperftools_batch batch;   /* the chain pass's, read in turn with the emitter (decode.c) */
	uint64_t trailer_at;         /* the trailer's offset, when maps_first found it */

	pd_intern strings;           /* mapping paths and function names: string id = index + 1 */
	uint64_t nrecords;
	uint64_t nsamples;
} pd_gperftools_decoder;

/*
 * ---- the chain pass (records.c) ----
 * It reads records and fills batches, and owns the decoder's PC and chain
 * tables (pc_of_frame, frame_of_pc, chains, chain_pcs, chain_of_hash) while
 * it runs; the emitter (decode.c) reads only the batches and the input.
 */

enum { PD_GPERFTOOLS_RECORDS_MORE = 0, PD_GPERFTOOLS_RECORDS_TRAILER = 1 };

/* Records a batch holds (32 bytes each there), in turn or ahead: the window
 * of a whole mapped file is not noted all at once. Ahead, the relay's
 * hand-over is a lock, and batches this large keep it rare. */
#define PD_GPERFTOOLS_BATCH_RECORDS 4096

/*
 * Note the complete records of [p, p + avail) in b (appended), stopping
 * once b holds `limit` or more. *used gets the bytes consumed; *need the
 * bytes the next, incomplete record needs from where they stop (0 when
 * even its count and length are not there). Returns ..._MORE, ..._TRAILER
 * (*used then includes the trailer), or PROFDATA_ENOMEM / PROFDATA_ELIMIT
 * with *used at the record that failed.
 */
int pd_gperftools_run_records(pd_gperftools_decoder *d, pd_gperftools_batch *b, const unsigned char *p, size_t avail,
                              size_t limit, size_t *used, uint64_t *need);
void pd_gperftools_batch_free(pd_gperftools_batch *b);

/* Where the chain pass ahead stopped. */
typedef struct pd_gperftools_pass {
	size_t end;   /* offset: after the trailer, at the record that failed, or where no record fitted */
	int trailer;  /* it read the trailer */
	int rc;       /* 0, or its error at `end` */
} pd_gperftools_pass;

/*
 * The records of the whole input `data` (size bytes) from `pos`, read by
 * the chain pass on a second thread, batch by batch, while emit() is
 * called here with each batch in order (ahead.c). 0 when no thread could
 * start: nothing was done. Else 1, *pass where the pass stopped (when emit
 * stopped it early, somewhere after what emit was given) and *emit_rc
 * emit's first non-zero return, after which it was not called again.
 */
int pd_gperftools_ahead(pd_gperftools_decoder *d, const unsigned char *data, size_t size, size_t pos,
                        int (*emit)(pd_gperftools_decoder *d, const pd_gperftools_batch *b),
                        pd_gperftools_pass *pass, int *emit_rc);

/* A callback returned non-zero: stop (its error, if any, is kept by the consumer). */
#define PD_GPERFTOOLS_STOP(d, rc) ((void)(rc), (d)->stopped = 1, PROFDATA_STOPPED)

/* Emit a string once, deduplicated; *id gets its id. */
int pd_gperftools_emit_string(pd_gperftools_decoder *d, uint64_t *id, const char *s, size_t len);
int pd_gperftools_emit_frame(pd_gperftools_decoder *d, uint64_t id, uint64_t pc, uint64_t function_id, int32_t line);
int pd_gperftools_emit_sample(pd_gperftools_decoder *d, uint32_t serial, uint64_t count);
/* Frame id of `pc`, adding it when new (ids 1, 2, ... in order of first appearance). */
int pd_gperftools_frame_id(pd_gperftools_decoder *d, uint64_t pc, uint32_t *id);

/* The text after the trailer: /proc/self/maps (maps.c), or the Java variant's symbols (java.c). */
int pd_gperftools_maps(pd_gperftools_decoder *d, const unsigned char *text, size_t len);
int pd_gperftools_java(pd_gperftools_decoder *d, const unsigned char *text, size_t len);

/* Text scanning shared by both (maps.c). */
int pd_gperftools_is_space(int c);
size_t pd_gperftools_skip_space(const char *s, size_t len, size_t i);
/* Hex digits at s[*i] (at least one, at most 16). */
int pd_gperftools_parse_hex(const char *s, size_t len, size_t *i, uint64_t *v);

#endif
