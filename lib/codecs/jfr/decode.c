/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading a recording: chunks one after another, each with its own
 * metadata and constant pools. Two passes over the input (held whole: in
 * place when mapped or in memory): the first reads each chunk's metadata
 * and counts every event by its type's name, so that `begin` carries the
 * counts (meta comments jfr.events.NAME, what `jfr summary` shows) and
 * the first chunk's settings (settings.c); the
 * second reads each chunk's checkpoints into pools, then its events, the
 * sample events into the model (typed.c) and, for a consumer of unknown
 * records, every other event kept as it stands (JFR_KEPT_HEADER).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "codecs/jfr/jfr.h"

#define JFR_COUNT_PREFIX "jfr.events."

static void decoder_free(jfr_decoder *d)
{
	jfr_meta_free(&d->meta);
	pd_intern_free(&d->event_names);
	pd_intern_free(&d->setting_keys);
	pd_intern_free(&d->setting_values);
	free(d->setting_value);
	free(d->held);
	free(d->checkpoints);
	pd_intern_free(&d->strings);
	pd_intern_free(&d->classes);
	pd_intern_free(&d->functions);
	pd_intern_free(&d->frames);
	pd_intern_free(&d->stacks);
	pd_intern_free(&d->threads);
	pd_map_free(&d->stack_of);
	pd_map_free(&d->method_of);
	pd_map_free(&d->class_of);
	pd_map_free(&d->thread_of);
	pd_map_free(&d->kind_of);
	pd_map_free(&d->state_of);
	pd_map_free(&d->counter_of_type);
	jfr_old_free(&d->old);
	PD_FREE_ALL(d->event_counts, d->vals, d->frame_ids, d->text.p, d->notes, d->wanted);
}

/*
 * The first pass's note of chunk d->chunk_ix, begun: whether its metadata
 * repeats the one before, so that the second need not compare it again
 * (the JDK's 230 KB chunks carry 100 KB of it, and comparing it in both
 * passes was a sixth of JFR -> folded); its wanted events follow.
 */
static int note_chunk(jfr_decoder *d, int repeats)
{
	if (pd_grow((void **)&d->notes, &d->notes_cap, d->chunk_ix + 1, sizeof *d->notes) != 0)
		return PROFDATA_ENOMEM;
	int complete = d->noting && d->h.size <= UINT32_MAX; /* offsets in it fit the note */
	d->notes[d->chunk_ix] = (jfr_chunk_note){ d->nwanted, 0, (uint8_t)repeats, (uint8_t)complete };
	return 0;
}

/* The chunk at `at`: its header checked, its metadata read. */
/*
 * The metadata's types and names, read from c (at its start, duration and
 * id). The JDK writes the same metadata into every chunk, only its times
 * differing: when what follows them is the last one's byte for byte, what
 * was read stands, and only the pools, which are each chunk's own, start
 * empty. Reading it was most of the time of a file of many small chunks.
 */
static int chunk_metadata(jfr_decoder *d, jfr_cur *c)
{
	jfr_cur head = *c;
	uint64_t ignored;
	for (int i = 0; i < 3; i++)
		if (jfr_int(&head, 8, &ignored) != 0)
			break;
	size_t len = (size_t)(c->end - head.p);
	int repeats;
	if (d->notes_known && d->chunk_ix > 0) /* the first pass compared it, after the same chunk as now */
		repeats = d->chunk_ix < d->nchunks && d->notes[d->chunk_ix].repeats;
	else
		repeats = d->meta_body && d->meta_len == len && d->meta_compressed == c->compressed &&
		          memcmp(d->meta_body, head.p, len) == 0;
	if (!d->notes_known && note_chunk(d, repeats) != 0)
		return PROFDATA_ENOMEM;
	if (repeats) {
		jfr_meta_clear_pools(&d->meta);
		return 0;
	}
	jfr_meta_free(&d->meta);
	pd_map_free(&d->counter_of_type);
	d->meta_body = NULL;
	int rc = jfr_meta_read(&d->meta, c);
	if (rc == 0) {
		d->meta_body = head.p;
		d->meta_len = len;
		d->meta_compressed = c->compressed;
	}
	return rc;
}

