/*
 * Folded stacks, the input of flamegraph.pl and speedscope (export only):
 *
 *   root;caller;leaf COUNT
 *
 * one line per distinct call chain, the counts of identical chains summed,
 * lines in order of the chain's first sample. A frame is named by its
 * function (Java frames as package.Class.method), else by its PC in hex as
 * stored ("0x4005d0"), else "[unknown]". See doc/formats-folded.md.
 *
 * Class loads may come after the stacks that use them (the model replays
 * them later), so everything is collected and the text written at finish.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/hashmap.h"

extern const struct profdata_format pd_format_folded;

/* ---- collected events ---- */

typedef struct fd_fn {
	uint64_t name_id;
	uint32_t class_serial;
} fd_fn;

typedef struct fd_frame {
	uint64_t function_id;
	uint64_t address;
	int has_address;
	size_t name_off, name_len; /* rendered at finish */
} fd_frame;

typedef struct fd_stack {
	size_t off, n;             /* frame indexes in fd->stack_frames */
	int64_t count;
	int seen;                  /* has samples */
} fd_stack;

typedef struct fd_line {
	uint64_t hash;
	size_t off, len;           /* chain text in lines_text */
	int64_t count;
} fd_line;

typedef struct fd_enc {
	profdata_writer *w;
	pd_map str_map;
	struct { size_t off, len; } *strs;
	size_t nstr, str_cap;
	pd_strbuf arena;
	pd_map class_map;
	uint64_t *class_names;
	size_t nclasses, classes_cap;
	pd_map fn_map;
	fd_fn *fns;
	size_t nfns, fns_cap;
	pd_map frame_map;
	fd_frame *frames;
	size_t nframes, frames_cap;
	pd_map stack_map;
	fd_stack *stacks;
	size_t nstacks, stacks_cap;
	uint32_t *stack_frames;    /* frame index + 1, or 0 for an unknown frame id */
	size_t stack_frames_n, stack_frames_cap;
	uint32_t *order;           /* stack indexes in order of first sample */
	size_t norder, order_cap;
	uint64_t *type_ids;
	size_t ntypes, types_cap;
	int count_index;           /* -1 not yet resolved */
	int failed, finished;
} fd_enc;

static int fd_oom(fd_enc *e)
{
	e->failed = PROFDATA_ENOMEM;
	return pd_out_error(e->w, PROFDATA_ENOMEM, "folded: out of memory");
}

static const char *fd_str(const fd_enc *e, uint64_t id, size_t *len)
{
	uint32_t k = id ? pd_map_get(&e->str_map, id) : 0;
	if (!k) {
		*len = 0;
		return NULL;
	}
	*len = e->strs[k - 1].len;
	return e->arena.p + e->strs[k - 1].off;
}

static int fd_str_is(const fd_enc *e, uint64_t id, const char *s)
{
	size_t len;
	const char *t = fd_str(e, id, &len);
	return t && len == strlen(s) && memcmp(t, s, len) == 0;
}

static int fd_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	fd_enc *e = payload;
	if (pd_grow((void **)&e->strs, &e->str_cap, e->nstr + 1, sizeof *e->strs))
		return fd_oom(e);
	e->strs[e->nstr].off = e->arena.n;
	e->strs[e->nstr].len = len;
	if (pd_strbuf_add(&e->arena, utf8, len) || pd_map_put(&e->str_map, id, (uint32_t)(e->nstr + 1)))
		return fd_oom(e);
	e->nstr++;
	return 0;
}

static int fd_class_load(void *payload, const profdata_class_load *c)
{
	fd_enc *e = payload;
	if (!c->serial || pd_map_get(&e->class_map, c->serial))
		return 0;
	if (pd_grow((void **)&e->class_names, &e->classes_cap, e->nclasses + 1, sizeof *e->class_names))
		return fd_oom(e);
	e->class_names[e->nclasses++] = c->name_id;
	return pd_map_put(&e->class_map, c->serial, (uint32_t)e->nclasses) ? fd_oom(e) : 0;
}

