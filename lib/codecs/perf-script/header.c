/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A `perf script` sample's first line. perf prints its fields in one order
 * (comm, pid/tid, [cpu], time:, period, event:, then the sample's IP, symbol
 * and DSO when there is no call chain), each only when -F chose it, and a
 * command name may hold spaces ("Web Content"). So the line is cut into
 * words and the fields are found around the time ("972.209483:"), which no
 * other field looks like: the pid before it (the cpu between), the period
 * and event after it, the command everything before the pid. Without a time
 * the pid is the first number after the first word.
 */
#include <string.h>

#include "codecs/perf-script/perf_script.h"
#include "util/numtext.h"

#define HEADER_WORDS 32

static int all_digits(ps_span w)
{
	uint64_t v;
	return w.n > 0 && pd_parse_dec_len(w.p, w.p + w.n, &v) == w.n;
}

/* "SECONDS.FRACTION:" into nanoseconds: 1 when it is one. */
static int time_word(ps_span w, uint64_t *ns)
{
	uint64_t sec, frac;
	size_t i = pd_parse_dec_len(w.p, w.p + w.n, &sec), j;
	if (i == 0 || i + 2 > w.n || w.p[i] != '.' || w.p[w.n - 1] != ':')
		return 0;
	j = pd_parse_dec_len(w.p + i + 1, w.p + w.n - 1, &frac);
	if (j == 0 || j > 9 || i + 1 + j != w.n - 1 || sec > UINT64_MAX / 1000000000u - 1)
		return 0;
	for (; j < 9; j++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return 1;
}

/* "PID/TID" or "TID": 1 when it is one, the parts in h. */
static int pid_word(ps_span w, ps_header *h)
{
	const unsigned char *slash = memchr(w.p, '/', w.n);
	ps_span a = { w.p, slash ? (size_t)(slash - w.p) : w.n }, b = { slash ? slash + 1 : w.p, 0 };
	if (slash)
		b.n = w.n - a.n - 1;
	if (!all_digits(a) || (slash && !all_digits(b)))
		return 0;
	if (slash) {
		h->pid = a;
		h->tid = b;
	} else {
		h->tid = a;
	}
	return 1;
}

static int cpu_word(ps_span w)
{
	ps_span in = { w.p + 1, w.n - 2 };
	return w.n >= 3 && w.p[0] == '[' && w.p[w.n - 1] == ']' && all_digits(in);
}

static size_t split_words(const unsigned char *s, size_t n, ps_span *w, size_t max)
{
	size_t k = 0, i = 0;
	while (k < max) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			break;
		w[k].p = s + i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		w[k].n = (size_t)(s + i - w[k].p);
		k++;
	}
	return k;
}

/* Where the pid is (or would be, before the time) and the first word after those fields; -1 none. */
static int find_pid(ps_span *w, size_t nw, ps_header *h, size_t *next)
{
	size_t t = 0;
	while (t < nw && !time_word(w[t], &h->time_ns))
		t++;
	if (t < nw) {
		h->has_time = 1;
		*next = t + 1;
		size_t p = t > 0 && cpu_word(w[t - 1]) ? t - 1 : t;
		return p > 0 && pid_word(w[p - 1], h) ? (int)p - 1 : (int)p;
	}
	for (size_t i = nw > 1 ? 1 : 0; i < nw; i++)
		if (pid_word(w[i], h)) {
			*next = i + 1 < nw && cpu_word(w[i + 1]) ? i + 2 : i + 1;
			return (int)i;
		}
	return -1;
}

int pd_ps_parse_header(const unsigned char *s, size_t n, ps_header *h)
{
	ps_span w[HEADER_WORDS];
	size_t nw = split_words(s, n, w, HEADER_WORDS), next = 0;
	memset(h, 0, sizeof *h);
	int p = find_pid(w, nw, h, &next);
	if (p < 0 || (!h->has_time && !h->tid.n))
		return 0;
	if (p > 0) {
		h->comm.p = w[0].p;
		h->comm.n = (size_t)(w[p - 1].p + w[p - 1].n - w[0].p);
	}
	if (next < nw && all_digits(w[next]) && pd_parse_dec_len(w[next].p, w[next].p + w[next].n, &h->period)) {
		h->has_period = 1;
		next++;
	}
	if (next < nw && w[next].n > 1 && w[next].p[w[next].n - 1] == ':') {
		h->event.p = w[next].p;
		h->event.n = w[next].n - 1;
		next++;
	}
	if (next < nw) {
		h->rest.p = w[next].p;
		h->rest.n = (size_t)(s + n - w[next].p);
		while (h->rest.n && (h->rest.p[h->rest.n - 1] == ' ' || h->rest.p[h->rest.n - 1] == '\t'))
			h->rest.n--;
	}
	return 1;
}