static int open_chunk(jfr_decoder *d, const unsigned char *at)
{
	jfr_cur c = { at, d->base + d->size, d->base, 0, d->in, &d->steps, 0 };
	int rc = jfr_read_header(&d->h, &c);
	if (rc)
		return rc;
	c.end = at + d->h.size;
	c.compressed = (d->h.flags & 1) != 0;
	d->steps = 0;
	/* every value takes a byte but empty structs: 64 values a byte is far beyond a real chunk */
	c.max_steps = 64 * d->h.size + 1000000;
	d->chunk = c;
	c.p = at + d->h.meta_offset;
	uint64_t size, type;
	if ((rc = jfr_int(&c, 4, &size)) != 0 || (rc = jfr_int(&c, 8, &type)) != 0)
		return rc;
	if (type != 0 || size > d->h.size - d->h.meta_offset)
		return jfr_fail(&c, at + d->h.meta_offset, PROFDATA_EFORMAT, "the metadata offset points at %s",
		                type ? "an event that is not metadata" : "an event past the chunk");
	c.end = at + d->h.meta_offset + size;
	if (c.p > c.end)
		return jfr_fail(&c, at + d->h.meta_offset, PROFDATA_EFORMAT,
		                "a metadata event of %" PRIu64 " bytes, shorter than its size and type", size);
	return chunk_metadata(d, &c);
}

typedef int (*event_fn)(jfr_decoder *d, uint64_t type, jfr_cur *body);

/* How far a walk moves before it tells the reader (a compare per event, a call per step). */
#define JFR_TELL_STEP ((uint64_t)1 << 20)

/*
 * A walk of a mapped input is at p: the reader is told, so that its pager
 * faults the pages ahead in on its thread and releases those behind (a
 * recording then costs its tables, not its size, in memory; a later look
 * at a pool or at the metadata maps a page again). A walk that starts
 * behind the last one (the second walk of a chunk, the second pass)
 * rewinds it.
 */
static void tell(jfr_decoder *d, const unsigned char *p)
{
	uint64_t at = (uint64_t)(p - d->base);
	if (!d->blob)
		return;
	if (at < d->told)
		pd_in_rewind(d->in, at);
	else
		pd_in_skip(d->in, (size_t)(at - d->told));
	d->told = at;
}

/* A walk at p tells the reader every JFR_TELL_STEP bytes. */
static void tell_due(jfr_decoder *d, const unsigned char *p)
{
	if (d->blob && (uint64_t)(p - d->base) >= d->told + JFR_TELL_STEP) /* else told stays 0 */
		tell(d, p);
}

/* The event of the current chunk at p: its type id, and c over the rest of it (c->end its end). */
static int open_event(jfr_decoder *d, const unsigned char *p, uint64_t *type, jfr_cur *c)
{
	uint64_t size;
	int rc;
	*c = d->chunk;
	c->p = p;
	if ((rc = jfr_int(c, 4, &size)) != 0)
		return rc;
	if (size == 0 || size > (uint64_t)(d->chunk.end - p))
		return jfr_fail(c, p, PROFDATA_EFORMAT, "an event of %" PRIu64 " bytes with %zu left in its chunk", size,
		                (size_t)(d->chunk.end - p));
	c->end = p + size;
	if (c->p > c->end)
		return jfr_fail(c, p, PROFDATA_EFORMAT, "an event of %" PRIu64 " bytes, shorter than its size", size);
	d->event_at = p;
	return jfr_int(c, 8, type);
}

/*
 * Every event of the current chunk, in order: fn with its type id and a
 * cursor over the rest of it. The page ahead is asked for at each event:
 * a walk reads one byte of most cache lines, and the next page's first
 * read otherwise waits for its translation (the JDK's shape to folded:
 * 0.29 -> 0.25 s).
 */
