/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Input windows (reader.c): what decoders read through, whatever the input
 * is (file, descriptor, memory, callbacks, gzip). internal.h includes it.
 */
#ifndef PD_IO_READER_H
#define PD_IO_READER_H

#include <stdint.h>
#include <stddef.h>

#include "profdata/io.h"
#include "util/diag.h"
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
/*
 * The caller (reading a stable input front to back) read bytes behind the
 * current position again: see pd_pager_looked_back(). Cheap; a no-op for
 * memory and streamed inputs.
 */
void pd_in_looked_back(profdata_reader *r);
/*
 * The caller reads a stable input in several passes (JFR: a pass that
 * counts, then one that reads, walking each chunk twice): the position goes
 * back to `offset`, and the pager faults the pages ahead of it in and
 * releases those behind it again (pd_pager_rewind()). A no-op unless the
 * input is stable (pd_in_blob() is not NULL) and `offset` lies behind the
 * position.
 */
void pd_in_rewind(profdata_reader *r, uint64_t offset);
/* Consume `n` bytes, reading through them when not yet available. Returns
 * n, fewer at the end of input, or negative on error. */
int64_t pd_in_discard(profdata_reader *r, uint64_t n);
/*
 * The rest of the input as one span, not consumed: in place for a mapped
 * file or memory (the pager still releases behind what pd_in_skip consumes),
 * else read into the window, which grows as bytes arrive. 0 or a negative
 * code (kept on the reader). For formats whose parts refer to each other in
 * any order (pprof's fields, JFR's offsets, JSON profiles).
 */
int pd_in_fill_all(profdata_reader *r, const unsigned char **p, size_t *len);
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
/*
 * The caller reads front to back and keeps no pointer into the input past
 * a fill (the streaming histogram): a big mapped file is then read with
 * read() on a second thread instead (io/readahead.h), and pd_in_blob()
 * gives NULL. Call before the first fill; elsewhere it does nothing.
 */
void pd_in_stream(profdata_reader *r);

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

#endif
