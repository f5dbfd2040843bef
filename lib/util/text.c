/* SPDX-License-Identifier: Apache-2.0 */
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pd_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = malloc(n);
	if (copy)
		memcpy(copy, s, n);
	return copy;
}

const char *pd_vformat(char *small, size_t cap, char **heap, size_t *len, const char *fmt, va_list ap)
{
	*heap = NULL;
	*len = 0;
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, cap, fmt, again);
	va_end(again);
	if (n < 0)
		return NULL;
	*len = (size_t)n;
	if ((size_t)n < cap)
		return small;
	*heap = malloc((size_t)n + 1);
	if (*heap)
		vsnprintf(*heap, (size_t)n + 1, fmt, ap);
	return *heap;
}

uint64_t pd_time_unit_ns(const char *unit, size_t len)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "nanoseconds", 1 }, { "microseconds", 1000 }, { "milliseconds", 1000000 }, { "seconds", 1000000000 },
	};
	for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
		if (len == strlen(units[i].name) && memcmp(unit, units[i].name, len) == 0)
			return units[i].ns;
	return 0;
}