static int walk_events(jfr_decoder *d, event_fn fn)
{
	const unsigned char *p = d->chunk.p + JFR_HEADER_SIZE;
	tell(d, d->chunk.p);
	while (p < d->chunk.end) {
		jfr_cur c;
		uint64_t type;
		tell_due(d, p);
		if (d->chunk.end - p > 4096) /* no pointer past the input is formed */
			PD_PREFETCH(p + 4096);
		int rc = open_event(d, p, &type, &c);
		p = c.end;
		if (rc || (rc = fn(d, type, &c)) != 0)
			return rc;
	}
	return 0;
}

/* The end of a pass over the chunks: the reader told, so that all its pages are released. */
static void end_pass(jfr_decoder *d)
{
	tell(d, d->base + d->size);
}

/* The name an event of type id `type` is counted under (as `jfr summary` names them). */
static int event_name(jfr_decoder *d, uint64_t type, const jfr_cur *c, const char **name)
{
	uint32_t row;
	if (type <= 1) {
		*name = type ? "jdk.CheckPoint" : "jdk.Metadata";
		return 0;
	}
	if (!(row = pd_map_get(&d->meta.row_of_id, type)))
		return jfr_fail(c, c->p, PROFDATA_EFORMAT, "an event of type id %" PRIu64 ", which the metadata lacks", type);
	*name = jfr_type_name(&d->meta, &d->meta.types[row - 1]);
	return 0;
}

static int read_checkpoint(jfr_decoder *d, uint64_t type, jfr_cur *c)
{
	return type == 1 ? jfr_checkpoint_read(c, &d->meta, d->chunk.p, d->h.major >= 2) : 0;
}

/* The first chunk's settings and recording record (settings.c): its checkpoints read, then those events. */
static int read_settings(jfr_decoder *d)
{
	int rc = 0;
	for (size_t i = 0; i < d->nheld && rc == 0; i++)
		rc = read_checkpoint(d, d->held[i].type, &d->held[i].c);
	jfr_typed_chunk_reset(d);
	for (size_t i = 0; i < d->nheld && rc == 0; i++)
		rc = jfr_setting_event(d, d->held[i].type, &d->held[i].c);
	d->nheld = 0;
	return rc;
}

/* Hold a first chunk's checkpoint or setting event (its cursor) for read_settings. */
static int hold_event(jfr_decoder *d, uint64_t type, const jfr_cur *c)
{
	if (pd_grow((void **)&d->held, &d->held_cap, d->nheld + 1, sizeof *d->held))
		return PROFDATA_ENOMEM;
	d->held[d->nheld++] = (jfr_held){ type, *c };
	return 0;
}

/*
 * The ids of the event types the second pass reads, in the current chunk's
 * metadata: the samples events= chooses (as sample_spec finds them), and
 * old object samples for a consumer of objects (as old_objects.c does).
 */
static void want_type(jfr_decoder *d, const char *name)
{
	size_t row = jfr_type_find(&d->meta, name);
	if (row != SIZE_MAX)
		d->want_id[d->nwant++] = d->meta.types[row].id;
}

static void find_wanted_types(jfr_decoder *d)
{
	d->nwant = 0;
	for (size_t i = 0; i < d->nspec; i++)
		want_type(d, d->spec[i].event);
	if (d->a->ev->object)
		want_type(d, "jdk.OldObjectSample");
}

/*
 * An event of type id `type` noted for the second pass when it is wanted,
 * while the notes have room. A chunk where, from the 64th wanted event on,
 * more than a quarter of the events so far are wanted is walked instead,
 * its notes dropped: a walk costs no more there, and the notes would grow
 * with its samples (a burst of samples early in a sparse chunk has it
 * walked too: slower, never wrong).
 */
