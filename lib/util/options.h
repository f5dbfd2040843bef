/* SPDX-License-Identifier: Apache-2.0 */
/* Codec options (options.c): "key=value,key=value". internal.h includes it. */
#ifndef PD_UTIL_OPTIONS_H
#define PD_UTIL_OPTIONS_H

#include "util/diag.h"

typedef struct pd_option {
	char *key;
	char *value; /* "" when given as a bare key */
	int used;
} pd_option;

typedef struct pd_options {
	pd_option *items;
	size_t n;
} pd_options;

/*
 * Parse `text` (NULL or "" gives none). Keys must be among `known` (a
 * NULL-terminated list); anything else is PROFDATA_EINVAL with a message in
 * `d`.
 */
int pd_options_parse(pd_options *o, const char *text, const char *const *known, pd_diag *d);
void pd_options_free(pd_options *o);
const char *pd_options_get(const pd_options *o, const char *key);
/* Integer option with a default; PROFDATA_EINVAL (message in d) when not a number in [min, max]. */
int pd_options_int(const pd_options *o, const char *key, long long def, long long min, long long max,
                   long long *out, pd_diag *d);

#endif
