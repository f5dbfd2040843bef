/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What `pprof -top` prints (profdata/top.h; core/top.c derives the samples
 * of a trace first): the samples summed per stack
 * (analysis/stacks.c), then each stack's sum added to its innermost frame's
 * row (flat) and to every row its frames name, once per stack (cum). Rows
 * are keyed by the frames' names as every picture renders them, so top,
 * folded stacks and flame graphs agree on names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "analysis/samples.h"
#include "analysis/stacks.h"
#include "analysis/top.h"
#include "util/hashmap.h"
#include "util/path.h"
#include "util/versioned.h"

struct profdata_top {
	pd_diag diag;
	pd_intern names;               /* row names; entries[i].name points into it once finished */
	profdata_top_entry *entries;
	size_t n;
	int64_t total;
	char *sample_type, *unit;
};

/* The rows while they are summed, by name id. */
typedef struct top_sums {
	int64_t *flat, *cum;
	uint64_t *seen_in;             /* the stack (+ 1) that last added to cum */
	uint32_t *row_of_frame;        /* frame index -> name id */
	size_t nrows;
	/* Calls between rows, key (caller row + 1) << 32 | callee row: EDGE_INLINED while every call it
	 * stands for is an inlined call's frame into the next, EDGE_CALLED once one is not. */
	pd_map edges;
	pd_map edge_seen_in;           /* the same keys: the stack (+ 1) that last noted the call */
} top_sums;

enum { EDGE_INLINED = 1, EDGE_CALLED = 2 };

/* The size of each version of profdata_top_options (util/versioned.h). */
static const size_t options_sizes[] = { sizeof(profdata_top_options) };

int profdata_top_options_init(profdata_top_options *opts, size_t size)
{
	return pd_versioned_init(opts, size, options_sizes, PROFDATA_TOP_OPTIONS_VERSION);
}

static const char *text_of(const profdata_profile *p, uint64_t id)
{
	size_t len;
	const char *s = pd_profile_text(p, id, &len);
	return s ? s : "";
}

/* The sample type called `name` (NULL: the last), as pprof picks it; PROFDATA_ENOTFOUND said in t. */
static int pick_sample_type(profdata_top *t, const profdata_profile *p, const char *name, size_t *index)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES);
	profdata_sample_type st;
	for (size_t i = n; i-- > 0;) {
		profdata_profile_sample_type(p, i, &st);
		if (!name || strcmp(text_of(p, st.type_id), name) == 0) {
			*index = i;
			return 0;
		}
	}
	if (!name) {
		*index = 0;
		return 0;
	}
	pd_strbuf have = { 0 };
	for (size_t i = 0; i < n; i++) {
		profdata_profile_sample_type(p, i, &st);
		const char *s = text_of(p, st.type_id);
		if (pd_strbuf_add(&have, i ? ", " : "", i ? 2 : 0) || pd_strbuf_add(&have, s, strlen(s)))
			break;
	}
	pd_diag_error(&t->diag, PROFDATA_ENOTFOUND, PD_NO_OFFSET, 0, "sample type \"%s\": the profile has %s", name,
	              have.n ? have.p : "none");
	free(have.p);
	return PROFDATA_ENOTFOUND;
}

/*
 * A frame known by its address alone is named by its binary, "[libc.so.6]",
 * as pprof names what it could not symbolize: 1 and the name in b, or 0
 * when it has no function-less address in a mapping with a path.
 */
static int binary_name(const profdata_profile *p, const profdata_frame *fr, int has_function, pd_strbuf *b)
{
	profdata_mapping m;
	if (has_function || !fr->has_address || !fr->mapping || profdata_profile_mapping(p, fr->mapping - 1, &m) != 0)
		return 0;
	const char *path = text_of(p, m.path_id), *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!*base)
		return 0;
	b->n = 0;
	return pd_strbuf_add(b, "[", 1) || pd_strbuf_add(b, base, strlen(base)) || pd_strbuf_add(b, "]", 1)
	               ? PROFDATA_ENOMEM
	               : 1;
}