static int note_wanted(jfr_decoder *d, uint64_t type)
{
	jfr_chunk_note *n = &d->notes[d->chunk_ix];
	size_t i = 0;
	while (i < d->nwant && d->want_id[i] != type)
		i++;
	if (i == d->nwant || !n->complete)
		return 0;
	if (n->n >= 64 && (uint64_t)n->n * 4 > d->chunk_events) {
		d->nwanted = n->first;
		n->n = 0;
		n->complete = 0;
		return 0;
	}
	if (d->nwanted >= JFR_WANTED_MAX) { /* this chunk and those after it are walked */
		d->nwanted = n->first;
		n->n = 0;
		d->noting = 0;
		n->complete = 0;
		return 0;
	}
	if (pd_grow((void **)&d->wanted, &d->wanted_cap, d->nwanted + 1, sizeof *d->wanted))
		return PROFDATA_ENOMEM;
	d->wanted[d->nwanted++] = (uint32_t)(d->event_at - d->chunk.p);
	n->n++;
	return 0;
}

/*
 * Each event counted under its type's name; the name's counter found by
 * type id while the metadata stands. The first chunk's checkpoints and
 * settings are held for read_settings, so that one walk does both.
 */
static int count_type(jfr_decoder *d, uint64_t type, jfr_cur *c)
{
	const char *name = NULL;
	if (d->nchunks == 0 && (type == 1 || (type > 1 && (type == d->setting_type[0] || type == d->setting_type[1]))) &&
	    hold_event(d, type, c) < 0)
		return PROFDATA_ENOMEM;
	if (type == 1 && pd_grow((void **)&d->checkpoints, &d->checkpoints_cap, d->ncheckpoints + 1,
	                         sizeof *d->checkpoints))
		return PROFDATA_ENOMEM;
	if (type == 1)
		d->checkpoints[d->ncheckpoints++] = (uint64_t)(d->event_at - d->base);
	uint32_t ix = pd_map_get(&d->counter_of_type, type);
	if (ix) {
		d->event_counts[ix - 1]++;
		return 0;
	}
	int rc = event_name(d, type, c, &name);
	if (rc == 0 && (rc = pd_intern_put(&d->event_names, name, strlen(name), &ix)) >= 0) {
		if (rc == 0 && pd_grow((void **)&d->event_counts, &d->counts_cap, ix + 1, sizeof *d->event_counts))
			return PROFDATA_ENOMEM;
		if (rc == 0)
			d->event_counts[ix] = 0;
		d->event_counts[ix]++;
		rc = pd_map_put(&d->counter_of_type, type, ix + 1) < 0 ? PROFDATA_ENOMEM : 0;
	}
	return rc;
}

/* Pass 1's walk: each event counted, and noted when the second pass wants it. */
static int count_event(jfr_decoder *d, uint64_t type, jfr_cur *c)
{
	int rc = count_type(d, type, c);
	d->chunk_events++;
	return rc ? rc : note_wanted(d, type);
}

/*
 * A chunk after the first that the input cuts short (a recorder killed
 * while writing it): in permissive mode a warning, and the input ends
 * before it.
 */
static int cut_short(jfr_decoder *d, const unsigned char *p)
{
	size_t left = (size_t)(d->base + d->size - p);
	if (d->nchunks == 0 || left < JFR_HEADER_SIZE || memcmp(p, "FLR\0", 4) != 0 || pd_be64(p + 8) <= left)
		return 0;
	int rc = pd_in_damage(d->in, d->a->mode, PROFDATA_ETRUNCATED, (uint64_t)(p - d->base), 0,
	                      "jfr: chunk %zu of %" PRIu64 " bytes cut short at %zu; the chunks before it kept",
	                      d->nchunks + 1, pd_be64(p + 8), left);
	if (rc == 0)
		d->size = (size_t)(p - d->base);
	return rc ? rc : 1;
}

