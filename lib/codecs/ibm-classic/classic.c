/* SPDX-License-Identifier: Apache-2.0 */
/*
 * IBM classic (text) heapdump: the codec descriptor, sniffing, and the
 * pieces of syntax the decoder and the encoder share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classic.h"
#include "util/numtext.h"

static int is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A record line "0x<hex> [<dec>] OBJ|CLS " at p? */
static int looks_like_record(const unsigned char *p, size_t len)
{
	size_t i = 2, n;
	if (len < 4 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return 0;
	for (n = 0; i < len && is_hex(p[i]); i++, n++)
		;
	if (n == 0 || n > 16 || i + 2 >= len || p[i] != ' ' || p[i + 1] != '[')
		return 0;
	for (i += 2, n = 0; i < len && p[i] >= '0' && p[i] <= '9'; i++, n++)
		;
	if (n == 0 || i + 5 >= len || p[i] != ']' || p[i + 1] != ' ')
		return 0;
	i += 2;
	return (memcmp(p + i, "OBJ ", 4) == 0 || memcmp(p + i, "CLS ", 4) == 0);
}

static int classic_bid(const unsigned char *buf, size_t len)
{
	size_t i = 0;
	/* Blank lines before the header are tolerated. */
	while (i < len && (buf[i] == '\n' || buf[i] == '\r' || buf[i] == ' '))
		i++;
	if (len - i >= 11 && memcmp(buf + i, "// Version:", 11) == 0)
		return 90;
	if (looks_like_record(buf + i, len - i))
		return 60;
	return 0;
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *expect(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(end - p) < n || memcmp(p, lit, n) != 0)
		return NULL;
	return p + n;
}

/* Past `c` and the spaces around it; NULL when `c` is not next. */
static const char *after_mark(const char *p, const char *end, char c)
{
	p = skip_spaces(p, end);
	if (p == end || *p != c)
		return NULL;
	return skip_spaces(p + 1, end);
}

int pd_classic_parse_breakdown(const unsigned char *up, size_t len, pd_classic_trailer *t)
{
	static const char *const names[4] = { "Classes:", "Objects:", "ObjectArrays:", "PrimitiveArrays:" };
	const char *p = (const char *)up, *end = p + len;
	uint64_t v[4];
	int i;
	p = expect(p, end, "// Breakdown -");
	if (!p)
		return -1;
	for (i = 0; i < 4; i++) {
		p = i > 0 ? after_mark(p, end, ',') : skip_spaces(p, end);
		if (!p || !(p = expect(p, end, names[i])))
			return -1;
		if (p < end && *p != ' ')
			t->bd_compact = 1;
		p = skip_spaces(p, end);
		p = pd_parse_dec(p, end, &v[i]);
		if (!p)
			return -1;
	}
	if (skip_spaces(p, end) != end)
		return -1;
	t->classes = v[0];
	t->objects = v[1];
	t->arrays = v[2];
	t->prims = v[3];
	t->has_breakdown = 1;
	return 0;
}

int pd_classic_parse_eof(const unsigned char *up, size_t len, pd_classic_trailer *t)
{
	const char *p = (const char *)up, *end = p + len, *q;
	p = expect(p, end, "// EOF:");
	if (!p)
		return -1;
	q = skip_spaces(p, end);
	if (q - p == 1)
		t->eof_compact = 1;
	p = expect(q, end, "Total 'Objects',Refs(null)");
	if (!p)
		return -1;
	/* ": total, refs (nulls)" */
	static const char marks[3] = { ':', ',', '(' };
	uint64_t *values[3] = { &t->total, &t->refs, &t->nulls };
	for (int i = 0; i < 3; i++)
		if (!(p = after_mark(p, end, marks[i])) || !(p = pd_parse_dec(p, end, values[i])))
			return -1;
	if (!(p = after_mark(p, end, ')')) || p != end)
		return -1;
	t->has_eof = 1;
	return 0;
}

int pd_classic_format_trailer(char *buf, size_t cap, int compact, uint64_t classes, uint64_t objects,
                              uint64_t arrays, uint64_t prims, uint64_t refs, uint64_t nulls)
{
	unsigned long long total = (unsigned long long)(classes + objects + arrays + prims);
	if (compact)
		return snprintf(buf, cap,
		                "// Breakdown - Classes:%llu, Objects:%llu, ObjectArrays:%llu, PrimitiveArrays:%llu\n"
		                "// EOF: Total 'Objects',Refs(null) :%llu,%llu(%llu)",
		                (unsigned long long)classes, (unsigned long long)objects, (unsigned long long)arrays,
		                (unsigned long long)prims, total, (unsigned long long)refs, (unsigned long long)nulls);
	return snprintf(buf, cap,
	                "// Breakdown - Classes: %llu, Objects: %llu, ObjectArrays: %llu, PrimitiveArrays: %llu\n"
	                "// EOF:  Total 'Objects',Refs(null) : %llu,%llu(%llu)",
	                (unsigned long long)classes, (unsigned long long)objects, (unsigned long long)arrays,
	                (unsigned long long)prims, total, (unsigned long long)refs, (unsigned long long)nulls);
}

static int letter_type(char c)
{
	switch (c) {
	case 'Z': return PROFDATA_TYPE_BOOLEAN;
	case 'C': return PROFDATA_TYPE_CHAR;
	case 'F': return PROFDATA_TYPE_FLOAT;
	case 'D': return PROFDATA_TYPE_DOUBLE;
	case 'B': return PROFDATA_TYPE_BYTE;
	case 'S': return PROFDATA_TYPE_SHORT;
	case 'I': return PROFDATA_TYPE_INT;
	case 'J': return PROFDATA_TYPE_LONG;
	default: return 0;
	}
}

char pd_classic_type_letter(int type)
{
	switch (type) {
	case PROFDATA_TYPE_BOOLEAN: return 'Z';
	case PROFDATA_TYPE_CHAR: return 'C';
	case PROFDATA_TYPE_FLOAT: return 'F';
	case PROFDATA_TYPE_DOUBLE: return 'D';
	case PROFDATA_TYPE_BYTE: return 'B';
	case PROFDATA_TYPE_SHORT: return 'S';
	case PROFDATA_TYPE_INT: return 'I';
	case PROFDATA_TYPE_LONG: return 'J';
	default: return 0;
	}
}

int pd_classic_type_kind(const char *name, size_t len, uint8_t *elem_type)
{
	*elem_type = 0;
	if (len < 2 || name[0] != '[')
		return PROFDATA_OBJECT_INSTANCE;
	if (len == 2 && letter_type(name[1])) {
		*elem_type = (uint8_t)letter_type(name[1]);
		return PROFDATA_OBJECT_PRIM_ARRAY;
	}
	return PROFDATA_OBJECT_ARRAY;
}

int pd_classic_map_get(const pd_classic_map *m, uint64_t key, uint32_t *val)
{
	uint32_t v = pd_map_get(&m->map, key);
	if (!v)
		return 0;
	*val = v - 1;
	return 1;
}

int pd_classic_map_put(pd_classic_map *m, uint64_t key, uint32_t val)
{
	if (val == UINT32_MAX)
		return PROFDATA_ENOMEM;
	return pd_map_put(&m->map, key, val + 1);
}

void pd_classic_map_free(pd_classic_map *m)
{
	pd_map_free(&m->map);
}

static const char *const classic_read_options[] = { "variant", NULL };
static const char *const classic_write_options[] = { "style", "word_size", "line_end", "layout", NULL };

/* No file ending: OpenJ9 names them heapdump.*.txt, and .txt says nothing of the format. */
const struct profdata_format pd_format_ibm_classic = {
	.name = "ibm-classic",
	.description = "IBM classic (text) heapdump, as OpenJ9 and jdmpview write it",
	.bid = classic_bid,
	.decode = pd_classic_decode,
	.encoder_new = pd_classic_encoder_new,
	.read_options = classic_read_options,
	.write_options = classic_write_options,
};
