/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profdata: inspect, check and convert profiles and heap dumps.
 *
 * Exit status: 0 success, 1 invalid input or a failed operation, 2 usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <profdata/profdata.h>

#define EXIT_INVALID 1
#define EXIT_USAGE 2

static const char usage_text[] =
	"usage: profdata [--version] [--help] COMMAND [ARGS]\n"
	"\n"
	"commands:\n"
	"  info FILE [--json]              format, version and the model's counts\n"
	"  histo FILE [--json] [--limit N] [--dump N|all]\n"
	"                                  instances and shallow bytes per class (streaming);\n"
	"                                  a file with several dumps: the first, as VisualVM shows\n"
	"  histo FILE --retained [--json] [--limit N] [--dump N]\n"
	"                                  the same from the model, with the bytes each class retains\n"
	"  top FILE [-n N] [--json] [--dump N]\n"
	"                                  the N (default 20) biggest objects by retained size\n"
	"  path FILE OBJECT-ID [--json] [--dump N]\n"
	"                                  the shortest path from a GC root to an object\n"
	"  convert IN OUT --to FORMAT      convert; OUT is written to a temporary file and renamed\n"
	"                                  (without --to: from OUT's ending .svg, .folded, .pb.gz,\n"
	"                                  .speedscope.json, .trace.json, .hprof, .prof)\n"
	"                                  (OUT '-' is standard output, written as it goes)\n"
	"  check FILE                      strict validation: exit 0 valid, 1 invalid\n"
	"  formats                         list the formats\n"
	"\n"
	"options (where they apply):\n"
	"  --from FORMAT      do not sniff the input format\n"
	"  --strict           stop at the first problem (default for check)\n"
	"  --read-option K=V  a decoder option (repeatable)\n"
	"  --option K=V       an encoder option for convert (repeatable)\n"
	"  --gzip[=LEVEL]     gzip the output of convert\n"
	"  --via-model        convert through the in-memory model instead of streaming\n"
	"  --force            convert: replace an OUT that is read-only\n"
	"  --quiet            no warnings on stderr\n"
	"  --symbolize=WHEN   convert of a gperftools profile: name native frames from the\n"
	"                     binaries its maps list: auto (default, unless --to gperftools),\n"
	"                     yes, or none\n"
	"  --sysroot DIR      look for those binaries under DIR\n"
	"  --debug-dir DIR    look for separate debug files in DIR first\n"
	"\n"
	"'profdata formats' lists the formats this build reads and writes.\n";

typedef struct args {
	const char *cmd;
	const char *files[2];
	int nfiles;
	const char *from, *to;
	int json, strict, quiet, via_model, force;
	int gzip;
	long limit;
	long dump;
	int retained;   /* histo --retained */
	long top_n;     /* top -n */
	char ropts[1024], wopts[1024];
	const char *symbolize, *sysroot, *debug_dir; /* --symbolize=WHEN (NULL: the default), --sysroot, --debug-dir */
} args;

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int usage(const char *fmt, ...);
static int usage(const char *fmt, ...)
{
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		fputs("profdata: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputs("\n(profdata --help lists the commands and options)\n", stderr);
		va_end(ap);
		return EXIT_USAGE;
	}
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}

static int append_opt(char *buf, size_t cap, const char *kv)
{
	size_t n = strlen(buf);
	int w = snprintf(buf + n, cap - n, "%s%s", n ? "," : "", kv);
	return w < 0 || (size_t)w >= cap - n ? -1 : 0;
}

/*
 * Formats libprofdata can have, and what a build without one lacks: a name
 * the build left out is told apart from a typo.
 */
static const char *const known_formats[][2] = {
	{ "pprof", "protobuf-c (meson setup -Dpprof=enabled, with libprotobuf-c-dev and protobuf-c-compiler)" },
	{ "hprof", NULL }, { "gperftools", NULL }, { "ibm-classic", NULL }, { "folded", NULL },
};

/* 1 when `name` is a format this build reads (writing 0) or writes (1); else says why, with the list. */
static int format_usable(const char *name, int writing)
{
	const profdata_format *f = profdata_format_find(name);
	if (f && (writing ? profdata_format_can_write(f) : profdata_format_can_read(f)))
		return 1;
	const char *verb = writing ? "writes" : "reads";
	if (f)
		fprintf(stderr, "profdata: %s: this build only %s it\n", name, writing ? "reads" : "writes");
	else {
		size_t k;
		for (k = 0; k < sizeof(known_formats) / sizeof(known_formats[0]); k++)
			if (strcmp(known_formats[k][0], name) == 0)
				break;
		if (k < sizeof(known_formats) / sizeof(known_formats[0]))
			fprintf(stderr, "profdata: %s: left out of this build; it needs %s\n", name,
			        known_formats[k][1] ? known_formats[k][1] : "a build with it");
		else
			fprintf(stderr, "profdata: %s: not a format profdata knows\n", name);
	}
	fprintf(stderr, "profdata: this build %s:", verb);
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *g = profdata_format_at(i);
		if (writing ? profdata_format_can_write(g) : profdata_format_can_read(g))
			fprintf(stderr, " %s", profdata_format_name(g));
	}
	fputc('\n', stderr);
	return 0;
}

