/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Waste (profdata/waste.h) in passes over the dump's reachable objects,
 * none of which copies contents: strings, collections and boxes, marking
 * each string's value array in a bitmap; then the primitive arrays the
 * bitmap leaves out; then, for the duplicate strings listed, the
 * references of every object, for a sample of their owners.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/waste_impl.h"
#include "io/pager.h"
#include "util/versioned.h"

#define DEFAULT_LIMIT 20
#define DEFAULT_OWNERS 5

struct profdata_heap_waste {
	pd_heap_head head; /* first: the width it was made at (heap_calls.h) */
	pd_diag diag;
	pd_intern names;
	pd_strbuf text;                /* the listed strings' texts, each NUL-terminated */
	profdata_heap_waste_totals totals;
	profdata_heap_duplicate_string *strings;
	size_t nstrings, *text_off, *owners;
	profdata_heap_duplicate_array *arrays;
	size_t narrays;
	profdata_heap_collection_waste *colls;
	profdata_heap_boxed *boxes;
	size_t ncolls, nboxes;
	uint32_t *coll_name, *box_name, *array_name;   /* names' indexes, until the pointers are set */
	uint8_t *box_type;             /* per box row: the value's basic type */
	size_t limit, max_owners;
};

/* A String in a group, for the owners' pass. */
typedef struct member {
	pd_hnode node;
	uint32_t group;
} member;

/* The work of one search. */
typedef struct scan {
	profdata_heap_waste *w;
	const profdata_heap *h;
	const pd_heap_graph *g;
	const profdata_profile *p;
	pd_waste_class *classes;
	uint8_t *value_bits;           /* per object: a string's value array */
	pd_dup_table strings, arrays;
	pd_dup_sieve sieve;            /* the pass being sieved (strings, then arrays) */
	pd_units a, b;                 /* the string being added; the first copy it is compared with */
	pd_hnode rep_array;            /* the first copy's value array, as the comparison read it */
	const unsigned char *cur;      /* the array being added: its payload, kind byte and length */
	uint64_t cur_len, cur_n;
	unsigned cur_kind;
	member *members;
	size_t nmembers, members_cap;
	/* a duplicate string's value array -> the last group that counted it + 1 (32 bits at either width:
	 * groups stay below PD_DUP_NUMBER, waste_impl.h) */
	pd_map array_group;
	pd_map *box_values;            /* per box row: value -> instances */
} scan;

static const size_t options_sizes[] = { sizeof(profdata_heap_waste_options) };

int profdata_heap_waste_options_init(profdata_heap_waste_options *opts, size_t size)
{
	return pd_versioned_init(opts, size, options_sizes, PROFDATA_HEAP_WASTE_OPTIONS_VERSION);
}

static int nomem(profdata_heap_waste *w)
{
	return pd_diag_error(&w->diag, PROFDATA_ENOMEM, PD_NO_OFFSET, 0, "waste: out of memory");
}

/* Internal class name `internal` in Java form, interned. */
static int java_name(profdata_heap_waste *w, const char *internal, uint32_t *index)
{
	char buf[1024];
	size_t len = profdata_java_name(internal, strlen(internal), buf, sizeof buf);
	if (len >= sizeof buf)
		len = sizeof buf - 1;
	return pd_intern_put(&w->names, buf, len, index) < 0 ? PROFDATA_ENOMEM : 0;
}

static int bit(const uint8_t *bits, pd_hnode i) { return bits[i >> 3] >> (i & 7) & 1; }
static void set_bit(uint8_t *bits, pd_hnode i) { bits[i >> 3] = (uint8_t)(bits[i >> 3] | 1u << (i & 7)); }

/* ---- classes: a result row per collection and box class ---- */

