/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The names of the agent's text: strings, classes, functions and frames,
 * each numbered by an interner in first-seen order and sent once.
 *
 * The text names classes by name (source form) in frames and SITES, and by
 * name and id in the heap dump, which comes after the traces. So a class
 * name gets its serial when first seen; the first id the heap gives that
 * name is loaded under that serial (a second id of the same name, another
 * loader's class, gets a serial of its own); a name the heap never gives
 * an id is loaded at the end under an id above every id of the file.
 */
#include <stdlib.h>
#include <string.h>

#include "hprof_text.h"
#include "util/numtext.h"

int pd_ht_string(ht_decoder *d, const char *s, size_t len, uint64_t *id)
{
	uint32_t ix;
	int rc = pd_intern_put(&d->strings, s, len, &ix);
	if (rc < 0)
		return rc;
	*id = (uint64_t)ix + 1;
	if (rc == 0 && PD_EMIT(d->a, string, *id, s, len))
		return PROFDATA_STOPPED;
	return 0;
}

/* The index of a source-form class name (converted to internal form) in d->names. */
static int class_index(ht_decoder *d, const char *java_name, size_t len, uint32_t *ix)
{
	size_t need = profdata_internal_name(java_name, len, NULL, 0);
	int rc;
	d->scratch.n = 0;
	if (pd_grow((void **)&d->scratch.p, &d->scratch.cap, need + 1, 1) < 0)
		return PROFDATA_ENOMEM;
	profdata_internal_name(java_name, len, d->scratch.p, need + 1);
	rc = pd_intern_put(&d->names, d->scratch.p, need, ix);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		if (pd_grow((void **)&d->classes, &d->classes_cap, (size_t)*ix + 1, sizeof *d->classes) < 0)
			return PROFDATA_ENOMEM;
		memset(&d->classes[*ix], 0, sizeof d->classes[*ix]);
	}
	return 0;
}

int pd_ht_class_serial(ht_decoder *d, const char *java_name, size_t len, uint32_t *serial)
{
	uint32_t ix;
	int rc = class_index(d, java_name, len, &ix);
	if (rc < 0)
		return rc;
	if (!d->classes[ix].serial) {
		if (d->next_serial == UINT32_MAX)
			return pd_ht_error(d, PROFDATA_ELIMIT, "more than 4294967294 classes");
		d->classes[ix].serial = ++d->next_serial;
	}
	*serial = d->classes[ix].serial;
	return 0;
}

static int send_load(ht_decoder *d, uint32_t ix, uint32_t serial, uint64_t id, uint64_t trace)
{
	profdata_class_load cl;
	size_t len;
	const char *name = pd_intern_str(&d->names, ix, &len);
	uint64_t name_id;
	int rc = pd_ht_string(d, name, len, &name_id);
	if (rc)
		return rc;
	memset(&cl, 0, sizeof cl);
	cl.serial = serial;
	cl.id = id;
	cl.trace_serial = (uint32_t)trace;
	cl.name_id = name_id;
	return PD_EMIT(d->a, class_load, &cl) ? PROFDATA_STOPPED : 0;
}

/* A class id the heap names (CLS, OBJ's class, ARR's array class): loaded once. */
int pd_ht_class_seen(ht_decoder *d, const char *java_name, size_t len, uint64_t id, uint64_t trace)
{
	uint32_t ix, serial;
	int rc;
	if (pd_map_get(&d->loaded_ids, id))
		return 0;
	if ((rc = class_index(d, java_name, len, &ix)) < 0 || (rc = pd_map_put(&d->loaded_ids, id, 1)) < 0)
		return rc;
	if (id > d->max_id)
		d->max_id = id;
	if (d->classes[ix].loaded || !d->classes[ix].serial) {
		if (d->next_serial == UINT32_MAX)
			return pd_ht_error(d, PROFDATA_ELIMIT, "more than 4294967294 classes");
		serial = ++d->next_serial;
		if (!d->classes[ix].serial)
			d->classes[ix].serial = serial;
	} else {
		serial = d->classes[ix].serial;
	}
	d->classes[ix].loaded = 1;
	return send_load(d, ix, serial, id, trace);
}

/* Classes named only in frames and sites: loaded under ids above the file's. */
int pd_ht_load_the_rest(ht_decoder *d)
{
	uint64_t id = d->max_id;
	for (uint32_t ix = 0; ix < d->names.n; ix++) {
		int rc;
		if (d->classes[ix].loaded || !d->classes[ix].serial)
			continue;
		if (++id == 0)
			return pd_ht_error(d, PROFDATA_ELIMIT, "no class id is left above the file's ids");
		d->classes[ix].loaded = 1;
		if ((rc = send_load(d, ix, d->classes[ix].serial, id, 0)) != 0)
			return rc;
	}
	return 0;
}

