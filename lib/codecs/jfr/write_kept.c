/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JFR -> JFR: the events the reader kept unread (every event of a chunk but
 * its samples, as unknown records: jfr.h, JFR_KEPT_HEADER) written back as
 * the chunks they came from, before the chunk of samples. A kept chunk is
 * its header, its events in their order, then its checkpoints chained
 * again: each checkpoint holds the distance back to the one before it,
 * which changes as the samples are left out. Nothing else in an event
 * refers to where it stands, so the rest is copied byte for byte, and the
 * JDK prints those events as it printed them from the input.
 */
#include <inttypes.h>
#include <limits.h>

#include "codecs/jfr/jfr.h"
#include "codecs/jfr/write.h"

/* The records of one kept chunk: [first, end) of the profile's unknown records, first its header. */
typedef struct kept_chunk {
	size_t first, end;
	int compressed;
	uint64_t meta_offset, cpool_offset; /* where they now stand in it; 0 none */
	uint64_t meta_id;                   /* its metadata's number */
} kept_chunk;

int jw_has_kept(const profdata_profile *p)
{
	const char *format = profdata_profile_meta(p)->format;
	return format && strcmp(format, "jfr") == 0 && profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN) > 0;
}

static int is_header(const profdata_unknown *u)
{
	return u->tag == JFR_KEPT_HEADER && u->len == JFR_HEADER_SIZE && memcmp(u->data, "FLR\0", 4) == 0;
}

/* A cursor over a kept record's bytes, integers as its chunk encodes them (no reader: errors are the caller's). */
static jfr_cur kept_cur(const profdata_unknown *u, int compressed, uint64_t *steps)
{
	const unsigned char *bytes = u->data;
	jfr_cur c = { bytes, bytes + u->len, bytes, compressed, NULL, steps, 64 * u->len + 1000000 };
	return c;
}

/* Whether a kept chunk header says its integers are compressed (flag bit 0). */
static int header_compressed(const profdata_unknown *h)
{
	return (pd_be32((const unsigned char *)h->data + 64) & 1) != 0;
}

/*
 * The part of a metadata event after its size, type, start, duration and
 * number (*id): what chunks repeat. NULL when those do not parse.
 */
static const unsigned char *meta_tree(const profdata_unknown *u, int compressed, uint64_t *id)
{
	uint64_t steps = 0;
	jfr_cur c = kept_cur(u, compressed, &steps);
	for (int i = 0; i < 5; i++)
		if (jfr_int(&c, i ? 8 : 4, id))
			return NULL;
	return c.p;
}

/*
 * A checkpoint's bytes with its delta to the previous checkpoint made
 * `delta`: its size, type, start and duration read as the chunk encodes
 * integers, the delta put anew and the rest copied. 0, PROFDATA_EFORMAT
 * for bytes that are no checkpoint, or PROFDATA_ENOMEM.
 */
static int put_checkpoint(pd_strbuf *out, pd_strbuf *body, const profdata_unknown *u, int compressed, int64_t delta)
{
	uint64_t steps = 0, size, field;
	const unsigned char *bytes = u->data;
	jfr_cur c = kept_cur(u, compressed, &steps);
	int rc = jfr_int(&c, 4, &size);
	const unsigned char *after_size = c.p;
	for (int i = 0; i < 3 && rc == 0; i++) /* type, start, duration */
		rc = jfr_int(&c, 8, &field);
	const unsigned char *delta_at = c.p;
	if (rc || size != u->len || jfr_int(&c, 8, &field) != 0)
		return PROFDATA_EFORMAT;
	body->n = 0;
	if (pd_strbuf_add(body, (const char *)after_size, (size_t)(delta_at - after_size)))
		return PROFDATA_ENOMEM;
	if (compressed) {
		if (jw_varint(body, (uint64_t)delta) ||
		    pd_strbuf_add(body, (const char *)c.p, (size_t)(bytes + u->len - c.p)))
			return PROFDATA_ENOMEM;
		return jw_event(out, body, NULL);
	}
	unsigned char fixed[8];
	pd_put_be64(fixed, (uint64_t)delta);
	if (pd_strbuf_add(body, (const char *)fixed, 8) ||
	    pd_strbuf_add(body, (const char *)c.p, (size_t)(bytes + u->len - c.p)))
		return PROFDATA_ENOMEM;
	pd_put_be32(fixed, (uint32_t)u->len); /* the same size: the delta keeps its 8 bytes */
	return pd_strbuf_add(out, (const char *)fixed, 4) || pd_strbuf_add(out, body->p, body->n) ? PROFDATA_ENOMEM : 0;
}

