/* SPDX-License-Identifier: Apache-2.0 */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int progress_wanted(int quiet)
{
	return !quiet && isatty(2);
}

static void show_bytes(uint64_t done, uint64_t total)
{
	if (total)
		fprintf(stderr, "\r%llu / %llu MB (%d%%)  ", (unsigned long long)(done >> 20),
		        (unsigned long long)(total >> 20), (int)(done * 100 / total));
	else
		fprintf(stderr, "\r%llu MB  ", (unsigned long long)(done >> 20));
}

int progress_show(void *line, const char *phase, uint64_t done, uint64_t total)
{
	((progress_line *)line)->shown = 1;
	if (strcmp(phase, "read") == 0)
		show_bytes(done, total);
	else if (total)
		fprintf(stderr, "\r%s: %llu / %llu objects (%d%%)  ", phase, (unsigned long long)done,
		        (unsigned long long)total, (int)(done * 100 / total));
	else
		fprintf(stderr, "\r%s  ", phase);
	return 0;
}

void progress_end(progress_line *line)
{
	if (line->shown)
		fputs("\r\033[K", stderr);
	line->shown = 0;
}