static int class_rows(scan *s)
{
	profdata_heap_waste *w = s->w;
	size_t ncls = s->p->classes.n ? s->p->classes.n : 1;
	w->colls = calloc(ncls, sizeof *w->colls);
	w->boxes = calloc(ncls, sizeof *w->boxes);
	w->coll_name = calloc(ncls, sizeof *w->coll_name);
	w->box_name = calloc(ncls, sizeof *w->box_name);
	w->box_type = calloc(ncls, sizeof *w->box_type);
	s->box_values = calloc(ncls, sizeof *s->box_values);
	if (!w->colls || !w->boxes || !w->coll_name || !w->box_name || !w->box_type || !s->box_values)
		return PROFDATA_ENOMEM;
	for (size_t c = 0; c < s->p->classes.n; c++) {
		pd_waste_class *v = &s->classes[c];
		const char *name = pd_heap_class_name(s->p, c);
		int e = 0;
		if (v->role == PD_WASTE_BOX) {
			v->row = (uint32_t)w->nboxes;
			w->box_type[w->nboxes] = v->type[0];
			e = java_name(w, name, &w->box_name[w->nboxes++]);
		} else if (v->role >= PD_WASTE_MAP) {
			v->row = (uint32_t)w->ncolls;
			e = java_name(w, name, &w->coll_name[w->ncolls++]);
		}
		if (e)
			return e;
	}
	return 0;
}

/* ---- strings ---- */

static int same_string(void *ctx, pd_hnode rep)
{
	scan *s = ctx;
	const pd_waste_class *c = &s->classes[pd_obj_class(s->p, s->g->first + rep)];
	if (pd_waste_string_units(s->h, c, rep, &s->b, &s->rep_array) != 1)
		return 0;
	return s->b.n == s->a.n && (!s->a.n || memcmp(s->a.u, s->b.u, s->a.n * sizeof *s->a.u) == 0);
}

static int add_member(scan *s, pd_hnode node, uint32_t group)
{
	if (pd_grow((void **)&s->members, &s->members_cap, s->nmembers + 1, sizeof *s->members) < 0)
		return PROFDATA_ENOMEM;
	s->members[s->nmembers++] = (member){ node, group };
	return 0;
}

/*
 * The bytes copy `i` (value array `array`, `full` bytes with it) adds to its group: its String, and its array
 * unless a copy of the group counted it already (strings of JDK 6 share arrays). The array's last group is
 * remembered: an array shared by copies of two groups by turns may count twice in one, an edge case of
 * JDK 6 substrings.
 */
static int group_bytes(scan *s, pd_dup_group *gr, uint32_t group, pd_hnode i, pd_hnode array, uint64_t full)
{
	int counted = pd_map_get(&s->array_group, array) == group + 1;
	if (full < gr->first_bytes)
		gr->first_bytes = full;
	gr->count++;
	gr->bytes += counted ? pd_heap_size(s->g, i) : full;
	return counted || pd_map_put(&s->array_group, array, group + 1) == 0 ? add_member(s, i, group) : PROFDATA_ENOMEM;
}

/* The bytes of String local node i with its value array `array`. */
static uint64_t string_bytes(const scan *s, pd_hnode i, pd_hnode array)
{
	return pd_heap_size(s->g, i) + pd_heap_size(s->g, array);
}

/* String local node i, first pass: its bytes counted, its value array marked, its contents sieved. */
static int note_string(scan *s, pd_hnode i, const pd_waste_class *c)
{
	pd_hnode array;
	int e = pd_waste_string_units(s->h, c, i, &s->a, &array);
	if (e <= 0)
		return e;
	s->w->totals.strings++;
	s->w->totals.string_bytes += bit(s->value_bits, array) ? pd_heap_size(s->g, i) : string_bytes(s, i, array);
	set_bit(s->value_bits, array);
	pd_dup_sieve_note(&s->sieve, pd_hash_bytes(s->a.u, s->a.n * sizeof *s->a.u, s->strings.seed), i);
	return 0;
}

