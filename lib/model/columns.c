/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One column of a table into a caller's array (profdata_profile_column(),
 * model.h): the list of columns, and a fill function for each. Plain
 * columns read the model's own arrays where it has them (object ids,
 * classes, kinds) and the public getters otherwise; the list columns
 * (references, frames, values) go through one per-row function, which
 * either counts a row's list (OFFSETS) or writes it (RAGGED).
 */
#include "model/model_impl.h"

#include <stdlib.h>
#include <string.h>

/* Where the elements go: out[0 .. cap) of `type`; n counts every element, written or not. */
typedef struct pd_colsink {
	void *out;
	size_t cap, n;
	int type;
} pd_colsink;

/* Put one value: its bits, signed values sign-extended to 64. */
static void put(pd_colsink *s, uint64_t v)
{
	if (s->n < s->cap) {
		switch (s->type) {
		case PROFDATA_COLUMN_U8: ((uint8_t *)s->out)[s->n] = (uint8_t)v; break;
		case PROFDATA_COLUMN_U32: ((uint32_t *)s->out)[s->n] = (uint32_t)v; break;
		case PROFDATA_COLUMN_I32: ((int32_t *)s->out)[s->n] = (int32_t)(int64_t)v; break;
		case PROFDATA_COLUMN_U64: ((uint64_t *)s->out)[s->n] = v; break;
		default: ((int64_t *)s->out)[s->n] = (int64_t)v; break;
		}
	}
	s->n++;
}

/* A plain column's value of row i. */
typedef uint64_t (*pd_col_value)(const profdata_profile *p, size_t i);
/* A list column's row i: its element count, and with emit its elements put to s; or a negative code. */
typedef long (*pd_col_list)(const profdata_profile *p, size_t i, pd_colsink *s, int emit);

typedef struct pd_column {
	profdata_column pub;
	pd_col_value value; /* PLAIN */
	pd_col_list list;   /* OFFSETS and RAGGED */
} pd_column;

/* A plain column that reads one member of a row getter's struct (0 for a row it does not give). */
#define FIELD(fn, T, getter, expr) \
	static uint64_t fn(const profdata_profile *p, size_t i) \
	{ \
		T r; \
		return getter(p, i, &r) == 0 ? (uint64_t)(expr) : 0; \
	}

FIELD(stack_serial, profdata_stack, profdata_profile_stack, r.serial)
FIELD(stack_thread, profdata_stack, profdata_profile_stack, r.thread_serial)
FIELD(frame_id, profdata_frame, profdata_profile_frame, r.id)
FIELD(frame_line, profdata_frame, profdata_profile_frame, (int64_t)r.line)
FIELD(frame_address, profdata_frame, profdata_profile_frame, r.has_address ? r.address : 0)
FIELD(frame_has_address, profdata_frame, profdata_profile_frame, r.has_address != 0)
FIELD(sample_stack, profdata_sample, profdata_profile_sample, r.stack_serial)
FIELD(sample_thread, profdata_sample, profdata_profile_sample, r.thread_serial)
FIELD(sample_time, profdata_sample, profdata_profile_sample, r.time_ns)

static uint64_t obj_id(const profdata_profile *p, size_t i) { return pd_obj_id(p, i); }

static uint64_t obj_class_index(const profdata_profile *p, size_t i)
{
	uint32_t c = pd_obj_class(p, i);
	return c == UINT32_MAX ? (uint64_t)(int64_t)-1 : c;
}

/* As profdata_profile_object() gives them, without finding the payload. */
static uint64_t obj_class_id(const profdata_profile *p, size_t i)
{
	uint32_t c = pd_obj_class(p, i);
	return c == UINT32_MAX ? 0 : p->classes.v[c].id;
}

static uint64_t obj_length(const profdata_profile *p, size_t i) { return p->obj_len[i]; }
static uint64_t obj_kind(const profdata_profile *p, size_t i) { return pd_obj_kind(p, i) & 3u; }
static uint64_t obj_elem_type(const profdata_profile *p, size_t i) { return (pd_obj_kind(p, i) >> 2) & 15u; }
static uint64_t obj_size(const profdata_profile *p, size_t i) { return profdata_profile_object_size(p, i); }

