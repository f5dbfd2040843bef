/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Instance field names. An OBJ record names each reference it lists: its
 * non-null object fields, inherited ones included, in its class's field
 * order. The text prints no layout and leaves nulls out, so each class
 * gets one here: the names its instances list, in the order first seen. An
 * instance's references are placed at their names' slots, nulls between
 * (trailing nulls left off). Fields come in class order, so an item takes
 * the first slot of its name after the item before it, else the first of
 * its name's slots the OBJ left free, else a new one: a name listed twice
 * in one OBJ (a field a subclass shadows) takes two slots.
 *
 * CLS records are held to their dump's end and then sent with their
 * class's layout as instance fields of type object: refs_to_payloads
 * splits it into the class's own fields and its superclass's for binary
 * HPROF, and the text writer names references by it.
 */
#include <stdlib.h>
#include <string.h>

#include "hprof_text.h"

/* A name listed more often than this in one OBJ: a hierarchy no JVM loads. */
#define HT_MAX_REPEATS 64
/* HPROF counts a class's fields in 16 bits. */
#define HT_MAX_FIELDS 65535

/* The index of class_id's layout, made when new. */
static int layout_index(ht_fields *f, uint64_t class_id, uint32_t *ix)
{
	uint32_t v = pd_map_get(&f->layout_of, class_id);
	if (v) {
		*ix = v - 1;
		return 0;
	}
	if (pd_grow((void **)&f->layouts, &f->layouts_cap, f->nlayouts + 1, sizeof *f->layouts) < 0 ||
	    pd_map_put(&f->layout_of, class_id, (uint32_t)f->nlayouts + 1) < 0)
		return PROFDATA_ENOMEM;
	memset(&f->layouts[f->nlayouts], 0, sizeof *f->layouts);
	*ix = (uint32_t)f->nlayouts++;
	return 0;
}

/* Slots a name's key leads to: the first, and through next_same the others, in slot order. */
#define HT_NO_SLOT UINT32_MAX
/* Slots after the last one placed that are compared by name before the name is hashed. */
#define HT_FAST_WINDOW 4

/* Whether the record being read left slot s free (the text lists no null). */
static int slot_free(const ht_decoder *d, uint32_t s)
{
	return s >= d->nids || d->ids[s] == 0;
}

/* Whether slot s of l may take the item: its name is [name, name + len) and the record left it free. */
static int slot_fits(const ht_decoder *d, const ht_layout *l, uint32_t s, const char *name, size_t len)
{
	size_t n;
	const char *t = pd_intern_str(&d->strings, (uint32_t)(l->names[s] - 1), &n);
	return n == len && memcmp(t, name, len) == 0 && slot_free(d, s);
}

/* A new last slot of l named name_id, after `prev` (HT_NO_SLOT: the name's first) in its chain. */
static int append_slot(ht_decoder *d, ht_layout *l, uint64_t name_id, uint32_t prev, uint32_t *slot)
{
	if (l->n >= HT_MAX_FIELDS)
		return pd_ht_error(d, PROFDATA_ELIMIT, "a class whose instances list more than 65535 field names");
	if (pd_grow((void **)&l->names, &l->cap, l->n + 1, sizeof *l->names) < 0 ||
	    pd_grow((void **)&l->next_same, &l->same_cap, l->n + 1, sizeof *l->next_same) < 0)
		return PROFDATA_ENOMEM;
	*slot = (uint32_t)l->n++;
	l->names[*slot] = name_id;
	l->next_same[*slot] = HT_NO_SLOT;
	if (prev != HT_NO_SLOT)
		l->next_same[prev] = *slot;
	return 0;
}

/*
 * The slot of a name in layout ix for the record's next item: the first
 * of its slots after the item before it (the agent lists fields in class
 * order), else its first slot the record left free, else a new one.
 */
static int slot_of(ht_decoder *d, uint32_t ix, const char *name, size_t len, uint32_t *slot)
{
	ht_fields *f = &d->fields;
	ht_layout *l = &f->layouts[ix];
	uint32_t k, s, last = HT_NO_SLOT, free_slot = HT_NO_SLOT, count = 0;
	uint64_t name_id;
	for (s = d->rec.after; s < l->n && s < d->rec.after + HT_FAST_WINDOW; s++)
		if (slot_fits(d, l, s, name, len))
			return *slot = s, 0;
	if (pd_grow((void **)&f->key, &f->key_cap, len + 4, 1) < 0)
		return PROFDATA_ENOMEM;
	memcpy(f->key, &ix, 4);
	memcpy(f->key + 4, name, len);
	int rc = pd_intern_add(&f->slot_keys, f->key, len + 4, &k);
	if (rc == 1) {
		for (s = f->first_slot[k]; s != HT_NO_SLOT; last = s, s = l->next_same[s], count++) {
			if (!slot_free(d, s))
				continue;
			if (s >= d->rec.after)
				return *slot = s, 0;
			if (free_slot == HT_NO_SLOT)
				free_slot = s;
		}
		if (free_slot != HT_NO_SLOT)
			return *slot = free_slot, 0;
		if (count >= HT_MAX_REPEATS)
			return pd_ht_error(d, PROFDATA_ELIMIT, "an OBJ lists one field name more than 64 times");
		return append_slot(d, l, l->names[last], last, slot);
	}
	if (rc < 0 || pd_grow((void **)&f->first_slot, &f->first_cap, (size_t)k + 1, sizeof *f->first_slot) < 0)
		return PROFDATA_ENOMEM;
	if ((rc = pd_ht_string(d, name, len, &name_id)) != 0 || (rc = append_slot(d, l, name_id, HT_NO_SLOT, slot)) != 0)
		return rc;
	f->first_slot[k] = *slot;
	return 0;
}

