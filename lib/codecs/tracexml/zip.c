/* SPDX-License-Identifier: Apache-2.0 */
/*
 * .trcxml archives: TPTP's agent wrote a ZIP of TraceContents-<date>.xml
 * entries, each a trace. Read through libarchive from callbacks that hand
 * it the reader's windows, so a mapped file, a pipe and a gzip stream are
 * read the same way and streaming (no seek: the local headers and data
 * descriptors in order). Why libarchive and not libzip: doc/formats-tracexml.md.
 */
#include <stdio.h>
#include <string.h>

#include "pd_config.h"
#include "tracexml_decode.h"

#if PD_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>

typedef struct zip_source {
	profdata_reader *in;
	size_t pending;      /* bytes handed out last time, consumed on the next call */
	int64_t error;
} zip_source;

static la_ssize_t zip_read(struct archive *ar, void *ud, const void **buf)
{
	zip_source *z = ud;
	const unsigned char *p;
	(void)ar;
	pd_in_skip(z->in, z->pending);
	z->pending = 0;
	int64_t n = pd_in_fill(z->in, 1u << 16, &p);
	if (n < 0) {
		z->error = n;
		return -1;
	}
	if (n > (int64_t)1 << 16)
		n = (int64_t)1 << 16; /* a mapped input comes whole: hand it out piece by piece */
	z->pending = (size_t)n;
	*buf = p;
	return (la_ssize_t)n;
}

static int archive_failed(tx_decoder *d, struct archive *ar, const char *what)
{
	return pd_in_damage(d->a->in, d->a->mode, PROFDATA_EFORMAT, pd_in_offset(d->a->in), 0, "tracexml: %s: %s",
	                    what, archive_error_string(ar) ? archive_error_string(ar) : "unreadable archive");
}

/* One entry: a document of its own, fed as libarchive inflates it. */
static int read_entry(tx_decoder *d, struct archive *ar, const char *name)
{
	const void *buf;
	size_t size;
	la_int64_t off;
	int first = 1, e = 0, r;
	d->doc_offset = 0;
	while (e == 0 && (r = archive_read_data_block(ar, &buf, &size, &off)) == ARCHIVE_OK) {
		if (first && (e = tx_document_begin(d, name, buf, size)))
			break;
		first = 0;
		e = tx_document_feed(d, buf, size);
	}
	if (e == 0 && first)
		e = tx_document_begin(d, name, (const unsigned char *)"", 0);
	if (e == 0 && r != ARCHIVE_EOF && r != ARCHIVE_OK)
		return archive_failed(d, ar, name);
	return e ? e : tx_document_end(d);
}

static int is_xml_entry(const char *name)
{
	size_t n = strlen(name);
	return n >= 4 && strcmp(name + n - 4, ".xml") == 0;
}

int tx_decode_zip(tx_decoder *d)
{
	zip_source z = { d->a->in, 0, 0 };
	struct archive *ar = archive_read_new();
	struct archive_entry *entry;
	int e = 0, r;
	if (!ar)
		return PROFDATA_ENOMEM;
	archive_read_support_format_zip(ar);
	if (archive_read_open(ar, &z, NULL, zip_read, NULL) != ARCHIVE_OK) {
		e = z.error ? (int)z.error : archive_failed(d, ar, "not a readable ZIP archive");
		archive_read_free(ar);
		return e;
	}
	while (e == 0 && !d->broken && (r = archive_read_next_header(ar, &entry)) != ARCHIVE_EOF) {
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			e = z.error ? (int)z.error : archive_failed(d, ar, "archive entry");
			break;
		}
		const char *name = archive_entry_pathname(entry);
		if (!name || !is_xml_entry(name)) {
			pd_in_warn(d->a->in, PROFDATA_EFORMAT, pd_in_offset(d->a->in),
			           "tracexml: archive entry '%s' is not a trace (.xml); skipped", name ? name : "");
			continue;
		}
		e = read_entry(d, ar, name);
		if (z.error)
			e = (int)z.error;
	}
	archive_read_free(ar);
	return e;
}

