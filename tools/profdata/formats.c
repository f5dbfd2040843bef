/* SPDX-License-Identifier: Apache-2.0 */
#include "formats.h"

#include <string.h>

#include <profdata/profdata.h>

#include "commands.h"
#include "report.h"

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

/* Whether `name` ends with `ending`, and is more than it. */
static int ends_with(const char *name, const char *ending)
{
	size_t n = strlen(name), e = strlen(ending);
	return n > e && strcmp(name + n - e, ending) == 0;
}

/* Whether one of `endings` ends `name`. */
static int ends_with_any(const char *name, const char *const *endings)
{
	for (; *endings; endings++)
		if (ends_with(name, *endings))
			return 1;
	return 0;
}

/*
 * Each format whose ending is `tail` (only_whole), as "FORMAT", or each
 * writable format's ending that ends with it, as ".ENDING (FORMAT)"; after ", ".
 */
static void formats_ending_in(const char *tail, int only_whole, char *buf, size_t cap)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < profdata_format_count() && n < cap; i++) {
		const profdata_format *f = profdata_format_at(i);
		for (const char *const *e = profdata_format_extensions(f); *e && n < cap; e++) {
			if (only_whole ? strcmp(*e, tail) != 0 : !ends_with(*e, tail) || !profdata_format_can_write(f))
				continue;
			if (only_whole)
				n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", profdata_format_name(f));
			else
				n += (size_t)snprintf(buf + n, cap - n, "%s%s (%s)", n ? ", " : "", *e, profdata_format_name(f));
		}
	}
}

/* Several formats claim OUT's ending: which, and how to choose. */
static int ambiguous_ending(const tool_args *a, const char *out)
{
	const char *ending = NULL;
	char formats[256];
	for (size_t i = 0; i < profdata_format_count(); i++)
		for (const char *const *e = profdata_format_extensions(profdata_format_at(i)); *e; e++)
			if (ends_with(out, *e) && (!ending || strlen(*e) > strlen(ending)))
				ending = *e;
	formats_ending_in(ending ? ending : out, 1, formats, sizeof formats);
	return usage_error(a->command, "'%s' could be several formats (%s): %s needs --to FORMAT",
	                   ending ? ending : out, formats, a->command->name);
}

/* No format claims OUT's ending: the endings that end as it does ("x.json": .speedscope.json...), or all. */
static int unclaimed_ending(const tool_args *a, const char *out)
{
	const char *slash = strrchr(out, '/');
	const char *dot = strrchr(slash ? slash + 1 : out, '.');
	char alike[512];
	formats_ending_in(dot && dot[1] ? dot : "", 0, alike, sizeof alike);
	if (dot && dot[1] && alike[0])
		return usage_error(a->command, "%s needs --to FORMAT: no format claims the ending %s; these end in it: %s",
		                   a->command->name, dot, alike);
	formats_ending_in("", 0, alike, sizeof alike);
	return usage_error(a->command, "%s needs --to FORMAT, or an OUT with a format's ending: %s",
	                   a->command->name, alike);
}

/*
 * The output format OUT's name asks for, by the library's endings: 0 and *to,
 * or the exit status having said why. A ".gz" after the format's own ending
 * ("dump.hprof.gz") asks for gzip as well: *gzip then says at what level.
 */
int format_from_name(const tool_args *a, const char *out, const char **to, long *gzip)
{
	const profdata_format *f = NULL;
	int e = profdata_format_for_filename(&f, out);
	if (e == PROFDATA_EINVAL)
		return ambiguous_ending(a, out);
	if (e < 0)
		return unclaimed_ending(a, out);
	*to = profdata_format_name(f);
	if (!format_usable(*to, 1))
		return EXIT_USAGE;
	if (!*gzip && !ends_with_any(out, profdata_format_extensions(f)))
		*gzip = option_at(OPT_GZIP)->implied;
	if (!a->quiet)
		fprintf(stderr, "profdata: writing %s as %s%s (from its name; --to chooses another)\n", out, *to,
		        *gzip && !a->gzip ? ", gzip'd" : "");
	return 0;
}