/* String local node i, its contents hashed to `hash`, second pass: grouped by its contents. */
static int group_string(scan *s, pd_hnode i, uint64_t hash)
{
	const pd_waste_class *c = &s->classes[pd_obj_class(s->p, s->g->first + i)];
	pd_hnode array;
	uint32_t group;
	int created, e = pd_waste_string_units(s->h, c, i, &s->a, &array);
	if (e <= 0)
		return e;
	e = pd_dup_add(&s->strings, hash, i, same_string, s, &group, &created);
	if (e || group == UINT32_MAX)
		return e;
	pd_dup_group *gr = &s->strings.groups[group];
	if (created) {
		gr->first_bytes = UINT64_MAX;
		gr->count = 0;
		e = group_bytes(s, gr, group, gr->rep, s->rep_array, string_bytes(s, gr->rep, s->rep_array));
	}
	return e ? e : group_bytes(s, gr, group, i, array, string_bytes(s, i, array));
}

/* ---- collections and boxes ---- */

/* A field holding a count (an int, or a long): negative ones are read as 0. */
static uint64_t count_field(const pd_waste_class *c, int k, const unsigned char *d, uint64_t len, unsigned id_size)
{
	uint64_t x = pd_waste_field(c, k, d, len, id_size);
	if (c->type[k] == PROFDATA_TYPE_INT)
		return (int32_t)(uint32_t)x < 0 ? 0 : x;
	return (int64_t)x < 0 ? 0 : x;
}

/* The elements of a collection with `slots` slots. */
static uint64_t collection_size(const pd_waste_class *c, const unsigned char *d, uint64_t len, unsigned id_size,
                                uint64_t slots)
{
	if (c->role != PD_WASTE_DEQUE)
		return count_field(c, 1, d, len, id_size);
	uint64_t head = count_field(c, 1, d, len, id_size), tail = count_field(c, 2, d, len, id_size);
	if (!slots || head >= slots || tail >= slots)
		return 0;
	return tail >= head ? tail - head : slots - head + tail;
}

static void add_collection(scan *s, pd_hnode i, const pd_waste_class *c, const unsigned char *d, uint64_t len)
{
	const pd_heap_graph *g = s->g;
	uint64_t id = pd_waste_field(c, 0, d, len, g->id_size), slots = 0;
	pd_hnode a = id ? pd_heap_local(g, id) : PD_HEAP_NONE;
	if (a < g->n && (pd_obj_kind(s->p, g->first + a) & 3) == PROFDATA_OBJECT_ARRAY)
		slots = s->p->obj_len[g->first + a];
	uint64_t size = collection_size(c, d, len, g->id_size, slots);
	uint64_t used = size < slots ? size : slots;
	profdata_heap_collection_waste *r = &s->w->colls[c->row];
	r->count++;
	r->slots += slots;
	r->used += used;
	if (size == 0) {
		r->empty++;
		r->empty_bytes += pd_heap_size(g, i);
	} else if (size < slots / 4 + (slots % 4 != 0)) {
		r->sparse++;
	} else {
		return;
	}
	r->wasted += (slots - used) * s->p->jvm.ref;
}

static int add_box(scan *s, pd_hnode i, const pd_waste_class *c, const unsigned char *d, uint64_t len)
{
	uint64_t value = pd_waste_field(c, 0, d, len, s->g->id_size), size = pd_heap_size(s->g, i);
	profdata_heap_boxed *r = &s->w->boxes[c->row];
	pd_map *m = &s->box_values[c->row];
	uint32_t n = pd_map_get(m, value);
	r->count++;
	r->bytes += size;
	if (n)
		r->wasted += size;
	else
		r->distinct++;
	return n == UINT32_MAX || pd_map_put(m, value, n + 1) == 0 ? 0 : PROFDATA_ENOMEM;
}

/* The search's view of local node i's class when i is an instance of a class with a role, else NULL. */
static const pd_waste_class *instance_class(const scan *s, pd_hnode i)
{
	size_t m = s->g->first + i;
	uint32_t cls = pd_obj_class(s->p, m);
	if (cls == UINT32_MAX || (pd_obj_kind(s->p, m) & 3) != PROFDATA_OBJECT_INSTANCE)
		return NULL;
	return s->classes[cls].role == PD_WASTE_NONE ? NULL : &s->classes[cls];
}

