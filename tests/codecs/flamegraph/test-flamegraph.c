/* SPDX-License-Identifier: Apache-2.0 */
/* Flame graph export: every frame of the SVG against the folded stacks of the same profile. */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What `format` writes, NUL-terminated. */
static char *write_text(const profdata_profile *p, const char *format, const char *options, size_t *len)
{
	unsigned char *b = test_write(p, format, options, len);
	char *s = malloc(*len + 1);
	memcpy(s, b, *len);
	s[*len] = '\0';
	free(b);
	return s;
}

typedef struct svg_frame {
	long long x, w;
	int depth;
	char *path;                /* names root first, ';'-joined, without "all" */
} svg_frame;

static char *attr_after(const char *s, const char *name, const char *stop)
{
	const char *a = strstr(s, name);
	ck_assert_msg(a && a < stop, "no %s in %.80s", name, s);
	return (char *)a + strlen(name);
}

/* XML's escapes in place (the writer uses these four). */
static void unescape(char *s)
{
	static const char *const from[] = { "&lt;", "&gt;", "&quot;", "&amp;" };
	static const char to[] = { '<', '>', '"', '&' };
	char *out = s;
	while (*s) {
		size_t k = 0;
		while (k < 4 && strncmp(s, from[k], strlen(from[k])) != 0)
			k++;
		if (k < 4) {
			*out++ = to[k];
			s += strlen(from[k]);
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* The frames of `svg`, each with the path its position says (parent: one depth up, x range around it). */
static svg_frame *parse_frames(const char *svg, size_t *n)
{
	size_t cap = 16;
	svg_frame *f = malloc(cap * sizeof *f);
	*n = 0;
	for (const char *s = strstr(svg, "<g class=\"f\""); s; s = strstr(s + 1, "<g class=\"f\"")) {
		const char *end = strstr(s, "</g>");
		ck_assert_ptr_nonnull(end);
		if (*n == cap)
			f = realloc(f, (cap *= 2) * sizeof *f);
		svg_frame *fr = &f[(*n)++];
		fr->x = strtoll(attr_after(s, "fg:x=\"", end), NULL, 10);
		fr->w = strtoll(attr_after(s, "fg:w=\"", end), NULL, 10);
		fr->depth = (int)strtol(attr_after(s, "fg:d=\"", end), NULL, 10);
		const char *name = attr_after(s, "<title>", end), *close = strstr(name, "</title>");
		const char *paren = close;
		while (paren > name && paren[0] != '(')
			paren--;
		ck_assert(paren > name + 1 && paren[-1] == ' ');
		size_t len = (size_t)(paren - 1 - name);
		fr->path = NULL;
		if (fr->depth == 0) {
			ck_assert(len == 3 && memcmp(name, "all", 3) == 0);
			fr->path = strdup("");
			continue;
		}
		for (size_t k = 0; k + 1 < *n; k++) {
			svg_frame *p = &f[k];
			if (p->depth == fr->depth - 1 && p->x <= fr->x && fr->x + fr->w <= p->x + p->w && p->path) {
				size_t pl = strlen(p->path);
				fr->path = malloc(pl + len + 2);
				memcpy(fr->path, p->path, pl);
				if (pl)
					fr->path[pl++] = ';';
				memcpy(fr->path + pl, name, len);
				fr->path[pl + len] = '\0';
				unescape(fr->path + pl);
				break;
			}
		}
		ck_assert_msg(fr->path != NULL, "frame %.*s has no parent", (int)len, name);
	}
	return f;
}

/* The sum of the folded lines whose chain is `path` or starts with it, and how many distinct prefixes folded has. */
static long long folded_sum(const char *folded, const char *path)
{
	long long sum = 0;
	size_t pl = strlen(path);
	for (const char *s = folded; *s;) {
		const char *nl = strchr(s, '\n'), *sp = nl;
		while (sp[-1] != ' ')
			sp--;
		size_t cl = (size_t)(sp - 1 - s);
		if (pl == 0 || (cl >= pl && memcmp(s, path, pl) == 0 && (cl == pl || s[pl] == ';')))
			sum += strtoll(sp, NULL, 10);
		s = nl + 1;
	}
	return sum;
}

static size_t folded_prefixes(const char *folded)
{
	size_t n = 0;
	char **seen = NULL;
	size_t cap = 0;
	for (const char *s = folded; *s;) {
		const char *nl = strchr(s, '\n'), *sp = nl;
		while (sp[-1] != ' ')
			sp--;
		if (strtoll(sp, NULL, 10) == 0) {
			s = nl + 1;
			continue;
		}
		for (const char *c = s; c <= sp - 1; c++) {
			if (*c != ';' && c != sp - 1)
				continue;
			size_t len = (size_t)(c - s);
			int dup = 0;
			for (size_t k = 0; k < n && !dup; k++)
				dup = strlen(seen[k]) == len && memcmp(seen[k], s, len) == 0;
			if (!dup) {
				if (n == cap)
					seen = realloc(seen, (cap = cap ? cap * 2 : 64) * sizeof *seen);
				seen[n] = strndup(s, len);
				n++;
			}
		}
		s = nl + 1;
	}
	for (size_t k = 0; k < n; k++)
		free(seen[k]);
	free(seen);
	return n;
}

/* Every frame's value is what folded says of its chain; nothing more, nothing less. */
static void check_against_folded(const profdata_profile *p)
{
	size_t len, n;
	char *folded = test_folded(p, &len);
	char *svg = write_text(p, "flamegraph", "minwidth=0", &len);
	svg_frame *f = parse_frames(svg, &n);
	ck_assert_uint_ge(n, folded[0] ? 1 : 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(folded_sum(folded, f[i].path) == f[i].w, "%s: svg %lld, folded %lld", f[i].path, f[i].w,
		              folded_sum(folded, f[i].path));
		free(f[i].path);
	}
	ck_assert_uint_eq(n ? n - 1 : 0, folded_prefixes(folded));
	char count[64];
	snprintf(count, sizeof count, "fg:count=\"%zu\"", n);
	ck_assert_ptr_nonnull(strstr(svg, count));
	ck_assert_ptr_null(strstr(svg, "http://www.w3.org/2000/svg\" src"));
	free(f);
	free(svg);
	free(folded);
}

static const char *const fixtures[] = { "cpu-100hz.prof", "cpu-1000hz.prof", "api-start-stop.prof",
	                                    "killed-flushed.prof", "short.prof" };

START_TEST(fixtures_agree_with_folded)
{
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/");
	strncat(path, fixtures[_i], sizeof(path) - strlen(path) - 1);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	check_against_folded(p);
	profdata_profile_free(p);
}
END_TEST

/*
 * A narrow picture draws only the frames wide enough whose callers are
 * drawn, and counts the narrow children of drawn frames: checked against
 * the picture that draws every frame (minwidth=0), frame by frame.
 */
static void check_narrow_left_out(const profdata_profile *p, const char *options, double px, double min_width)
{
	size_t len, nall, nsome;
	char *all = write_text(p, "flamegraph", "minwidth=0", &len);
	char *some = write_text(p, "flamegraph", options, &len);
	svg_frame *fa = parse_frames(all, &nall), *fs = parse_frames(some, &nsome);
	unsigned char *drawn = calloc(nall + 1, 1);
	size_t want_drawn = 0, want_omitted = 0;
	double scale = nall ? px / (double)fa[0].w : 0;
	for (size_t i = 0; i < nall; i++) {
		/* a frame's parent is the one whose path is its own without the last name */
		size_t parent = SIZE_MAX;
		const char *semi = strrchr(fa[i].path, ';');
		size_t pl = semi ? (size_t)(semi - fa[i].path) : 0;
		for (size_t k = 0; k < i && i > 0 && parent == SIZE_MAX; k++)
			if (fa[k].depth == fa[i].depth - 1 && strlen(fa[k].path) == pl && strncmp(fa[k].path, fa[i].path, pl) == 0)
				parent = k;
		int parent_drawn = i == 0 || (parent != SIZE_MAX && drawn[parent]);
		if (!parent_drawn)
			continue;
		drawn[i] = (double)fa[i].w * scale >= min_width;
		want_drawn += drawn[i];
		want_omitted += !drawn[i];
	}
	ck_assert_uint_eq(nsome, want_drawn);
	for (size_t j = 0, i = 0; j < nsome; j++, i++) {
		while (i < nall && !drawn[i])
			i++;
		ck_assert_uint_lt(i, nall);
		ck_assert_str_eq(fs[j].path, fa[i].path);
		ck_assert(fs[j].x == fa[i].x && fs[j].w == fa[i].w && fs[j].depth == fa[i].depth);
	}
	char said[64];
	snprintf(said, sizeof said, ">%zu frames narrower than", want_omitted);
	ck_assert_msg(want_omitted == 0 || strstr(some, said), "%s not said", said);
	for (size_t i = 0; i < nall; i++)
		free(fa[i].path);
	for (size_t j = 0; j < nsome; j++)
		free(fs[j].path);
	free(fa), free(fs), free(drawn), free(all), free(some);
}

START_TEST(narrow_frames_left_out)
{
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/");
	strncat(path, fixtures[_i], sizeof(path) - strlen(path) - 1);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	check_narrow_left_out(p, "width=300,minwidth=2", 280, 2);
	check_narrow_left_out(p, "minwidth=20", 1180, 20);
	profdata_profile_free(p);
}
END_TEST

/* A JVM profile with names folded must clean (';', a line break) and merge (one chain, several stacks). */
static profdata_profile *synth_jvm(void)
{
	static const char *const strs[] = { "java/lang/Thread", "run", "()V", "Thread.java", "Main", "main",
	                                    "([Ljava/lang/String;)V", "Main.java", "samples", "count", "[Lcom/x/Y;",
	                                    "weird;name\n<here>&", "native" };
	static const profdata_function fns[] = {
		{ 1, 101, 102, 103, 1, 0, 0 }, { 2, 105, 106, 107, 2, 0, 0 }, { 3, 111, 0, 0, 3, 0, 0 },
		{ 4, 0, 0, 0, 0, 0, 0 },
	};
	static const profdata_frame frs[] = {
		{ 11, 1, 748, 0, 0, 0 }, { 15, 1, 750, 0, 0, 0 }, { 12, 2, 5, 0, 0, 0 },
		{ 13, 3, PROFDATA_LINE_NATIVE, 0, 0, 0 }, { 14, 4, 0, 0xdeadbeef, 1, 0 }, { 16, 0, 0, 0, 0, 0 },
	};
	static const uint64_t a[] = { 11, 12 }, b[] = { 15, 12 }, c[] = { 13, 14, 16, 12 };
	static const profdata_stack sts[] = { { 1, 1, a, 2 }, { 2, 2, b, 2 }, { 3, 1, c, 4 }, { 4, 3, a, 2 },
		                                  { 5, 1, NULL, 0 } };
	static const profdata_class_load loads[] = { { 0, 1, 0x100, 0, 100 }, { 0, 2, 0x200, 0, 104 },
		                                         { 0, 3, 0x300, 0, 110 } };
	static const profdata_sample_type t = { 108, 109 };
	static const profdata_sample_group g = { 0, 17 };
	static const int64_t v[] = { 5, 3, 7, 2, 1 };
	static const profdata_sample xs[] = { { 3, 0, 0, &v[0], 1 }, { 1, 0, 0, &v[1], 1 }, { 2, 0, 0, &v[2], 1 },
		                                  { 4, 0, 0, &v[3], 1 }, { 5, 0, 0, &v[4], 1 } };
	test_cpu_profile spec = { .strings = strs, .nstrings = 13, .first_string_id = 100, .functions = fns,
		                      .nfunctions = 4, .frames = frs, .nframes = 6, .stacks = sts, .nstacks = 5,
		                      .class_loads = loads, .nclass_loads = 3, .sample_type = &t,
		                      .sample_group = &g, .samples = xs, .nsamples = 5 };
	spec.meta.format = "hprof";
	return test_build_cpu_profile(&spec);
}

START_TEST(jvm_frames)
{
	profdata_profile *p = synth_jvm();
	size_t len;
	check_against_folded(p);
	char *svg = write_text(p, "flamegraph", NULL, &len);
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (18 samples, 100.00%)</title>"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>java.lang.Thread.run (12 samples, 66.67%)</title>"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>com.x.Y[].weird_name_&lt;here&gt;&amp; (5 samples, 27.78%)</title>"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>[empty] (1 samples, 5.56%)</title>"));
	ck_assert_ptr_nonnull(strstr(svg, "<script type=\"text/ecmascript\"><![CDATA["));
	/* JVM frames green, the same colour every time */
	const char *run = strstr(svg, "java.lang.Thread.run (");
	const char *fill = strstr(run, "fill=\"rgb(");
	int r, g, b;
	ck_assert_int_eq(sscanf(fill, "fill=\"rgb(%d,%d,%d)", &r, &g, &b), 3);
	ck_assert_int_gt(g, r);
	ck_assert_int_gt(g, b);
	char *again = write_text(p, "flamegraph", NULL, &len);
	ck_assert(strcmp(svg, again) == 0);
	free(again);
	free(svg);
	profdata_profile_free(p);
}
END_TEST

START_TEST(options)
{
	profdata_profile *p = synth_jvm();
	size_t len;
	char *svg = write_text(p, "flamegraph", "minwidth=700,title=Mine & yours,width=800", &len);
	/* 800 px wide, 780 drawn: only frames of at least 700/780 of the total, i.e. all and Main.main (17) */
	ck_assert_ptr_nonnull(strstr(svg, "fg:count=\"2\""));
	ck_assert_ptr_nonnull(strstr(svg, "3 frames narrower than 700 px left out (100.00% of the total"));
	ck_assert_ptr_nonnull(strstr(svg, ">Mine &amp; yours</text>"));
	ck_assert_ptr_nonnull(strstr(svg, "width=\"800\""));
	free(svg);
	svg = write_text(p, "flamegraph", "reverse=1", &len);
	ck_assert_ptr_nonnull(strstr(svg, "fg:reverse=\"1\""));
	/* the root on top, right under the title */
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (18 samples, 100.00%)</title><rect x=\"10.00\" y=\"36.0\""));
	free(svg);
	svg = write_text(p, "flamegraph", "value=0", &len);
	free(svg);
	test_assert_write_refused(p, "flamegraph", "value=3", PROFDATA_EINVAL, "value=3");
	profdata_profile_free(p);
}
END_TEST