/* The chunk's events but its checkpoints, after its header, noting where its (last) metadata stands. */
static int put_events(const profdata_profile *p, kept_chunk *k, pd_strbuf *out)
{
	for (size_t i = k->first; i < k->end; i++) {
		profdata_unknown u;
		profdata_profile_unknown(p, i, &u);
		if (u.tag == 1)
			continue;
		if (u.tag == 0) {
			k->meta_offset = out->n;
			if (!meta_tree(&u, k->compressed, &k->meta_id))
				return PROFDATA_EFORMAT;
		}
		if (pd_strbuf_add(out, u.data, (size_t)u.len))
			return PROFDATA_ENOMEM;
	}
	return 0;
}

/* Its checkpoints, the first with no delta, each after it with the distance back to the one before. */
static int put_checkpoints(const profdata_profile *p, kept_chunk *k, pd_strbuf *out, pd_strbuf *body)
{
	for (size_t i = k->first; i < k->end; i++) {
		profdata_unknown u;
		profdata_profile_unknown(p, i, &u);
		if (u.tag != 1)
			continue;
		size_t at = out->n;
		int rc = put_checkpoint(out, body, &u, k->compressed,
		                        k->cpool_offset ? (int64_t)k->cpool_offset - (int64_t)at : 0);
		if (rc)
			return rc;
		k->cpool_offset = at;
	}
	return 0;
}

/* One kept chunk into `out`, its header's size and offsets set; `last` whether it ends the recording. */
static int put_chunk(const profdata_profile *p, kept_chunk *k, pd_strbuf *out, pd_strbuf *body, int last)
{
	profdata_unknown h;
	profdata_profile_unknown(p, k->first, &h);
	k->compressed = header_compressed(&h);
	out->n = 0;
	int rc = pd_strbuf_add(out, h.data, JFR_HEADER_SIZE) ? PROFDATA_ENOMEM : 0;
	k->first++;
	if (rc == 0)
		rc = put_events(p, k, out);
	if (rc == 0)
		rc = put_checkpoints(p, k, out, body);
	if (rc == 0 && !k->meta_offset)
		rc = PROFDATA_EFORMAT; /* the JDK finds no types without it */
	if (rc)
		return rc;
	unsigned char *head = (unsigned char *)out->p;
	uint32_t flags = pd_be32(head + 64);
	pd_put_be64(head + 8, out->n);
	pd_put_be64(head + 16, k->cpool_offset);
	pd_put_be64(head + 24, k->meta_offset);
	pd_put_be32(head + 64, last ? flags | 2 : flags & ~2u); /* bit 1: the last chunk of the recording */
	return 0;
}

/* The class ids metadata event u declares, put in `used`; 0, PROFDATA_EFORMAT or PROFDATA_ENOMEM. */
static int note_ids(const profdata_unknown *u, int compressed, pd_map *used)
{
	uint64_t steps = 0, size, type;
	jfr_cur c = kept_cur(u, compressed, &steps);
	jfr_meta m;
	memset(&m, 0, sizeof m);
	int rc = jfr_int(&c, 4, &size) || jfr_int(&c, 8, &type) ? PROFDATA_EFORMAT : jfr_meta_read(&m, &c);
	for (size_t i = 0; i < m.ntypes && rc == 0; i++)
		rc = pd_map_put(used, m.types[i].id, 1) < 0 ? PROFDATA_ENOMEM : 0;
	jfr_meta_free(&m);
	return rc;
}