/* The current chunk's events counted; the first chunk's settings read. */
static int count_chunk(jfr_decoder *d)
{
	if (d->nchunks == 0)
		jfr_find_setting_types(d); /* their events are held by count_event */
	if (d->nchunks == 0 || !d->notes[d->nchunks].repeats) /* else the ids stand */
		find_wanted_types(d);
	d->chunk_events = 0;
	int rc = walk_events(d, count_event);
	return rc || d->nchunks ? rc : read_settings(d);
}

/* Pass 1: every chunk's events counted, the first chunk's settings kept. */
static int count_chunks(jfr_decoder *d)
{
	const unsigned char *p = d->base;
	int rc = 0;
	if (d->size == 0)
		return pd_in_error(d->in, PROFDATA_ETRUNCATED, 0, "jfr: an empty input");
	while (rc == 0 && p < d->base + d->size) {
		if ((rc = cut_short(d, p)) != 0) {
			rc = rc < 0 ? rc : 0;
			break;
		}
		d->chunk_ix = d->nchunks;
		if ((rc = open_chunk(d, p)) != 0 || (rc = count_chunk(d)) != 0)
			break;
		if (d->nchunks++ == 0)
			d->first = d->h;
		p += d->h.size;
	}
	end_pass(d);
	d->notes_known = rc == 0;
	return rc;
}

/* A NUL-terminated copy of s in t: *ix. */
static int keep(pd_intern *t, const char *s, uint32_t *ix)
{
	return pd_intern_put(t, s, strlen(s), ix) < 0 ? PROFDATA_ENOMEM : 0;
}

/* The first chunk's version and start, the chunks, every event type's count and the settings as meta comments. */
static int emit_begin(jfr_decoder *d, pd_intern *text)
{
	size_t nsettings = d->setting_keys.n, n = d->event_names.n + 2 + nsettings;
	uint32_t *kv = malloc(n * 2 * sizeof *kv);
	profdata_kv *comments = malloc(n * sizeof *comments);
	char buf[64], version[16];
	int rc = kv && comments ? 0 : PROFDATA_ENOMEM;
	snprintf(buf, sizeof buf, "%zu", d->nchunks);
	if (rc == 0 && (rc = keep(text, "jfr.chunks", &kv[0])) == 0)
		rc = keep(text, buf, &kv[1]);
	snprintf(buf, sizeof buf, "%" PRId64, d->first.start_nanos);
	if (rc == 0 && (rc = keep(text, "jfr.start_nanos", &kv[2])) == 0)
		rc = keep(text, buf, &kv[3]);
	for (size_t i = 0; i < d->event_names.n && rc == 0; i++) {
		char key[512];
		snprintf(key, sizeof key, JFR_COUNT_PREFIX "%s", pd_intern_str(&d->event_names, (uint32_t)i, NULL));
		snprintf(buf, sizeof buf, "%" PRIu64, d->event_counts[i]);
		if ((rc = keep(text, key, &kv[2 * i + 4])) == 0)
			rc = keep(text, buf, &kv[2 * i + 5]);
	}
	for (size_t i = 0, at = 2 * (n - nsettings); i < nsettings && rc == 0; i++, at += 2) {
		const char *value = pd_intern_str(&d->setting_values, d->setting_value[i], NULL);
		if ((rc = keep(text, pd_intern_str(&d->setting_keys, (uint32_t)i, NULL), &kv[at])) == 0)
			rc = keep(text, value, &kv[at + 1]);
	}
	if (rc == 0) {
		for (size_t i = 0; i < n; i++) {
			comments[i].key = pd_intern_str(text, kv[2 * i], NULL);
			comments[i].value = pd_intern_str(text, kv[2 * i + 1], NULL);
		}
		snprintf(version, sizeof version, "%u.%u", d->first.major, d->first.minor);
		profdata_meta m = { .format = "jfr", .version = version, .comments = comments, .ncomments = n,
			            .timestamp_ms = d->first.start_nanos > 0 ? (uint64_t)d->first.start_nanos / 1000000u : 0 };
		rc = PD_EMIT(d->a, begin, &m);
	}
	PD_FREE_ALL(kv, comments);
	return rc;
}

