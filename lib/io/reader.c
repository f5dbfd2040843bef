/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Input: a window of bytes over a path, descriptor, memory or callbacks,
 * with gzip looked through.
 *
 * Uncompressed memory and regular files (mapped) are "stable": the window is
 * the whole remaining input and pointers into it live as long as the blob,
 * so decoders parse in place and the model keeps payloads by reference.
 * Everything else streams through a buffer that grows only as bytes arrive.
 */
#include "io/reader.h"
#include "io/pager.h"
#include "io/readahead.h"
#include "pd_config.h"
#include "profdata/profdata.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if PD_HAVE_ZLIB
#include <zlib.h>
#endif

enum { SRC_BLOB, SRC_FD, SRC_CALLBACKS };

#define PD_CHUNK ((size_t)1 << 20)
/*
 * Read-ahead (pd_in_stream): files from 64 MiB; 4 MiB a read (fewer system
 * calls, and the pair of buffers stays in the L2/L3 working set of a pass);
 * 1 MiB of headroom holds a window that crosses a buffer's end, which is a
 * decoder's record head or window, never a whole big record.
 */
#define RA_MIN_SIZE ((uint64_t)64 << 20)
#define RA_CHUNK ((size_t)4 << 20)
#define RA_HEADROOM ((size_t)1 << 20)

struct profdata_reader {
	pd_diag diag;
	int src;
	int fd, own_fd;
	profdata_read_fn fn;
	void *fn_payload;
	pd_blob *blob;
	uint64_t blob_pos;     /* raw position in the blob, when it is consumed through a buffer (gzip) */
	int started, gzip, source_eof;
	/* Window over decompressed or streamed bytes. */
	unsigned char *buf;
	size_t cap, start, end;
	size_t window_peak;    /* the largest cap, for profdata_reader_window_peak() */
	uint64_t offset;       /* logical offset of buf[start], or of blob_pos when stable */
	int eof;
	profdata_progress_cb progress;
	void *progress_payload;
	uint64_t progress_every, progress_next, raw_consumed;
	void (*legacy_progress)(void *payload, uint64_t consumed, uint64_t total); /* 0.2's, through a shim */
	void *legacy_payload;
	int stop_code;         /* what the progress callback stopped reading with; 0 while it has not */
	pd_pager *pager;       /* mapped inputs: releases behind the cursor (and faults ahead of it) */
	uint64_t file_size;    /* of a mapped file, kept when pd_in_stream() unmaps it */
	int want_readahead;    /* pd_in_stream() chose to read on a second thread */
	pd_readahead *ra;      /* ... which does, into buffers it owns: buf is one of them */
	int pager_tried;
	int permissive;        /* its decoder is permissive: a truncated .gz file ends the input */
	int gzip_cut;          /* permissive: a truncated .gz ended the input, with a warning */
#if PD_HAVE_ZLIB
	z_stream z;
	int z_init, z_member_done;
	unsigned char *raw;    /* compressed staging for streamed sources */
	size_t raw_cap, raw_start, raw_end;
#endif
};

/* A reader of source `src` in *out, or an error when the arguments are not `valid`. */
static int reader_open(profdata_reader **out, int valid, int src, const char *name)
{
	*out = valid ? calloc(1, sizeof(**out)) : NULL;
	if (!*out)
		return valid ? PROFDATA_ENOMEM : PROFDATA_EINVAL;
	pd_diag_init(&(*out)->diag, name);
	(*out)->src = src;
	(*out)->fd = -1;
	return 0;
}