/* v at slot `slot` of the record's references: the nulls before it filled in, within the text's bound. */
static int place(ht_decoder *d, uint32_t slot, uint64_t v)
{
	d->rec.after = slot + 1;
	if (slot >= d->nids)
		return pd_ht_push_at(d, slot, v);
	d->ids[slot] = v;
	return 0;
}

int pd_ht_instance_ref(ht_decoder *d, const char *name, size_t len, uint64_t v)
{
	uint32_t ix, slot = 0;
	int rc;
	if ((rc = layout_index(&d->fields, d->rec.class_id, &ix)) != 0 || (rc = slot_of(d, ix, name, len, &slot)) != 0)
		return rc;
	return place(d, slot, v);
}

int pd_ht_hold_class(ht_decoder *d, const profdata_class_dump *cd)
{
	ht_fields *f = &d->fields;
	ht_held_class *h;
	if (pd_grow((void **)&f->held, &f->held_cap, f->nheld + 1, sizeof *f->held) < 0 ||
	    pd_grow((void **)&f->statics, &f->statics_cap, f->nstatics + cd->nstatics, sizeof *f->statics) < 0 ||
	    pd_grow((void **)&f->constants, &f->constants_cap, f->nconstants + cd->nconstants, sizeof *f->constants) < 0)
		return PROFDATA_ENOMEM;
	h = &f->held[f->nheld++];
	h->cd = *cd;
	h->statics_off = f->nstatics;
	h->constants_off = f->nconstants;
	if (cd->nstatics)
		memcpy(f->statics + f->nstatics, cd->statics, cd->nstatics * sizeof *cd->statics);
	if (cd->nconstants)
		memcpy(f->constants + f->nconstants, cd->constants, cd->nconstants * sizeof *cd->constants);
	f->nstatics += cd->nstatics;
	f->nconstants += cd->nconstants;
	return 0;
}

/* Held class h, sent with its class's layout as instance fields. */
static int send_class(ht_decoder *d, ht_held_class *h)
{
	ht_fields *f = &d->fields;
	profdata_class_dump cd = h->cd;
	uint32_t v = pd_map_get(&f->layout_of, cd.id);
	const ht_layout *l = v ? &f->layouts[v - 1] : NULL;
	cd.statics = cd.nstatics ? f->statics + h->statics_off : NULL;
	cd.constants = cd.nconstants ? f->constants + h->constants_off : NULL;
	cd.fields = NULL;
	cd.nfields = 0;
	if (l && l->n) {
		if (pd_grow((void **)&f->scratch, &f->scratch_cap, l->n, sizeof *f->scratch) < 0)
			return PROFDATA_ENOMEM;
		for (size_t i = 0; i < l->n; i++) {
			memset(&f->scratch[i], 0, sizeof f->scratch[i]);
			f->scratch[i].name_id = l->names[i];
			f->scratch[i].type = PROFDATA_TYPE_OBJECT;
		}
		cd.fields = f->scratch;
		cd.nfields = l->n;
	}
	return PD_EMIT(d->a, class_dump, &cd) ? PROFDATA_STOPPED : 0;
}

int pd_ht_send_classes(ht_decoder *d)
{
	ht_fields *f = &d->fields;
	int rc = 0;
	for (size_t i = 0; i < f->nheld && rc == 0; i++)
		rc = send_class(d, &f->held[i]);
	f->nheld = f->nstatics = f->nconstants = 0;
	return rc;
}

void pd_ht_fields_free(ht_fields *f)
{
	for (size_t i = 0; i < f->nlayouts; i++)
		PD_FREE_ALL(f->layouts[i].names, f->layouts[i].next_same);
	pd_map_free(&f->layout_of);
	pd_intern_free(&f->slot_keys);
	PD_FREE_ALL(f->layouts, f->first_slot, f->key, f->held, f->statics, f->constants, f->scratch);
}
