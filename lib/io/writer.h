/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Output buffers (writer.c) and buffered text (outbuf.c): what encoders
 * write through. internal.h includes it.
 */
#ifndef PD_IO_WRITER_H
#define PD_IO_WRITER_H

#include <stddef.h>

#include "profdata/io.h"
#include "util/base.h"
#include "util/diag.h"

/* Append bytes. Returns 0 or an error (kept on the writer). */
int pd_out_write(profdata_writer *w, const void *buf, size_t len);
/* A buffer of at least `n` bytes to fill, then pd_out_commit() what was used. NULL on error. */
unsigned char *pd_out_reserve(profdata_writer *w, size_t n);
void pd_out_commit(profdata_writer *w, size_t n);
int pd_out_printf(profdata_writer *w, const char *fmt, ...) PD_PRINTF(2, 3);
pd_diag *pd_out_diag(profdata_writer *w);
/* The gzip level set on the writer (profdata_writer_set_gzip()), 0 when it writes plain bytes. */
int pd_out_gzip_level(const profdata_writer *w);
int pd_out_error(profdata_writer *w, int code, const char *fmt, ...) PD_PRINTF(3, 4);
void pd_out_warn(profdata_writer *w, const char *fmt, ...) PD_PRINTF(2, 3);

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

#endif
