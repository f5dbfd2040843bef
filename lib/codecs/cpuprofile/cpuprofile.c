/* SPDX-License-Identifier: Apache-2.0 */
/*
 * V8's CPU profile (.cpuprofile: `node --cpu-prof`, Chrome DevTools' "Save
 * profile"), also as Chrome's trace-event JSON carries it (Profile and
 * ProfileChunk events), read only. See doc/formats-cpuprofile.md.
 *
 * This file: the descriptor and the bid; decode.c reads the JSON, emit.c
 * makes the events.
 */
#include <string.h>

#include "codecs/cpuprofile/cpuprofile.h"

extern const struct profdata_format pd_format_cpuprofile;

static int has(const unsigned char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i + n <= len; i++)
		if (buf[i] == (unsigned char)s[0] && memcmp(buf + i, s, n) == 0)
			return 1;
	return 0;
}

/*
 * JSON that opens with an object or array and, in the bytes seen, names a
 * call frame (a .cpuprofile begins with its nodes) or a Profile event.
 */
static int cpuprofile_bid(const unsigned char *buf, size_t len)
{
	size_t i = 0;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	if (i == len || (buf[i] != '{' && buf[i] != '['))
		return 0;
	if (has(buf, len, "\"callFrame\""))
		return 80;
	if (has(buf, len, "\"ProfileChunk\"") || has(buf, len, "\"name\":\"Profile\""))
		return 70;
	return 0;
}

const struct profdata_format pd_format_cpuprofile = {
	.name = "cpuprofile",
	.description = "V8's CPU profile (.cpuprofile; Chrome trace events with Profile chunks), read only",
	.extensions = (const char *const[]){ ".cpuprofile", NULL },
	.bid = cpuprofile_bid,
	.decode = pd_cpuprofile_decode,
};
