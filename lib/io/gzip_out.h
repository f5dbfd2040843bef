/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gzip output compressed on two processors (gzip_out.c), for the writer
 * (writer.c). One ordinary gzip member comes out, whatever the threads do:
 * the same input gives the same bytes.
 */
#ifndef PD_IO_GZIP_OUT_H
#define PD_IO_GZIP_OUT_H

#include <stddef.h>

typedef struct pd_gzip_out pd_gzip_out;

/* Where compressed bytes go: 0, or a negative code that stops the output. */
typedef int (*pd_gzip_sink)(void *payload, const unsigned char *p, size_t n);

/* A compressor at `level` (1-9) that hands its output to sink(payload, ...); NULL when out of memory. */
pd_gzip_out *pd_gzip_out_new(int level, pd_gzip_sink sink, void *payload);

/*
 * Take n more bytes to compress: 0, PROFDATA_ENOMEM, PROFDATA_ERROR (zlib
 * failed) or the sink's code. Output comes in steps of 2 MiB of input.
 */
int pd_gzip_out_write(pd_gzip_out *g, const unsigned char *p, size_t n);

/* Compress what is left and end the member (CRC-32 and length): 0 or an error as above. */
int pd_gzip_out_finish(pd_gzip_out *g);

void pd_gzip_out_free(pd_gzip_out *g);

#endif