/* Reachable instance i, when its class is one the search reads. */
static int add_instance(scan *s, pd_hnode i)
{
	size_t m = s->g->first + i;
	const pd_waste_class *c = instance_class(s, i);
	if (!c)
		return 0;
	if (c->role == PD_WASTE_STRING)
		return note_string(s, i, c);
	uint64_t len;
	const unsigned char *d = pd_object_data(s->p, m, &len);
	if (!d)
		return 0;
	pd_pager_touch(s->g->pages, pd_obj_payload(s->p, m));
	if (c->role == PD_WASTE_BOX)
		return add_box(s, i, c, d, len);
	add_collection(s, i, c, d, len);
	return 0;
}

/* ---- primitive arrays ---- */

static int same_array(void *ctx, pd_hnode rep)
{
	scan *s = ctx;
	size_t m = s->g->first + rep;
	uint64_t len;
	const unsigned char *d = pd_object_data(s->p, m, &len);
	return d && pd_obj_kind(s->p, m) == s->cur_kind && s->p->obj_len[m] == s->cur_n && len == s->cur_len &&
	       (!len || memcmp(d, s->cur, len) == 0);
}

/* Array local node i as the current one (its payload, kind and length): 0 when its payload is not in the dump. */
static int set_current(scan *s, pd_hnode i)
{
	size_t m = s->g->first + i;
	s->cur_kind = pd_obj_kind(s->p, m);
	s->cur_n = s->p->obj_len[m];
	s->cur = pd_object_data(s->p, m, &s->cur_len);
	if (s->cur)
		pd_pager_touch(s->g->pages, pd_obj_payload(s->p, m));
	return s->cur != NULL;
}

/* Primitive array local node i, first pass: its contents sieved. */
static void note_array(scan *s, pd_hnode i)
{
	if (!set_current(s, i))
		return;
	/* the element type and the length in the seed: a byte[8] and a long[1] of one content stay apart */
	uint64_t seed = s->arrays.seed ^ pd_hash64((uint64_t)(s->cur_kind >> 2 & 15) << 56 ^ s->cur_n);
	pd_dup_sieve_note(&s->sieve, pd_hash_bytes(s->cur, (size_t)s->cur_len, seed), i);
}

/* Primitive array local node i, its contents hashed to `hash`, second pass: grouped by its contents. */
static int group_array(scan *s, pd_hnode i, uint64_t hash)
{
	uint32_t group;
	int created;
	if (!set_current(s, i))
		return 0;
	int e = pd_dup_add(&s->arrays, hash, i, same_array, s, &group, &created);
	if (e || group == UINT32_MAX)
		return e;
	pd_dup_group *gr = &s->arrays.groups[group];
	if (created)
		gr->first_bytes = gr->bytes = pd_heap_size(s->g, gr->rep);
	gr->count++;
	gr->bytes += pd_heap_size(s->g, i);
	return 0;
}

/* ---- the passes ---- */

/* Whether reachable local node i is a primitive array that is not a string's value. */
static int lone_array(const scan *s, pd_hnode i)
{
	return s->h->num[i] && (pd_obj_kind(s->p, s->g->first + i) & 3) == PROFDATA_OBJECT_PRIM_ARRAY &&
	       !bit(s->value_bits, i);
}

/* How many reachable Strings there are: the strings' sieve needs room for no more. */
static size_t count_strings(const scan *s)
{
	size_t count = 0;
	for (pd_hnode i = 0; i < s->g->n; i++) {
		const pd_waste_class *c = s->h->num[i] ? instance_class(s, i) : NULL;
		count += c && c->role == PD_WASTE_STRING;
	}
	return count;
}

/* The sieved candidates that may have a copy, to the table (group_string or group_array). */
static int group_sieved(scan *s, int (*group)(scan *, pd_hnode, uint64_t))
{
	int e = 0;
	pd_dup_sieve_sift(&s->sieve);
	for (size_t k = 0; k < s->sieve.n && e == 0; k++)
		e = group(s, s->sieve.nodes[k], s->sieve.hashes[k]);
	pd_dup_sieve_free(&s->sieve);
	return e;
}

