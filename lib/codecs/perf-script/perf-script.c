/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `perf script` output (Linux perf's samples as text), read only: the
 * descriptor and the bid. header.c reads a sample's first line, frame.c a
 * frame's, decode.c the rest. See doc/formats-perf-script.md.
 */
#include <string.h>

#include "codecs/perf-script/perf_script.h"

extern const struct profdata_format pd_format_perf_script;

/*
 * The first sample: a first line with a time and an event ("prog 12097
 * 972.209483: 500000 cpu-clock:"), then a frame on a TAB-led line, a blank
 * line or the next sample's first line. perf script --header's '#' lines
 * may come first. Output whose -F leaves out the time or the event is
 * read with --from perf-script.
 */
int pd_ps_bid(const unsigned char *buf, size_t len)
{
	const unsigned char *p = buf, *end = buf + len, *nl;
	ps_header h;
	while ((nl = memchr(p, '\n', (size_t)(end - p))) && p[0] == '#')
		p = nl + 1;
	if (!nl || nl == p || p[0] == '\t' || !pd_ps_parse_header(p, (size_t)(nl - p), &h) || !h.has_time ||
	    !h.event.n)
		return 0;
	p = nl + 1;
	if (p == end || p[0] == '\n')
		return 50;
	if (p[0] != '\t')
		return h.rest.n && pd_ps_is_frame(h.rest.p, h.rest.n) ? 50 : 0;
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	nl = memchr(p, '\n', (size_t)(end - p));
	return pd_ps_is_frame(p, nl ? (size_t)(nl - p) : (size_t)(end - p)) ? 70 : 0;
}

const struct profdata_format pd_format_perf_script = {
	.name = "perf-script",
	.description = "perf script output (Linux perf samples as text; read only)",
	.extensions = (const char *const[]){ ".perf", ".perf-script", NULL },
	.bid = pd_ps_bid,
	.decode = pd_ps_decode,
};