static uint64_t obj_dump(const profdata_profile *p, size_t i)
{
	uint32_t dump = 0;
	size_t heap;
	profdata_profile_object_place(p, i, &dump, &heap);
	return dump;
}

static long obj_refs(const profdata_profile *p, size_t i, pd_colsink *s, int emit)
{
	uint64_t small[64], *buf = small;
	long n = profdata_profile_object_refs(p, i, 0, emit ? small : NULL, emit ? 64 : 0);
	if (emit && n > 64) {
		if (!(buf = malloc((size_t)n * sizeof *buf)))
			return PROFDATA_ENOMEM;
		n = profdata_profile_object_refs(p, i, 0, buf, (size_t)n);
	}
	for (long k = 0; emit && k < n; k++)
		put(s, buf[k]);
	if (buf != small)
		free(buf);
	return n;
}

static long stack_frames(const profdata_profile *p, size_t i, pd_colsink *s, int emit)
{
	profdata_stack st;
	if (profdata_profile_stack(p, i, &st) != 0)
		return 0;
	for (size_t k = 0; emit && k < st.nframes; k++)
		put(s, st.frame_ids[k]);
	return (long)st.nframes;
}

static uint64_t frame_function_index(const profdata_profile *p, size_t i)
{
	profdata_frame f;
	size_t fi;
	if (profdata_profile_frame(p, i, &f) != 0 || !f.function_id ||
	    profdata_profile_find_function(p, f.function_id, &fi) != 0)
		return (uint64_t)(int64_t)-1;
	return fi;
}

static long sample_values(const profdata_profile *p, size_t i, pd_colsink *s, int emit)
{
	profdata_sample sm;
	if (profdata_profile_sample(p, i, &sm) != 0)
		return 0;
	for (size_t k = 0; emit && k < sm.nvalues; k++)
		put(s, (uint64_t)sm.values[k]);
	return (long)sm.nvalues;
}

#define PLAIN(T, name, type, fn, what) { { PROFDATA_TABLE_##T, name, PROFDATA_COLUMN_##type, \
	PROFDATA_COLUMN_PLAIN, what }, fn, NULL }