/* Append the row name of frame `fr` (its rendered name `name`) for `group`. */
static int row_name(const profdata_profile *p, const profdata_frame *fr, const char *name, size_t len, int group,
                    pd_strbuf *b)
{
	profdata_function fn;
	size_t fi;
	const char *file = NULL;
	int has_function = fr->function_id && profdata_profile_find_function(p, fr->function_id, &fi) == 0 &&
	                   profdata_profile_function(p, fi, &fn) == 0 && fn.name_id;
	if (has_function && fn.source_file_id)
		file = text_of(p, fn.source_file_id);
	int rc = binary_name(p, fr, has_function, b);
	if (rc)
		return rc < 0 ? rc : 0;
	b->n = 0;
	/* pprof shows source files cleaned (filepath.Clean): "./malloc/malloc.c" as "malloc/malloc.c". */
	if (group == PROFDATA_TOP_FILES && file && *file)
		return pd_strbuf_add_clean_path(b, file);
	if (pd_strbuf_add(b, name, len))
		return PROFDATA_ENOMEM;
	/* pprof -lines: "name file:line", or "name file" where the line is not known. */
	if (group != PROFDATA_TOP_LINES || ((!file || !*file) && fr->line <= 0))
		return 0;
	char line[24];
	int n = fr->line > 0 ? snprintf(line, sizeof line, ":%" PRId32, fr->line) : 0;
	if (pd_strbuf_add(b, " ", 1) || (file && *file && pd_strbuf_add_clean_path(b, file)) ||
	    pd_strbuf_add(b, line, (size_t)n))
		return PROFDATA_ENOMEM;
	return 0;
}

/* Every frame's row: sums->row_of_frame, the names interned in t->names. */
static int name_rows(profdata_top *t, const profdata_profile *p, int group, top_sums *sums)
{
	pd_frame_names names;
	pd_strbuf b = { 0 };
	int rc = pd_frame_names_render(p, &names);
	sums->row_of_frame = malloc((names.nframes + 1) * sizeof *sums->row_of_frame);
	for (size_t i = 0; rc == 0 && sums->row_of_frame && i < names.nframes; i++) {
		profdata_frame fr;
		size_t len;
		const char *name = pd_frame_name(&names, i, &len);
		profdata_profile_frame(p, i, &fr);
		if ((rc = row_name(p, &fr, name, len, group, &b)) == 0)
			rc = pd_intern_put(&t->names, b.p ? b.p : "", b.n, &sums->row_of_frame[i]) < 0 ? PROFDATA_ENOMEM : 0;
	}
	free(b.p);
	pd_frame_names_free(&names);
	return rc || !sums->row_of_frame ? PROFDATA_ENOMEM : 0;
}

/* The sums of every row the frames name (name ids are dense: one array slot each). */
static int make_sums(top_sums *sums, size_t nrows)
{
	sums->nrows = nrows;
	sums->flat = calloc(nrows + 1, sizeof *sums->flat);
	sums->cum = calloc(nrows + 1, sizeof *sums->cum);
	sums->seen_in = calloc(nrows + 1, sizeof *sums->seen_in);
	return sums->flat && sums->cum && sums->seen_in ? 0 : PROFDATA_ENOMEM;
}

/* An inlined call's frame (lib/transform/symbolize.c): no address of its own, but a mapping. */
static int inlined_call(const profdata_profile *p, size_t fi)
{
	profdata_frame fr;
	profdata_profile_frame(p, fi, &fr);
	return !fr.has_address && fr.mapping;
}

/*
 * The calls of one stack with a non-zero sum, as pprof's graph has them
 * (its -top marks a row whose calls in are all inlined "(inline)", some
 * "(partial-inline)"): from the root, each frame calls the next; a row
 * calling itself is no call, and a call the stack makes again (recursion)
 * counts once, as its first, outermost one.
 */
static int note_calls(const profdata_profile *p, top_sums *sums, size_t si, const profdata_stack *st)
{
	uint32_t caller = UINT32_MAX;
	for (size_t k = st->nframes; k-- > 0;) {
		size_t fi;
		if (profdata_profile_find_frame(p, st->frame_ids[k], &fi) != 0)
			continue;
		uint32_t row = sums->row_of_frame[fi];
		uint64_t key = ((uint64_t)caller + 1) << 32 | row;
		if (caller != UINT32_MAX && row != caller && pd_map_get(&sums->edge_seen_in, key) != (uint32_t)(si + 1)) {
			uint32_t was = pd_map_get(&sums->edges, key);
			uint32_t now = inlined_call(p, fi) && was != EDGE_CALLED ? EDGE_INLINED : EDGE_CALLED;
			if (pd_map_put(&sums->edge_seen_in, key, (uint32_t)si + 1) < 0 ||
			    (now != was && pd_map_put(&sums->edges, key, now) < 0))
				return PROFDATA_ENOMEM;
		}
		caller = row;
	}
	return 0;
}

