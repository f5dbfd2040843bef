/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Instance field names. An OBJ record names each reference it lists: its
 * non-null object fields, inherited ones included, in its class's field
 * order. The text prints no layout and leaves nulls out, so each class
 * gets one here: the names its instances list, in the order first seen. An
 * instance's references are placed at their names' slots, nulls between
 * (trailing nulls left off); a name listed twice in one OBJ (a field a
 * subclass shadows) takes that name's next slot.
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

/* The slot of the occ-th field named name_id in layout ix, appended when new. */
static int slot_of(ht_decoder *d, uint32_t ix, uint32_t occ, uint64_t name_id, uint32_t *slot)
{
	ht_fields *f = &d->fields;
	ht_layout *l = &f->layouts[ix];
	unsigned char key[16];
	uint32_t k;
	memcpy(key, &ix, 4);
	memcpy(key + 4, &occ, 4);
	memcpy(key + 8, &name_id, 8);
	int rc = pd_intern_add(&f->slot_keys, (const char *)key, sizeof key, &k);
	if (rc < 0)
		return rc;
	if (rc == 1) {
		*slot = f->slot_at[k];
		return 0;
	}
	if (l->n >= HT_MAX_FIELDS)
		return pd_ht_error(d, PROFDATA_ELIMIT, "a class whose instances list more than 65535 field names");
	if (pd_grow((void **)&f->slot_at, &f->slot_at_cap, (size_t)k + 1, sizeof *f->slot_at) < 0 ||
	    pd_grow((void **)&l->names, &l->cap, l->n + 1, sizeof *l->names) < 0)
		return PROFDATA_ENOMEM;
	l->names[l->n] = name_id;
	*slot = f->slot_at[k] = (uint32_t)l->n++;
	return 0;
}

/* v at slot `slot` of the record's references: the nulls before it filled in, within the text's bound. */
static int place(ht_decoder *d, uint32_t slot, uint64_t v)
{
	if (slot >= d->nids)
		return pd_ht_push_at(d, slot, v);
	d->ids[slot] = v;
	return 0;
}

int pd_ht_instance_ref(ht_decoder *d, const char *name, size_t len, uint64_t v)
{
	uint64_t name_id;
	uint32_t ix, slot = 0, occ;
	int rc;
	if ((rc = pd_ht_string(d, name, len, &name_id)) != 0 || (rc = layout_index(&d->fields, d->rec.class_id, &ix)) != 0)
		return rc;
	for (occ = 0; occ < HT_MAX_REPEATS; occ++) {
		if ((rc = slot_of(d, ix, occ, name_id, &slot)) != 0)
			return rc;
		if (slot >= d->nids || d->ids[slot] == 0)
			break;
	}
	if (occ == HT_MAX_REPEATS)
		return pd_ht_error(d, PROFDATA_ELIMIT, "an OBJ lists one field name more than 64 times");
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
		free(f->layouts[i].names);
	pd_map_free(&f->layout_of);
	pd_intern_free(&f->slot_keys);
	PD_FREE_ALL(f->layouts, f->slot_at, f->held, f->statics, f->constants, f->scratch);
}
