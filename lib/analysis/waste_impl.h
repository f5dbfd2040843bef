/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The waste search (profdata/waste.h), shared by its files: waste.c (the
 * handle and the passes over the objects), waste_classes.c (which classes
 * are strings, boxes and collections, and where their fields lie),
 * waste_dups.c (grouping objects by contents) and waste_strings.c (a
 * String's characters).
 */
#ifndef PD_ANALYSIS_WASTE_IMPL_H
#define PD_ANALYSIS_WASTE_IMPL_H

#include "analysis/heap_impl.h"
#include "profdata/waste.h"
#include "util/hashmap.h"

/* ---- classes (waste_classes.c) ---- */

enum { PD_WASTE_NONE, PD_WASTE_STRING, PD_WASTE_BOX, PD_WASTE_MAP, PD_WASTE_LIST, PD_WASTE_DEQUE };
/* The fields a role reads, by position: String value, coder, offset, count; a collection's array, its
 * size (a deque: head, then tail); a box's value. */
enum { PD_WASTE_FIELDS = 4 };

typedef struct pd_waste_class {
	uint8_t role;
	uint8_t has[PD_WASTE_FIELDS];     /* 1 when the class has the field */
	uint8_t type[PD_WASTE_FIELDS];    /* its basic type */
	uint32_t off[PD_WASTE_FIELDS];    /* its payload offset */
	uint32_t row;                     /* collections and boxes: their row in the results */
} pd_waste_class;

/* Per class row of p, its role and fields (calloc'd, p->classes.n rows): 0 or PROFDATA_ENOMEM. */
int pd_waste_classes(const profdata_profile *p, unsigned id_size, pd_waste_class **out);

/* Field k of an instance payload as an unsigned number (a reference: its id); 0 when absent or cut. */
uint64_t pd_waste_field(const pd_waste_class *c, int k, const unsigned char *data, uint64_t len, unsigned id_size);

/* ---- groups of equal contents (waste_dups.c) ---- */

typedef struct pd_dup_group {
	pd_hnode rep;                  /* local index of the first copy */
	uint32_t listed;               /* its place among the listed + 1; 0 not listed */
	uint64_t count, bytes;
	uint64_t first_bytes;           /* the bytes of the copy kept: the cheapest (a String with its whole array) */
} pd_dup_group;

/* Whether local node `rep` has the contents the caller is adding. */
typedef int (*pd_dup_same_fn)(void *ctx, pd_hnode rep);

typedef struct pd_dup_table {
	pd_map map;                    /* contents' hash -> first copy + 1, or PD_DUP_GROUP | group */
	pd_dup_group *groups;          /* contents seen twice or more */
	size_t n, cap;
	uint64_t seed;
#if PD_HEAP_WIDTH == 64
	/* pd_map's values are 32 bits, a node here is 64: a first copy's value is its place in firsts + 1. */
	pd_hnode *firsts;
	size_t nfirsts, firsts_cap;
#endif
} pd_dup_table;

/*
 * The top bit of a 32-bit map value: a group's number, not a first copy.
 * At width 32 the nodes' own flag; at 64, where that is bit 63, the map's
 * values are still 32 bits, so first copies and groups each stay below
 * 2^31 there (pd_dup_add fails with PROFDATA_ENOMEM past that).
 */
#if PD_HEAP_WIDTH == 64
#define PD_DUP_GROUP ((uint32_t)1 << 31)
#define PD_DUP_NUMBER (PD_DUP_GROUP - 1)
#else
#define PD_DUP_GROUP PD_HEAP_FLAG
#define PD_DUP_NUMBER PD_HEAP_NUMBER
#endif

/*
 * Add local node i, its contents hashed to `hash` (with t->seed): *group is
 * the group it joins (a new one when it is the second copy: *created 1), or
 * UINT32_MAX for the first copy of its contents. 0 or PROFDATA_ENOMEM.
 */
int pd_dup_add(pd_dup_table *t, uint64_t hash, pd_hnode i, pd_dup_same_fn same, void *ctx, uint32_t *group,
               int *created);
void pd_dup_free(pd_dup_table *t);
/* The groups' indexes by wasted bytes (bytes - first_bytes), most first, ties by rep: the caller frees. */
uint32_t *pd_dup_ranked(const pd_dup_table *t);

/*
 * What comes before the table: most contents of a dump are there once, and
 * a map entry for each cost a 37M-object dump 400 MB and an eighth of its
 * report's time (perf: 12% in pd_dup_add). Pass one notes every
 * candidate's hash and node in order; the sift then marks, per slot of a
 * bitmap indexed by the hash's top bits, whether it was hit once or twice
 * or more, and keeps in order only the candidates whose slot was hit twice:
 * every copy of any contents seen twice (equal contents hash alike), and the
 * few lone contents whose slot another hash shares. Pass two gives the table
 * those. About 16-20 bytes a candidate (a hash and a pd_hnode, 12, and 2
 * bits in each of 16-32 slots; 4 more at width 64), the bitmap freed by
 * the sift and the rest after pass two.
 */
typedef struct pd_dup_sieve {
	uint64_t *hashes;              /* per candidate, in the order noted */
	pd_hnode *nodes;
	size_t n, cap;
	uint8_t *bits;                 /* per slot, 2 bits: hit once, hit twice or more */
	unsigned shift;                /* a hash's slot: hash >> shift */
} pd_dup_sieve;

/* Room for at most `most` candidates: 0 or PROFDATA_ENOMEM. */
int pd_dup_sieve_start(pd_dup_sieve *v, size_t most);
/* Candidate number v->n (fewer than `most`): local node `node`, its contents hashed to `hash`. */
void pd_dup_sieve_note(pd_dup_sieve *v, uint64_t hash, pd_hnode node);
/*
 * After the last note: keep in hashes[0 .. n) and nodes[] only the
 * candidates whose slot was hit twice or more, in the order noted, and free
 * the bitmap.
 */
void pd_dup_sieve_sift(pd_dup_sieve *v);
void pd_dup_sieve_free(pd_dup_sieve *v);

/* ---- a String's characters (waste_strings.c) ---- */

typedef struct pd_units {
	uint16_t *u;
	size_t n, cap;
} pd_units;

/*
 * The UTF-16 units of String local node i (class view c) into *out, and in
 * *array its value array's local index: 1 when read, 0 when the string
 * has no readable contents (no value array in the dump, an unknown
 * layout), PROFDATA_ENOMEM.
 */
int pd_waste_string_units(const profdata_heap *h, const pd_waste_class *c, pd_hnode i, pd_units *out,
                          pd_hnode *array);
/* The first `max_chars` characters of units as UTF-8 (an unpaired surrogate: U+FFFD) onto b; *cut 1 when cut. */
int pd_waste_utf8(const pd_units *units, size_t max_chars, pd_strbuf *b, int *cut);

#endif