int profdata_reader_open_path(profdata_reader **out, const char *path)
{
	if (path && strcmp(path, "-") == 0)
		return profdata_reader_open_fd(out, 0, "<stdin>");
	int e = reader_open(out, path != NULL, SRC_FD, path);
	if (e < 0)
		return e;
	profdata_reader *r = *out;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return pd_diag_error(&r->diag, PROFDATA_EIO, PD_NO_OFFSET, 0, "cannot open: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int err = errno;
		close(fd);
		return pd_diag_error(&r->diag, PROFDATA_EIO, PD_NO_OFFSET, 0, "cannot read: %s", strerror(err));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return pd_diag_error(&r->diag, PROFDATA_EIO, PD_NO_OFFSET, 0, "cannot read: is a directory");
	}
	if (S_ISREG(st.st_mode)) {
		int out_of_memory;
		r->blob = pd_blob_map(fd, (uint64_t)st.st_size, &out_of_memory);
		if (r->blob || out_of_memory) {
			close(fd);
			if (out_of_memory) {
				*out = NULL;
				profdata_reader_free(r);
				return PROFDATA_ENOMEM;
			}
			r->src = SRC_BLOB;
			r->file_size = (uint64_t)st.st_size;
			return 0;
		}
	}
	/* Not mappable (a FIFO, a device, a failed mmap): stream it. */
	r->fd = fd;
	r->own_fd = 1;
	return 0;
}

int profdata_reader_open_fd(profdata_reader **out, int fd, const char *name)
{
	int e = reader_open(out, fd >= 0, SRC_FD, name ? name : "<fd>");
	if (e == 0)
		(*out)->fd = fd;
	return e;
}

int profdata_reader_open_memory(profdata_reader **out, const void *buf, size_t len, const char *name)
{
	int e = reader_open(out, buf || !len, SRC_BLOB, name ? name : "<memory>");
	if (e < 0)
		return e;
	(*out)->blob = pd_blob_of_memory(buf, len);
	if ((*out)->blob)
		return 0;
	profdata_reader_free(*out);
	*out = NULL;
	return PROFDATA_ENOMEM;
}

int profdata_reader_open_callbacks(profdata_reader **out, profdata_read_fn fn, void *payload, const char *name)
{
	int e = reader_open(out, fn != NULL, SRC_CALLBACKS, name ? name : "<callbacks>");
	if (e == 0) {
		(*out)->fn = fn;
		(*out)->fn_payload = payload;
	}
	return e;
}

static void gzip_end(profdata_reader *r);

void profdata_reader_free(profdata_reader *r)
{
	if (!r)
		return;
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	pd_pager_stop(r->pager);
	pd_blob_release(r->blob);
	gzip_end(r);
	if (r->ra)
		r->buf = NULL; /* the read-ahead's */
	pd_readahead_stop(r->ra);
	free(r->buf);
	pd_diag_free(&r->diag);
	free(r);
}

const char *profdata_reader_name(const profdata_reader *r) { return r->diag.name ? r->diag.name : ""; }
int profdata_reader_is_gzip(const profdata_reader *r) { return r->gzip; }
size_t profdata_reader_window_peak(const profdata_reader *r) { return r->window_peak > r->cap ? r->window_peak : r->cap; }
const profdata_error *profdata_reader_error(const profdata_reader *r) { return pd_diag_last(&r->diag); }
size_t profdata_reader_warning_count(const profdata_reader *r) { return r->diag.nwarnings; }
const profdata_error *profdata_reader_warning(const profdata_reader *r, size_t i) { return pd_diag_warning(&r->diag, i); }
void pd_in_set_mode(profdata_reader *r, int mode) { r->permissive = mode == PROFDATA_MODE_PERMISSIVE; }

pd_diag *pd_in_diag(profdata_reader *r) { return &r->diag; }

