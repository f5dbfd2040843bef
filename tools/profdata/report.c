/* SPDX-License-Identifier: Apache-2.0 */
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int usage_error(const tool_command *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("profdata: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (c)
		fprintf(stderr, "\n(profdata help %s says what it takes)\n", c->name);
	else
		fputs("\n(profdata help lists the commands)\n", stderr);
	return EXIT_USAGE;
}

/*
 * The message without the place report() already gives: decoders may repeat
 * the error's own offset ("... at offset N") or line ("ibm-classic: line L: ...").
 */
static const char *unplaced_message(const profdata_error *e, char *buf, size_t cap)
{
	const char *m = e->message ? e->message : "";
	char line[48];
	if (e->line) {
		snprintf(line, sizeof(line), "line %llu: ", (unsigned long long)e->line);
		const char *colon = strstr(m, ": ");
		if (strncmp(m, line, strlen(line)) == 0)
			m += strlen(line);
		else if (colon && !memchr(m, ' ', (size_t)(colon - m)) && strncmp(colon + 2, line, strlen(line)) == 0)
			m = colon + 2 + strlen(line);
	}
	snprintf(buf, cap, "%s", m);
	if (e->offset != UINT64_MAX) {
		char at[48];
		snprintf(at, sizeof(at), " at offset %llu", (unsigned long long)e->offset);
		char *hit = strstr(buf, at);
		size_t n = strlen(at);
		/* Only the whole number: "at offset 49" is not "at offset 499". */
		if (hit && (hit[n] < '0' || hit[n] > '9'))
			memmove(hit, hit + n, strlen(hit + n) + 1);
	}
	return buf;
}

static void report_as(const char *prefix, const char *what, const profdata_error *e, int code)
{
	if (!e) {
		fprintf(stderr, "profdata: %s%s: %s\n", prefix, what, profdata_strerror(code));
		return;
	}
	char text[2048];
	fprintf(stderr, "profdata: %s%s: ", prefix, e->name && *e->name ? e->name : what);
	if (e->line)
		fprintf(stderr, "line %llu%s", (unsigned long long)e->line, e->offset != UINT64_MAX ? ", " : ": ");
	if (e->offset != UINT64_MAX)
		fprintf(stderr, "byte %llu: ", (unsigned long long)e->offset);
	fprintf(stderr, "%s\n", unplaced_message(e, text, sizeof(text)));
}

void report(const char *what, const profdata_error *e, int code)
{
	report_as("", what, e, code);
}

void report_warnings(int quiet, profdata_reader *r, profdata_writer *w)
{
	if (quiet)
		return;
	size_t n = r ? profdata_reader_warning_count(r) : 0;
	for (size_t i = 0; i < n; i++) {
		const profdata_error *e = profdata_reader_warning(r, i);
		if (!e) {
			fprintf(stderr, "profdata: ... and %zu more warnings\n", n - i);
			break;
		}
		report_as("warning: ", "input", e, 0);
	}
	n = w ? profdata_writer_warning_count(w) : 0;
	for (size_t i = 0; i < n; i++) {
		const profdata_error *e = profdata_writer_warning(w, i);
		if (!e)
			break;
		report_as("warning: ", "output", e, 0);
	}
}

int failure_status(int code)
{
	return code == PROFDATA_EINVAL ? EXIT_USAGE : EXIT_INVALID;
}

int finish_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "profdata: cannot write the output: %s\n", strerror(errno));
		return EXIT_INVALID;
	}
	return status;
}