/* Strings (sieved, then grouped), collections and boxes. */
static int scan_instances(scan *s)
{
	int e = pd_dup_sieve_start(&s->sieve, count_strings(s));
	for (pd_hnode i = 0; i < s->g->n && e == 0; i++)
		if (s->h->num[i])
			e = add_instance(s, i);
	return e ? e : group_sieved(s, group_string);
}

/* The primitive arrays that are no string's value (the strings marked theirs), sieved, then grouped. */
static int scan_arrays(scan *s)
{
	size_t arrays = 0;
	for (pd_hnode i = 0; i < s->g->n; i++)
		arrays += (size_t)lone_array(s, i);
	int e = pd_dup_sieve_start(&s->sieve, arrays);
	for (pd_hnode i = 0; i < s->g->n && e == 0; i++)
		if (lone_array(s, i))
			note_array(s, i);
	return e ? e : group_sieved(s, group_array);
}

static int scan_objects(scan *s)
{
	int e = scan_instances(s);
	return e ? e : scan_arrays(s);
}

/* Owner `node` of listed string k, unless the sample is full or has it; 1 when the sample became full. */
static int add_owner(profdata_heap_waste *w, size_t k, size_t node)
{
	profdata_heap_duplicate_string *x = &w->strings[k];
	size_t *o = w->owners + k * w->max_owners;
	if (x->nowners == w->max_owners)
		return 0;
	for (size_t j = 0; j < x->nowners; j++)
		if (o[j] == node)
			return 0;
	o[x->nowners++] = node;
	return x->nowners == w->max_owners;
}

/* Every reachable node's references, for the objects that refer to the listed strings' copies. */
static int find_owners(profdata_heap_waste *w, scan *s)
{
	pd_map ids;
	memset(&ids, 0, sizeof ids);
	for (size_t k = 0; k < s->nmembers; k++) {
		uint32_t listed = s->strings.groups[s->members[k].group].listed;
		if (listed && pd_map_put(&ids, pd_obj_id(s->p, s->g->first + s->members[k].node), listed) < 0) {
			pd_map_free(&ids);
			return PROFDATA_ENOMEM;
		}
	}
	size_t full = 0;
	for (pd_hnode i = 0; i < s->g->nodes && full < w->nstrings; i++) {
		if (!s->h->num[i])
			continue;
		pd_heap_slots sl;
		pd_heap_slots_of(s->g, i, &sl);
		for (size_t k = 0; k < sl.n; k++) {
			uint64_t id = pd_heap_slot_id(&sl, k);
			uint32_t listed = id ? pd_map_get(&ids, id) : 0;
			if (listed)
				full += (size_t)add_owner(w, listed - 1, pd_heap_node(s->h, i));
		}
	}
	pd_map_free(&ids);
	return 0;
}

/* The text of listed string k, from its first copy. */
static int string_text(profdata_heap_waste *w, scan *s, size_t k, const pd_dup_group *gr)
{
	profdata_heap_duplicate_string *x = &w->strings[k];
	const pd_waste_class *c = &s->classes[pd_obj_class(s->p, s->g->first + gr->rep)];
	pd_hnode array;
	int e = pd_waste_string_units(s->h, c, gr->rep, &s->a, &array);
	if (e < 0)
		return e;
	x->length = s->a.n;
	w->text_off[k] = w->text.n;
	e = pd_waste_utf8(&s->a, PROFDATA_WASTE_TEXT_CHARS, &w->text, &x->truncated);
	return e ? e : pd_strbuf_add(&w->text, "", 1);
}

/* The most wasteful groups of t, `limit` of them, their places in *ranked (the caller frees). */
static int rank(const pd_dup_table *t, size_t limit, uint32_t **ranked, size_t *n,
                uint64_t *groups, uint64_t *copies, uint64_t *wasted)
{
	*ranked = pd_dup_ranked(t);
	if (!*ranked)
		return PROFDATA_ENOMEM;
	*groups = t->n;
	for (size_t k = 0; k < t->n; k++) {
		*copies += t->groups[k].count;
		*wasted += t->groups[k].bytes - t->groups[k].first_bytes;
	}
	*n = t->n < limit ? t->n : limit;
	return 0;
}