/* Raw bytes from a streamed source; 0 at its end, negative on error. */
static long source_read(profdata_reader *r, unsigned char *dst, size_t n)
{
	if (r->source_eof)
		return 0;
	long got;
	if (r->src == SRC_BLOB) {
		uint64_t left = pd_blob_size(r->blob) - r->blob_pos;
		got = (long)(left < n ? left : n);
		memcpy(dst, pd_blob_data(r->blob) + r->blob_pos, (size_t)got);
		r->blob_pos += (uint64_t)got;
	} else if (r->src == SRC_FD) {
		ssize_t k;
		do
			k = read(r->fd, dst, n > (size_t)1 << 30 ? (size_t)1 << 30 : n);
		while (k < 0 && errno == EINTR);
		if (k < 0)
			return pd_diag_error(&r->diag, PROFDATA_EIO, r->offset, 0, "%s: read failed: %s",
			                     r->diag.name, strerror(errno));
		got = (long)k;
	} else {
		got = r->fn(r->fn_payload, dst, n);
		if (got < 0)
			return pd_diag_error(&r->diag, PROFDATA_EIO, r->offset, 0, "%s: read callback failed",
			                     r->diag.name);
		if ((size_t)got > n)
			return pd_diag_error(&r->diag, PROFDATA_EIO, r->offset, 0,
			                     "%s: read callback returned more than asked", r->diag.name);
	}
	if (got == 0)
		r->source_eof = 1;
	if (r->src != SRC_BLOB)
		r->raw_consumed += (uint64_t)got;
	return got;
}

#if PD_HAVE_ZLIB
/* Make compressed bytes available in the staging buffer; 0 at the end. */
static long raw_fill(profdata_reader *r)
{
	if (r->raw_start < r->raw_end)
		return (long)(r->raw_end - r->raw_start);
	if (!r->raw) {
		r->raw = malloc(PD_CHUNK);
		if (!r->raw)
			return PROFDATA_ENOMEM;
		r->raw_cap = PD_CHUNK;
	}
	long n = source_read(r, r->raw, r->raw_cap);
	if (n < 0)
		return n;
	r->raw_start = 0;
	r->raw_end = (size_t)n;
	return n;
}

/* Decompress into dst; 0 at the end of the last member. */
static long inflate_some(profdata_reader *r, unsigned char *dst, size_t n)
{
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	for (;;) {
		if (r->z_member_done) {
			/* Another member follows only if the next bytes are gzip's magic. */
			long a = raw_fill(r);
			if (a < 0)
				return a;
			if (a == 0)
				return 0;
			if (r->raw[r->raw_start] == 0x00) {
				/* Zero padding after the last member (tape-style writers). */
				size_t i = r->raw_start;
				while (i < r->raw_end && r->raw[i] == 0)
					i++;
				r->raw_start = i;
				continue;
			}
			if (r->raw[r->raw_start] != 0x1f) {
				pd_diag_warn(&r->diag, PROFDATA_EFORMAT, r->offset, 0,
				             "ignoring %ld bytes of non-gzip data after the last gzip member", a);
				r->raw_start = r->raw_end;
				r->source_eof = 1;
				return 0;
			}
			if (inflateReset(&r->z) != Z_OK)
				return pd_diag_error(&r->diag, PROFDATA_EFORMAT, r->offset, 0, "gzip: cannot reset");
			r->z_member_done = 0;
		}
		if (r->gzip_cut)
			return 0;
		long a = raw_fill(r);
		if (a < 0)
			return a;
		if (a == 0) {
			/* As a truncated plain file reads: strict fails, permissive keeps what came before. */
			if (!r->permissive)
				return pd_diag_error(&r->diag, PROFDATA_ETRUNCATED, r->offset, 0,
				                     "gzip stream ends inside a member (truncated .gz file)");
			pd_diag_warn(&r->diag, PROFDATA_ETRUNCATED, r->offset, 0,
			             "gzip stream ends inside a member (truncated .gz file); reading what it held");
			r->gzip_cut = 1;
			return 0;
		}
		r->z.next_in = r->raw + r->raw_start;
		r->z.avail_in = (uInt)(r->raw_end - r->raw_start);
		r->z.next_out = dst;
		r->z.avail_out = (uInt)n;
		int ret = inflate(&r->z, Z_NO_FLUSH);
		r->raw_start = r->raw_end - r->z.avail_in;
		size_t produced = n - r->z.avail_out;
		if (ret == Z_STREAM_END)
			r->z_member_done = 1;
		else if (ret != Z_OK && ret != Z_BUF_ERROR)
			return pd_diag_error(&r->diag, PROFDATA_EFORMAT, r->offset, 0, "gzip data is corrupt: %s",
			                     r->z.msg ? r->z.msg : "inflate failed");
		if (produced > 0)
			return (long)produced;
	}
}