/* HPROF ALLOC SITES: the sites' traces with the allocated class on top, weighed by the chosen value. */
START_TEST(alloc_sites)
{
	char path[4096];
	size_t len;
	test_data_path(path, sizeof(path), "hprof/synthetic/agent-1.0.1-id4.hprof");
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	char *svg = write_text(p, "flamegraph", "sites=alloc_bytes", &len);
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (5,000 bytes, 100.00%)</title>"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>int[] (2,000 bytes, 40.00%)</title>"));
	ck_assert_ptr_nonnull(strstr(svg, "<title>Main (3,000 bytes, 60.00%)</title>"));
	free(svg);
	svg = write_text(p, "flamegraph", "sites=live_instances", &len);
	ck_assert_ptr_nonnull(strstr(svg, "<title>all (10 instances, 100.00%)</title>"));
	free(svg);
	/* without the option, the CPU samples as folded has them */
	check_against_folded(p);
	profdata_writer *w;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "flamegraph";
	o.options = "sites=everything";
	ck_assert_int_eq(profdata_write(p, w, &o), PROFDATA_EINVAL);
	profdata_writer_free(w);
	profdata_profile_free(p);
}
END_TEST

START_TEST(empty_profile)
{
	test_cpu_profile spec;
	memset(&spec, 0, sizeof spec);
	profdata_profile *p = test_build_cpu_profile(&spec);
	size_t len;
	char *svg = write_text(p, "flamegraph", NULL, &len);
	ck_assert_ptr_nonnull(strstr(svg, "No samples"));
	ck_assert_ptr_nonnull(strstr(svg, "fg:count=\"0\""));
	free(svg);
	profdata_profile_free(p);
}
END_TEST

START_TEST(corpus_agrees_with_folded)
{
	const char *dir = test_corpus_dir();
	ck_assert_ptr_nonnull(dir);
	static const char *const files[] = { "gperftools/cppbench.cpu" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
		check_against_folded(p);
		profdata_profile_free(p);
	}
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("flamegraph");
	TCase *tc = tcase_create("flamegraph");
	tcase_add_loop_test(tc, fixtures_agree_with_folded, 0, sizeof(fixtures) / sizeof(fixtures[0]));
	tcase_add_loop_test(tc, narrow_frames_left_out, 0, sizeof(fixtures) / sizeof(fixtures[0]));
	tcase_add_test(tc, jvm_frames);
	tcase_add_test(tc, options);
	tcase_add_test(tc, empty_profile);
	tcase_add_test(tc, alloc_sites);
	suite_add_tcase(s, tc);
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_add_test(tc, corpus_agrees_with_folded);
		suite_add_tcase(s, tc);
	}
	return s;
}
