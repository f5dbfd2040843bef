/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF agent's text output (java.hprof.txt): the codec descriptor,
 * the bid, diagnostics and the pieces of syntax every section uses.
 */
#include <string.h>

#include "hprof_text.h"
#include "util/numtext.h"

/* "JAVA PROFILE 1.0.x, created": the agent's first line; the binary format has a NUL after the version. */
static int hprof_text_bid(const unsigned char *buf, size_t len)
{
	static const char prefix[] = "JAVA PROFILE 1.0.";
	static const char created[] = ", created";
	size_t n = sizeof prefix - 1;
	if (len < n + 1 || memcmp(buf, prefix, n) != 0 || buf[n] < '0' || buf[n] > '9')
		return 0;
	n++;
	if (len < n + sizeof created - 1)
		return len == n || buf[n] == ',' ? 30 : 0;
	return memcmp(buf + n, created, sizeof created - 1) == 0 ? 100 : 0;
}

int pd_ht_error(ht_decoder *d, int code, const char *what)
{
	return pd_in_error_line(d->r, code, d->ln.loff, d->ln.lineno, "hprof-text: %s", what);
}

int pd_ht_damage(ht_decoder *d, int code, const char *what)
{
	return pd_in_damage(d->r, d->mode, code, d->ln.loff, d->ln.lineno, "hprof-text: %s", what);
}

/* Past the spaces and TABs at p; NULL stays NULL, as in every helper here, so that they chain. */
const char *pd_ht_spaces(const char *p, const char *end)
{
	while (p && p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Past `lit` at p, or NULL. */
const char *pd_ht_lit(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if (!p || (size_t)(end - p) < n || memcmp(p, lit, n) != 0)
		return NULL;
	return p + n;
}

const char *pd_ht_hex(const char *p, const char *end, uint64_t *v)
{
	return p ? pd_parse_hex(p, end, v) : NULL;
}

const char *pd_ht_dec(const char *p, const char *end, uint64_t *v)
{
	return p ? pd_parse_dec(p, end, v) : NULL;
}

/* A decimal number that fits 32 bits (serials, counts of the binary format). */
const char *pd_ht_u32(const char *p, const char *end, uint32_t *v)
{
	uint64_t x;
	p = pd_ht_dec(p, end, &x);
	if (!p || x > UINT32_MAX)
		return NULL;
	*v = (uint32_t)x;
	return p;
}

/* Past "KEY" and an '=' with optional spaces around it ("id = 200001", "trace=300000"), or NULL. */
const char *pd_ht_key(const char *p, const char *end, const char *key)
{
	p = pd_ht_lit(pd_ht_spaces(p, end), end, key);
	if (!p)
		return NULL;
	p = pd_ht_spaces(p, end);
	if (p == end || *p != '=')
		return NULL;
	return pd_ht_spaces(p + 1, end);
}

int pd_ht_push_id(ht_decoder *d, uint64_t v)
{
	if (PD_UNLIKELY(d->nids == d->ids_cap)) {
		int rc = pd_grow((void **)&d->ids, &d->ids_cap, d->nids + 1, sizeof *d->ids);
		if (rc < 0)
			return rc;
	}
	d->ids[d->nids++] = v;
	return 0;
}

int pd_ht_push_at(ht_decoder *d, uint64_t index, uint64_t v)
{
	int rc;
	d->nulls += index - d->nids;
	if (index - d->nids > d->ln.loff + HT_GAP_SLACK ||
	    d->nulls > d->ln.loff * HT_NULLS_PER_BYTE + HT_GAP_SLACK)
		return pd_ht_error(d, PROFDATA_ELIMIT, "more nulls left out between references (array elements or "
		                   "fields) than the text read so far can justify");
	while (d->nids < index)
		if ((rc = pd_ht_push_id(d, 0)) < 0)
			return rc;
	return pd_ht_push_id(d, v);
}

static const char *const hprof_text_read_options[] = {
	"interval", /* the sampling interval in milliseconds (the agent's interval=; default 10): meta.period */
	NULL
};

/* No file ending: the agent names it java.hprof.txt, and .txt says nothing of the format. */
const struct profdata_format pd_format_hprof_text = {
	.name = "hprof-text",
	.description = "the HPROF agent's text output (java.hprof.txt: traces, CPU samples and times, sites, heap dump)",
	.bid = hprof_text_bid,
	.decode = pd_hprof_text_decode,
	.write_model = pd_hprof_text_write_model,
	.write_model_heap = 1,
	.read_options = hprof_text_read_options,
};
