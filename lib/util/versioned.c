/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The growth rule of caller-allocated structs (util/versioned.h), and the
 * _init() of the read and write options, which follow it.
 */
#include "internal.h"
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

static const size_t read_options_sizes[] = { sizeof(profdata_read_options) };
static const size_t write_options_sizes[] = { sizeof(profdata_write_options) };

int profdata_read_options_init(profdata_read_options *opts, size_t size)
{
	return pd_versioned_init(opts, size, read_options_sizes, PROFDATA_READ_OPTIONS_VERSION);
}

int profdata_write_options_init(profdata_write_options *opts, size_t size)
{
	return pd_versioned_init(opts, size, write_options_sizes, PROFDATA_WRITE_OPTIONS_VERSION);
}
