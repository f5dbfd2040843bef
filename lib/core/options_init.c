/* SPDX-License-Identifier: Apache-2.0 */
/* The _init() of the read and write options, by the growth rule of util/versioned.h. */
#include "internal.h"
#include "util/versioned.h"

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
