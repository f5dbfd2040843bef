/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A recording's settings and its own record as the profile's metadata:
 * each `jdk.ActiveSetting` of the first chunk as the comment
 * "jfr.setting.EVENT.NAME" = its value (EVENT the name of the event type
 * the setting is of, `jfr summary`'s; one without a value left out),
 * each plain field of
 * `jdk.ActiveRecording` as "jfr.recording.FIELD" (times and sizes as
 * the numbers the file holds: nanoseconds, milliseconds since 1970,
 * bytes). The JDK writes both at the start of every chunk; the first
 * chunk's are the recording's, and a setting written twice there keeps
 * its last value. Read in the first pass (decode.c), so that `begin`
 * carries them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "codecs/jfr/jfr.h"

#define SETTING_PREFIX "jfr.setting."
#define RECORDING_PREFIX "jfr.recording."

/* Keep key = value, replacing an earlier value of the key. */
static int keep_setting(jfr_decoder *d, const char *key, size_t klen, const char *value, size_t vlen)
{
	uint32_t k, v;
	if (pd_intern_put(&d->setting_keys, key, klen, &k) < 0 || pd_intern_put(&d->setting_values, value, vlen, &v) < 0 ||
	    pd_grow((void **)&d->setting_value, &d->setting_value_cap, (size_t)k + 1, sizeof *d->setting_value))
		return PROFDATA_ENOMEM;
	d->setting_value[k] = v;
	return 0;
}

/* Field i of event type t, read into d->vals[i], as text into d->text: 1 when it has a plain value, else 0. */
static int field_text(jfr_decoder *d, const jfr_type *t, size_t i, int *rc)
{
	const jfr_field *f = &t->fields[i];
	const jfr_type *ft = &d->meta.types[f->type];
	char num[32];
	if (f->array || ft->kind == JFR_COMPLEX) /* eventThread, stackTrace: no text */
		return 0;
	if (ft->kind == JFR_STRING) {
		*rc = jfr_field_text(d, f, &d->vals[i]);
		return *rc == 0;
	}
	if (ft->kind == JFR_BOOLEAN)
		snprintf(num, sizeof num, "%s", d->vals[i].u ? "true" : "false");
	else if (ft->kind == JFR_FLOAT || ft->kind == JFR_DOUBLE)
		return 0;
	else
		snprintf(num, sizeof num, "%" PRId64, (int64_t)d->vals[i].u);
	d->text.n = 0;
	*rc = pd_strbuf_add(&d->text, num, strlen(num)) ? PROFDATA_ENOMEM : 0;
	return *rc == 0;
}

/* The name of the event type a setting is of (its id in this chunk's metadata), or NULL. */
static const char *event_type_name(const jfr_decoder *d, uint64_t id)
{
	uint32_t row = pd_map_get(&d->meta.row_of_id, id);
	return row ? jfr_type_name(&d->meta, &d->meta.types[row - 1]) : NULL;
}

/* A jdk.ActiveSetting of type t, its fields read: "jfr.setting.EVENT.NAME" = its value. */
static int keep_active_setting(jfr_decoder *d, const jfr_type *t)
{
	size_t id = jfr_field_find(&d->meta, t, "id"), name = jfr_field_find(&d->meta, t, "name"),
	       value = jfr_field_find(&d->meta, t, "value");
	const char *event = id == SIZE_MAX ? NULL : event_type_name(d, d->vals[id].u);
	pd_strbuf key = { NULL, 0, 0 };
	int rc = 0;
	/* a setting of no value (async-profiler's options it was not given) is left out */
	if (!event || name == SIZE_MAX || value == SIZE_MAX || (d->vals[value].s.enc == JFR_STR_NULL && !t->fields[value].pooled) ||
	    !field_text(d, t, name, &rc))
		return rc;
	if (pd_strbuf_add(&key, SETTING_PREFIX, strlen(SETTING_PREFIX)) || pd_strbuf_add(&key, event, strlen(event)) ||
	    pd_strbuf_add(&key, ".", 1) || pd_strbuf_add(&key, d->text.p, d->text.n))
		rc = PROFDATA_ENOMEM;
	if (rc == 0 && field_text(d, t, value, &rc))
		rc = keep_setting(d, key.p, key.n, d->text.p, d->text.n);
	free(key.p);
	return rc;
}

/* The jdk.ActiveRecording of type t, its fields read: "jfr.recording.FIELD" for each with a plain value. */
static int keep_active_recording(jfr_decoder *d, const jfr_type *t)
{
	int rc = 0;
	for (size_t i = 0; i < t->nfields && rc == 0; i++) {
		const char *fname = pd_intern_str(&d->meta.names, t->fields[i].name, NULL);
		char key[160];
		if (strcmp(fname, "startTime") == 0 || strcmp(fname, "duration") == 0 || !field_text(d, t, i, &rc))
			continue;
		int n = snprintf(key, sizeof key, RECORDING_PREFIX "%s", fname);
		if (n > 0 && (size_t)n < sizeof key)
			rc = keep_setting(d, key, (size_t)n, d->text.p, d->text.n);
	}
	return rc;
}

void jfr_find_setting_types(jfr_decoder *d)
{
	static const char *const names[2] = { "jdk.ActiveSetting", "jdk.ActiveRecording" };
	for (int i = 0; i < 2; i++) {
		size_t row = jfr_type_find(&d->meta, names[i]);
		d->setting_type[i] = row == SIZE_MAX ? 0 : d->meta.types[row].id;
	}
}

int jfr_setting_event(jfr_decoder *d, uint64_t type, jfr_cur *c)
{
	int setting = type == d->setting_type[0];
	uint32_t row = type > 1 && (setting || type == d->setting_type[1]) ? pd_map_get(&d->meta.row_of_id, type) : 0;
	const jfr_type *t = row ? &d->meta.types[row - 1] : NULL;
	if (!t)
		return 0;
	if (pd_grow((void **)&d->vals, &d->vals_cap, t->nfields + 1, sizeof *d->vals))
		return PROFDATA_ENOMEM;
	int rc = jfr_read_struct(c, &d->meta, t, d->vals, 0);
	if (rc)
		return rc;
	return setting ? keep_active_setting(d, t) : keep_active_recording(d, t);
}
