/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The baseline of the tracexml benchmark: expat alone, counting the
 * elements of a file read in 64 KiB pieces (the same push parsing the
 * decoder does), with nothing done per element but a count. A missing
 * closing root tag (the agent's layout) is not an error here either.
 */
#include <stdio.h>
#include <stdlib.h>

#include <expat.h>

static void XMLCALL on_start(void *count, const XML_Char *name, const XML_Char **atts)
{
	(void)name;
	(void)atts;
	++*(unsigned long long *)count;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	unsigned long long count = 0;
	FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
	XML_Parser p = XML_ParserCreate(NULL);
	if (!f || !p) {
		fprintf(stderr, "usage: bare-expat FILE\n");
		return 2;
	}
	XML_SetUserData(p, &count);
	XML_SetStartElementHandler(p, on_start);
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		if (XML_Parse(p, buf, (int)n, XML_FALSE) == XML_STATUS_ERROR) {
			fprintf(stderr, "bare-expat: %s at line %lu\n", XML_ErrorString(XML_GetErrorCode(p)),
			        (unsigned long)XML_GetCurrentLineNumber(p));
			return 1;
		}
	printf("%llu elements\n", count);
	XML_ParserFree(p);
	fclose(f);
	return 0;
}