static int parse(int argc, char **argv, args *a)
{
	memset(a, 0, sizeof(*a));
	a->limit = -1;
	a->top_n = 20;
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		const char *val = NULL;
#define WANT_VALUE() \
	do { \
		if (i + 1 >= argc) \
			return usage("%s needs a value", s); \
		val = argv[++i]; \
	} while (0)
		if (strcmp(s, "--json") == 0)
			a->json = 1;
		else if (strcmp(s, "--retained") == 0)
			a->retained = 1;
		else if (strcmp(s, "-n") == 0) {
			WANT_VALUE();
			char *end;
			errno = 0;
			a->top_n = strtol(val, &end, 10);
			if (errno || end == val || *end || a->top_n < 0)
				return usage("-n takes a number");
		}
		else if (strcmp(s, "--strict") == 0)
			a->strict = 1;
		else if (strcmp(s, "--quiet") == 0)
			a->quiet = 1;
		else if (strcmp(s, "--via-model") == 0)
			a->via_model = 1;
		else if (strcmp(s, "--force") == 0)
			a->force = 1;
		else if (strcmp(s, "--gzip") == 0)
			a->gzip = 6;
		else if (strncmp(s, "--gzip=", 7) == 0) {
			char *end;
			a->gzip = (int)strtol(s + 7, &end, 10);
			if (*end || a->gzip < 1 || a->gzip > 9)
				return usage("--gzip takes a level from 1 to 9");
		} else if (strcmp(s, "--from") == 0) {
			WANT_VALUE();
			if (!format_usable(val, 0))
				return EXIT_USAGE;
			a->from = val;
		} else if (strcmp(s, "--to") == 0) {
			WANT_VALUE();
			a->to = val;
		} else if (strcmp(s, "--dump") == 0) {
			WANT_VALUE();
			char *end;
			if (strcmp(val, "all") == 0) {
				a->dump = PROFDATA_HISTOGRAM_ALL_DUMPS;
			} else {
				errno = 0;
				a->dump = strtol(val, &end, 10);
				if (errno || end == val || *end || a->dump < 0)
					return usage("--dump takes a dump number (from 0) or 'all'");
			}
		} else if (strcmp(s, "--limit") == 0) {
			WANT_VALUE();
			char *end;
			errno = 0;
			a->limit = strtol(val, &end, 10);
			if (errno || end == val || *end || a->limit < 0)
				return usage("--limit takes a number");
		} else if (strncmp(s, "--symbolize=", 12) == 0) {
			a->symbolize = s + 12;
			if (strcmp(a->symbolize, "none") != 0 && strcmp(a->symbolize, "auto") != 0 &&
			    strcmp(a->symbolize, "yes") != 0)
				return usage("--symbolize takes none, auto or yes");
		} else if (strcmp(s, "--sysroot") == 0) {
			WANT_VALUE();
			a->sysroot = val;
		} else if (strcmp(s, "--debug-dir") == 0) {
			WANT_VALUE();
			a->debug_dir = val;
		} else if (strcmp(s, "--option") == 0 || strcmp(s, "--read-option") == 0) {
			int w = s[2] == 'o';
			WANT_VALUE();
			if (append_opt(w ? a->wopts : a->ropts, sizeof(a->wopts), val) < 0)
				return usage("too many options");
		} else if (s[0] == '-' && s[1] == '-' && s[2]) {
			return usage("unknown option %s", s);
		} else if (!a->cmd) {
			a->cmd = s;
		} else if (a->nfiles < 2) {
			a->files[a->nfiles++] = s;
		} else {
			return usage("too many arguments");
		}
#undef WANT_VALUE
	}
	return 0;
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

/* One shape everywhere: "profdata: FILE: [line L, ][byte B: ]message". */
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

static void report(const char *what, const profdata_error *e, int code)
{
	report_as("", what, e, code);
}