/*
 * The class ids every kept metadata event declares. The JDK writes the
 * same metadata into each chunk, so one that repeats the one before (but
 * for its times) is not read again.
 */
static int kept_ids(const profdata_profile *p, pd_map *used)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN);
	const unsigned char *last = NULL;
	size_t last_len = 0;
	int compressed = -1, rc = 0;
	for (size_t i = 0; i < n && rc != PROFDATA_ENOMEM; i++) {
		profdata_unknown u;
		profdata_profile_unknown(p, i, &u);
		if (is_header(&u))
			compressed = header_compressed(&u);
		if (u.tag != 0 || compressed < 0)
			continue;
		uint64_t id;
		const unsigned char *tree = meta_tree(&u, compressed, &id), *end = (const unsigned char *)u.data + u.len;
		if (!tree || (last && last_len == (size_t)(end - tree) && memcmp(last, tree, last_len) == 0))
			continue;
		rc = note_ids(&u, compressed, used); /* metadata that does not parse is said when its chunk is written */
		last = tree;
		last_len = (size_t)(end - tree);
	}
	return rc == PROFDATA_ENOMEM ? rc : 0;
}

/*
 * Beside kept chunks, our types take ids none of them uses: the JDK's
 * reader keeps what it made of a type for the later chunks that use its
 * id (a java.lang.Class of the JDK's fields would be read from ours), and
 * `jfr summary` names an id by the first chunk that declares it.
 */
int jw_type_ids(const profdata_profile *p, uint64_t ids[JW_NTYPES])
{
	pd_map used;
	memset(&used, 0, sizeof used);
	int rc = jw_has_kept(p) ? kept_ids(p, &used) : 0;
	uint64_t next = JW_ID(0);
	for (size_t t = 0; t < JW_NTYPES; t++) {
		while (pd_map_get(&used, next))
			next++;
		ids[t] = next++;
	}
	pd_map_free(&used);
	return rc;
}

/* Where the kept chunk that begins at or after record `from` ends; its header's index in *first. */
static size_t chunk_end(const profdata_profile *p, size_t from, size_t n, size_t *first, uint64_t *stray)
{
	profdata_unknown u;
	for (*first = from; *first < n; ++*first, ++*stray) {
		profdata_profile_unknown(p, *first, &u);
		if (is_header(&u))
			break;
	}
	size_t end = *first < n ? *first + 1 : n;
	for (; end < n; end++) {
		profdata_unknown v;
		profdata_profile_unknown(p, end, &v);
		if (is_header(&v))
			break;
	}
	return end;
}

int jw_write_kept(const profdata_profile *p, profdata_writer *w, pd_strbuf *out, pd_strbuf *body, int ends,
                  uint64_t *meta_id)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_UNKNOWN), chunks = 0;
	uint64_t stray = 0;
	int rc = 0;
	for (size_t from = 0; from < n && rc == 0;) {
		kept_chunk k = { 0 };
		k.end = chunk_end(p, from, n, &k.first, &stray);
		from = k.end;
		if (k.first >= n)
			break;
		chunks++;
		rc = put_chunk(p, &k, out, body, ends && k.end == n);
		if (rc == PROFDATA_EFORMAT) {
			rc = pd_out_error(w, rc, "jfr: kept chunk %zu: a checkpoint that does not parse, or no metadata",
			                  chunks);
		} else if (rc == 0) {
			*meta_id = k.meta_id;
			rc = pd_out_write(w, out->p, out->n);
		}
	}
	if (stray)
		pd_out_warn(w, "jfr: %" PRIu64 " kept records without a chunk header before them were not written", stray);
	return rc ? rc : (int)(chunks > INT_MAX ? INT_MAX : chunks);
}
