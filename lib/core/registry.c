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
