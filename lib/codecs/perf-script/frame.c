/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A `perf script` frame and its source line. The DSO is the parenthesised
 * group that ends the line, found by counting parentheses back from the
 * end, so that C++ symbols with their parameter lists and a deleted DSO's
 * "(/tmp/x (deleted))" keep theirs; the symbol is what lies between the
 * address and it, its "+0x..." offset dropped (a function is one frame of a
 * flame graph however many of its instructions were sampled).
 */
#include <string.h>

#include "codecs/perf-script/perf_script.h"
#include "util/numtext.h"

static int span_is(ps_span s, const char *t)
{
	return s.n == strlen(t) && memcmp(s.p, t, s.n) == 0;
}

/* The group "(...)" ending [s, s + *n) with what is inside it in *in, *n cut before it: 1, else 0. */
static int trailing_group(const unsigned char *s, size_t *n, ps_span *in)
{
	size_t i = *n, depth = 0;
	if (i == 0 || s[i - 1] != ')')
		return 0;
	while (i-- > 0) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			break;
	}
	if (i == (size_t)-1 || (i > 0 && s[i - 1] != ' '))
		return 0;
	in->p = s + i + 1;
	in->n = *n - i - 2;
	*n = i;
	while (*n && s[*n - 1] == ' ')
		(*n)--;
	return 1;
}

/* Drop "+0xHEX" from the end of the symbol. */
static void drop_offset(ps_span *sym)
{
	uint64_t v;
	for (size_t i = sym->n; i-- > 0;) {
		if (sym->p[i] == '+') {
			size_t k = i + 3;
			if (k < sym->n && sym->p[i + 1] == '0' && sym->p[i + 2] == 'x' &&
			    pd_parse_hex_len(sym->p + k, sym->p + sym->n, &v) == sym->n - k)
				sym->n = i;
			return;
		}
		if (sym->p[i] == ' ' || sym->p[i] == ')')
			return;
	}
}

/* The length of the address that starts a frame line, 0 when it does not start with one. */
static size_t address_len(const unsigned char *s, size_t n, uint64_t *address)
{
	size_t k = pd_parse_hex_len(s, s + n, address);
	return k == 0 || (k < n && s[k] != ' ') ? 0 : k;
}

int pd_ps_is_frame(const unsigned char *s, size_t n)
{
	uint64_t address;
	return address_len(s, n, &address) != 0;
}

int pd_ps_parse_frame(const unsigned char *s, size_t n, ps_frame *f)
{
	ps_span in;
	memset(f, 0, sizeof *f);
	size_t k = address_len(s, n, &f->address);
	if (k == 0)
		return 0;
	f->has_address = 1;
	while (k < n && s[k] == ' ')
		k++;
	s += k;
	n -= k;
	if (trailing_group(s, &n, &in)) {
		if (span_is(in, "inlined"))
			f->inlined = 1;
		else if (!span_is(in, "unknown") && !span_is(in, "[unknown]"))
			f->dso = in;
	}
	f->sym.p = s;
	f->sym.n = n;
	drop_offset(&f->sym);
	if (span_is(f->sym, "[unknown]"))
		f->sym.n = 0;
	return 1;
}

/* "FILE:LINE" at [s, s + n): the position of the ':' (0 when it is not one) and the line. */
static size_t file_and_line(const unsigned char *s, size_t n, uint64_t *line)
{
	size_t i = n;
	while (i > 0 && (unsigned)(s[i - 1] - '0') < 10)
		i--;
	if (i == n || i == 0 || s[i - 1] != ':' || pd_parse_dec_len(s + i, s + n, line) != n - i)
		return 0;
	return i - 1 + (i - 1 == 0); /* ":0" (no file) keeps a non-zero answer */
}

static size_t without_inlined(const unsigned char *s, size_t n, int *inlined)
{
	static const char mark[] = " (inlined)";
	size_t m = sizeof mark - 1;
	*inlined = n > m && memcmp(s + n - m, mark, m) == 0;
	return *inlined ? n - m : n;
}

/*
 * "FILE:LINE", or what perf prints when it has no line ("??:0", or
 * "DSO[ADDRESS]" for a binary without debugging information): one word,
 * where a sample's first line (which -G indents too) has several.
 */
int pd_ps_is_srcline(const unsigned char *s, size_t n)
{
	int inlined;
	n = without_inlined(s, n, &inlined);
	return n > 0 && !memchr(s, ' ', n) && !memchr(s, '\t', n);
}

void pd_ps_parse_srcline(const unsigned char *s, size_t n, ps_frame *f)
{
	uint64_t line = 0;
	int inlined;
	n = without_inlined(s, n, &inlined);
	size_t colon = file_and_line(s, n, &line);
	f->inlined |= inlined;
	f->line = line <= INT32_MAX ? (int32_t)line : 0;
	if (colon == 1 && s[0] == ':')
		colon = 0;
	f->file.p = s;
	f->file.n = colon;
	if (f->file.n == 2 && memcmp(s, "??", 2) == 0)
		f->file.n = 0;
}
