/* SPDX-License-Identifier: Apache-2.0 */
#include "codecs/folded/chain.h"

#include <string.h>

#include "internal.h"
#include "util/hashmap.h"
#include "util/numtext.h"

int pd_folded_last_count(const unsigned char *s, const unsigned char **end, int64_t *v)
{
	const unsigned char *e = *end, *p = e;
	uint64_t u;
	while (p > s && (unsigned)(p[-1] - '0') < 10)
		p--;
	if (p == e || p == s || (p[-1] != ' ' && p[-1] != '\t') || pd_parse_dec_len(p, e, &u) != (size_t)(e - p) ||
	    u > INT64_MAX)
		return 0;
	*v = (int64_t)u;
	p--;
	while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	*end = p;
	return 1;
}

int pd_folded_split(const unsigned char *s, const unsigned char *end, uint32_t **ends, size_t *cap, size_t first,
                    size_t *n, const unsigned char **bad)
{
	size_t k = first;
	for (const unsigned char *p = s;; p++) {
		const unsigned char *semi = memchr(p, ';', (size_t)(end - p));
		if ((semi ? semi : end) == p) {
			*bad = p;
			return 1;
		}
		if (k == *cap && pd_grow((void **)ends, cap, k + 1, sizeof **ends))
			return PROFDATA_ENOMEM;
		(*ends)[k++] = (uint32_t)((semi ? semi : end) - s);
		if (!semi) {
			*n = k - first;
			return 0;
		}
		p = semi;
	}
}

uint64_t pd_folded_chain_hash(uint64_t seed, const uint64_t *hashes, size_t n)
{
	uint64_t h = seed;
	for (size_t j = 0; j < n; j++)
		h = pd_hash_mum(h ^ hashes[j], seed ^ 0x9e3779b97f4a7c15ULL);
	return pd_hash64(h ^ n);
}
