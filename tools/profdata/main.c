/*
 * profdata: inspect, check and convert profiles and heap dumps.
 *
 * Exit status: 0 success, 1 invalid input or a failed operation, 2 usage.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	"  --quiet            no warnings on stderr\n"
	"\n"
	"'profdata formats' lists the formats this build reads and writes.\n";

typedef struct args {
	const char *cmd;
	const char *files[2];
	int nfiles;
	const char *from, *to;
	int json, strict, quiet, via_model;
	int gzip;
	long limit;
	long dump;
	int retained;   /* histo --retained */
	long top_n;     /* top -n */
	char ropts[1024], wopts[1024];
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
		fputs("\n\n", stderr);
		va_end(ap);
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
		else if (strcmp(s, "--gzip") == 0)
			a->gzip = 6;
		else if (strncmp(s, "--gzip=", 7) == 0) {
			char *end;
			a->gzip = (int)strtol(s + 7, &end, 10);
			if (*end || a->gzip < 1 || a->gzip > 9)
				return usage("--gzip takes a level from 1 to 9");
		} else if (strcmp(s, "--from") == 0) {
			WANT_VALUE();
			const profdata_format *f = profdata_format_find(val);
			if (!f || !profdata_format_can_read(f))
				return usage("'%s' is not a format profdata can read ('profdata formats' lists them)", val);
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

/* "FILE: at byte N, line L: message" */
static void report(const char *what, const profdata_error *e, int code)
{
	if (!e) {
		fprintf(stderr, "profdata: %s: %s\n", what, profdata_strerror(code));
		return;
	}
	fprintf(stderr, "profdata: %s: ", e->name && *e->name ? e->name : what);
	if (e->offset != UINT64_MAX)
		fprintf(stderr, "at byte %llu: ", (unsigned long long)e->offset);
	if (e->line)
		fprintf(stderr, "line %llu: ", (unsigned long long)e->line);
	fprintf(stderr, "%s\n", e->message);
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
		fputs("warning: ", stderr);
		report("input", e, 0);
	}
	n = w ? profdata_writer_warning_count(w) : 0;
	for (size_t i = 0; w && i < n; i++) {
		const profdata_error *e = profdata_writer_warning(w, i);
		if (!e)
			break;
		fprintf(stderr, "warning: profdata: %s: %s\n", e->name, e->message);
	}
}

static void progress(void *payload, uint64_t done, uint64_t total)
{
	(void)payload;
	if (total)
		fprintf(stderr, "\r%llu / %llu MB (%d%%)  ", (unsigned long long)(done >> 20),
		        (unsigned long long)(total >> 20), (int)(done * 100 / total));
	else
		fprintf(stderr, "\r%llu MB  ", (unsigned long long)(done >> 20));
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
		profdata_reader_set_progress(r, progress, NULL, (uint64_t)256 << 20);
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

static void json_string(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static const char *const table_names[PROFDATA_TABLE_COUNT_] = {
	"strings", "classes", "objects", "roots", "dumps", "heap_infos", "threads", "functions", "frames",
	"stacks", "sample_types", "sample_groups", "samples", "alloc_sites", "heap_summaries",
	"control_settings", "mappings", "trace_events", "unknown_records", "attachments", "class_unloads",
	"class_loads", "class_dumps",
};
/* A new table kind needs its name here. */
typedef char table_names_complete[sizeof(table_names) / sizeof(table_names[0]) == PROFDATA_TABLE_COUNT_ &&
                                  PROFDATA_TABLE_CLASS_DUMPS + 1 == PROFDATA_TABLE_COUNT_ ? 1 : -1];

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
		printf(",\"references\":%llu},\"warnings\":%zu}\n", (unsigned long long)refs,
		       profdata_reader_warning_count(r));
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
	}
	profdata_profile_free(p);
	profdata_reader_free(r);
	return finish_stdout(0);
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
	int e = profdata_histogram_read(&h, r, &o, a->dump);
	end_progress();
	if (e < 0) {
		report(a->files[0], profdata_reader_error(r), e);
		profdata_reader_free(r);
		return failure_status(e);
	}
	warnings(a, r, NULL);
	size_t n = profdata_histogram_count(h);
	if (a->limit >= 0 && (size_t)a->limit < n)
		n = (size_t)a->limit;
	if (a->json) {
		printf("{\"classes\":[");
		for (size_t i = 0; i < n; i++) {
			const profdata_histogram_entry *x = profdata_histogram_entry_at(h, i);
			printf("%s{\"name\":", i ? "," : "");
			json_string(x->name);
			printf(",\"instances\":%llu,\"bytes\":%llu}", (unsigned long long)x->instances,
			       (unsigned long long)x->bytes);
		}
		printf("]}\n");
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
	/* Build the model: its checks (unique ids, objects inside dumps) are part of validity. */
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

static int cmd_convert(const args *a)
{
	if (a->nfiles != 2)
		return usage("convert takes an input and an output file");
	if (!a->to)
		return usage("convert needs --to FORMAT");
	const profdata_format *f = profdata_format_find(a->to);
	if (!f || !profdata_format_can_write(f))
		return usage("'%s' is not a format profdata can write", a->to);
	profdata_reader *r = open_input(a, a->files[0]);
	if (!r)
		return EXIT_INVALID;
	profdata_writer *w;
	int e = profdata_writer_open_path(&w, a->files[1]);
	if (e < 0) {
		report(a->files[1], w ? profdata_writer_error(w) : NULL, e);
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
	if (strcmp(a.cmd, "info") == 0)
		return cmd_info(&a);
	if (strcmp(a.cmd, "histo") == 0)
		return cmd_histo(&a);
	if (strcmp(a.cmd, "check") == 0)
		return cmd_check(&a);
	if (strcmp(a.cmd, "convert") == 0)
		return cmd_convert(&a);
	if (strcmp(a.cmd, "formats") == 0)
		return cmd_formats();
	if (strcmp(a.cmd, "top") == 0)
		return cmd_top(&a);
	if (strcmp(a.cmd, "path") == 0)
		return cmd_path(&a);
	return usage("unknown command '%s'", a.cmd);
}
