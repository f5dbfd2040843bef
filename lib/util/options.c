/* SPDX-License-Identifier: Apache-2.0 */
#include "util/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *dup_range(const char *s, size_t n)
{
	char *r = malloc(n + 1);
	if (r) {
		memcpy(r, s, n);
		r[n] = '\0';
	}
	return r;
}

int pd_options_parse(pd_options *o, const char *text, const char *const *known, pd_diag *d)
{
	memset(o, 0, sizeof(*o));
	if (!text)
		return 0;
	size_t cap = 0;
	const char *p = text;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > 0) {
			const char *eq = memchr(p, '=', len);
			size_t klen = eq ? (size_t)(eq - p) : len;
			int ok = 0;
			for (const char *const *k = known; k && *k; k++)
				if (strlen(*k) == klen && memcmp(*k, p, klen) == 0)
					ok = 1;
			if (!ok) {
				pd_options_free(o);
				return pd_diag_error(d, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
				                     "unknown option '%.*s'", (int)klen, p);
			}
			if (pd_grow((void **)&o->items, &cap, o->n + 1, sizeof(*o->items)) < 0) {
				pd_options_free(o);
				return PROFDATA_ENOMEM;
			}
			pd_option *it = &o->items[o->n];
			it->key = dup_range(p, klen);
			it->value = eq ? dup_range(eq + 1, len - klen - 1) : dup_range("", 0);
			it->used = 0;
			if (!it->key || !it->value) {
				free(it->key);
				free(it->value);
				pd_options_free(o);
				return PROFDATA_ENOMEM;
			}
			o->n++;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

void pd_options_free(pd_options *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->items[i].key);
		free(o->items[i].value);
	}
	free(o->items);
	memset(o, 0, sizeof(*o));
}

const char *pd_options_get(const pd_options *o, const char *key)
{
	/* The last occurrence wins, as on a command line. */
	const char *v = NULL;
	for (size_t i = 0; o && i < o->n; i++)
		if (strcmp(o->items[i].key, key) == 0)
			v = o->items[i].value;
	return v;
}

int pd_options_int(const pd_options *o, const char *key, long long def, long long min, long long max,
                   long long *out, pd_diag *d)
{
	const char *v = pd_options_get(o, key);
	if (!v) {
		*out = def;
		return 0;
	}
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 0);
	if (errno || end == v || *end || n < min || n > max)
		return pd_diag_error(d, PROFDATA_EINVAL, PD_NO_OFFSET, 0,
		                     "option %s=%s: expected a number from %lld to %lld", key, v, min, max);
	*out = n;
	return 0;
}