static void warnings(const args *a, profdata_reader *r, profdata_writer *w)
{
	if (a->quiet)
		return;
	size_t n = r ? profdata_reader_warning_count(r) : 0;
	for (size_t i = 0; r && i < n; i++) {
		const profdata_error *e = profdata_reader_warning(r, i);
		if (!e) {
			fprintf(stderr, "profdata: ... and %zu more warnings\n", n - i);
			break;
		}
		report_as("warning: ", "input", e, 0);
	}
	n = w ? profdata_writer_warning_count(w) : 0;
	for (size_t i = 0; w && i < n; i++) {
		const profdata_error *e = profdata_writer_warning(w, i);
		if (!e)
			break;
		report_as("warning: ", "output", e, 0);
	}
}

static int progress(void *payload, const char *phase, uint64_t done, uint64_t total)
{
	(void)payload;
	(void)phase;
	if (total)
		fprintf(stderr, "\r%llu / %llu MB (%d%%)  ", (unsigned long long)(done >> 20),
		        (unsigned long long)(total >> 20), (int)(done * 100 / total));
	else
		fprintf(stderr, "\r%llu MB  ", (unsigned long long)(done >> 20));
	return 0;
}

static int progress_shown;

/* A bad --option/--read-option is the user's mistake (2), not bad input (1). */
static int failure_status(int code)
{
	return code == PROFDATA_EINVAL ? EXIT_USAGE : EXIT_INVALID;
}

/* Results on stdout count only if they were all written (a full disk, a closed pipe). */
static int finish_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "profdata: cannot write the output: %s\n", strerror(errno));
		return EXIT_INVALID;
	}
	return status;
}

static profdata_reader *open_input(const args *a, const char *path)
{
	profdata_reader *r;
	int e = profdata_reader_open_path(&r, path);
	if (e < 0) {
		report(path, r ? profdata_reader_error(r) : NULL, e);
		profdata_reader_free(r);
		return NULL;
	}
	if (isatty(2) && !a->quiet) {
		profdata_reader_set_progress_cb(r, progress, NULL, (uint64_t)256 << 20);
		progress_shown = 1;
	}
	return r;
}

static void end_progress(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = 0;
}

static profdata_read_options read_opts(const args *a, int strict)
{
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = a->from;
	o.mode = strict || a->strict ? PROFDATA_MODE_STRICT : PROFDATA_MODE_PERMISSIVE;
	o.options = a->ropts[0] ? a->ropts : NULL;
	return o;
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when it is not one. */
static size_t utf8_sequence(const unsigned char *p)
{
	size_t n = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 && p[0] < 0xE0 ? 2 : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	if ((n == 3 && p[0] == 0xE0 && p[1] < 0xA0) || (n == 3 && p[0] == 0xED && p[1] >= 0xA0) ||
	    (n == 4 && p[0] == 0xF0 && p[1] < 0x90) || (n == 4 && p[0] == 0xF4 && p[1] >= 0x90))
		return 0; /* overlong, surrogate, or beyond U+10FFFF */
	return n;
}

/* A JSON string: valid UTF-8 whatever the bytes (a file name may be any); others become U+FFFD. */
static void json_string(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = *p < 0x80 ? 1 : utf8_sequence(p);
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p == 0x7F)
			printf("\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", stdout);
		else
			fwrite(p, 1, n, stdout);
		p += n ? n : 1;
	}
	putchar('"');
}

static const char *const table_names[PROFDATA_TABLE_COUNT_] = {
	"strings", "classes", "objects", "roots", "dumps", "heap_infos", "threads", "functions", "frames",
	"stacks", "sample_types", "sample_groups", "samples", "alloc_sites", "heap_summaries",
	"control_settings", "mappings", "trace_events", "unknown_records", "attachments", "class_unloads",
	"class_loads", "class_dumps", "trace_contexts",
};
/* A new table kind needs its name here. */
typedef char table_names_complete[sizeof(table_names) / sizeof(table_names[0]) == PROFDATA_TABLE_COUNT_ &&
                                  PROFDATA_TABLE_TRACE_CONTEXTS + 1 == PROFDATA_TABLE_COUNT_ ? 1 : -1];

/*
 * A trace's elements by name, counted from the model (trace events, nested
 * elements and trace contexts; character data is not an element), and its
 * number of traces: what `info --json` adds for a tracexml input.
 */
