/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where refs_to_payloads puts an instance's references in its payload.
 * Binary HPROF lays an instance out as its class's own fields, then its
 * superclass's, and so on up: each class dump declares only its own.
 *
 * - A class whose class dump gives instance fields (hprof-text's: every
 *   reference field its instances list, inherited ones included, slot i
 *   named by field i) declares those its superclasses' layouts lack; the
 *   others are found in the superclasses', by name and occurrence (the
 *   second "name" of a class is its superclasses' second "name"). The text
 *   does not say which class declares a field: a field only a subclass's
 *   instances show non-null is declared by that subclass.
 * - Any other class (IBM classic's) declares "ref0", "ref1", ... as many
 *   as its largest instance lists references, slot i in field i.
 *
 * A class keeps the layout of the first dump that lays it out.
 */
#include <stdlib.h>
#include <string.h>

#include "transform/refs_to_payloads.h"

/* Deeper than this, a chain of superclasses is a cycle or hostile: no JVM loads one. */
#define MAX_DEPTH 1024
/* More fields of one name in one class than this: the same. */
#define MAX_REPEATS 64
/* Occurrence keys of given names, apart from those of own fields. */
#define GIVEN_KEY UINT32_C(0x80000000)

int pd_refs_take_given(class_plan *k, const profdata_class_dump *c)
{
	if (k->laid || !c->fields || !c->nfields)
		return 0;
	free(k->given);
	k->ngiven = 0;
	if (!(k->given = malloc(c->nfields * sizeof *k->given)))
		return -1;
	for (size_t i = 0; i < c->nfields; i++)
		k->given[i] = c->fields[i].name_id;
	k->ngiven = c->nfields;
	return 0;
}

static size_t plan_index(const payload_filter *s, const class_plan *k)
{
	return (size_t)(k - s->cls);
}

/* The superclass's plan, as this dump's class dump names it; NULL when none is known. */
static class_plan *super_plan(payload_filter *s, const class_plan *k)
{
	uint32_t v = k->cd.super_id ? pd_map_get(&s->cls_ix, k->cd.super_id) : 0;
	return v && &s->cls[v - 1] != k ? &s->cls[v - 1] : NULL;
}

/* Key {plan, occurrence, name}: 1 when it was there (its entry in *ix), 0 added, < 0 out of memory. */
static int field_key(payload_filter *s, size_t plan, uint32_t occ, uint64_t name, int add, uint32_t *ix)
{
	unsigned char key[16];
	uint32_t p = (uint32_t)plan;
	memcpy(key, &p, 4);
	memcpy(key + 4, &occ, 4);
	memcpy(key + 8, &name, 8);
	if (!add)
		return pd_intern_find(&s->field_keys, (const char *)key, sizeof key, ix);
	return pd_intern_add(&s->field_keys, (const char *)key, sizeof key, ix);
}

/* Where the occ-th field named `name` of super's layout is: 1 and *pos, or 0. */
static int inherited_field(payload_filter *s, class_plan *super, uint32_t occ, uint64_t name, size_t *pos)
{
	size_t base = 0;
	uint32_t ix;
	for (int depth = 0; super && depth < MAX_DEPTH; depth++, super = super_plan(s, super)) {
		if (super->laid == 2 && field_key(s, plan_index(s, super), occ, name, 0, &ix)) {
			*pos = base + s->key_pos[ix];
			return 1;
		}
		base += super->nown;
	}
	return 0;
}

/* Which occurrence of its name given field i of k is. */
static int occurrence(payload_filter *s, class_plan *k, size_t i, uint32_t *occ)
{
	uint32_t ix;
	for (*occ = 0; *occ < MAX_REPEATS; (*occ)++) {
		int rc = field_key(s, plan_index(s, k), GIVEN_KEY | *occ, k->given[i], 1, &ix);
		if (rc <= 0)
			return rc < 0 ? pd_refs_out_of_memory(s) : 0;
	}
	return pd_diag_error(s->base.diag, PROFDATA_ELIMIT, PD_NO_OFFSET, 0,
	                     "class 0x%llx names one instance field more than %d times",
	                     (unsigned long long)k->id, MAX_REPEATS);
}

/* Own field `name` (the occ-th of its name) of k: declared, and found by its subclasses. */
static int declare(payload_filter *s, class_plan *k, uint32_t occ, uint64_t name)
{
	uint32_t ix;
	int rc = field_key(s, plan_index(s, k), occ, name, 1, &ix);
	if (rc < 0 || pd_grow((void **)&s->key_pos, &s->key_pos_cap, (size_t)ix + 1, sizeof *s->key_pos) < 0)
		return pd_refs_out_of_memory(s);
	s->key_pos[ix] = (uint32_t)k->nown;
	k->own[k->nown++] = name;
	return 0;
}

/* k's given fields: each its superclasses' or its own; to_payload says where each slot goes. */
static int lay_out_given(payload_filter *s, class_plan *k, class_plan *super)
{
	size_t pos;
	uint32_t occ;
	int rc;
	if (!(k->own = malloc(k->ngiven * sizeof *k->own)) || !(k->to_payload = malloc(k->ngiven * sizeof *k->to_payload)))
		return pd_refs_out_of_memory(s);
	for (size_t i = 0; i < k->ngiven; i++) {
		if ((rc = occurrence(s, k, i, &occ)) != 0)
			return rc;
		if (inherited_field(s, super, occ, k->given[i], &pos)) {
			k->to_payload[i] = GIVEN_KEY | (uint32_t)pos; /* settled below, once nown is known */
			continue;
		}
		k->to_payload[i] = (uint32_t)k->nown;
		if ((rc = declare(s, k, occ, k->given[i])) != 0)
			return rc;
	}
	for (size_t i = 0; i < k->ngiven; i++)
		if (k->to_payload[i] & GIVEN_KEY)
			k->to_payload[i] = (uint32_t)k->nown + (k->to_payload[i] & ~GIVEN_KEY);
	k->nslots = k->ngiven;
	return 0;
}

static int lay_out_one(payload_filter *s, class_plan *k, class_plan *super)
{
	int rc;
	k->nown = k->nslots = 0;
	if (!k->is_array && k->ngiven) {
		if ((rc = lay_out_given(s, k, super)) != 0)
			return rc;
	} else if (!k->is_array) {
		k->nown = k->nslots = k->want;
	}
	k->npay = k->is_array ? 0 : k->nown + (super ? super->npay : 0);
	k->laid = 2;
	return 0;
}

/* k and the superclasses not laid out yet, from the top down. */
static int lay_out_chain(payload_filter *s, class_plan *k)
{
	size_t n = 0;
	for (class_plan *c = k; c && c->laid != 2; c = super_plan(s, c)) {
		if (c->laid == 1 || n == MAX_DEPTH)
			return pd_diag_error(s->base.diag, PROFDATA_EFORMAT, PD_NO_OFFSET, 0,
			                     "class 0x%llx: its superclasses form a cycle or a chain deeper than %d",
			                     (unsigned long long)k->id, MAX_DEPTH);
		if (pd_grow((void **)&s->chain, &s->chain_cap, n + 1, sizeof *s->chain) < 0)
			return pd_refs_out_of_memory(s);
		c->laid = 1;
		s->chain[n++] = (uint32_t)plan_index(s, c);
	}
	while (n > 0) {
		class_plan *c = &s->cls[s->chain[--n]];
		int rc = lay_out_one(s, c, super_plan(s, c));
		if (rc != 0)
			return rc;
	}
	return 0;
}

int pd_refs_lay_out(payload_filter *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->ncls && rc == 0; i++)
		if (s->cls[i].laid != 2)
			rc = lay_out_chain(s, &s->cls[i]);
	return rc;
}

void pd_refs_layout_free(payload_filter *s)
{
	for (size_t i = 0; i < s->ncls; i++)
		PD_FREE_ALL(s->cls[i].given, s->cls[i].own, s->cls[i].to_payload);
	pd_intern_free(&s->field_keys);
	PD_FREE_ALL(s->key_pos, s->chain);
}