static int fd_function(void *payload, const profdata_function *f)
{
	fd_enc *e = payload;
	if (pd_grow((void **)&e->fns, &e->fns_cap, e->nfns + 1, sizeof *e->fns))
		return fd_oom(e);
	e->fns[e->nfns].name_id = f->name_id;
	e->fns[e->nfns].class_serial = f->class_serial;
	e->nfns++;
	return pd_map_put(&e->fn_map, f->id, (uint32_t)e->nfns) ? fd_oom(e) : 0;
}

static int fd_frame_ev(void *payload, const profdata_frame *f)
{
	fd_enc *e = payload;
	fd_frame *fr;
	if (pd_grow((void **)&e->frames, &e->frames_cap, e->nframes + 1, sizeof *e->frames))
		return fd_oom(e);
	fr = &e->frames[e->nframes++];
	memset(fr, 0, sizeof *fr);
	fr->function_id = f->function_id;
	fr->address = f->address;
	fr->has_address = f->has_address;
	return pd_map_put(&e->frame_map, f->id, (uint32_t)e->nframes) ? fd_oom(e) : 0;
}

static int fd_stack_ev(void *payload, const profdata_stack *s)
{
	fd_enc *e = payload;
	size_t i;
	fd_stack *st;
	if (pd_grow((void **)&e->stacks, &e->stacks_cap, e->nstacks + 1, sizeof *e->stacks) ||
	    pd_grow((void **)&e->stack_frames, &e->stack_frames_cap, e->stack_frames_n + s->nframes + 1,
	            sizeof *e->stack_frames))
		return fd_oom(e);
	for (i = 0; i < s->nframes; i++)
		e->stack_frames[e->stack_frames_n + i] = pd_map_get(&e->frame_map, s->frame_ids[i]);
	st = &e->stacks[e->nstacks++];
	st->off = e->stack_frames_n;
	st->n = s->nframes;
	st->count = 0;
	st->seen = 0;
	e->stack_frames_n += s->nframes;
	return pd_map_put(&e->stack_map, s->serial, (uint32_t)e->nstacks) ? fd_oom(e) : 0;
}

static int fd_sample_type(void *payload, const profdata_sample_type *t)
{
	fd_enc *e = payload;
	if (pd_grow((void **)&e->type_ids, &e->types_cap, 2 * (e->ntypes + 1), sizeof *e->type_ids))
		return fd_oom(e);
	e->type_ids[2 * e->ntypes] = t->type_id;
	e->type_ids[2 * e->ntypes + 1] = t->unit_id;
	e->ntypes++;
	return 0;
}

static int fd_sample(void *payload, const profdata_sample *s)
{
	fd_enc *e = payload;
	uint32_t k;
	fd_stack *st;
	int64_t count;
	if (e->count_index < 0) {
		size_t i;
		e->count_index = 0;
		for (i = 0; i < e->ntypes; i++) {
			if (fd_str_is(e, e->type_ids[2 * i], "samples") && fd_str_is(e, e->type_ids[2 * i + 1], "count")) {
				e->count_index = (int)i;
				break;
			}
		}
	}
	k = pd_map_get(&e->stack_map, s->stack_serial);
	if (!k) {
		e->failed = PROFDATA_EINVAL;
		return pd_out_error(e->w, PROFDATA_EINVAL,
		                    "folded: a sample refers to stack %" PRIu32 " that no stack event defined",
		                    s->stack_serial);
	}
	count = (size_t)e->count_index < s->nvalues ? s->values[e->count_index] : (s->nvalues ? 0 : 1);
	st = &e->stacks[k - 1];
	if (!st->seen) {
		st->seen = 1;
		if (pd_grow((void **)&e->order, &e->order_cap, e->norder + 1, sizeof *e->order))
			return fd_oom(e);
		e->order[e->norder++] = k - 1;
	}
	st->count = (int64_t)((uint64_t)st->count + (uint64_t)count);
	return 0;
}