static void json_trace_elements(const profdata_profile *p)
{
	static const char *const by_kind[] = { NULL, "methodEntry", "methodExit", "methodCall", "methodReturn",
	                                       "objAlloc", "objFree", "objMove", "gcStart", "gcFinish", "threadStart",
	                                       "threadEnd", "classDef", "methodDef" };
	static const char *const by_context[] = { NULL, NULL, "node", "processCreate", "agentCreate", "agentDestroy",
	                                          "traceStart", "traceEnd", "processSuspend", "processResume",
	                                          "option", "filter" };
	struct element_count { const char *name; uint64_t name_id; size_t n; } seen[256];
	size_t nseen = 0, traces = 0;
	size_t ne = profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS);
	size_t nc = profdata_profile_count(p, PROFDATA_TABLE_TRACE_CONTEXTS);
	for (size_t i = 0; i < ne + nc; i++) {
		const char *name = NULL;
		uint64_t name_id = 0;
		if (i < ne) {
			profdata_trace_event t;
			profdata_profile_trace_event(p, i, &t);
			if (t.kind < sizeof by_kind / sizeof by_kind[0] && by_kind[t.kind])
				name = by_kind[t.kind];
			else if ((name_id = t.name_id) != 0)
				name = profdata_profile_string(p, name_id, NULL);
		} else {
			profdata_trace_context c;
			profdata_profile_trace_context(p, i - ne, &c);
			traces += c.kind == PROFDATA_TRACE_CONTEXT_BEGIN;
			if (c.kind < sizeof by_context / sizeof by_context[0])
				name = by_context[c.kind];
		}
		if (!name)
			continue;
		size_t k = 0;
		while (k < nseen && (name_id ? seen[k].name_id != name_id : seen[k].name != name))
			k++;
		if (k == nseen && nseen < sizeof seen / sizeof seen[0])
			seen[nseen++] = (struct element_count){ name, name_id, 0 };
		if (k < nseen)
			seen[k].n++;
	}
	printf(",\"traces\":%zu,\"elements\":{", traces);
	for (size_t k = 0; k < nseen; k++) {
		printf("%s", k ? "," : "");
		json_string(seen[k].name);
		printf(":%zu", seen[k].n);
	}
	printf("}");
}

static int cmd_info(const args *a)
{
	if (a->nfiles != 1)
		return usage("info takes one file");
	profdata_reader *r = open_input(a, a->files[0]);
	if (!r)
		return EXIT_INVALID;
	profdata_read_options o = read_opts(a, 0);
	profdata_profile *p;
	int e = profdata_read(&p, r, &o);
	end_progress();
	if (e < 0) {
		report(a->files[0], profdata_reader_error(r), e);
		profdata_reader_free(r);
		return failure_status(e);
	}
	warnings(a, r, NULL);
	const profdata_meta *m = profdata_profile_meta(p);
	uint64_t refs = profdata_profile_reference_count(p);
	if (a->json) {
		printf("{\"file\":");
		json_string(a->files[0]);
		printf(",\"format\":");
		json_string(m->format ? m->format : "");
		printf(",\"version\":");
		json_string(m->version ? m->version : "");
		printf(",\"gzip\":%s,\"id_size\":%u,\"word_size\":%u,\"period\":%llu,\"counts\":{",
		       profdata_reader_is_gzip(r) ? "true" : "false", m->id_size, m->word_size,
		       (unsigned long long)m->period);
		for (int t = 0; t < PROFDATA_TABLE_COUNT_; t++)
			printf("%s\"%s\":%zu", t ? "," : "", table_names[t],
			       profdata_profile_count(p, (profdata_table)t));
		printf(",\"references\":%llu}", (unsigned long long)refs);
		if (profdata_profile_count(p, PROFDATA_TABLE_TRACE_CONTEXTS) ||
		    profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS))
			json_trace_elements(p);
		printf(",\"warnings\":%zu}\n", profdata_reader_warning_count(r));
	} else {
		printf("file:        %s%s\n", a->files[0], profdata_reader_is_gzip(r) ? " (gzip)" : "");
		printf("format:      %s\n", m->format ? m->format : "");
		if (m->version)
			printf("version:     %s\n", m->version);
		if (m->id_size)
			printf("id size:     %u\n", m->id_size);
		if (m->word_size)
			printf("word size:   %u (%s-endian)\n", m->word_size, m->big_endian ? "big" : "little");
		if (m->period)
			printf("period:      %llu %s\n", (unsigned long long)m->period,
			       m->period_unit ? m->period_unit : "");
		for (int t = 0; t < PROFDATA_TABLE_COUNT_; t++) {
			size_t n = profdata_profile_count(p, (profdata_table)t);
			if (n)
				printf("%-17s %zu\n", table_names[t], n);
		}
		printf("%-17s %llu\n", "references", (unsigned long long)refs);
		printf("%-17s %zu\n", "warnings", profdata_reader_warning_count(r));
		if (profdata_reader_window_peak(r))
			printf("%-17s %zu bytes (the largest record read whole from the stream)\n", "held at once",
			       profdata_reader_window_peak(r));
	}
	profdata_profile_free(p);
	profdata_reader_free(r);
	return finish_stdout(0);
}