#else

int tx_decode_zip(tx_decoder *d)
{
	return pd_in_error(d->a->in, PROFDATA_EUNSUPPORTED, 0,
	                   "tracexml: this is a .trcxml (ZIP) archive, and libprofdata was built without libarchive "
	                   "(meson option -Dlibarchive); unzip it and read its TraceContents-*.xml entries instead");
}

#endif

/* ---- writing (zip=1) ---- */

#include "tracexml_encode.h"

#if PD_HAVE_LIBARCHIVE
static la_ssize_t zip_out(struct archive *ar, void *ud, const void *buf, size_t len)
{
	tx_encoder *x = ud;
	(void)ar;
	return pd_out_write(x->w, buf, len) < 0 ? -1 : (la_ssize_t)len;
}

static int zip_failed(tx_encoder *x)
{
	const char *why = archive_error_string(x->archive);
	return profdata_writer_error(x->w) ? profdata_writer_error(x->w)->code
	       : pd_out_error(x->w, PROFDATA_EIO, "tracexml: writing the archive: %s", why ? why : "failed");
}

static int zip_open(tx_encoder *x)
{
	struct archive *ar = archive_write_new();
	if (!ar)
		return PROFDATA_ENOMEM;
	x->archive = ar;
	if (archive_write_set_format_zip(ar) != ARCHIVE_OK || archive_write_zip_set_compression_deflate(ar) != ARCHIVE_OK ||
	    archive_write_set_bytes_per_block(ar, 0) != ARCHIVE_OK ||
	    archive_write_open(ar, x, NULL, zip_out, NULL) != ARCHIVE_OK)
		return zip_failed(x);
	return 0;
}

/* Entries are streamed (their size unknown until written: a data descriptor follows each). */
int tx_zip_entry(tx_encoder *x, const char *name)
{
	char fallback[64];
	int e = x->archive ? 0 : zip_open(x);
	if (e)
		return e;
	if (!name || !name[0]) {
		snprintf(fallback, sizeof fallback, "TraceContents-%llu.xml", (unsigned long long)x->ntraces);
		name = fallback;
	}
	struct archive_entry *en = archive_entry_new();
	if (!en)
		return PROFDATA_ENOMEM;
	archive_entry_set_pathname(en, name);
	archive_entry_set_filetype(en, AE_IFREG);
	archive_entry_set_perm(en, 0644);
	archive_entry_set_mtime(en, 1167609600, 0); /* fixed (2007-01-01) so that rewrites are byte-identical */
	int r = archive_write_header(x->archive, en);
	archive_entry_free(en);
	x->entry_open = 1;
	return r == ARCHIVE_OK ? 0 : zip_failed(x);
}

int tx_zip_write(tx_encoder *x, const void *buf, size_t len)
{
	if (!x->archive && tx_zip_entry(x, NULL) < 0)
		return PROFDATA_ERROR;
	return archive_write_data(x->archive, buf, len) < 0 ? zip_failed(x) : 0;
}

int tx_zip_close(tx_encoder *x)
{
	if (!x->archive)
		return 0;
	int r = archive_write_close(x->archive);
	return r == ARCHIVE_OK ? 0 : zip_failed(x);
}

void tx_zip_free(tx_encoder *x)
{
	if (x->archive)
		archive_write_free(x->archive);
	x->archive = NULL;
}

#else

int tx_zip_entry(tx_encoder *x, const char *name) { (void)name; return pd_out_error(x->w, PROFDATA_EUNSUPPORTED, "tracexml: no libarchive"); }
int tx_zip_write(tx_encoder *x, const void *buf, size_t len) { (void)buf; (void)len; return tx_zip_entry(x, NULL); }
int tx_zip_close(tx_encoder *x) { (void)x; return 0; }
void tx_zip_free(tx_encoder *x) { (void)x; }

#endif
