/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Output through a staging buffer to a path (temporary file + rename; devices
 * and FIFOs written through), a descriptor, memory or callbacks, optionally
 * gzip-compressed.
 */
#include "io/writer.h"
#include "pd_config.h"
#include "profdata/profdata.h"
#include "util/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if PD_HAVE_ZLIB
#include "io/gzip_out.h"
#endif

enum { DST_PATH, DST_FD, DST_MEMORY, DST_CALLBACKS };

#define PD_OUT_CHUNK ((size_t)1 << 20)
/* The buffer starts at 64 KiB and grows fourfold to PD_OUT_CHUNK only when an output fills it: a small output costs no 1 MiB. */
#define PD_OUT_FIRST ((size_t)64 << 10)

struct profdata_writer {
	pd_diag diag;
	int dst;
	int fd, own_fd;
	char *path, *tmp_path;
	profdata_write_fn fn;
	void *fn_payload;
	unsigned char *buf;
	size_t cap, len;
	uint64_t offset;
	int closed, failed;
	unsigned char *mem;
	size_t mem_len, mem_cap;
	int gzip_level;
#if PD_HAVE_ZLIB
	pd_gzip_out *gz;       /* made at the first compressed byte */
#endif
};

static profdata_writer *writer_new(const char *name, int dst)
{
	profdata_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	pd_diag_init(&w->diag, name);
	w->dst = dst;
	w->fd = -1;
	return w;
}

/*
 * Where a path's bytes go: a symbolic link is followed (up to 40 levels, a
 * dangling one included) so that the file it names is replaced, in that
 * file's folder, and the link stays a link. Returns a malloc'd path or NULL.
 */
static char *follow_links(const char *path)
{
	char *cur = pd_strdup(path);
	for (int depth = 0; cur && depth < 40; depth++) {
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		size_t cap = (size_t)st.st_size + 1 > 256 ? (size_t)st.st_size + 1 : 256;
		char *target = malloc(cap);
		ssize_t n = target ? readlink(cur, target, cap - 1) : -1;
		if (n < 0) {
			free(target);
			return cur;
		}
		target[n] = 0;
		const char *slash = strrchr(cur, '/');
		if (target[0] == '/' || !slash) {
			free(cur);
			cur = target;
			continue;
		}
		size_t dir_len = (size_t)(slash - cur) + 1;
		char *next = malloc(dir_len + (size_t)n + 1);
		if (next) {
			memcpy(next, cur, dir_len);
			memcpy(next + dir_len, target, (size_t)n + 1);
		}
		free(target);
		free(cur);
		cur = next;
	}
	return cur;
}

/* `what` is the whole message: the writer's name, the path, comes first already. */
static int open_failed(profdata_writer **out, profdata_writer *w, const char *what, const char *why)
{
	pd_diag_error(&w->diag, PROFDATA_EIO, PD_NO_OFFSET, 0, "%s%s", what, why);
	w->failed = 1;
	*out = w;
	return PROFDATA_EIO;
}

/* Why a temporary file cannot be made beside `path`, in words for people. */
static const char *create_failure(const char *path, int err)
{
	if (err != ENOENT)
		return strerror(err);
	const char *slash = strrchr(path, '/');
	if (!slash)
		return "the current folder does not allow new files";
	struct stat st;
	char dir[4096];
	size_t n = (size_t)(slash - path);
	if (n == 0 || n >= sizeof(dir))
		return strerror(err);
	memcpy(dir, path, n);
	dir[n] = 0;
	return stat(dir, &st) == 0 ? "its folder does not allow new files" : "its folder does not exist";
}

/*
 * Stage the bytes in a fresh file beside `w->path` (O_EXCL, no mkstemp, so
 * that the mode is ours to choose). A file being replaced lends its mode
 * (and, where permitted, its owner) before anything is written, so that a
 * 0600 heap dump never becomes readable by others even for a moment.
 */