#define LIST(T, name, type, fn, what) \
	{ { PROFDATA_TABLE_##T, name "_offsets", PROFDATA_COLUMN_U64, PROFDATA_COLUMN_OFFSETS, \
	    "where each row's " name " start in \"" name "\", and their total" }, NULL, fn }, \
	{ { PROFDATA_TABLE_##T, name, PROFDATA_COLUMN_##type, PROFDATA_COLUMN_RAGGED, what }, NULL, fn }

static const pd_column columns[] = {
	PLAIN(OBJECTS, "id", U64, obj_id, "the object's id"),
	PLAIN(OBJECTS, "class_index", I32, obj_class_index, "its class's row in the classes table; -1 none (primitive arrays)"),
	PLAIN(OBJECTS, "class_id", U64, obj_class_id, "its class's id; 0 none"),
	PLAIN(OBJECTS, "kind", U8, obj_kind, "instance 0, object array 1, primitive array 2"),
	PLAIN(OBJECTS, "elem_type", U8, obj_elem_type, "primitive arrays: the basic type of the elements"),
	PLAIN(OBJECTS, "length", U64, obj_length, "arrays: elements; instances: bytes of field data"),
	PLAIN(OBJECTS, "size", U64, obj_size, "shallow size, as VisualVM counts it"),
	PLAIN(OBJECTS, "dump", U32, obj_dump, "the dump that holds it, from 0"),
	LIST(OBJECTS, "references", U64, obj_refs, "the ids its non-null references point to, in payload order"),
	PLAIN(FRAMES, "id", U64, frame_id, "the frame's id"),
	PLAIN(FRAMES, "function_index", I32, frame_function_index, "its function's row in the functions table; -1 none"),
	PLAIN(FRAMES, "line", I32, frame_line, "a line number or a PROFDATA_LINE_* value"),
	PLAIN(FRAMES, "address", U64, frame_address, "native PC; 0 none"),
	PLAIN(FRAMES, "has_address", U8, frame_has_address, "1 when it has a native PC"),
	PLAIN(STACKS, "serial", U32, stack_serial, "the stack's serial"),
	PLAIN(STACKS, "thread", U32, stack_thread, "its thread's serial; 0 none"),
	LIST(STACKS, "frames", U64, stack_frames, "its frame ids, leaf (most recent call) first"),
	PLAIN(SAMPLES, "stack", U32, sample_stack, "its stack's serial"),
	PLAIN(SAMPLES, "thread", U32, sample_thread, "its thread's serial; 0 none"),
	PLAIN(SAMPLES, "time_ns", U64, sample_time, "when it was taken; 0 none"),
	LIST(SAMPLES, "values", I64, sample_values, "one value per sample type"),
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

size_t profdata_column_count(void)
{
	return NCOLUMNS;
}

const profdata_column *profdata_column_at(size_t i)
{
	return i < NCOLUMNS ? &columns[i].pub : NULL;
}

int profdata_column_find(const profdata_column **out, profdata_table table, const char *name)
{
	for (size_t i = 0; name && i < NCOLUMNS; i++)
		if (columns[i].pub.table == table && strcmp(columns[i].pub.name, name) == 0) {
			*out = &columns[i].pub;
			return 0;
		}
	return PROFDATA_ENOTFOUND;
}

/* Whether elements of type `type` go into an array of `out_type` without loss. */
static int fits(int type, int out_type)
{
	if (type == out_type)
		return 1;
	if (out_type == PROFDATA_COLUMN_U64)
		return type == PROFDATA_COLUMN_U8 || type == PROFDATA_COLUMN_U32;
	return out_type == PROFDATA_COLUMN_I64 && type != PROFDATA_COLUMN_U64;
}

/* The library's column behind a caller's pointer, or NULL. */
static const pd_column *known(const profdata_column *column)
{
	for (size_t i = 0; i < NCOLUMNS; i++)
		if (column == &columns[i].pub)
			return &columns[i];
	return NULL;
}

/* Rows [start, start + n) of column c into s: 0 or a negative code. */
static int fill(const profdata_profile *p, const pd_column *c, size_t start, size_t n, pd_colsink *s)
{
	uint64_t total = 0;
	if (c->pub.shape == PROFDATA_COLUMN_PLAIN) {
		for (size_t i = start; i < start + n; i++)
			put(s, c->value(p, i));
		return 0;
	}
	if (c->pub.shape == PROFDATA_COLUMN_OFFSETS)
		put(s, 0);
	for (size_t i = start; i < start + n; i++) {
		long k = c->list(p, i, s, c->pub.shape == PROFDATA_COLUMN_RAGGED);
		if (k < 0)
			return (int)k;
		total += (uint64_t)k;
		if (c->pub.shape == PROFDATA_COLUMN_OFFSETS)
			put(s, total);
	}
	return 0;
}

int profdata_profile_column(void *out, size_t cap, size_t *count, int out_type, const profdata_profile *p,
                            const profdata_column *column, size_t start, size_t n)
{
	const pd_column *c = known(column);
	pd_colsink s = { out, out ? cap : 0, 0, out_type };
	size_t rows;
	int rc;
	*count = 0;
	if (!c || !fits(c->pub.type, out_type))
		return PROFDATA_EINVAL;
	rows = profdata_profile_count(p, c->pub.table);
	if (start > rows)
		start = rows;
	if (n > rows - start)
		n = rows - start;
	if (!s.cap && c->pub.shape != PROFDATA_COLUMN_RAGGED) {
		/* Asked for the count alone: the rows say it. */
		*count = c->pub.shape == PROFDATA_COLUMN_PLAIN ? n : n + 1;
		return 0;
	}
	rc = fill(p, c, start, n, &s);
	*count = s.n;
	return rc;
}
