/* SPDX-License-Identifier: Apache-2.0 */
#include "util/path.h"

/* Whether b's text from `from` on ends with an element that ".." may remove (not "..", not empty). */
static int removable_tail(const pd_strbuf *b, size_t from)
{
	size_t end = b->n, start = end;
	while (start > from && b->p[start - 1] != '/')
		start--;
	return end > start && !(end - start == 2 && b->p[start] == '.' && b->p[start + 1] == '.');
}

/* Drop the last element of b's text (and the slash before it, if any, past `from`). */
static void drop_tail(pd_strbuf *b, size_t from)
{
	while (b->n > from && b->p[b->n - 1] != '/')
		b->n--;
	if (b->n > from)
		b->n--;
	b->p[b->n] = '\0';
}

/* Add one element of `len` bytes at `e` to the cleaned text begun at `from` (rooted: a '/' at from - 1). */
static int add_element(pd_strbuf *b, size_t from, int rooted, const char *e, size_t len)
{
	if (len == 0 || (len == 1 && e[0] == '.'))
		return 0;
	if (len == 2 && e[0] == '.' && e[1] == '.') {
		if (removable_tail(b, from)) {
			drop_tail(b, from);
			return 0;
		}
		if (rooted)
			return 0; /* "/.." is "/" */
	}
	if (b->n > from && pd_strbuf_add(b, "/", 1) < 0)
		return PROFDATA_ENOMEM;
	return pd_strbuf_add(b, e, len);
}

int pd_strbuf_add_clean_path(pd_strbuf *b, const char *path)
{
	int rooted = path[0] == '/';
	if (rooted && pd_strbuf_add(b, "/", 1) < 0)
		return PROFDATA_ENOMEM;
	size_t from = b->n;
	for (const char *s = path; *s;) {
		const char *e = s;
		while (*e && *e != '/')
			e++;
		if (add_element(b, from, rooted, s, (size_t)(e - s)) < 0)
			return PROFDATA_ENOMEM;
		s = *e ? e + 1 : e;
	}
	if (b->n == from && !rooted)
		return pd_strbuf_add(b, ".", 1);
	return 0;
}