/* Each row's mark from its calls in: PROFDATA_TOP_INLINED, PROFDATA_TOP_PARTLY_INLINED or 0. */
static void mark_rows(profdata_top *t, const top_sums *sums, unsigned char *mark)
{
	for (size_t j = 0; j < sums->edges.cap; j++)
		if (sums->edges.vals[j])
			mark[(uint32_t)sums->edges.keys[j]] |= sums->edges.vals[j] == EDGE_INLINED ? 1 : 2;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t r = t->entries[i].inlined; /* (the row, until now) */
		t->entries[i].inlined = mark[r] == 1 ? PROFDATA_TOP_INLINED : mark[r] == 3 ? PROFDATA_TOP_PARTLY_INLINED : 0;
	}
}

/* Add one stack's sum `v`: flat to its innermost frame's row, cum to each row it names. */
static void add_stack(const profdata_profile *p, top_sums *sums, size_t si, const profdata_stack *st, int64_t v)
{
	for (size_t k = 0; k < st->nframes; k++) {
		size_t fi;
		if (profdata_profile_find_frame(p, st->frame_ids[k], &fi) != 0)
			continue; /* an unknown frame id: folded calls it "[unknown]", pprof has no row for it */
		uint32_t row = sums->row_of_frame[fi];
		if (k == 0)
			sums->flat[row] = pd_wrapping_add(sums->flat[row], v);
		if (sums->seen_in[row] != si + 1) {
			sums->seen_in[row] = si + 1;
			sums->cum[row] = pd_wrapping_add(sums->cum[row], v);
		}
	}
}

static uint64_t magnitude(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* pprof's order: flat (largest magnitude first), then name, then cum. */
static int by_flat_then_name(const void *a, const void *b)
{
	const profdata_top_entry *x = a, *y = b;
	if (magnitude(x->flat) != magnitude(y->flat))
		return magnitude(x->flat) > magnitude(y->flat) ? -1 : 1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return pd_order_u64(magnitude(y->cum), magnitude(x->cum));
}

/* The rows with something in them, sorted. */
static int collect_rows(profdata_top *t, const top_sums *sums)
{
	t->entries = malloc((sums->nrows + 1) * sizeof *t->entries);
	if (!t->entries)
		return PROFDATA_ENOMEM;
	for (uint32_t r = 0; r < sums->nrows; r++) {
		if (!sums->flat[r] && !sums->cum[r])
			continue;
		size_t len;
		profdata_top_entry *e = &t->entries[t->n++];
		e->name = pd_intern_str(&t->names, r, &len);
		e->flat = sums->flat[r];
		e->cum = sums->cum[r];
		e->inlined = (int)r;
	}
	unsigned char *mark = calloc(sums->nrows + 1, 1);
	if (!mark)
		return PROFDATA_ENOMEM;
	mark_rows(t, sums, mark);
	free(mark);
	qsort(t->entries, t->n, sizeof *t->entries, by_flat_then_name);
	return 0;
}

static int sum_rows(profdata_top *t, const profdata_profile *p, size_t value_index, int group)
{
	pd_stack_sums stacks;
	top_sums sums;
	memset(&sums, 0, sizeof sums);
	memset(&stacks, 0, sizeof stacks);
	int rc = name_rows(t, p, group, &sums);
	if (rc == 0)
		rc = make_sums(&sums, t->names.n);
	if (rc == 0)
		rc = pd_stack_sums_compute(p, value_index, &stacks, &t->diag, "top");
	for (size_t k = 0; rc == 0 && k < stacks.nordered; k++) {
		size_t si = stacks.order[k];
		t->total = pd_wrapping_add(t->total, stacks.value[si]);
		profdata_stack st;
		profdata_profile_stack(p, si, &st);
		add_stack(p, &sums, si, &st, stacks.value[si]);
		if (stacks.value[si] != 0)
			rc = note_calls(p, &sums, si, &st);
	}
	if (rc == 0)
		rc = collect_rows(t, &sums);
	if (rc == PROFDATA_ENOMEM && !t->diag.has_err)
		pd_diag_error(&t->diag, rc, PD_NO_OFFSET, 0, "top: out of memory");
	pd_stack_sums_free(&stacks);
	PD_FREE_ALL(sums.flat, sums.cum, sums.seen_in, sums.row_of_frame);
	pd_map_free(&sums.edges);
	pd_map_free(&sums.edge_seen_in);
	return rc;
}

/* The sample type's name and unit, kept: the profile may go before the top. */
static int keep_sample_type(profdata_top *t, const profdata_profile *p, size_t index)
{
	profdata_sample_type st = { 0, 0 };
	profdata_profile_sample_type(p, index, &st);
	t->sample_type = strdup(text_of(p, st.type_id));
	t->unit = strdup(text_of(p, st.unit_id));
	return t->sample_type && t->unit ? 0 : pd_diag_error(&t->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "top: out of memory");
}

/* The caller's options as this library's version of the struct (defaults for NULL). */
static int adopt_options(profdata_top *t, const profdata_top_options *opts, profdata_top_options *o)
{
	static const profdata_top_options defaults = PROFDATA_TOP_OPTIONS_INIT;
	*o = defaults;
	if (opts && pd_versioned_adopt(o, opts, options_sizes, PROFDATA_TOP_OPTIONS_VERSION) < 0)
		return pd_diag_error(&t->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "top options of version %u (this library has %d)",
		                     opts->version, PROFDATA_TOP_OPTIONS_VERSION);
	if (o->group < PROFDATA_TOP_FUNCTIONS || o->group > PROFDATA_TOP_FILES)
		return pd_diag_error(&t->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "top: no grouping %d", o->group);
	return 0;
}

/* A profile of samples, or EUNSUPPORTED with what it holds instead. */
static int check_samples(profdata_top *t, const profdata_profile *p)
{
	if (profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) > 0)
		return 0;
	if (pd_heap_only(p))
		return pd_diag_error(&t->diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0,
		                     "top: the input holds no samples, only a heap (classes and objects): "
		                     "its biggest objects come from heap analysis");
	return pd_diag_error(&t->diag, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, 0, "top: the input holds no samples");
}