static void gzip_end(profdata_reader *r)
{
	if (r->z_init)
		inflateEnd(&r->z);
	free(r->raw);
}
#else
static void gzip_end(profdata_reader *r) { (void)r; }
#endif

/* Decide once whether the input is gzip. */
/*
 * The next read-ahead buffer becomes the window, the unconsumed bytes kept
 * in front of it (at most RA_HEADROOM). Returns the bytes added, 0 at the
 * end, or a negative code.
 */
static long readahead_more(profdata_reader *r)
{
	size_t keep = r->end - r->start;
	unsigned char *data;
	long n = pd_readahead_next(r->ra, keep ? r->buf + r->start : NULL, keep, &data);
	if (n < 0)
		return pd_diag_error(&r->diag, PROFDATA_EIO, r->offset, 0, "%s: read failed: %s", r->diag.name,
		                     strerror((int)-n));
	r->buf = data;
	r->start = 0;
	r->end = r->cap = (size_t)n;
	if (r->cap > r->window_peak)
		r->window_peak = r->cap;
	if ((size_t)n == keep)
		r->eof = 1;
	return n - (long)keep;
}

/* A window wider than the headroom: read on this thread from where the read-ahead got to. */
static int readahead_leave(profdata_reader *r)
{
	size_t keep = r->end - r->start, cap = keep > PD_CHUNK / 2 ? keep * 2 : PD_CHUNK;
	unsigned char *own = malloc(cap);
	if (!own)
		return pd_diag_error(&r->diag, PROFDATA_ENOMEM, r->offset, 0, "out of memory for the input window");
	memcpy(own, r->buf + r->start, keep);
	uint64_t pos = pd_readahead_offset(r->ra);
	pd_readahead_stop(r->ra);
	r->ra = NULL;
	r->buf = own;
	r->cap = cap;
	r->start = 0;
	r->end = keep;
	if (lseek(r->fd, (off_t)pos, SEEK_SET) < 0)
		return pd_diag_error(&r->diag, PROFDATA_EIO, r->offset, 0, "%s: cannot seek: %s", r->diag.name,
		                     strerror(errno));
	return 0;
}