static int list_strings(profdata_heap_waste *w, scan *s)
{
	uint32_t *ranked;
	profdata_heap_waste_totals *t = &w->totals;
	int e = rank(&s->strings, w->limit, &ranked, &w->nstrings, &t->string_groups, &t->duplicate_strings,
	             &t->string_wasted);
	if (e)
		return e;
	w->strings = calloc(w->nstrings + 1, sizeof *w->strings);
	w->text_off = calloc(w->nstrings + 1, sizeof *w->text_off);
	w->owners = calloc(w->nstrings * w->max_owners + 1, sizeof *w->owners);
	if (!w->strings || !w->text_off || !w->owners)
		e = PROFDATA_ENOMEM;
	for (size_t k = 0; k < w->nstrings && e == 0; k++) {
		pd_dup_group *gr = &s->strings.groups[ranked[k]];
		gr->listed = (uint32_t)k + 1;
		w->strings[k].count = gr->count;
		w->strings[k].bytes = gr->bytes;
		w->strings[k].wasted = gr->bytes - gr->first_bytes;
		w->strings[k].node = pd_heap_node(s->h, gr->rep);
		e = string_text(w, s, k, gr);
	}
	free(ranked);
	return e ? e : find_owners(w, s);
}

static int list_arrays(profdata_heap_waste *w, scan *s)
{
	uint32_t *ranked;
	profdata_heap_waste_totals *t = &w->totals;
	int e = rank(&s->arrays, w->limit, &ranked, &w->narrays, &t->array_groups, &t->duplicate_arrays,
	             &t->array_wasted);
	if (e)
		return e;
	w->arrays = calloc(w->narrays + 1, sizeof *w->arrays);
	w->array_name = calloc(w->narrays + 1, sizeof *w->array_name);
	if (!w->arrays || !w->array_name)
		e = PROFDATA_ENOMEM;
	for (size_t k = 0; k < w->narrays && e == 0; k++) {
		const pd_dup_group *gr = &s->arrays.groups[ranked[k]];
		size_t m = s->g->first + gr->rep;
		w->arrays[k].length = s->p->obj_len[m];
		w->arrays[k].count = gr->count;
		w->arrays[k].bytes = gr->bytes;
		w->arrays[k].wasted = gr->bytes - gr->first_bytes;
		w->arrays[k].node = pd_heap_node(s->h, gr->rep);
		e = java_name(w, pd_jvm_array_internal_name((int)(pd_obj_kind(s->p, m) >> 2 & 15)), &w->array_name[k]);
	}
	free(ranked);
	return e;
}

/* A box's value of basic type `type` (its bits in x) in decimal. */
static void box_text(char *buf, size_t cap, int type, uint64_t x)
{
	if (type == PROFDATA_TYPE_FLOAT || type == PROFDATA_TYPE_DOUBLE) {
		float f;
		double d;
		uint32_t x32 = (uint32_t)x;
		if (type == PROFDATA_TYPE_FLOAT)
			memcpy(&f, &x32, sizeof f), d = f;
		else
			memcpy(&d, &x, sizeof d);
		snprintf(buf, cap, type == PROFDATA_TYPE_FLOAT ? "%.9g" : "%.17g", d);
	} else if (type == PROFDATA_TYPE_BOOLEAN) {
		snprintf(buf, cap, "%s", x ? "true" : "false");
	} else if (type == PROFDATA_TYPE_CHAR) {
		snprintf(buf, cap, "%u", (unsigned)(x & 0xffff));
	} else {
		unsigned bits = pd_jvm_type_size(type, 8) * 8;
		int64_t v = bits < 64 && (x >> (bits - 1) & 1) ? (int64_t)(x | ~(((uint64_t)1 << bits) - 1)) : (int64_t)x;
		snprintf(buf, cap, "%lld", (long long)v);
	}
}

