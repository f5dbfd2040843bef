/* SPDX-License-Identifier: Apache-2.0 */
/* The model's tables by name, from the table list (event_list.h). */
#include "internal.h"

#include <string.h>

#define PD_TABLE_NAME(T, name) name,
static const char *const table_names[] = { PD_TABLE_LIST(PD_TABLE_NAME) };
#undef PD_TABLE_NAME

const char *profdata_table_name(profdata_table table)
{
	return (unsigned)table < PROFDATA_TABLE_COUNT_ ? table_names[table] : NULL;
}

int profdata_table_from_name(profdata_table *out, const char *name)
{
	for (size_t i = 0; name && i < PROFDATA_TABLE_COUNT_; i++)
		if (strcmp(table_names[i], name) == 0) {
			*out = (profdata_table)i;
			return 0;
		}
	return PROFDATA_ENOTFOUND;
}