/* What events= chooses: its sample types and the event types read as samples. */
typedef struct jfr_kind {
	const char *name;
	const char *types[2][2];
	jfr_sample_spec spec[JT_COUNT - JT_SAMPLE];
} jfr_kind;

static const jfr_kind kinds[] = {
	{ "cpu", { { "cpu", "count" } }, { { "jdk.ExecutionSample", NULL, 0 } } },
	{ "wall", { { "wall", "count" } },
	  { { "jdk.NativeMethodSample", NULL, 0 }, { "profiler.WallClockSample", "samples", 0 } } },
	{ "alloc", { { "alloc_objects", "count" }, { "alloc_space", "bytes" } },
	  { { "jdk.ObjectAllocationInNewTLAB", "tlabSize", 0 }, { "jdk.ObjectAllocationOutsideTLAB", "allocationSize", 0 } } },
	{ "alloc-sample", { { "alloc_objects", "count" }, { "alloc_space", "bytes" } },
	  { { "jdk.ObjectAllocationSample", "weight", 0 } } },
	{ "lock", { { "contentions", "count" }, { "delay", "nanoseconds" } },
	  { { "jdk.JavaMonitorEnter", "duration", 1 }, { "jdk.JavaMonitorWait", "duration", 1 },
	    { "jdk.ThreadPark", "duration", 1 } } },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* events=NAME of an event type: its kind's values when a kind reads it, else a count. */
static void choose_event_type(jfr_decoder *d, const char *name, const char *(*types)[2])
{
	d->spec[0] = (jfr_sample_spec){ name, NULL, 0 };
	types[0][0] = "events";
	types[0][1] = "count";
	d->nspec = d->nvalues = 1;
	for (size_t k = 0; k < NKINDS; k++)
		for (size_t i = 0; i < JT_COUNT - JT_SAMPLE; i++)
			if (kinds[k].spec[i].event && strcmp(kinds[k].spec[i].event, name) == 0) {
				d->spec[0] = kinds[k].spec[i];
				memcpy(types, kinds[k].types, sizeof kinds[k].types);
				d->nvalues = kinds[k].types[1][0] ? 2 : 1;
			}
}

/* The event types events= chooses (a kind, or an event type's name), and their sample types, before pass 1. */
static int choose_sample_types(jfr_decoder *d)
{
	const char *want = d->a->opts ? pd_options_get(d->a->opts, "events") : NULL, *(*types)[2] = d->sample_type;
	size_t k = 0;
	while (want && k < NKINDS && strcmp(want, kinds[k].name) != 0)
		k++;
	if (k < NKINDS) {
		memcpy(d->spec, kinds[k].spec, sizeof d->spec);
		memcpy(types, kinds[k].types, sizeof d->sample_type);
		for (d->nspec = 0; d->nspec < JT_COUNT - JT_SAMPLE && d->spec[d->nspec].event; d->nspec++)
			;
		d->nvalues = types[1][0] ? 2 : 1;
	} else if (strchr(want, '.')) {
		choose_event_type(d, want, types);
	} else {
		return pd_in_error(d->in, PROFDATA_EINVAL, PD_NO_OFFSET,
		                   "jfr: events=%s: cpu, wall, alloc, alloc-sample, lock or an event type's name", want);
	}
	return 0;
}

/* The sample types choose_sample_types chose. */
static int emit_sample_types(jfr_decoder *d)
{
	const char *(*types)[2] = d->sample_type;
	int rc = 0;
	for (size_t i = 0; i < d->nvalues && rc == 0; i++) {
		profdata_sample_type t;
		if ((rc = jfr_string_id(d, types[i][0], strlen(types[i][0]), &t.type_id)) == 0 &&
		    (rc = jfr_string_id(d, types[i][1], strlen(types[i][1]), &t.unit_id)) == 0)
			rc = PD_EMIT(d->a, sample_type, &t);
	}
	return rc;
}

/* Which of the event types events= chooses an event of type id `type` is (d->spec), or SIZE_MAX. */
static size_t sample_spec(const jfr_decoder *d, uint64_t type)
{
	for (size_t i = 0; i < d->nspec; i++) {
		size_t row = d->row[JT_SAMPLE + i];
		if (row != SIZE_MAX && d->meta.types[row].id == type)
			return i;
	}
	return SIZE_MAX;
}

/* Pass 2's first walk of a chunk: its checkpoints into pools, and whether it has an event to keep. */
static int read_pools(jfr_decoder *d, uint64_t type, jfr_cur *c)
{
	if (d->keep && type > 1 && sample_spec(d, type) == SIZE_MAX)
		d->chunk_kept = 1;
	return read_checkpoint(d, type, c);
}

/* The bytes [at, end) kept as an unknown record tagged `tag`. */
static int keep_bytes(jfr_decoder *d, uint32_t tag, const unsigned char *at, const unsigned char *end)
{
	profdata_unknown u = { .tag = tag, .data = at, .len = (uint64_t)(end - at) };
	return PD_EMIT(d->a, unknown, &u);
}

/* Pass 2's second walk: a sample into the model; any other event kept when the chunk is. */
static int read_event(jfr_decoder *d, uint64_t type, jfr_cur *c)
{
	size_t i = sample_spec(d, type);
	int rc = jfr_old_note_chunk(d, type);
	if (rc)
		return rc;
	if (i != SIZE_MAX)
		return jfr_emit_sample(d, c, i);
	if (!d->chunk_kept)
		return 0;
	uint32_t tag = type < JFR_KEPT_HEADER ? (uint32_t)type : JFR_KEPT_HEADER - 1;
	if (type == 0 && d->event_at != d->chunk.p + d->h.meta_offset)
		tag = JFR_KEPT_HEADER - 1; /* not the metadata the header names: kept as any other event */
	return keep_bytes(d, tag, d->event_at, c->end);
}

/*
 * Pass 2's first walk of a chunk when no event is kept: only its
 * checkpoints, where pass 1 found them (and checked their size and type).
 */
static int read_noted_checkpoints(jfr_decoder *d)
{
	int rc = 0;
	while (rc == 0 && d->next_checkpoint < d->ncheckpoints) {
		const unsigned char *at = d->base + d->checkpoints[d->next_checkpoint];
		jfr_cur c;
		uint64_t type;
		if (at >= d->chunk.end)
			break;
		d->next_checkpoint++;
		if ((rc = open_event(d, at, &type, &c)) == 0)
			rc = read_checkpoint(d, type, &c);
	}
	return rc;
}

/* Pass 2's read of a chunk the first pass noted whole: its wanted events alone, where they stand. */
static int read_wanted(jfr_decoder *d, const jfr_chunk_note *n)
{
	int rc = 0;
	tell(d, d->chunk.p);
	for (size_t i = n->first; i < n->first + n->n && rc == 0; i++) {
		const unsigned char *p = d->chunk.p + d->wanted[i];
		jfr_cur c;
		uint64_t type;
		tell_due(d, p);
		if ((rc = open_event(d, p, &type, &c)) == 0)
			rc = read_event(d, type, &c);
	}
	return rc;
}

/* The per-chunk state of the readers of pass 2 set for the chunk just opened. */
static void begin_chunk(jfr_decoder *d)
{
	jfr_typed_chunk_reset(d);
	jfr_old_chunk_reset(d);
	d->chunk_kept = 0;
}

/*
 * Pass 2's read of the chunk just opened. To keep its other events: its
 * pools, whether it has one to keep, its header then every event. Else its
 * noted checkpoints, then its wanted events as pass 1 noted them, or every
 * event where the notes ran out. The pools of a chunk without a wanted
 * event are read all the same: what is read of a recording, and so what
 * `profdata check` finds wrong in it, does not depend on events=.
 */
static int read_chunk(jfr_decoder *d)
{
	const jfr_chunk_note *n = &d->notes[d->chunk_ix];
	int rc;
	if (d->keep) {
		if ((rc = walk_events(d, read_pools)) == 0 && d->chunk_kept)
			rc = keep_bytes(d, JFR_KEPT_HEADER, d->chunk.p, d->chunk.p + JFR_HEADER_SIZE);
		return rc ? rc : walk_events(d, read_event);
	}
	if ((rc = read_noted_checkpoints(d)) != 0)
		return rc;
	return n->complete ? read_wanted(d, n) : walk_events(d, read_event);
}

/* Pass 2: each chunk's pools, then its events (its header first when it is kept). */
static int read_chunks(jfr_decoder *d)
{
	const unsigned char *p = d->base;
	int rc = 0;
	for (d->chunk_ix = 0; rc == 0 && p < d->base + d->size && d->chunk_ix < d->nchunks; d->chunk_ix++) {
		if ((rc = open_chunk(d, p)) != 0)
			break;
		begin_chunk(d);
		if ((rc = read_chunk(d)) != 0)
			break;
		p += d->h.size;
	}
	end_pass(d);
	return rc;
}

/*
 * Pass 3: the chunks that hold old object samples again, their pools then
 * those events, after every other event: what they name (stacks, threads,
 * classes) is then numbered after what the samples name, in whatever order
 * the chunks come (JFR -> JFR writes its chunk of samples last, and a
 * second round trip must give the same bytes). The chunk pass 2 ended on
 * (where the JDK writes them: at a recording's end) keeps its pools; another
 * is opened again, its metadata compared with the last one read (chunk_ix
 * 0), not the first pass's note.
 */
static int read_old_objects(jfr_decoder *d)
{
	int rc = 0;
	for (size_t i = 0; i < d->old.nchunks && rc == 0; i++) {
		if (d->old.chunks[i] != d->chunk.p) { /* else pass 2 ended on it: its pools stand */
			d->chunk_ix = 0;
			if ((rc = open_chunk(d, d->old.chunks[i])) != 0)
				break;
			jfr_typed_chunk_reset(d);
			jfr_old_chunk_reset(d);
			rc = walk_events(d, read_checkpoint);
		}
		if (rc == 0)
			rc = walk_events(d, jfr_old_event);
	}
	end_pass(d);
	return rc == 0 ? jfr_old_emit(d) : rc;
}

int pd_jfr_decode(const pd_decode_args *a)
{
	jfr_decoder d;
	pd_intern text;
	int rc;
	memset(&d, 0, sizeof d);
	memset(&text, 0, sizeof text);
	d.a = a;
	d.in = a->in;
	long long others = 1; /* other_events=0: a model that nobody will write as JFR need not hold them */
	if (pd_options_int(a->opts, "other_events", 1, 0, 1, &others, pd_in_diag(a->in)))
		return PROFDATA_EINVAL;
	d.keep = a->ev->unknown != NULL && others;
	d.noting = 1;
	if ((rc = pd_in_fill_all(d.in, &d.base, &d.size)) == 0 && (d.blob = pd_in_blob(d.in)) != NULL &&
	    pd_blob_data(d.blob) != d.base)
		d.blob = NULL; /* not the input's first byte: nothing to release by offset */
	if (rc == 0 &&
	    (rc = choose_sample_types(&d)) == 0 && (rc = count_chunks(&d)) == 0 && (rc = emit_begin(&d, &text)) == 0 &&
	    (rc = emit_sample_types(&d)) == 0 && (rc = read_chunks(&d)) == 0 && (rc = read_old_objects(&d)) == 0) {
		pd_in_skip(d.in, (size_t)(d.size - d.told));
		rc = PD_EMIT0(a, end);
	}
	if (rc == PROFDATA_ENOMEM && !pd_in_diag(d.in)->has_err)
		rc = pd_in_error(d.in, rc, PD_NO_OFFSET, "out of memory");
	pd_intern_free(&text);
	decoder_free(&d);
	return rc;
}