static int open_temporary(profdata_writer *w, const struct stat *old, unsigned new_mode)
{
	size_t n = strlen(w->path) + 64;
	w->tmp_path = malloc(n);
	if (!w->tmp_path)
		return PROFDATA_ENOMEM;
	mode_t mode = old ? 0600 : (mode_t)(new_mode & 0666);
	for (unsigned i = 0; i < 1000 && w->fd < 0; i++) {
		snprintf(w->tmp_path, n, "%s.tmp-%ld-%u", w->path, (long)getpid(), i);
		w->fd = open(w->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY, mode);
		if (w->fd < 0 && errno != EEXIST)
			break;
	}
	if (w->fd < 0) {
		int err = errno;
		free(w->tmp_path);
		w->tmp_path = NULL;
		errno = err;
		return PROFDATA_EIO;
	}
	if (old) {
		if ((old->st_uid != geteuid() || old->st_gid != getegid()) && fchown(w->fd, old->st_uid, old->st_gid) != 0) {
			/* Not ours to give away: the replacement keeps our owner, and the mode below. */
		}
		if (fchmod(w->fd, old->st_mode & 0777) != 0) {
			/* The 0600 it was created with is no wider than the original. */
		}
	}
	return 0;
}

/* A file nobody may write is not replaced unless asked to be. */
static int read_only(const char *path, const struct stat *st)
{
	return (st->st_mode & 0222) == 0 || (access(path, W_OK) != 0 && (errno == EACCES || errno == EROFS));
}