/* Each box class's most repeated value (ties: the lowest bits). */
static void box_tops(profdata_heap_waste *w, const scan *s)
{
	for (size_t r = 0; r < w->nboxes; r++) {
		const pd_map *m = &s->box_values[r];
		uint64_t best = 0;
		uint32_t n = 0;
		for (size_t j = 0; j < m->cap; j++)
			if (m->vals[j] > n || (m->vals[j] && m->vals[j] == n && m->keys[j] < best)) {
				n = m->vals[j];
				best = m->keys[j];
			}
		w->boxes[r].top_count = n;
		if (n)
			box_text(w->boxes[r].top_value, sizeof w->boxes[r].top_value, w->box_type[r], best);
	}
}

static int colls_by_waste(const void *a, const void *b)
{
	const profdata_heap_collection_waste *x = a, *y = b;
	uint64_t wx = x->wasted + x->empty_bytes, wy = y->wasted + y->empty_bytes;
	if (wx != wy)
		return wx > wy ? -1 : 1;
	return strcmp(x->class_name, y->class_name);
}

static int boxes_by_waste(const void *a, const void *b)
{
	const profdata_heap_boxed *x = a, *y = b;
	if (x->wasted != y->wasted)
		return x->wasted > y->wasted ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->class_name, y->class_name);
}

/* Names and texts become pointers (nothing grows any more); classes without instances go; rows sorted. */
static void finish(profdata_heap_waste *w)
{
	profdata_heap_waste_totals *t = &w->totals;
	size_t kept = 0;
	for (size_t r = 0; r < w->ncolls; r++) {
		w->colls[r].class_name = pd_intern_str(&w->names, w->coll_name[r], NULL);
		t->collection_wasted += w->colls[r].wasted;
		t->empty_collection_bytes += w->colls[r].empty_bytes;
		if (w->colls[r].count)
			w->colls[kept++] = w->colls[r];
	}
	w->ncolls = kept;
	kept = 0;
	for (size_t r = 0; r < w->nboxes; r++) {
		w->boxes[r].class_name = pd_intern_str(&w->names, w->box_name[r], NULL);
		t->boxed_count += w->boxes[r].count;
		t->boxed_bytes += w->boxes[r].bytes;
		t->boxed_wasted += w->boxes[r].wasted;
		if (w->boxes[r].count)
			w->boxes[kept++] = w->boxes[r];
	}
	w->nboxes = kept;
	if (w->ncolls)
		qsort(w->colls, w->ncolls, sizeof *w->colls, colls_by_waste);
	if (w->nboxes)
		qsort(w->boxes, w->nboxes, sizeof *w->boxes, boxes_by_waste);
	for (size_t k = 0; k < w->nstrings; k++) {
		w->strings[k].text = w->text.p + w->text_off[k];
		w->strings[k].owners = w->owners + k * w->max_owners;
	}
	for (size_t k = 0; k < w->narrays; k++)
		w->arrays[k].class_name = pd_intern_str(&w->names, w->array_name[k], NULL);
}

static int scan_start(scan *s, profdata_heap_waste *w, profdata_heap *h)
{
	memset(s, 0, sizeof *s);
	s->w = w;
	s->h = h;
	s->g = &h->g;
	s->p = h->g.p;
	s->strings.seed = pd_hash_seed(&s->strings);
	s->arrays.seed = pd_hash_seed(&s->arrays);
	s->value_bits = calloc(s->g->n / 8 + 1, 1);
	if (!s->value_bits || pd_waste_classes(s->p, s->g->id_size, &s->classes) < 0)
		return PROFDATA_ENOMEM;
	return class_rows(s);
}

static void scan_free(scan *s)
{
	for (size_t r = 0; s->box_values && r < s->w->nboxes; r++)
		pd_map_free(&s->box_values[r]);
	pd_dup_free(&s->strings);
	pd_dup_free(&s->arrays);
	pd_dup_sieve_free(&s->sieve);
	pd_map_free(&s->array_group);
	PD_FREE_ALL(s->classes, s->value_bits, s->a.u, s->b.u, s->members, s->box_values);
}