/* Append s to b with the characters that would break the format replaced. */
static int fd_add_clean(pd_strbuf *b, const char *s, size_t n)
{
	size_t start = b->n, i;
	if (pd_strbuf_add(b, s, n))
		return PROFDATA_ENOMEM;
	for (i = start; i < b->n; i++)
		if (b->p[i] == ';' || b->p[i] == '\n' || b->p[i] == '\r')
			b->p[i] = '_';
	return 0;
}

/* Render frame i's name into names. */
static int fd_render_frame(fd_enc *e, fd_frame *fr, pd_strbuf *names)
{
	uint32_t fk = fr->function_id ? pd_map_get(&e->fn_map, fr->function_id) : 0;
	size_t len;
	const char *name = fk ? fd_str(e, e->fns[fk - 1].name_id, &len) : NULL;
	char num[32];
	fr->name_off = names->n;
	if (name && len) {
		uint32_t ck = e->fns[fk - 1].class_serial ? pd_map_get(&e->class_map, e->fns[fk - 1].class_serial) : 0;
		size_t clen;
		const char *cname = ck ? fd_str(e, e->class_names[ck - 1], &clen) : NULL;
		if (cname && clen) {
			char small[256];
			size_t need = profdata_java_name(cname, clen, small, sizeof small);
			int rc;
			if (need < sizeof small) {
				rc = fd_add_clean(names, small, need);
			} else {
				char *big = malloc(need + 1);
				if (!big)
					return PROFDATA_ENOMEM;
				profdata_java_name(cname, clen, big, need + 1);
				rc = fd_add_clean(names, big, need);
				free(big);
			}
			if (rc || pd_strbuf_add(names, ".", 1))
				return PROFDATA_ENOMEM;
		}
		if (fd_add_clean(names, name, len))
			return PROFDATA_ENOMEM;
	} else if (fr->has_address) {
		snprintf(num, sizeof num, "0x%" PRIx64, fr->address);
		if (pd_strbuf_add(names, num, strlen(num)))
			return PROFDATA_ENOMEM;
	} else if (pd_strbuf_add(names, "[unknown]", 9)) {
		return PROFDATA_ENOMEM;
	}
	fr->name_len = names->n - fr->name_off;
	return 0;
}