/*
 * The input's format: --from, else what the reader's first bytes say (they
 * stay for the read: a pipe or a FIFO loses nothing, and is not opened
 * twice). NULL when nothing recognises them (the read then says why).
 */
static const char *input_format(const args *a, profdata_reader *r)
{
	const profdata_format *fmt;
	if (a->from)
		return a->from;
	return profdata_reader_sniff(r, &fmt) == 0 ? profdata_format_name(fmt) : NULL;
}

/* What the text shows, and where it came from. */
static void json_histogram(const args *a, const char *format, const profdata_histogram *h, size_t n)
{
	printf("{\"file\":");
	json_string(a->files[0]);
	printf(",\"format\":");
	if (format)
		json_string(format);
	else
		printf("null");
	if (a->dump == PROFDATA_HISTOGRAM_ALL_DUMPS)
		printf(",\"dump\":\"all\"");
	else
		printf(",\"dump\":%ld", a->dump);
	printf(",\"total_classes\":%zu,\"total_instances\":%llu,\"total_bytes\":%llu,\"classes\":[",
	       profdata_histogram_count(h), (unsigned long long)profdata_histogram_total_instances(h),
	       (unsigned long long)profdata_histogram_total_bytes(h));
	for (size_t i = 0; i < n; i++) {
		const profdata_histogram_entry *x = profdata_histogram_entry_at(h, i);
		printf("%s{\"name\":", i ? "," : "");
		json_string(x->name);
		printf(",\"instances\":%llu,\"bytes\":%llu}", (unsigned long long)x->instances,
		       (unsigned long long)x->bytes);
	}
	printf("]}\n");
}

/* An empty table would say "nothing" where the truth is "not a heap dump". */
static void refuse_empty_histogram(const args *a, const char *format)
{
	fprintf(stderr, "profdata: %s: no objects to count: the input%s%s%s holds no heap dump%s\n", a->files[0],
	        format ? " (" : "", format ? format : "", format ? ")" : "",
	        a->dump > 0 ? " with that number (--dump counts from 0)" : "");
}

#include "heap_commands.h"

static int cmd_histo(const args *a)
{
	if (a->nfiles != 1)
		return usage("histo takes one file");
	if (a->retained)
		return cmd_histo_retained(a);
	profdata_reader *r = open_input(a, a->files[0]);
	if (!r)
		return EXIT_INVALID;
	profdata_read_options o = read_opts(a, 0);
	profdata_histogram *h;
	const char *format = input_format(a, r);
	int e = profdata_histogram_read(&h, r, &o, a->dump);
	end_progress();
	if (e < 0) {
		report(a->files[0], profdata_reader_error(r), e);
		profdata_reader_free(r);
		return failure_status(e);
	}
	warnings(a, r, NULL);
	if (profdata_histogram_count(h) == 0) {
		refuse_empty_histogram(a, format);
		profdata_histogram_free(h);
		profdata_reader_free(r);
		return EXIT_INVALID;
	}
	size_t n = profdata_histogram_count(h);
	if (a->limit >= 0 && (size_t)a->limit < n)
		n = (size_t)a->limit;
	if (a->json) {
		json_histogram(a, format, h, n);
	} else {
		printf("%6s %14s %16s  %s\n", "rank", "instances", "bytes", "class");
		for (size_t i = 0; i < n; i++) {
			const profdata_histogram_entry *x = profdata_histogram_entry_at(h, i);
			printf("%6zu %14llu %16llu  %s\n", i + 1, (unsigned long long)x->instances,
			       (unsigned long long)x->bytes, x->name);
		}
		printf("%6s %14llu %16llu\n", "total", (unsigned long long)profdata_histogram_total_instances(h),
		       (unsigned long long)profdata_histogram_total_bytes(h));
	}
	profdata_histogram_free(h);
	profdata_reader_free(r);
	return finish_stdout(0);
}