/* A new handle, its diagnostics named "top": NULL for want of memory. */
static profdata_top *top_alloc(void)
{
	profdata_top *t = calloc(1, sizeof *t);
	if (t)
		pd_diag_init(&t->diag, "top");
	return t;
}

int pd_top_fail(profdata_top **out, int code, const char *message)
{
	profdata_top *t = *out = top_alloc();
	if (!t)
		return PROFDATA_ENOMEM;
	return pd_diag_error(&t->diag, code, PD_NO_OFFSET, 0, "%s", message);
}

int pd_top_new(profdata_top **out, const profdata_profile *p, const profdata_top_options *opts)
{
	profdata_top *t = *out = top_alloc();
	if (!t)
		return PROFDATA_ENOMEM;
	size_t index = 0;
	profdata_top_options o;
	int rc = adopt_options(t, opts, &o);
	if (rc == 0)
		rc = check_samples(t, p);
	if (rc == 0)
		rc = pick_sample_type(t, p, o.sample_type, &index);
	if (rc == 0)
		rc = keep_sample_type(t, p, index);
	if (rc == 0)
		rc = sum_rows(t, p, index, o.group);
	return rc;
}

const profdata_error *profdata_top_error(const profdata_top *t) { return pd_diag_last(&t->diag); }
size_t profdata_top_count(const profdata_top *t) { return t->n; }
const profdata_top_entry *profdata_top_entry_at(const profdata_top *t, size_t i) { return i < t->n ? &t->entries[i] : NULL; }
int64_t profdata_top_total(const profdata_top *t) { return t->total; }
const char *profdata_top_sample_type(const profdata_top *t) { return t->sample_type ? t->sample_type : ""; }
const char *profdata_top_unit(const profdata_top *t) { return t->unit ? t->unit : ""; }

void profdata_top_free(profdata_top *t)
{
	if (!t)
		return;
	pd_intern_free(&t->names);
	pd_diag_free(&t->diag);
	PD_FREE_ALL(t->entries, t->sample_type, t->unit, t);
}