static uint64_t fd_hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int fd_finish(void *state)
{
	fd_enc *e = state;
	pd_strbuf names = { 0, 0, 0 }, text = { 0, 0, 0 }, out = { 0, 0, 0 };
	fd_line *lines = NULL;
	size_t nlines = 0, lines_cap = 0, i, j, slots_cap = 16;
	uint32_t *slots = NULL;
	int rc = 0;

	if (e->failed)
		return e->failed;
	if (e->finished)
		return 0;
	e->finished = 1;
	for (i = 0; i < e->nframes && rc == 0; i++)
		rc = fd_render_frame(e, &e->frames[i], &names);
	while (slots_cap < 2 * e->norder)
		slots_cap *= 2;
	if (rc == 0 && !(slots = calloc(slots_cap, sizeof *slots)))
		rc = PROFDATA_ENOMEM;
	for (i = 0; i < e->norder && rc == 0; i++) {
		const fd_stack *st = &e->stacks[e->order[i]];
		size_t start = text.n, len;
		uint64_t h;
		for (j = st->n; j-- > 0 && rc == 0;) {
			uint32_t f = e->stack_frames[st->off + j];
			if (j + 1 < st->n)
				rc = pd_strbuf_add(&text, ";", 1);
			if (rc == 0)
				rc = f ? pd_strbuf_add(&text, names.p + e->frames[f - 1].name_off, e->frames[f - 1].name_len)
				       : pd_strbuf_add(&text, "[unknown]", 9);
		}
		if (rc)
			break;
		if (st->n == 0 && (rc = pd_strbuf_add(&text, "[empty]", 7)) != 0)
			break;
		len = text.n - start;
		h = fd_hash_bytes(text.p + start, len);
		j = (size_t)h & (slots_cap - 1);
		while (slots[j]) {
			fd_line *l = &lines[slots[j] - 1];
			if (l->hash == h && l->len == len && memcmp(text.p + l->off, text.p + start, len) == 0)
				break;
			j = (j + 1) & (slots_cap - 1);
		}
		if (slots[j]) {
			fd_line *l = &lines[slots[j] - 1];
			l->count = (int64_t)((uint64_t)l->count + (uint64_t)st->count);
			text.n = start; /* drop the duplicate text */
			continue;
		}
		if (pd_grow((void **)&lines, &lines_cap, nlines + 1, sizeof *lines)) {
			rc = PROFDATA_ENOMEM;
			break;
		}
		lines[nlines].hash = h;
		lines[nlines].off = start;
		lines[nlines].len = len;
		lines[nlines].count = st->count;
		slots[j] = (uint32_t)++nlines;
	}
	for (i = 0; i < nlines && rc == 0; i++) {
		char num[32];
		int n = snprintf(num, sizeof num, " %" PRId64 "\n", lines[i].count);
		rc = pd_strbuf_add(&out, text.p + lines[i].off, lines[i].len);
		if (rc == 0)
			rc = pd_strbuf_add(&out, num, (size_t)n);
		if (rc == 0 && out.n >= (1u << 16)) {
			rc = pd_out_write(e->w, out.p, out.n);
			out.n = 0;
		}
	}
	if (rc == 0 && out.n)
		rc = pd_out_write(e->w, out.p, out.n);
	free(names.p);
	free(text.p);
	free(out.p);
	free(lines);
	free(slots);
	if (rc == PROFDATA_ENOMEM)
		return fd_oom(e);
	if (rc)
		e->failed = rc;
	return rc;
}

static void fd_free(void *state)
{
	fd_enc *e = state;
	if (!e)
		return;
	pd_map_free(&e->str_map);
	free(e->strs);
	free(e->arena.p);
	pd_map_free(&e->class_map);
	free(e->class_names);
	pd_map_free(&e->fn_map);
	free(e->fns);
	pd_map_free(&e->frame_map);
	free(e->frames);
	pd_map_free(&e->stack_map);
	free(e->stacks);
	free(e->stack_frames);
	free(e->order);
	free(e->type_ids);
	free(e);
}

static const pd_encoder_ops fd_ops = {
	{
		PROFDATA_EVENTS_VERSION,
		NULL,           /* begin */
		fd_string,      /* string */
		fd_class_load,  /* class_load */
		NULL,           /* class_unload */
		fd_function,    /* function */
		fd_frame_ev,    /* frame */
		fd_stack_ev,    /* stack */
		NULL,           /* thread_start */
		NULL,           /* thread_end */
		fd_sample_type, /* sample_type */
		NULL,           /* sample_group */
		fd_sample,      /* sample */
		NULL,           /* alloc_sites */
		NULL,           /* heap_summary */
		NULL,           /* control_settings */
		NULL,           /* mapping */
		NULL,           /* dump_begin */
		NULL,           /* heap_info */
		NULL,           /* class_dump */
		NULL,           /* root */
		NULL,           /* object */
		NULL,           /* dump_end */
		NULL,           /* unknown */
		NULL,           /* attachment */
		NULL,           /* trace_event */
		NULL,           /* end */
	},
	fd_finish,
	fd_free,
};

static int fd_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{
	fd_enc *e;
	(void)opts;
	e = calloc(1, sizeof *e);
	if (!e)
		return pd_out_error(w, PROFDATA_ENOMEM, "folded: out of memory");
	e->w = w;
	e->count_index = -1;
	*state = e;
	*ops = &fd_ops;
	return 0;
}

const struct profdata_format pd_format_folded = {
	"folded",
	"folded stacks (flamegraph.pl, speedscope); export only",
	NULL,
	NULL,
	fd_encoder_new,
	NULL,
	NULL,
	NULL,
};
