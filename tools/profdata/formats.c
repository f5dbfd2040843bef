/* SPDX-License-Identifier: Apache-2.0 */
#include "formats.h"

#include <string.h>

#include <profdata/profdata.h>

static int usable(const profdata_format *f, int writing)
{
	return writing ? profdata_format_can_write(f) : profdata_format_can_read(f);
}

void format_names(FILE *to, int writing, const char *sep)
{
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		if (usable(f, writing))
			fprintf(to, "%s%s", sep, profdata_format_name(f));
	}
}

void format_endings(FILE *to, const char *sep)
{
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		if (!profdata_format_can_write(f))
			continue;
		for (const char *const *ending = profdata_format_extensions(f); *ending; ending++)
			fprintf(to, "%s%s", sep, *ending);
	}
}

/* A name the build left out is told apart from a typo: the library says what the build lacked. */
int format_usable(const char *name, int writing)
{
	const profdata_format *f = profdata_format_find(name);
	const char *missing = f ? NULL : profdata_format_missing(name);
	if (f && usable(f, writing))
		return 1;
	if (f)
		fprintf(stderr, "profdata: %s: this build only %s it\n", name, writing ? "reads" : "writes");
	else if (missing)
		fprintf(stderr, "profdata: %s: left out of this build; it needs %s\n", name, missing);
	else
		fprintf(stderr, "profdata: %s: not a format profdata knows\n", name);
	fprintf(stderr, "profdata: this build %s:", writing ? "writes" : "reads");
	format_names(stderr, writing, " ");
	fputc('\n', stderr);
	return 0;
}
