/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registered formats, in the order they are listed and bid. The table
 * is constant: registration needs no global mutable state.
 */
#include "internal.h"

#include <string.h>

/* Generated from the list in lib/codecs/meson.build: PD_CODECS is PD_CODEC(descriptor) per codec. */
#include "codecs/registry.h"

#define PD_CODEC(descriptor) extern const struct profdata_format descriptor;
PD_CODECS
#undef PD_CODEC

#define PD_CODEC(descriptor) &descriptor,
static const profdata_format *const formats[] = { PD_CODECS NULL };
#undef PD_CODEC

size_t profdata_format_count(void)
{
	return sizeof(formats) / sizeof(formats[0]) - 1;
}

const profdata_format *profdata_format_at(size_t i)
{
	return i < profdata_format_count() ? formats[i] : NULL;
}

const profdata_format *profdata_format_find(const char *name)
{
	for (size_t i = 0; name && i < profdata_format_count(); i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i];
	return NULL;
}

const char *profdata_format_name(const profdata_format *f) { return f->name; }
const char *profdata_format_description(const profdata_format *f) { return f->description; }
int profdata_format_can_read(const profdata_format *f) { return f->decode != NULL; }
int profdata_format_can_write(const profdata_format *f) { return f->encoder_new != NULL || f->write_model != NULL; }

/* A list for a descriptor member that may be NULL: the empty list then. */
static const char *const *or_empty(const char *const *list)
{
	static const char *const none[] = { NULL };
	return list ? list : none;
}

const char *const *profdata_format_extensions(const profdata_format *f) { return or_empty(f->extensions); }
const char *const *profdata_format_read_options(const profdata_format *f) { return or_empty(f->read_options); }
const char *const *profdata_format_write_options(const profdata_format *f) { return or_empty(f->write_options); }

/* Bytes of the longest ending of f that `name` (of `len` bytes) has after at least one character; 0 none. */
static size_t ending_length(const profdata_format *f, const char *name, size_t len)
{
	size_t best = 0;
	for (const char *const *e = or_empty(f->extensions); *e; e++) {
		size_t n = strlen(*e);
		if (n > best && len > n && memcmp(name + len - n, *e, n) == 0)
			best = n;
	}
	return best;
}

/* The formats claiming the longest ending of name[0, len): how many, the first in *out. */
static size_t claimants(const profdata_format **out, const char *name, size_t len)
{
	size_t longest = 0, count = 0;
	*out = NULL;
	for (size_t i = 0; i < profdata_format_count(); i++) {
		size_t n = ending_length(formats[i], name, len);
		if (n == 0 || n < longest)
			continue;
		if (n > longest) {
			longest = n;
			count = 0;
			*out = formats[i];
		}
		count++;
	}
	return count;
}

/* ".gz" after a format's own ending ("dump.hprof.gz") is gzip around that format: the library reads through it. */
int profdata_format_for_filename(const profdata_format **out, const char *name)
{
	size_t len = name ? strlen(name) : 0;
	size_t count = claimants(out, name, len);
	if (count == 0 && len > 3 && strcmp(name + len - 3, ".gz") == 0)
		count = claimants(out, name, len - 3);
	return count == 0 ? PROFDATA_ENOTFOUND : count > 1 ? PROFDATA_EINVAL : 0;
}

/* The codecs meson left out, and what each needs (codecs/registry.h, from lib/codecs/meson.build). */
static const struct {
	const char *name, *needs;
} missing[] = {
#define PD_MISSING(name, needs) { name, needs },
	PD_CODECS_MISSING
#undef PD_MISSING
	{ NULL, NULL }
};

const char *profdata_format_missing(const char *name)
{
	for (size_t i = 0; name && missing[i].name; i++)
		if (strcmp(missing[i].name, name) == 0)
			return missing[i].needs;
	return NULL;
}
