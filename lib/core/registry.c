/*
 * The registered formats, in the order they are listed and bid. The table
 * is constant: registration needs no global mutable state.
 */
#include "internal.h"
#include "pd_config.h"

#include <string.h>

#include "codecs/registry.h"

static const profdata_format *const formats[] = {
#include "codecs/registry.inc"
};

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