static int cmd_check(const args *a)
{
	if (a->nfiles != 1)
		return usage("check takes one file");
	profdata_reader *r = open_input(a, a->files[0]);
	if (!r)
		return EXIT_INVALID;
	profdata_read_options o = read_opts(a, 1);
	/*
	 * Build the model: its checks (unique ids, objects inside dumps) are part
	 * of validity. Primitive arrays' elements are not: an HPROF stream (gzip,
	 * a pipe) reads past them rather than hold a 512 MiB array.
	 */
	char ropts[sizeof a->ropts];
	const char *format = input_format(a, r);
	memcpy(ropts, a->ropts, sizeof ropts);
	if (format && strcmp(format, "hprof") == 0 && !strstr(ropts, "primitive_data=") &&
	    append_opt(ropts, sizeof ropts, "primitive_data=0") == 0)
		o.options = ropts;
	profdata_profile *p;
	int e = profdata_read(&p, r, &o);
	end_progress();
	if (e < 0) {
		report(a->files[0], profdata_reader_error(r), e);
		profdata_reader_free(r);
		return failure_status(e);
	}
	size_t nw = profdata_reader_warning_count(r);
	warnings(a, r, NULL);
	profdata_profile_free(p);
	profdata_reader_free(r);
	if (nw) {
		fprintf(stderr, "profdata: %s: %zu problem%s\n", a->files[0], nw, nw == 1 ? "" : "s");
		return EXIT_INVALID;
	}
	if (!a->quiet)
		printf("%s: ok\n", a->files[0]);
	return 0;
}

/*
 * The output format an OUT name asks for, when its ending says one thing
 * only (longest endings first: "x.speedscope.json" is not any ".json").
 * NULL otherwise; *ambiguous then names an ending that could be several.
 */
static const char *format_from_extension(const char *out, const char **ambiguous)
{
	static const struct { const char *ending, *format; } known[] = {
		{ ".speedscope.json", "speedscope" }, { ".trace.json", "chrome-trace" }, { ".pb.gz", "pprof" },
		{ ".svg", "flamegraph" }, { ".folded", "folded" }, { ".hprof", "hprof" }, { ".prof", "gperftools" },
	};
	static const char *const unclear[] = { ".txt", ".json", ".gz" };
	size_t len = strlen(out);
	*ambiguous = NULL;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		size_t n = strlen(known[i].ending);
		if (len > n && strcmp(out + len - n, known[i].ending) == 0)
			return known[i].format;
	}
	for (size_t i = 0; i < sizeof unclear / sizeof unclear[0]; i++) {
		size_t n = strlen(unclear[i]);
		if (len > n && strcmp(out + len - n, unclear[i]) == 0)
			*ambiguous = unclear[i];
	}
	return NULL;
}

/*
 * The temporary file convert is filling, for the signal handler to remove: an
 * interrupted conversion of a large dump must not leave hundreds of MB behind.
 * The tool's one piece of global state; the library keeps none.
 */
static char *volatile temporary_output;