void pd_in_stream(profdata_reader *r)
{
	unsigned char head[2];
	/* A mapped file no byte of which was consumed (a sniff only peeks), read through the blob's descriptor. */
	int fd = r->src == SRC_BLOB && r->blob_pos == 0 && !r->gzip ? pd_blob_fd(r->blob) : -1;
	if (fd < 0 || r->file_size < RA_MIN_SIZE || pread(fd, head, 2, 0) != 2 || (head[0] == 0x1f && head[1] == 0x8b))
		return; /* (gzip: inflating costs more than reading, and reads through its own staging) */
	if ((r->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return;
	r->own_fd = 1;
	pd_pager_stop(r->pager);
	r->pager = NULL;
	pd_blob_release(r->blob);
	r->blob = NULL;
	r->src = SRC_FD;
	r->want_readahead = 1;
	/* Started (sniffed): the first fill finds an empty window and takes the read-ahead's first buffer. */
	if (r->started && !(r->ra = pd_readahead_start(r->fd, 0, RA_CHUNK, RA_HEADROOM)))
		r->want_readahead = 0; /* no thread: this one reads, from the start of the file */
}

static int start(profdata_reader *r)
{
	if (r->started)
		return 0;
	r->started = 1;
	unsigned char head[2] = { 0, 0 };
	size_t have = 0;
	if (r->src == SRC_BLOB) {
		if (pd_blob_check(r->blob) < 0)
			return pd_diag_error(&r->diag, PROFDATA_EIO, 0, 0,
			                     "the file is shorter than when it was opened (another process truncated it)");
		have = pd_blob_size(r->blob) < 2 ? (size_t)pd_blob_size(r->blob) : 2;
		memcpy(head, pd_blob_data(r->blob), have);
	} else if (r->want_readahead && (r->ra = pd_readahead_start(r->fd, 0, RA_CHUNK, RA_HEADROOM))) {
		long n = readahead_more(r); /* not gzip: pd_in_stream() looked */
		return n < 0 ? (int)n : 0;
	} else {
		/* Read the first bytes into the window; they are data if not gzip. */
		r->buf = malloc(PD_CHUNK);
		if (!r->buf)
			return PROFDATA_ENOMEM;
		r->cap = PD_CHUNK;
		while (r->end < 2) {
			long n = source_read(r, r->buf + r->end, r->cap - r->end);
			if (n < 0)
				return (int)n;
			if (n == 0)
				break;
			r->end += (size_t)n;
		}
		if (r->end >= 2) {
			head[0] = r->buf[0];
			head[1] = r->buf[1];
			have = 2;
		}
	}
	if (have == 2 && head[0] == 0x1f && head[1] == 0x8b) {
#if PD_HAVE_ZLIB
		r->gzip = 1;
		if (inflateInit2(&r->z, 15 + 16) != Z_OK)
			return pd_diag_error(&r->diag, PROFDATA_ENOMEM, 0, 0, "gzip: cannot initialise zlib");
		r->z_init = 1;
		if (r->src != SRC_BLOB) {
			/* What was read is compressed: move it to the staging buffer. */
			r->raw = r->buf;
			r->raw_cap = r->cap;
			r->raw_start = 0;
			r->raw_end = r->end;
			r->buf = NULL;
			r->cap = r->end = 0;
		}
#else
		return pd_diag_error(&r->diag, PROFDATA_EUNSUPPORTED, 0, 0,
		                     "%s is gzip-compressed, and this libprofdata was built without zlib",
		                     r->diag.name);
#endif
	}
	return 0;
}

static int stable(const profdata_reader *r) { return r->src == SRC_BLOB && !r->gzip; }

/*
 * Decoders read mapped files front to back, so what lies well behind the
 * cursor is done with: the pager releases it, which keeps the resident set
 * to the model instead of the whole file (a 2 GB dump would otherwise count
 * 2 GB).
 */
static void drop_behind(profdata_reader *r)
{
	if (r->pager)
		pd_pager_advance(r->pager, r->blob_pos);
}
static void report_progress(profdata_reader *r);

/* Produce more window bytes at buf[end..cap). */
static long produce(profdata_reader *r)
{
#if PD_HAVE_ZLIB
	if (r->gzip)
		return inflate_some(r, r->buf + r->end, r->cap - r->end);
#endif
	return source_read(r, r->buf + r->end, r->cap - r->end);
}

/* What a fill returns once the progress callback stopped reading: a failure, whatever the stop's code. */
static int64_t fill_after_stop(const profdata_reader *r)
{
	return r->stop_code < 0 ? r->stop_code : PROFDATA_ERROR;
}

int64_t pd_in_fill(profdata_reader *r, size_t want, const unsigned char **p)
{
	if (PD_UNLIKELY(r->stop_code != 0))
		return fill_after_stop(r);
	int e = start(r);
	if (e < 0)
		return e;
	if (stable(r)) {
		if (PD_UNLIKELY(!r->pager_tried)) {
			r->pager_tried = 1;
			r->pager = pd_pager_start(r->blob);
		}
		*p = pd_blob_data(r->blob) + r->blob_pos;
		return (int64_t)(pd_blob_size(r->blob) - r->blob_pos);
	}
	while (r->end - r->start < want && !r->eof) {
		if (r->ra && r->end - r->start <= RA_HEADROOM) {
			long n = readahead_more(r);
			if (n < 0)
				return n;
			continue;
		}
		if (r->ra && (e = readahead_leave(r)) < 0)
			return e;
		if (r->start > 0 && (r->end == r->cap || r->start > r->cap / 2)) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->end == r->cap) {
			/* Grow only when full of real data: at most twice what arrived. */
			size_t ncap = r->cap ? r->cap * 2 : PD_CHUNK;
			if (ncap < r->cap)
				return pd_diag_error(&r->diag, PROFDATA_ENOMEM, r->offset, 0, "input window too large");
			if (pd_regrow((void **)&r->buf, r->cap, ncap) < 0)
				return pd_diag_error(&r->diag, PROFDATA_ENOMEM, r->offset, 0,
				                     "out of memory growing the input window to %zu bytes", ncap);
			r->cap = ncap;
			if (ncap > r->window_peak)
				r->window_peak = ncap;
		}
		long n = produce(r);
		if (n < 0)
			return n;
		if (n == 0)
			r->eof = 1;
		r->end += (size_t)n;
	}
	*p = r->buf + r->start;
	return (int64_t)(r->end - r->start);
}

int64_t pd_in_peek(profdata_reader *r, size_t want, const unsigned char **p)
{
	return pd_in_fill(r, want, p);
}

void pd_in_looked_back(profdata_reader *r)
{
	pd_pager_looked_back(r->pager);
}

void pd_in_rewind(profdata_reader *r, uint64_t offset)
{
	if (!stable(r) || offset >= r->blob_pos)
		return;
	r->offset -= r->blob_pos - offset;
	r->blob_pos = offset;
	pd_pager_rewind(r->pager, offset);
}

void pd_in_skip(profdata_reader *r, size_t n)
{
	if (PD_UNLIKELY(r->progress != NULL))
		report_progress(r);
	if (stable(r)) {
		if (n > pd_blob_size(r->blob) - r->blob_pos)
			n = (size_t)(pd_blob_size(r->blob) - r->blob_pos);
		r->blob_pos += n;
		r->offset += n;
		drop_behind(r);
		return;
	}
	if (n > r->end - r->start)
		n = r->end - r->start;
	r->start += n;
	r->offset += n;
}

int64_t pd_in_discard(profdata_reader *r, uint64_t n)
{
	if (PD_UNLIKELY(r->progress != NULL))
		report_progress(r);
	if (PD_UNLIKELY(r->stop_code != 0))
		return fill_after_stop(r);
	int e = start(r);
	if (e < 0)
		return e;
	if (stable(r)) {
		uint64_t left = pd_blob_size(r->blob) - r->blob_pos;
		uint64_t k = n < left ? n : left;
		r->blob_pos += k;
		r->offset += k;
		drop_behind(r);
		return (int64_t)k;
	}
	uint64_t done = 0;
	while (done < n) {
		if (r->start == r->end) {
			r->start = r->end = 0;
			if (r->eof)
				break;
			if (r->ra) {
				long k = readahead_more(r);
				if (k < 0)
					return k;
				continue;
			}
			if (!r->buf) {
				r->buf = malloc(PD_CHUNK);
				if (!r->buf)
					return PROFDATA_ENOMEM;
				r->cap = PD_CHUNK;
			}
			long k = produce(r);
			if (k < 0)
				return k;
			if (k == 0) {
				r->eof = 1;
				break;
			}
			r->end = (size_t)k;
		}
		size_t avail = r->end - r->start;
		size_t take = (uint64_t)avail < n - done ? avail : (size_t)(n - done);
		r->start += take;
		r->offset += take;
		done += take;
	}
	return (int64_t)done;
}

int pd_in_fill_all(profdata_reader *r, const unsigned char **p, size_t *len)
{
	size_t want = (size_t)1 << 16;
	for (;;) {
		int64_t n = pd_in_fill(r, want, p);
		if (n < 0)
			return (int)n;
		if ((uint64_t)n < want) {
			*len = (size_t)n;
			return 0;
		}
		if (want > SIZE_MAX / 2)
			return pd_in_error(r, PROFDATA_ELIMIT, pd_in_offset(r), "an input larger than memory can address");
		want = (size_t)n * 2;
	}
}

uint64_t pd_in_offset(const profdata_reader *r) { return r->offset; }
uint64_t profdata_reader_offset(const profdata_reader *r) { return r->offset; }

uint64_t profdata_reader_size(const profdata_reader *r)
{
	return r->blob ? pd_blob_size(r->blob) : r->file_size;
}

void profdata_reader_set_progress_cb(profdata_reader *r, profdata_progress_cb cb, void *payload, uint64_t every)
{
	r->progress = cb;
	r->progress_payload = payload;
	r->progress_every = every ? every : ((uint64_t)64 << 20);
	r->progress_next = r->progress_every;
}

/* 0.2's callback returns nothing, so it never stops reading. */
static int legacy_progress(void *payload, const char *phase, uint64_t done, uint64_t total)
{
	const profdata_reader *r = payload;
	(void)phase;
	r->legacy_progress(r->legacy_payload, done, total);
	return 0;
}

void profdata_reader_set_progress(profdata_reader *r, void (*fn)(void *payload, uint64_t consumed, uint64_t total),
                                  void *payload, uint64_t every)
{
	r->legacy_progress = fn;
	r->legacy_payload = payload;
	profdata_reader_set_progress_cb(r, fn ? legacy_progress : NULL, r, every);
}

int pd_in_stop_code(const profdata_reader *r, int e)
{
	return r->stop_code ? r->stop_code : e;
}

/*
 * Progress counts raw bytes, so that gzip input compares with the file size.
 * A callback that says stop makes every later fill fail (decoders return
 * that failure; the core then returns the stop's code, pd_in_stop_code()).
 */
static void report_progress(profdata_reader *r)
{
	uint64_t raw = r->gzip ? (r->src == SRC_BLOB ? r->blob_pos : r->raw_consumed) : r->offset;
	if (raw >= r->progress_next && !r->stop_code) {
		r->progress_next = raw + r->progress_every;
		int rc = r->progress(r->progress_payload, "read", raw, profdata_reader_size(r));
		if (rc != 0) {
			r->stop_code = rc > 0 ? PROFDATA_STOPPED : rc;
			pd_diag_error(&r->diag, r->stop_code, r->offset, 0,
			              "reading stopped by the progress callback at byte %llu of the input",
			              (unsigned long long)raw);
		}
	}
}

pd_blob *pd_in_blob(profdata_reader *r)
{
	if (start(r) < 0)
		return NULL;
	return stable(r) ? r->blob : NULL;
}

int pd_in_error(profdata_reader *r, int code, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_verror(&r->diag, code, offset, 0, fmt, ap);
	va_end(ap);
	return code;
}

int pd_in_error_line(profdata_reader *r, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_verror(&r->diag, code, offset, line, fmt, ap);
	va_end(ap);
	return code;
}

void pd_in_warn(profdata_reader *r, int code, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_vwarn(&r->diag, code, offset, 0, fmt, ap);
	va_end(ap);
}

void pd_in_warn_line(profdata_reader *r, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_vwarn(&r->diag, code, offset, line, fmt, ap);
	va_end(ap);
}

int pd_in_damage(profdata_reader *r, int mode, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (mode == PROFDATA_MODE_STRICT)
		pd_diag_verror(&r->diag, code, offset, line, fmt, ap);
	else
		pd_diag_vwarn(&r->diag, code, offset, line, fmt, ap);
	va_end(ap);
	return mode == PROFDATA_MODE_STRICT ? code : 0;
}
