/* SPDX-License-Identifier: Apache-2.0 */
/* The growth rule of caller-allocated structs (util/versioned.h). */
#include <string.h>

#include "util/base.h"
#include "util/versioned.h"

int pd_versioned_init(void *s, size_t size, const size_t *sizes, unsigned newest)
{
	if (!s || size < sizes[0])
		return PROFDATA_EINVAL;
	memset(s, 0, size);
	unsigned version = 1;
	while (version < newest && sizes[version] <= size)
		version++;
	*(unsigned *)s = version;
	return 0;
}

int pd_versioned_adopt(void *full, const void *s, const size_t *sizes, unsigned newest)
{
	memset(full, 0, sizes[newest - 1]);
	unsigned version = *(const unsigned *)s;
	if (version == 0 || version > newest)
		return PROFDATA_EINVAL;
	memcpy(full, s, sizes[version - 1]);
	return 0;
}