static void remove_temporary_and_die(int sig)
{
	char *path = temporary_output;
	if (path)
		unlink(path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void forget_temporary(void)
{
	char *path = temporary_output;
	temporary_output = NULL;
	free(path);
}

static void remove_temporary_on_signals(const profdata_writer *w)
{
	const char *tmp = profdata_writer_temp_path(w);
	char *copy = tmp ? strdup(tmp) : NULL;
	if (!copy)
		return;
	temporary_output = copy;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_temporary_and_die;
	sigemptyset(&sa.sa_mask);
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * OUT never harms a file (profdata_writer_open_file): a new OUT is no more
 * readable than IN (but writable by its owner), a read-only OUT is replaced only with --force.
 */
static int open_output(const args *a, profdata_writer **w)
{
	unsigned mode = 0666;
	struct stat st;
	if (strcmp(a->files[0], "-") != 0 && stat(a->files[0], &st) == 0 && S_ISREG(st.st_mode))
		mode = ((unsigned)st.st_mode & 0444) | 0200; /* IN's readers, and its owner may write it again */
	int e = profdata_writer_open_file(w, a->files[1], a->force ? PROFDATA_WRITER_FORCE : 0, mode);
	if (e == 0) {
		remove_temporary_on_signals(*w);
		return 0;
	}
	const profdata_error *err = *w ? profdata_writer_error(*w) : NULL;
	if (err && !a->force && strstr(err->message, "read-only"))
		fprintf(stderr, "profdata: %s: %s (--force replaces it)\n", a->files[1], err->message);
	else
		report(a->files[1], err, e);
	return e;
}

static int cmd_convert(const args *a)
{
	if (a->nfiles != 2)
		return usage("convert takes an input and an output file");
	args chosen = *a;
	if (!chosen.to) {
		const char *ambiguous;
		chosen.to = format_from_extension(a->files[1], &ambiguous);
		if (!chosen.to && ambiguous)
			return usage("'%s' could be several formats: convert needs --to FORMAT", ambiguous);
		if (!chosen.to)
			return usage("convert needs --to FORMAT (or an OUT ending in .svg, .folded, .pb.gz, "
			             ".speedscope.json, .trace.json, .hprof or .prof)");
		if (!a->quiet)
			fprintf(stderr, "profdata: writing %s as %s (from its name; --to chooses another)\n", a->files[1],
			        chosen.to);
	}
	a = &chosen;
	if (!format_usable(a->to, 1))
		return EXIT_USAGE;
	profdata_reader *r = open_input(a, a->files[0]);
	if (!r)
		return EXIT_INVALID;
	profdata_writer *w;
	int e = open_output(a, &w);
	if (e < 0) {
		profdata_writer_free(w);
		profdata_reader_free(r);
		return EXIT_INVALID;
	}
	if (a->gzip && (e = profdata_writer_set_gzip(w, a->gzip)) < 0) {
		report(a->files[1], profdata_writer_error(w), e);
		profdata_writer_free(w);
		profdata_reader_free(r);
		return EXIT_INVALID;
	}
	profdata_read_options ro = read_opts(a, 0);
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = a->to;
	wo.options = a->wopts[0] ? a->wopts : NULL;
	if (a->via_model) {
		profdata_profile *p;
		e = profdata_read(&p, r, &ro);
		if (e == 0) {
			e = profdata_write(p, w, &wo);
			profdata_profile_free(p);
		}
	} else {
		e = profdata_convert(r, &ro, w, &wo);
	}
	if (e == 0)
		e = profdata_writer_close(w);
	end_progress();
	int status = 0;
	if (e < 0) {
		const profdata_error *in_err = profdata_reader_error(r);
		if (in_err)
			report(a->files[0], in_err, e);
		else
			report(a->files[1], profdata_writer_error(w), e);
		status = failure_status(e);
	}
	warnings(a, r, w);
	profdata_writer_free(w); /* removes the temporary file unless it was renamed */
	forget_temporary();
	profdata_reader_free(r);
	return status;
}

static int cmd_formats(void)
{
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		printf("%-12s %-5s %s\n", profdata_format_name(f),
		       profdata_format_can_read(f) && profdata_format_can_write(f) ? "rw"
		       : profdata_format_can_read(f)                                ? "r"
		                                                                    : "w",
		       profdata_format_description(f));
	}
	return 0;
}

/* Whether `path` holds a gperftools profile, by the library's own sniffing of its first bytes. */
static int is_gperftools(const args *a, const char *path)
{
	if (a->from)
		return strcmp(a->from, "gperftools") == 0;
	/* Only a regular file is sniffed here: reading a FIFO or a device would take bytes the conversion needs. */
	struct stat st;
	FILE *f = strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ? NULL : fopen(path, "rb");
	unsigned char buf[4096];
	size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
	if (f)
		fclose(f);
	const profdata_format *fmt = profdata_format_sniff(buf, n);
	return fmt && strcmp(profdata_format_name(fmt), "gperftools") == 0;
}

/*
 * convert names the native frames of a gperftools profile unless told not to
 * (a rewrite to gperftools has nothing to gain): symbolize=auto names them
 * when this build can and the binaries are there, with a warning for each
 * binary that is not.
 */
static int add_symbolize_options(args *a)
{
	const char *when = a->symbolize ? a->symbolize : a->to && strcmp(a->to, "gperftools") == 0 ? "none" : "auto";
	char kv[sizeof a->ropts];
	if (strcmp(when, "none") == 0 || a->nfiles < 1 || !is_gperftools(a, a->files[0])) {
		if (a->symbolize && strcmp(a->symbolize, "none") != 0 && a->nfiles >= 1)
			fprintf(stderr, "profdata: %s: not a gperftools profile; --symbolize does nothing\n", a->files[0]);
		return 0;
	}
	snprintf(kv, sizeof kv, "symbolize=%s", strcmp(when, "yes") == 0 ? "1" : "auto");
	if (append_opt(a->ropts, sizeof a->ropts, kv) < 0)
		return usage("too many options");
	if (a->sysroot && (snprintf(kv, sizeof kv, "sysroot=%s", a->sysroot) >= (int)sizeof kv ||
	                   append_opt(a->ropts, sizeof a->ropts, kv) < 0))
		return usage("--sysroot: too long");
	if (a->debug_dir && (snprintf(kv, sizeof kv, "debug_dir=%s", a->debug_dir) >= (int)sizeof kv ||
	                     append_opt(a->ropts, sizeof a->ropts, kv) < 0))
		return usage("--debug-dir: too long");
	return 0;
}

/*
 * One rule for every command: an option or argument it does not use is
 * refused (exit 2), never ignored. --quiet applies everywhere.
 */
enum { OPT_JSON = 1, OPT_STRICT = 2, OPT_FROM = 4, OPT_TO = 8, OPT_READ_OPTION = 16, OPT_OPTION = 32,
       OPT_GZIP = 64, OPT_VIA_MODEL = 128, OPT_FORCE = 256, OPT_LIMIT = 512, OPT_DUMP = 1024,
       OPT_SYMBOLIZE = 2048, OPT_RETAINED = 4096, OPT_TOP_N = 8192 };

static int refuse_unused(const args *a)
{
	static const struct {
		const char *cmd;
		unsigned takes;
		int files;
	} rules[] = {
		{ "info", OPT_JSON | OPT_STRICT | OPT_FROM | OPT_READ_OPTION, 1 },
		{ "histo", OPT_JSON | OPT_STRICT | OPT_FROM | OPT_READ_OPTION | OPT_LIMIT | OPT_DUMP | OPT_RETAINED, 1 },
		{ "top", OPT_JSON | OPT_STRICT | OPT_FROM | OPT_READ_OPTION | OPT_DUMP | OPT_TOP_N, 1 },
		{ "path", OPT_JSON | OPT_STRICT | OPT_FROM | OPT_READ_OPTION | OPT_DUMP, 2 },
		{ "check", OPT_STRICT | OPT_FROM | OPT_READ_OPTION, 1 },
		{ "convert", OPT_STRICT | OPT_FROM | OPT_TO | OPT_READ_OPTION | OPT_OPTION | OPT_GZIP |
		             OPT_VIA_MODEL | OPT_FORCE | OPT_SYMBOLIZE, 2 },
		{ "formats", 0, 0 },
	};
	const struct {
		unsigned bit;
		int given;
		const char *name;
	} given[] = {
		{ OPT_JSON, a->json, "--json" }, { OPT_STRICT, a->strict, "--strict" },
		{ OPT_FROM, a->from != NULL, "--from" }, { OPT_TO, a->to != NULL, "--to" },
		{ OPT_READ_OPTION, a->ropts[0] != 0, "--read-option" }, { OPT_OPTION, a->wopts[0] != 0, "--option" },
		{ OPT_GZIP, a->gzip != 0, "--gzip" }, { OPT_VIA_MODEL, a->via_model, "--via-model" },
		{ OPT_FORCE, a->force, "--force" }, { OPT_LIMIT, a->limit >= 0, "--limit" },
		{ OPT_DUMP, a->dump != 0, "--dump" },
		{ OPT_RETAINED, a->retained, "--retained" }, { OPT_TOP_N, a->top_n != 20, "-n" },
		{ OPT_SYMBOLIZE, a->symbolize != NULL, "--symbolize" }, { OPT_SYMBOLIZE, a->sysroot != NULL, "--sysroot" },
		{ OPT_SYMBOLIZE, a->debug_dir != NULL, "--debug-dir" },
	};
	for (size_t r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		if (strcmp(rules[r].cmd, a->cmd) != 0)
			continue;
		for (size_t g = 0; g < sizeof(given) / sizeof(given[0]); g++)
			if (given[g].given && !(rules[r].takes & given[g].bit))
				return usage("%s does not take %s", a->cmd, given[g].name);
		if (a->nfiles > rules[r].files)
			return usage("%s takes %s; '%s' is one too many", a->cmd,
			             rules[r].files == 0 ? "no file" : rules[r].files == 1 ? "one file" : strcmp(a->cmd, "path") == 0 ? "FILE and OBJECT-ID" : "IN and OUT",
			             a->files[rules[r].files]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			printf("profdata %s (libprofdata %s)\n", PROFDATA_VERSION_STRING, profdata_version_string());
			return 0;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage_text, stdout);
			return 0;
		}
	}
	args a;
	int e = parse(argc, argv, &a);
	if (e)
		return e;
	if (!a.cmd)
		return usage("no command given");
	if ((e = refuse_unused(&a)) != 0)
		return e;
	if (strcmp(a.cmd, "info") == 0)
		return cmd_info(&a);
	if (strcmp(a.cmd, "histo") == 0)
		return cmd_histo(&a);
	if (strcmp(a.cmd, "check") == 0)
		return cmd_check(&a);
	if (strcmp(a.cmd, "convert") == 0)
		return (e = add_symbolize_options(&a)) != 0 ? e : cmd_convert(&a);
	if (strcmp(a.cmd, "formats") == 0)
		return cmd_formats();
	if (strcmp(a.cmd, "top") == 0)
		return cmd_top(&a);
	if (strcmp(a.cmd, "path") == 0)
		return cmd_path(&a);
	return usage("unknown command '%s'", a.cmd);
}