int profdata_writer_open_file(profdata_writer **out, const char *path, unsigned flags, unsigned new_mode)
{
	*out = NULL;
	if (!path)
		return PROFDATA_EINVAL;
	if (strcmp(path, "-") == 0)
		return profdata_writer_open_fd(out, 1, "<stdout>");
	profdata_writer *w = writer_new(path, DST_PATH);
	if (!w)
		return PROFDATA_ENOMEM;
	if (!(w->path = follow_links(path))) {
		profdata_writer_free(w);
		return PROFDATA_ENOMEM;
	}
	struct stat st;
	int exists = stat(w->path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return open_failed(out, w, "is a folder", "");
	if (exists && !S_ISREG(st.st_mode)) {
		/* Devices, FIFOs: written through, as cp and shell redirections do. */
		w->fd = open(w->path, O_WRONLY | O_NOCTTY);
		if (w->fd < 0)
			return open_failed(out, w, "cannot open it for writing: ", strerror(errno));
		w->own_fd = 1;
		*out = w;
		return 0;
	}
	if (exists && !(flags & PROFDATA_WRITER_FORCE) && read_only(w->path, &st))
		return open_failed(out, w, "is read-only; not replaced", "");
	int e = open_temporary(w, exists ? &st : NULL, new_mode ? new_mode : 0666);
	if (e == PROFDATA_ENOMEM) {
		profdata_writer_free(w);
		return e;
	}
	if (e < 0)
		return open_failed(out, w, "cannot create a temporary file beside it: ",
		                   create_failure(w->path, errno));
	w->own_fd = 1;
	*out = w;
	return 0;
}

int profdata_writer_open_path(profdata_writer **out, const char *path)
{
	return profdata_writer_open_file(out, path, 0, 0666);
}

const char *profdata_writer_temp_path(const profdata_writer *w)
{
	return w->dst == DST_PATH && !w->closed ? w->tmp_path : NULL;
}

int profdata_writer_open_fd(profdata_writer **out, int fd, const char *name)
{
	*out = NULL;
	if (fd < 0)
		return PROFDATA_EINVAL;
	profdata_writer *w = writer_new(name ? name : "<fd>", DST_FD);
	if (!w)
		return PROFDATA_ENOMEM;
	w->fd = fd;
	*out = w;
	return 0;
}

int profdata_writer_open_memory(profdata_writer **out)
{
	*out = writer_new("<memory>", DST_MEMORY);
	return *out ? 0 : PROFDATA_ENOMEM;
}

int profdata_writer_open_callbacks(profdata_writer **out, profdata_write_fn fn, void *payload, const char *name)
{
	*out = NULL;
	if (!fn)
		return PROFDATA_EINVAL;
	profdata_writer *w = writer_new(name ? name : "<callbacks>", DST_CALLBACKS);
	if (!w)
		return PROFDATA_ENOMEM;
	w->fn = fn;
	w->fn_payload = payload;
	*out = w;
	return 0;
}

int profdata_writer_set_gzip(profdata_writer *w, int level)
{
	if (level < 0 || level > 9 || w->offset > 0 || w->closed)
		return pd_diag_error(&w->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "gzip level must be 0-9 and set before writing");
#if PD_HAVE_ZLIB
	w->gzip_level = level;
	return 0;
#else
	if (level == 0)
		return 0;
	return pd_diag_error(&w->diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
	                     "gzip output needs zlib, and this libprofdata was built without it");
#endif
}

/* Hand bytes to the destination. */
static int sink(profdata_writer *w, const unsigned char *p, size_t n)
{
	switch (w->dst) {
	case DST_PATH:
	case DST_FD:
		while (n > 0) {
			ssize_t k = write(w->fd, p, n);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return pd_diag_error(&w->diag, PROFDATA_EIO, w->offset, 0, "write failed: %s",
				                     k < 0 ? strerror(errno) : "no progress");
			p += k;
			n -= (size_t)k;
		}
		return 0;
	case DST_MEMORY:
		if (pd_grow((void **)&w->mem, &w->mem_cap, w->mem_len + n, 1) < 0)
			return pd_diag_error(&w->diag, PROFDATA_ENOMEM, w->offset, 0, "out of memory");
		memcpy(w->mem + w->mem_len, p, n);
		w->mem_len += n;
		return 0;
	default:
		if (n && w->fn(w->fn_payload, p, n) != 0)
			return pd_diag_error(&w->diag, PROFDATA_EIO, w->offset, 0, "write callback failed");
		return 0;
	}
}

#if PD_HAVE_ZLIB
static int gz_sink(void *payload, const unsigned char *p, size_t n)
{
	return sink(payload, p, n);
}

/* Compress n bytes (gzip_out.c), or with finish end the member. */
static int deflate_out(profdata_writer *w, const unsigned char *p, size_t n, int finish)
{
	if (!w->gz && !(w->gz = pd_gzip_out_new(w->gzip_level, gz_sink, w)))
		return pd_diag_error(&w->diag, PROFDATA_ENOMEM, w->offset, 0, "gzip: out of memory");
	int e = finish ? pd_gzip_out_finish(w->gz) : pd_gzip_out_write(w->gz, p, n);
	if (e == PROFDATA_ENOMEM && !w->diag.has_err)
		return pd_diag_error(&w->diag, e, w->offset, 0, "gzip: out of memory");
	if (e < 0 && !w->diag.has_err)
		return pd_diag_error(&w->diag, e, w->offset, 0, "gzip: deflate failed");
	return e;
}
#endif

static int flush_buf(profdata_writer *w)
{
	if (w->len == 0)
		return 0;
	int e;
#if PD_HAVE_ZLIB
	if (w->gzip_level > 0)
		e = deflate_out(w, w->buf, w->len, 0);
	else
#endif
		e = sink(w, w->buf, w->len);
	w->len = 0;
	if (e < 0)
		w->failed = 1;
	return e;
}

unsigned char *pd_out_reserve(profdata_writer *w, size_t n)
{
	if (w->failed || w->closed)
		return NULL;
	if (w->cap - w->len < n) {
		if (flush_buf(w) < 0)
			return NULL;
		if (w->cap < n || w->cap < PD_OUT_CHUNK) {
			size_t ncap = w->cap ? w->cap * 4 : PD_OUT_FIRST;
			if (ncap > PD_OUT_CHUNK)
				ncap = PD_OUT_CHUNK;
			if (ncap < n)
				ncap = n;
			unsigned char *nb = realloc(w->buf, ncap);
			if (!nb) {
				w->failed = 1;
				pd_diag_error(&w->diag, PROFDATA_ENOMEM, w->offset, 0, "out of memory");
				return NULL;
			}
			w->buf = nb;
			w->cap = ncap;
		}
	}
	return w->buf + w->len;
}

void pd_out_commit(profdata_writer *w, size_t n)
{
	w->len += n;
	w->offset += n;
}

int pd_out_write(profdata_writer *w, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	while (len > 0) {
		size_t step = len < PD_OUT_CHUNK ? len : PD_OUT_CHUNK;
		unsigned char *d = pd_out_reserve(w, step);
		if (!d)
			return w->diag.has_err ? w->diag.err.code : PROFDATA_EIO;
		memcpy(d, p, step);
		pd_out_commit(w, step);
		p += step;
		len -= step;
	}
	return w->failed ? (w->diag.has_err ? w->diag.err.code : PROFDATA_EIO) : 0;
}

int pd_out_printf(profdata_writer *w, const char *fmt, ...)
{
	char small[512], *heap;
	size_t n;
	va_list ap;
	va_start(ap, fmt);
	const char *text = pd_vformat(small, sizeof(small), &heap, &n, fmt, ap);
	va_end(ap);
	if (!text)
		return n ? pd_out_error(w, PROFDATA_ENOMEM, "out of memory")
		         : pd_out_error(w, PROFDATA_ERROR, "formatting failed");
	int e = pd_out_write(w, text, n);
	free(heap);
	return e;
}

int profdata_writer_write(profdata_writer *w, const void *data, size_t len)
{
	if (w->closed)
		return pd_out_error(w, PROFDATA_EINVAL, "written after profdata_writer_close()");
	return pd_out_write(w, data, len);
}

int profdata_writer_close(profdata_writer *w)
{
	if (w->closed)
		return w->failed ? PROFDATA_EIO : 0;
	int e = flush_buf(w);
#if PD_HAVE_ZLIB
	if (!e && w->gzip_level > 0)
		e = deflate_out(w, NULL, 0, 1);
#endif
	w->closed = 1;
	if (!e && w->dst == DST_PATH) {
		if (fsync(w->fd) != 0 && errno != EINVAL)
			e = pd_diag_error(&w->diag, PROFDATA_EIO, w->offset, 0, "fsync failed: %s", strerror(errno));
		if (close(w->fd) != 0 && !e)
			e = pd_diag_error(&w->diag, PROFDATA_EIO, w->offset, 0, "close failed: %s", strerror(errno));
		w->fd = -1;
		if (!e && w->tmp_path && rename(w->tmp_path, w->path) != 0)
			e = pd_diag_error(&w->diag, PROFDATA_EIO, w->offset, 0, "cannot rename %s over it: %s",
			                  w->tmp_path, strerror(errno));
		if (!e) {
			free(w->tmp_path);
			w->tmp_path = NULL;
		}
	}
	if (e)
		w->failed = 1;
	return e;
}

int profdata_writer_memory(const profdata_writer *w, const void **data, size_t *len)
{
	if (w->dst != DST_MEMORY || !w->closed)
		return PROFDATA_EINVAL;
	*data = w->mem;
	*len = w->mem_len;
	return 0;
}

void profdata_writer_free(profdata_writer *w)
{
	if (!w)
		return;
	if (w->dst == DST_PATH) {
		if (w->fd >= 0)
			close(w->fd);
		if (w->tmp_path)
			unlink(w->tmp_path);
	}
#if PD_HAVE_ZLIB
	pd_gzip_out_free(w->gz);
#endif
	free(w->buf);
	free(w->mem);
	free(w->path);
	free(w->tmp_path);
	pd_diag_free(&w->diag);
	free(w);
}

uint64_t profdata_writer_offset(const profdata_writer *w) { return w->offset; }
const profdata_error *profdata_writer_error(const profdata_writer *w) { return pd_diag_last(&w->diag); }
size_t profdata_writer_warning_count(const profdata_writer *w) { return w->diag.nwarnings; }
const profdata_error *profdata_writer_warning(const profdata_writer *w, size_t i) { return pd_diag_warning(&w->diag, i); }
pd_diag *pd_out_diag(profdata_writer *w) { return &w->diag; }

int pd_out_gzip_level(const profdata_writer *w) { return w->gzip_level; }

/*
 * Only a failed write happens at a place in the output worth naming; what
 * an encoder refuses is about the input, wherever the output stood.
 */
int pd_out_error(profdata_writer *w, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_verror(&w->diag, code, code == PROFDATA_EIO ? w->offset : PD_NO_OFFSET, 0, fmt, ap);
	va_end(ap);
	return code;
}

void pd_out_warn(profdata_writer *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_vwarn(&w->diag, PROFDATA_OK, PD_NO_OFFSET, 0, fmt, ap);
	va_end(ap);
}
