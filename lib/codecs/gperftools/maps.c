/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text after the records of a version 0 profile: /proc/self/maps as the
 * profiled process saw it, or pprof's short "start-end path" form, with
 * "build=" lines naming what "$build" in later paths stands for.
 */
#include <stdlib.h>
#include <string.h>

#include "codecs/gperftools/gperftools.h"

static int is_word_char(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int pd_gperftools_parse_hex(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t start = *i;
	uint64_t x = 0;
	while (*i < len && hex_value((unsigned char)s[*i]) >= 0) {
		if (*i - start >= 16)
			return 0;
		x = (x << 4) | (uint64_t)hex_value((unsigned char)s[*i]);
		(*i)++;
	}
	*v = x;
	return *i > start;
}

static int parse_decimal(const char *s, size_t len, size_t *i, uint64_t *v)
{
	size_t start = *i;
	uint64_t x = 0;
	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		unsigned dgt = (unsigned)(s[*i] - '0');
		if (x > (UINT64_MAX - dgt) / 10)
			return 0;
		x = x * 10 + dgt;
		(*i)++;
	}
	*v = x;
	return *i > start;
}

int pd_gperftools_is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

size_t pd_gperftools_skip_space(const char *s, size_t len, size_t i)
{
	while (i < len && pd_gperftools_is_space((unsigned char)s[i]))
		i++;
	return i;
}


/*
 * One line of the maps text (without its newline). Emits a mapping for
 * /proc/self/maps lines and the short "start-end path" form; remembers
 * build= lines; ignores anything else.
 */
static int maps_line(pd_gperftools_decoder *d, const char *s, size_t len, pd_strbuf *build, int *have_build,
                     pd_strbuf *path)
{
	profdata_mapping m;
	size_t i = 0, j, k, plen;
	uint64_t v;
	int rc;

	while (len > 0 && pd_gperftools_is_space((unsigned char)s[len - 1]))
		len--;
	j = pd_gperftools_skip_space(s, len, 0);
	if (len - j >= 6 && memcmp(s + j, "build=", 6) == 0) {
		build->n = 0;
		*have_build = 1;
		return pd_strbuf_add(build, s + j + 6, len - j - 6);
	}
	memset(&m, 0, sizeof m);
	if (!pd_gperftools_parse_hex(s, len, &i, &m.start) || i >= len || s[i] != '-')
		return 0;
	i++;
	if (!pd_gperftools_parse_hex(s, len, &i, &m.limit))
		return 0;
	if (i < len && !pd_gperftools_is_space((unsigned char)s[i]))
		return 0;
	i = pd_gperftools_skip_space(s, len, i);
	/* The full form: perms offset dev inode [path]. */
	j = i;
	for (k = 0; k < 4 && j < len && s[j] && strchr("rwxsp-", s[j]); k++)
		j++;
	if (k == 4 && j < len && pd_gperftools_is_space((unsigned char)s[j])) {
		size_t t = pd_gperftools_skip_space(s, len, j), d0;
		uint64_t off, inode;
		if (pd_gperftools_parse_hex(s, len, &t, &off) && t < len && pd_gperftools_is_space((unsigned char)s[t])) {
			t = pd_gperftools_skip_space(s, len, t);
			d0 = t;
			if (pd_gperftools_parse_hex(s, len, &t, &v) && t < len && s[t] == ':') {
				t++;
				if (pd_gperftools_parse_hex(s, len, &t, &v) && t - d0 < sizeof m.device &&
				    (t == len || pd_gperftools_is_space((unsigned char)s[t]))) {
					size_t d1 = t;
					t = pd_gperftools_skip_space(s, len, t);
					if (parse_decimal(s, len, &t, &inode) && (t == len || pd_gperftools_is_space((unsigned char)s[t]))) {
						memcpy(m.perms, s + i, 4);
						m.perms[4] = 0;
						memcpy(m.device, s + d0, d1 - d0);
						m.device[d1 - d0] = 0;
						m.offset = off;
						m.inode = inode;
						i = pd_gperftools_skip_space(s, len, t);
					}
				}
			}
		}
	}
	/* The rest is the path, with $build substituted. */
	path->n = 0;
	for (j = i; j < len; j++) {
		if (*have_build && s[j] == '$' && len - j >= 6 && memcmp(s + j + 1, "build", 5) == 0 &&
		    (j + 6 == len || !is_word_char((unsigned char)s[j + 6]))) {
			rc = pd_strbuf_add(path, build->p ? build->p : "", build->n);
			j += 5;
		} else {
			rc = pd_strbuf_add(path, s + j, 1);
		}
		if (rc)
			return rc;
	}
	plen = path->n;
	if (plen > 0) {
		rc = pd_gperftools_emit_string(d, &m.path_id, path->p, plen);
		if (rc)
			return rc;
	}
	rc = PD_EMIT(d->a, mapping, &m);
	return rc ? PD_GPERFTOOLS_STOP(d, rc) : 0;
}

int pd_gperftools_maps(pd_gperftools_decoder *d, const unsigned char *text, size_t len)
{
	const char *s = (const char *)text;
	pd_strbuf build = { 0, 0, 0 }, path = { 0, 0, 0 };
	int have_build = 0, rc = 0;
	size_t i = 0;
	while (i < len && rc == 0) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len;
		rc = maps_line(d, s + i, e - i, &build, &have_build, &path);
		i = e + 1;
	}
	free(build.p);
	free(path.p);
	return rc;
}
