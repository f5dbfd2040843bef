/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One gzip member made on two processors, as pigz makes its own: the input
 * is cut into blocks of GZ_BLOCK bytes, counted from its first byte, and
 * the blocks are compressed two at a time, the second on another thread
 * (util/beside.h). Each block is a raw deflate stream primed with the
 * 32 KiB of input before it (so matches reach back across the cut as they
 * would in one stream) and ended by a sync flush, which ends on a byte
 * boundary without ending the data; the last block ends it. The blocks'
 * CRC-32s are combined (crc32_combine()). What comes out is one ordinary
 * member that every gzip reader reads, and, since the cuts depend only on
 * the input, the same bytes however it was written and however the threads
 * ran. It costs about 17 bytes a block (the flush's marker, and the
 * deflate block the cut ends early): 836 bytes on a 52 MB profile.
 *
 * zlib at level 1 compresses a pprof message at about 60 MB/s here: on two
 * processors this halves the time a large gzip'd output spends in it.
 */
#include "io/gzip_out.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profdata/common.h"
#include "util/base.h"
#include "util/beside.h"

enum { GZ_BLOCK = 1 << 20, GZ_DICT = 32768 };

/* One block's compression, on either thread. */
typedef struct gz_lane {
	z_stream z;
	int init, level;
	const unsigned char *in, *dict;
	size_t n, ndict;
	int final;             /* the last block: ends the deflate data */
	unsigned char *out;
	size_t out_cap, out_n;
	uLong crc;
	int rc;
} gz_lane;

struct pd_gzip_out {
	int level;
	pd_gzip_sink sink;
	void *payload;
	unsigned char *pending;  /* input not yet compressed: up to two blocks */
	size_t npending, pending_cap;
	unsigned char dict[GZ_DICT];  /* the input's last bytes before `pending` */
	size_t ndict;
	gz_lane lane[2];
	uLong crc;
	uint64_t total;
	int started;             /* the header is out */
};

pd_gzip_out *pd_gzip_out_new(int level, pd_gzip_sink sink, void *payload)
{
	pd_gzip_out *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->level = level;
	g->sink = sink;
	g->payload = payload;
	g->crc = crc32(0, NULL, 0);
	return g;
}

static void lane_run(void *arg)
{
	gz_lane *l = arg;
	l->rc = PROFDATA_ENOMEM;
	if (!l->init && deflateInit2(&l->z, l->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	if (l->init && deflateReset(&l->z) != Z_OK)
		return;
	l->init = 1;
	/* deflateBound() has no room for the flush's marker: 16 more bytes. */
	size_t need = deflateBound(&l->z, (uLong)l->n) + 16;
	if (need > l->out_cap && pd_grow((void **)&l->out, &l->out_cap, need, 1))
		return;
	l->rc = PROFDATA_ERROR;
	if (l->ndict && deflateSetDictionary(&l->z, l->dict, (uInt)l->ndict) != Z_OK)
		return;
	l->z.next_in = (unsigned char *)l->in;
	l->z.avail_in = (uInt)l->n;
	l->z.next_out = l->out;
	l->z.avail_out = (uInt)l->out_cap;
	int ret = deflate(&l->z, l->final ? Z_FINISH : Z_SYNC_FLUSH);
	if (ret != (l->final ? Z_STREAM_END : Z_OK) || l->z.avail_in != 0)
		return;
	l->out_n = l->out_cap - l->z.avail_out;
	l->crc = crc32(0, l->in, (uInt)l->n);
	l->rc = 0;
}

static int put_header(pd_gzip_out *g)
{
	/* magic, deflate, no flags, no time, the extra flags zlib sets for the level, Unix */
	unsigned char h[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	h[8] = g->level == 9 ? 2 : g->level == 1 ? 4 : 0;
	g->started = 1;
	return g->sink(g->payload, h, sizeof h);
}

/* Lane k takes pending[from, from + n), primed with what came before it. */
static void lane_set(pd_gzip_out *g, int k, size_t from, size_t n, int final)
{
	gz_lane *l = &g->lane[k];
	l->level = g->level;
	l->in = g->pending + from;
	l->n = n;
	l->final = final;
	if (from >= GZ_DICT) {
		l->dict = g->pending + from - GZ_DICT;
		l->ndict = GZ_DICT;
	} else {
		l->dict = g->dict;
		l->ndict = g->ndict;
	}
}

/* Compress the pending input, as one block or two (the second beside), the last ending the data. */
static int compress_pending(pd_gzip_out *g, int final)
{
	size_t first = g->npending > GZ_BLOCK ? GZ_BLOCK : g->npending;
	int two = g->npending > GZ_BLOCK;
	int rc = g->started ? 0 : put_header(g);
	lane_set(g, 0, 0, first, final && !two);
	if (two)
		lane_set(g, 1, GZ_BLOCK, g->npending - GZ_BLOCK, final);
	pd_beside second;
	if (two)
		pd_beside_start(&second, lane_run, &g->lane[1]);
	lane_run(&g->lane[0]);
	if (two)
		pd_beside_wait(&second);
	for (int k = 0; k <= two && rc == 0; k++) {
		gz_lane *l = &g->lane[k];
		if ((rc = l->rc) == 0 && (rc = g->sink(g->payload, l->out, l->out_n)) == 0)
			g->crc = crc32_combine(g->crc, l->crc, (z_off_t)l->n);
	}
	/* The next blocks' dictionary: the last 32 KiB of these (two full blocks, unless these were the last). */
	if (g->npending >= GZ_DICT) {
		memcpy(g->dict, g->pending + g->npending - GZ_DICT, GZ_DICT);
		g->ndict = GZ_DICT;
	}
	g->total += g->npending;
	g->npending = 0;
	return rc;
}

int pd_gzip_out_write(pd_gzip_out *g, const unsigned char *p, size_t n)
{
	while (n > 0) {
		/* Two full blocks go when more input follows them: the last ones wait for finish, which ends the data. */
		int rc = g->npending == 2 * (size_t)GZ_BLOCK ? compress_pending(g, 0) : 0;
		if (rc)
			return rc;
		size_t room = 2 * (size_t)GZ_BLOCK - g->npending, step = n < room ? n : room;
		if (pd_grow((void **)&g->pending, &g->pending_cap, g->npending + step, 1))
			return PROFDATA_ENOMEM;
		memcpy(g->pending + g->npending, p, step);
		g->npending += step;
		p += step;
		n -= step;
	}
	return 0;
}

int pd_gzip_out_finish(pd_gzip_out *g)
{
	int rc = compress_pending(g, 1);
	unsigned char t[8];
	for (int i = 0; i < 4; i++) {
		t[i] = (unsigned char)(g->crc >> (8 * i));
		t[4 + i] = (unsigned char)(g->total >> (8 * i));
	}
	return rc ? rc : g->sink(g->payload, t, sizeof t);
}

void pd_gzip_out_free(pd_gzip_out *g)
{
	if (!g)
		return;
	for (int k = 0; k < 2; k++) {
		if (g->lane[k].init)
			deflateEnd(&g->lane[k].z);
		free(g->lane[k].out);
	}
	free(g->pending);
	free(g);
}