/* The basic type of a primitive array's name ("char[]"), else 0. */
int pd_ht_elem_type(const char *java_name, size_t len)
{
	if (len < 3 || memcmp(java_name + len - 2, "[]", 2) != 0)
		return 0;
	for (int t = PROFDATA_TYPE_BOOLEAN; t <= PROFDATA_TYPE_LONG; t++) {
		const char *n = profdata_basic_type_name(t);
		if (n && strlen(n) == len - 2 && memcmp(n, java_name, len - 2) == 0)
			return t;
	}
	return 0;
}

/* "Unknown line", "Native method", "Compiled method" or a number: a profdata_frame line. */
static int32_t line_of(const char *p, size_t n, int *ok)
{
	uint64_t v;
	*ok = 1;
	if (n == 12 && memcmp(p, "Unknown line", 12) == 0)
		return PROFDATA_LINE_UNKNOWN;
	if (n == 13 && memcmp(p, "Native method", 13) == 0)
		return PROFDATA_LINE_NATIVE;
	if (n == 15 && memcmp(p, "Compiled method", 15) == 0)
		return PROFDATA_LINE_COMPILED;
	if (n && pd_parse_dec(p, p + n, &v) == p + n && v <= INT32_MAX)
		return (int32_t)v;
	*ok = 0;
	return PROFDATA_LINE_UNKNOWN;
}

/* The parts of "Class.method(Source:Line)" (a frame line's text). */
typedef struct frame_parts {
	const char *cls, *method, *src;
	size_t cls_len, method_len, src_len, key_len;
	int32_t line;
} frame_parts;

static int split_frame(const char *t, size_t n, frame_parts *f)
{
	const char *end = t + n, *open = NULL, *colon = NULL, *dot = NULL;
	int ok;
	if (!n || t[n - 1] != ')')
		return -1;
	for (const char *p = t; p < end - 1; p++)
		if (*p == '(')
			open = p;
	if (!open)
		return -1;
	for (const char *p = open + 1; p < end - 1; p++)
		if (*p == ':')
			colon = p;
	for (const char *p = t; p < open; p++)
		if (*p == '.' || *p == '/')
			dot = p;
	f->cls = t;
	f->cls_len = dot ? (size_t)(dot - t) : 0;
	f->method = dot ? dot + 1 : t;
	f->method_len = (size_t)(open - f->method);
	f->src = colon ? open + 1 : NULL;
	f->src_len = colon ? (size_t)(colon - open - 1) : 0;
	/* the function is all but the line: "Class.method(Source" */
	f->key_len = (size_t)((colon ? colon : open) - t);
	const char *lp = colon ? colon + 1 : open + 1;
	f->line = line_of(lp, (size_t)(end - 1 - lp), &ok);
	return ok ? 0 : -1;
}

static int send_function(ht_decoder *d, const frame_parts *f, uint64_t id)
{
	profdata_function fn;
	int rc;
	memset(&fn, 0, sizeof fn);
	fn.id = id;
	if ((rc = pd_ht_string(d, f->method, f->method_len, &fn.name_id)) != 0)
		return rc;
	if (f->src && (rc = pd_ht_string(d, f->src, f->src_len, &fn.source_file_id)) != 0)
		return rc;
	if (f->cls_len && (rc = pd_ht_class_serial(d, f->cls, f->cls_len, &fn.class_serial)) != 0)
		return rc;
	return PD_EMIT(d->a, function, &fn) ? PROFDATA_STOPPED : 0;
}

/* The id of the frame a TRACE line's text names; its function and frame are sent when new. */
int pd_ht_frame(ht_decoder *d, const char *text, size_t len, uint64_t *id)
{
	frame_parts f;
	profdata_frame fr;
	uint32_t fx, ix;
	int rc;
	if (pd_intern_find(&d->frames, text, len, &fx)) {
		*id = (uint64_t)fx + 1;
		return 0;
	}
	if (split_frame(text, len, &f) < 0)
		return pd_ht_error(d, PROFDATA_EFORMAT,
		                   "a frame is not \"Class.method(Source:Line)\" (Line a number, \"Unknown line\", "
		                   "\"Native method\" or \"Compiled method\")");
	if ((rc = pd_intern_put(&d->functions, text, f.key_len, &ix)) < 0)
		return rc;
	if (rc == 0 && (rc = send_function(d, &f, (uint64_t)ix + 1)) != 0)
		return rc;
	if ((rc = pd_intern_add(&d->frames, text, len, &fx)) < 0)
		return rc;
	memset(&fr, 0, sizeof fr);
	fr.id = *id = (uint64_t)fx + 1;
	fr.function_id = (uint64_t)ix + 1;
	fr.line = f.line;
	return PD_EMIT(d->a, frame, &fr) ? PROFDATA_STOPPED : 0;
}

void pd_ht_tables_free(ht_decoder *d)
{
	pd_intern_free(&d->strings);
	pd_intern_free(&d->names);
	pd_intern_free(&d->functions);
	pd_intern_free(&d->frames);
	pd_map_free(&d->loaded_ids);
	pd_map_free(&d->traces);
	PD_FREE_ALL(d->classes, d->scratch.p);
}