static int search(profdata_heap_waste *w, profdata_heap *h)
{
	scan s;
	int e = scan_start(&s, w, h);
	if (e == 0)
		e = scan_objects(&s);
	if (e == 0)
		e = list_strings(w, &s);
	if (e == 0)
		e = list_arrays(w, &s);
	if (e == 0)
		box_tops(w, &s);
	pd_pager_release(h->g.pages);
	scan_free(&s);
	return e;
}

/* The caller's options as this library's version (defaults for NULL and zeros), checked. */
static int adopt_options(profdata_heap_waste *w, const profdata_heap_waste_options *opts)
{
	static const profdata_heap_waste_options defaults = PROFDATA_HEAP_WASTE_OPTIONS_INIT;
	profdata_heap_waste_options o = defaults;
	if (opts && pd_versioned_adopt(&o, opts, options_sizes, PROFDATA_HEAP_WASTE_OPTIONS_VERSION) < 0)
		return pd_diag_error(&w->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "waste options of version %u (this library has %d)", opts->version,
		                     PROFDATA_HEAP_WASTE_OPTIONS_VERSION);
	w->limit = o.limit ? o.limit : DEFAULT_LIMIT;
	w->max_owners = o.owners ? o.owners : DEFAULT_OWNERS;
	size_t most = SIZE_MAX / 2 / sizeof *w->owners; /* owners' slots in all (limit + 1 groups' worth) */
	if (w->limit >= most || w->max_owners > most / (w->limit + 1))
		return pd_diag_error(&w->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "waste: %zu owners for each of %zu strings do not fit in memory", w->max_owners,
		                     w->limit);
	return 0;
}

int profdata_heap_waste_new(profdata_heap_waste **out, profdata_heap *h, const profdata_heap_waste_options *opts)
{
	profdata_heap_waste *w = *out = calloc(1, sizeof *w);
	if (!w)
		return PROFDATA_ENOMEM;
	w->head.width = PD_HEAP_WIDTH;
	pd_diag_init(&w->diag, "waste");
	int e = adopt_options(w, opts);
	if (e == 0 && !h->num)
		e = pd_diag_error(&w->diag, PROFDATA_EINVAL, PD_NO_OFFSET, 0, "waste: the heap analysis failed");
	if (e == 0) {
		w->totals.reachable_bytes = h->reachable_bytes;
		e = search(w, h);
		if (e == PROFDATA_ENOMEM)
			e = nomem(w);
	}
	if (e == 0)
		finish(w);
	return e;
}

const profdata_error *profdata_heap_waste_error(const profdata_heap_waste *w) { return pd_diag_last(&w->diag); }
const profdata_heap_waste_totals *profdata_heap_waste_totals_of(const profdata_heap_waste *w) { return &w->totals; }

const profdata_heap_duplicate_string *profdata_heap_waste_strings(const profdata_heap_waste *w, size_t *n)
{
	*n = w->nstrings;
	return w->strings;
}

const profdata_heap_duplicate_array *profdata_heap_waste_arrays(const profdata_heap_waste *w, size_t *n)
{
	*n = w->narrays;
	return w->arrays;
}

const profdata_heap_collection_waste *profdata_heap_waste_collections(const profdata_heap_waste *w, size_t *n)
{
	*n = w->ncolls;
	return w->colls;
}

const profdata_heap_boxed *profdata_heap_waste_boxed(const profdata_heap_waste *w, size_t *n)
{
	*n = w->nboxes;
	return w->boxes;
}

void profdata_heap_waste_free(profdata_heap_waste *w)
{
	if (!w)
		return;
	pd_intern_free(&w->names);
	pd_diag_free(&w->diag);
	PD_FREE_ALL(w->text.p, w->strings, w->text_off, w->owners, w->arrays, w->colls, w->boxes, w->coll_name,
	            w->box_name, w->array_name, w->box_type, w);
}
