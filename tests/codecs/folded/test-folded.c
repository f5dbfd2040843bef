/* SPDX-License-Identifier: Apache-2.0 */
/* Folded stacks: export of native and JVM profiles (totals, exact text); reading, rewriting, sniffing, errors. */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Lines, their total and a check of the shape of every line. */
static void check_lines(const char *s, size_t *nlines, uint64_t *total)
{
	*nlines = 0;
	*total = 0;
	while (*s) {
		const char *nl = strchr(s, '\n');
		ck_assert_ptr_nonnull(nl);
		const char *sp = nl;
		while (sp > s && sp[-1] != ' ')
			sp--;
		ck_assert_ptr_ne(sp, s);
		char *end;
		unsigned long long v = strtoull(sp, &end, 10);
		ck_assert_ptr_eq(end, nl);
		*total += v;
		(*nlines)++;
		s = nl + 1;
	}
}

/* Distinct call chains by frame ids (the decoder gives one stack per chain). */
static size_t distinct_sampled_stacks(const profdata_profile *p)
{
	size_t n = profdata_profile_count(p, PROFDATA_TABLE_STACKS), k = 0;
	char *seen = calloc(n + 1, 1);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_SAMPLES); i++) {
		profdata_sample s;
		size_t si;
		profdata_profile_sample(p, i, &s);
		ck_assert_int_eq(profdata_profile_find_stack(p, s.stack_serial, &si), 0);
		if (!seen[si]) {
			seen[si] = 1;
			k++;
		}
	}
	free(seen);
	return k;
}

START_TEST(corpus_totals)
{
	const char *dir = test_corpus_dir();
	/* Runs as its own Meson test (CK_RUN_CASE=corpus), which skips without the corpus. */
	ck_assert_ptr_nonnull(dir);
	char path[4096];
	snprintf(path, sizeof(path), "%s/gperftools/cppbench.cpu", dir);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_STRICT);
	size_t len, n;
	uint64_t total;
	char *s = test_folded(p, &len);
	check_lines(s, &n, &total);
	ck_assert_uint_eq(total, 712);
	ck_assert_uint_eq(n, 50);
	/* the first record, root first, PCs as stored */
	const char *first = "0x7f5e541460fe;0xa456e4;0x7a296d;0x7a251b;0x79e80a;0x5280ab;0x526edf;0x5261af;"
	                    "0x42e14c;0x7f5e5414e5b0;0x42ef04 2\n";
	ck_assert_int_eq(strncmp(s, first, strlen(first)), 0);
	/* the hottest chain: 542 samples in one record */
	ck_assert_ptr_nonnull(strstr(s, ";0x42ed43 542\n"));
	free(s);
	profdata_profile_free(p);
}
END_TEST

static const char *const fixtures[] = { "cpu-100hz.prof", "cpu-1000hz.prof", "api-start-stop.prof",
	                                    "killed-flushed.prof", "short.prof" };

START_TEST(fixture_totals)
{
	char path[4096];
	test_data_path(path, sizeof(path), "gperftools/");
	strncat(path, fixtures[_i], sizeof(path) - strlen(path) - 1);
	profdata_profile *p = test_read(path, NULL, PROFDATA_MODE_PERMISSIVE);
	size_t len, n;
	uint64_t total;
	char *s = test_folded(p, &len);
	check_lines(s, &n, &total);
	ck_assert_uint_eq(total, test_total_count(p));
	ck_assert_uint_eq(n, distinct_sampled_stacks(p));
	/* native frames only: every frame is 0x + lower-case hex */
	for (const char *c = s; *c; c++) {
		if (*c == '\n' || *c == ';') {
			continue;
		}
		ck_assert_msg(c[0] == '0' && c[1] == 'x', "frame at %.20s", c);
		c += 2;
		while ((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'))
			c++;
		ck_assert_msg(*c == ';' || *c == ' ', "bad frame end %.20s", c);
		if (*c == ' ')
			while (*c != '\n')
				c++;
		c--;
	}
	/* the same twice */
	size_t len2;
	char *s2 = test_folded(p, &len2);
	ck_assert_str_eq(s, s2);
	free(s);
	free(s2);
	profdata_profile_free(p);
}
END_TEST

/* A JVM profile through the builder, HPROF style: class loads after the stacks. */
static profdata_profile *synth_jvm(int class_loads)
{
	static const char *const strs[] = { "java/lang/Thread", "run", "()V", "Thread.java", "Main", "main",
	                                    "([Ljava/lang/String;)V", "Main.java", "samples", "count", "[Lcom/x/Y;",
	                                    "weird;name\nhere", "native" };
	static const profdata_function fns[] = {
		{ 1, 101, 102, 103, 1, 0, 0 },
		{ 2, 105, 106, 107, 2, 0, 0 },
		{ 3, 111, 0, 0, 3, 0, 0 },
		{ 4, 0, 0, 0, 0, 0, 0 }, /* no name: falls back */
	};
	static const profdata_frame frs[] = {
		{ 11, 1, 748, 0, 0, 0 }, { 15, 1, 750, 0, 0, 0 }, { 12, 2, 5, 0, 0, 0 },
		{ 13, 3, PROFDATA_LINE_NATIVE, 0, 0, 0 }, { 14, 4, 0, 0xdeadbeef, 1, 0 }, { 16, 0, 0, 0, 0, 0 },
	};
	static const uint64_t a[] = { 11, 12 }, b[] = { 15, 12 }, c[] = { 13, 14, 16, 12 };
	static const profdata_stack sts[] = { { 1, 1, a, 2 }, { 2, 2, b, 2 }, { 3, 1, c, 4 }, { 4, 3, a, 2 } };
	static const profdata_class_load loads[] = { { 0, 1, 0x100, 0, 100 }, { 0, 2, 0x200, 0, 104 },
		                                         { 0, 3, 0x300, 0, 110 } };
	static const profdata_sample_type t = { 108, 109 };
	static const profdata_sample_group g = { 0, 17 };
	static const int64_t v[] = { 5, 3, 7, 2 };
	static const profdata_sample xs[] = { { 3, 0, 0, &v[0], 1 }, { 1, 0, 0, &v[1], 1 }, { 2, 0, 0, &v[2], 1 },
		                                  { 4, 0, 0, &v[3], 1 } };
	test_cpu_profile spec = { .strings = strs, .nstrings = 13, .first_string_id = 100, .functions = fns,
		                      .nfunctions = 4, .frames = frs, .nframes = 6, .stacks = sts, .nstacks = 4,
		                      .class_loads = loads, .nclass_loads = class_loads ? 3 : 0, .sample_type = &t,
		                      .sample_group = &g, .samples = xs, .nsamples = 4 };
	spec.meta.format = "hprof";
	return test_build_cpu_profile(&spec);
}

START_TEST(jvm_names)
{
	profdata_profile *p = synth_jvm(1);
	size_t len;
	char *s = test_folded(p, &len);
	/* stacks 1, 2 and 4 are one chain by name (different frames, lines and threads): 3 + 7 + 2 */
	ck_assert_str_eq(s, "Main.main;[unknown];0xdeadbeef;com.x.Y[].weird_name_here 5\n"
	                    "Main.main;java.lang.Thread.run 12\n");
	free(s);
	profdata_profile_free(p);
	/* without class loads, the bare method names */
	p = synth_jvm(0);
	s = test_folded(p, &len);
	ck_assert_str_eq(s, "main;[unknown];0xdeadbeef;weird_name_here 5\nmain;run 12\n");
	free(s);
	profdata_profile_free(p);
}
END_TEST

START_TEST(empty_profile)
{
	profdata_profile *p;
	profdata_events ev;
	ck_assert_int_eq(profdata_profile_new(&p), 0);
	ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(ev.begin(p, &m), 0);
	ck_assert_int_eq(ev.end(p), 0);
	size_t len;
	char *s = test_folded(p, &len);
	ck_assert_uint_eq(len, 0);
	free(s);
	profdata_profile_free(p);
}
END_TEST

/* Text an encoder wrote into memory, NUL-terminated. */
static char *encoder_output(profdata_writer *w)
{
	const void *d;
	size_t len;
	ck_assert_int_eq(profdata_writer_close(w), 0);
	ck_assert_int_eq(profdata_writer_memory(w, &d, &len), 0);
	char *s = malloc(len + 1);
	memcpy(s, d, len);
	s[len] = 0;
	return s;
}

/* The public encoder API: events in any order, no begin or end, built into a model and written at finish. */
START_TEST(encoder_events)
{
	profdata_writer *w;
	profdata_encoder *enc;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "folded";
	ck_assert_int_eq(profdata_encoder_new(&enc, w, &o), 0);
	const profdata_events *ev = profdata_encoder_events(enc);
	void *pl = profdata_encoder_payload(enc);
	ck_assert_int_eq(ev->string(pl, 1, "run", 3), 0);
	ck_assert_int_eq(ev->string(pl, 2, "java/lang/Thread", 16), 0);
	profdata_function f = { 7, 1, 0, 0, 5, 0, 0 };
	ck_assert_int_eq(ev->function(pl, &f), 0);
	profdata_frame fr1 = { 21, 7, 0, 0, 0, 0 }, fr2 = { 22, 0, 0, 0x4005d0, 1, 0 };
	ck_assert_int_eq(ev->frame(pl, &fr1), 0);
	ck_assert_int_eq(ev->frame(pl, &fr2), 0);
	uint64_t chain[] = { 21, 22 };
	profdata_stack st = { 3, 0, chain, 2 };
	ck_assert_int_eq(ev->stack(pl, &st), 0);
	int64_t v = 4;
	profdata_sample x = { 3, 0, 0, &v, 1 };
	ck_assert_int_eq(ev->sample(pl, &x), 0);
	ck_assert_int_eq(ev->sample(pl, &x), 0);
	/* the class load after the samples still names the frame */
	profdata_class_load l = { 0, 5, 0x500, 0, 2 };
	ck_assert_int_eq(ev->class_load(pl, &l), 0);
	ck_assert_int_eq(profdata_encoder_finish(enc), 0);
	char *s = encoder_output(w);
	ck_assert_str_eq(s, "0x4005d0;java.lang.Thread.run 8\n");
	free(s);
	profdata_encoder_free(enc);
	profdata_writer_free(w);
}
END_TEST

/* What the model refuses reaches the encoder's caller as the writer's error. */
START_TEST(encoder_errors)
{
	profdata_writer *w;
	profdata_encoder *enc;
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	o.format = "folded";
	ck_assert_int_eq(profdata_encoder_new(&enc, w, &o), 0);
	const profdata_events *ev = profdata_encoder_events(enc);
	void *pl = profdata_encoder_payload(enc);
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(ev->begin(pl, &m), 0);
	ck_assert_int_eq(ev->begin(pl, &m), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(profdata_writer_error(w));
	ck_assert_int_eq(profdata_writer_error(w)->code, PROFDATA_EINVAL);
	ck_assert_int_eq(profdata_encoder_finish(enc), PROFDATA_EINVAL);
	profdata_encoder_free(enc);
	profdata_writer_free(w);

	/* a sample whose stack nobody defined */
	ck_assert_int_eq(profdata_writer_open_memory(&w), 0);
	ck_assert_int_eq(profdata_encoder_new(&enc, w, &o), 0);
	ev = profdata_encoder_events(enc);
	pl = profdata_encoder_payload(enc);
	profdata_sample x = { 9, 0, 0, NULL, 0 };
	ck_assert_int_eq(ev->sample(pl, &x), 0);
	ck_assert_int_eq(profdata_encoder_finish(enc), PROFDATA_EINVAL);
	ck_assert_ptr_nonnull(strstr(profdata_writer_error(w)->message, "stack 9"));
	profdata_encoder_free(enc);
	profdata_writer_free(w);
}
END_TEST

/* ---- reading ---- */

static profdata_profile *read_text(const char *text, int mode, char *msg, size_t msg_len)
{
	return test_read_memory(text, strlen(text), NULL, mode, msg, msg_len);
}

/* What the writer writes, the reader reads and the writer writes again byte for byte. */
START_TEST(read_rewrites_identically)
{
	static const char text[] = "main;run_loop;handle_request;parse 17\n"
	                           "0x400a10;0x400d2c;0x401f00 3\n"
	                           "java.lang.Thread.run_[j];sun.nio.ch.EPoll.wait_[j];epoll_wait_[k] 5\n"
	                           "main;inlined helper_[i];a frame with spaces 2\n"
	                           "[empty] 1\n"
	                           "[unknown];main 4\n";
	char msg[256];
	profdata_profile *p = read_text(text, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 6);
	ck_assert_uint_eq(test_total_count(p), 32);
	/* the annotations give kinds, the names keep them: two JIT frames, one inlined, one kernel */
	uint32_t kinds = 0;
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FRAME_KINDS), 4);
	for (size_t i = 0; i < 4; i++) {
		profdata_frame_kind k;
		profdata_profile_frame_kind(p, i, &k);
		kinds += k.kind;
	}
	ck_assert_uint_eq(kinds, 2 * PROFDATA_FRAME_KIND_JIT + PROFDATA_FRAME_KIND_INLINED + PROFDATA_FRAME_KIND_KERNEL);
	size_t len;
	char *s = test_folded(p, &len);
	ck_assert_str_eq(s, text);
	free(s);
	profdata_profile_free(p);
}
END_TEST

/*
 * More lines than the writer makes in one block (it makes them two blocks at
 * a time, the second on another thread): every line in order of its first
 * sample, a chain met again 10,000 lines later summed into its first line.
 */
START_TEST(write_many_lines_in_order)
{
	enum { LINES = 20000, AGAIN = 10000, LINE_MAX = 48 };
	char *in = malloc((LINES + AGAIN) * LINE_MAX), *want = malloc(LINES * LINE_MAX), msg[256];
	size_t nin = 0, nwant = 0, len;
	ck_assert(in && want);
	for (int i = 0; i < LINES + AGAIN; i++)
		nin += (size_t)snprintf(in + nin, LINE_MAX, "root;a%d;b%d %d\n", i % LINES % 7, i % LINES, i < LINES ? 1 : 2);
	for (int i = 0; i < LINES; i++)
		nwant += (size_t)snprintf(want + nwant, LINE_MAX, "root;a%d;b%d %d\n", i % 7, i, i < AGAIN ? 3 : 1);
	profdata_profile *p = test_read_memory(in, nin, "folded", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	char *out = test_folded(p, &len);
	ck_assert_uint_eq(len, nwant);
	ck_assert(memcmp(out, want, len) == 0);
	free(out);
	free(in);
	free(want);
	profdata_profile_free(p);
}
END_TEST

/*
 * Lines that share the start of the line before (the reader takes those
 * frames from it): a name that only begins like the last one's ("b" after
 * "bc"), a chain that is the last one cut short or made longer, a first
 * name that runs past the last one's ';' ("ab" after "a;...").
 */
START_TEST(read_shared_prefixes)
{
	static const char text[] = "a;bc;d 1\n"
	                           "a;b;d 2\n"
	                           "a;b 3\n"
	                           "a;b;d;e 4\n"
	                           "a;bc 5\n"
	                           "ab;c 6\n"
	                           "a 7\n"
	                           "a;b;d;e 8\n";
	char msg[256];
	profdata_profile *p = read_text(text, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), 7);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_FUNCTIONS), 7); /* a bc d b e ab c */
	char *s = test_folded(p, NULL);
	ck_assert_str_eq(s, "a;bc;d 1\na;b;d 2\na;b 3\na;b;d;e 12\na;bc 5\nab;c 6\na 7\n");
	free(s);
	profdata_profile_free(p);
}
END_TEST

/* Comments, blank lines, CRLF, repeated chains (one stack) and tabs before the count. */
START_TEST(read_comments_and_repeats)
{
	static const char text[] = "# made by hand\r\n\r\na;b 1\r\na;b\t2\n   \nc 3";
	char msg[256];
	profdata_profile *p = read_text(text, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), 2);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 3);
	char *s = test_folded(p, NULL);
	ck_assert_str_eq(s, "a;b 3\nc 3\n");
	free(s);
	profdata_profile_free(p);
}
END_TEST

/*
 * A file that repeats its chains far apart (two folded files joined): each
 * chain comes back as the stack it was, whether the reader compares texts
 * (memory, a mapped file, where the first half lies megabytes behind and
 * has been let go of) or frame ids (a stream). Chains that only begin or
 * end like another stay apart.
 */
/* Line i of either half, with its count. */
static int joined_line(char *buf, size_t cap, size_t i, int count)
{
	return snprintf(buf, cap, "main;worker_%zu;step_%zu_of_a_name_long_enough_to_fill_megabytes%s %d\n", i % 97, i,
	                i % 3 ? ";leaf" : "", count);
}

static char *twice_joined(size_t lines, size_t *len)
{
	size_t cap = lines * 2 * 128 + 128, n = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < lines; i++)
			n += (size_t)joined_line(text + n, cap - n, i, round + 1);
	*len = n;
	return text;
}

static void check_joined(profdata_profile *p, size_t lines, const char *how)
{
	ck_assert_msg(p != NULL, "%s", how);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), lines);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLES), 2 * lines);
	ck_assert_uint_eq(test_total_count(p), 3 * lines);
	size_t len;
	char *s = test_folded(p, &len), *line = s;
	for (size_t i = 0; i < lines; i++) {
		char want[128];
		joined_line(want, sizeof want, i, 3);
		ck_assert_msg(strncmp(line, want, strlen(want)) == 0, "%s: line %zu", how, i + 1);
		line += strlen(want);
	}
	ck_assert_ptr_eq(line, s + len);
	free(s);
	profdata_profile_free(p);
}

START_TEST(read_repeats_far_apart)
{
	const size_t lines = 60000; /* 5 MB a half: the first is let go of by the time the second comes */
	size_t len;
	char *text = twice_joined(lines, &len), msg[256], name[] = "/tmp/pd-folded-twice-XXXXXX";
	check_joined(test_read_memory(text, len, "folded", PROFDATA_MODE_STRICT, msg, sizeof msg), lines, "memory");
	int fd = mkstemp(name);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
	check_joined(test_read(name, "folded", PROFDATA_MODE_STRICT), lines, "mapped file");
	unlink(name);
	profdata_reader *r;
	profdata_profile *p = NULL;
	test_chunks src = { (const unsigned char *)text, len, 0, 4096, 0 };
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "folded";
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &src, "stream"), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), 0);
	check_joined(p, lines, "stream");
	profdata_reader_free(r);
	free(text);
}
END_TEST

/* A differential file (difffolded.pl): two counts, two sample types, before and after. */
START_TEST(read_differential)
{
	char msg[256];
	profdata_profile *p = read_text("a;b 10 12\na;c 0 5\n", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 2);
	profdata_sample smp;
	profdata_profile_sample(p, 1, &smp);
	ck_assert_uint_eq(smp.nvalues, 2);
	ck_assert_int_eq(smp.values[0], 0);
	ck_assert_int_eq(smp.values[1], 5);
	profdata_profile_free(p);
	/* a line of one count in a file of two */
	p = read_text("a;b 10 12\na;c 5\n", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(msg, "one count") != NULL, "%s", msg);
	/* the first line kept decides, not one passed over: here the file has two counts */
	p = read_text("a;;b 2\nx 10 5\n", PROFDATA_MODE_PERMISSIVE, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES), 2);
	profdata_profile_sample(p, 0, &smp);
	ck_assert_int_eq(smp.values[0], 10);
	ck_assert_int_eq(smp.values[1], 5);
	profdata_profile_free(p);
}
END_TEST

/*
 * A name that ends in a number after a blank would end its line in two
 * numbers (a differential file's counts, to every reader): the writer puts
 * '_' for those blanks, so what it writes reads back the same. Chains merge
 * by the names as written.
 */
/*
 * A name beginning with '#' (perf script can give a root frame one) would,
 * as a line's first frame, make the line a comment: written with '_', in
 * every frame of that name, so that chains merge by what is written.
 */
START_TEST(write_names_beginning_with_hash)
{
	char msg[256];
	profdata_profile *p = read_text("main;#tag 2\nmain;_tag 1\n", PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	char *s = test_folded(p, NULL);
	ck_assert_str_eq(s, "main;_tag 3\n");
	free(s);
	profdata_profile_free(p);
}
END_TEST

START_TEST(write_names_ending_in_numbers)
{
	char msg[256];
	profdata_profile *p = read_text("main 1\nmain;worker \t3 5\nmain;worker__3 1\nmain;pool 12;run 2\n",
	                                PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	ck_assert_uint_eq(profdata_profile_count(p, PROFDATA_TABLE_STACKS), 4);
	char *s = test_folded(p, NULL);
	ck_assert_str_eq(s, "main 1\nmain;worker__3 6\nmain;pool_12;run 2\n");
	profdata_profile_free(p);
	p = read_text(s, PROFDATA_MODE_STRICT, msg, sizeof msg);
	ck_assert_msg(p != NULL, "%s", msg);
	char *again = test_folded(p, NULL);
	ck_assert_str_eq(again, s);
	free(again);
	free(s);
	profdata_profile_free(p);
}
END_TEST

/*
 * Files of a megabyte or more are split ahead on a second thread when they
 * are in memory or mapped (codecs/folded/ahead.h); a stream never is. Both
 * readings of a file of every kind of line (shared beginnings, repeats,
 * comments, blanks, CRLF, blanks before the count, and faults the reader
 * passes over with a warning, alone and in runs) give the same profile and
 * the same warnings, at the same lines and bytes.
 */
static size_t mixed_line(char *buf, size_t cap, size_t i, int two_counts)
{
	static const char *const odd[] = { "# a comment\n", "\n", "a;;b 1 2\n", "no count\n", " 7\n", ";lead 3 4\n" };
	if (i % 53 == 7 || i % 97 == 8)
		return (size_t)snprintf(buf, cap, "%s", odd[(i / 53 + i / 97) % 6]);
	const char *end = i % 11 == 0 ? "\r\n" : "\n", *blank = i % 13 == 0 ? " \t " : " ";
	int n = snprintf(buf, cap, "root;mid_%zu;inner_%zu;leaf_%zu%s", i % 5, i % 37, (i / 3) % 4001,
	                 i % 7 ? "" : ";deeper");
	if (two_counts)
		n += snprintf(buf + n, cap - (size_t)n, "%s%zu", blank, i % 9);
	return (size_t)n + (size_t)snprintf(buf + n, cap - (size_t)n, "%s%zu%s", blank, i % 17 + 1, end);
}

static profdata_profile *read_counting(profdata_reader *r, size_t *warnings)
{
	profdata_profile *p = NULL;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "folded";
	o.mode = PROFDATA_MODE_PERMISSIVE;
	ck_assert_int_eq(profdata_read(&p, r, &o), 0);
	*warnings = profdata_reader_warning_count(r);
	return p;
}

START_TEST(read_split_ahead_as_streamed)
{
	for (int two = 0; two < 2; two++) {
		size_t cap = (size_t)3 << 20, len = 0, nmem, nstream;
		char *text = malloc(cap + 256), why[256];
		ck_assert_ptr_nonnull(text);
		for (size_t i = 0; len < cap; i++)
			len += mixed_line(text + len, 256, i, two);
		profdata_reader *mem, *stream;
		test_chunks src = { (const unsigned char *)text, len, 0, 65536, 1 };
		ck_assert_int_eq(profdata_reader_open_memory(&mem, text, len, "memory"), 0);
		ck_assert_int_eq(profdata_reader_open_callbacks(&stream, test_chunk_read, &src, "stream"), 0);
		profdata_profile *a = read_counting(mem, &nmem), *b = read_counting(stream, &nstream);
		ck_assert_msg(profdata_profile_equal(a, b, why, sizeof why), "%s", why);
		ck_assert_uint_gt(nmem, 1000);
		ck_assert_uint_eq(nmem, nstream);
		for (size_t k = 0; profdata_reader_warning(mem, k); k++) {
			const profdata_error *x = profdata_reader_warning(mem, k), *y = profdata_reader_warning(stream, k);
			ck_assert_uint_eq(x->offset, y->offset);
			ck_assert_uint_eq(x->line, y->line);
			ck_assert_str_eq(x->message, y->message);
		}
		ck_assert_uint_gt(profdata_profile_count(a, PROFDATA_TABLE_STACKS), 10000);
		profdata_profile_free(a);
		profdata_profile_free(b);
		profdata_reader_free(mem);
		profdata_reader_free(stream);
		free(text);
	}
}
END_TEST

/* Errors name the line and the byte; permissive reading passes the line over with a warning. */
START_TEST(read_errors)
{
	static const struct { const char *text, *what; uint64_t line, offset; } bad[] = {
		{ "a;b 1\na;;b 2\n", "empty frame name", 2, 8 },
		{ "a;b 1\nno count here\n", "does not end in a count", 2, 19 },
		{ "a;b 1\n 7\n", "without a chain", 2, 6 },
		{ "a;b 1\na;b 99999999999999999999\n", "does not end in a count", 2, 30 },
		{ "a;b 1\na;b 1.5\n", "does not end in a count", 2, 13 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		test_assert_text_damage(bad[i].text, "folded", bad[i].what, bad[i].line, bad[i].offset);
}
END_TEST

/* Sniffing is strict: folded stacks are found, other text formats are not taken for them. */
START_TEST(sniff_strict)
{
	static const char *const folded[] = { "a;b 1\nc 2\n", "# x\nmain;f g 12\n", "a;b 1 2\n" };
	static const char *const other[] = {
		"JAVA PROFILE 1.0.1, created Wed Dec 14 01:04:25 2005\n\nHeader for -agentlib:hprof 1\n",
		"a;b 1\nnot folded\n", "hello world\n", "prog 12 972.2: 1 cpu-clock:\n\tffff sym (dso)\n",
		"heap profile:    1:   2 [   3:   4] @ heapprofile\n", "a;b 1;\n",
	};
	for (size_t i = 0; i < sizeof folded / sizeof folded[0]; i++) {
		const profdata_format *f = profdata_format_sniff(folded[i], strlen(folded[i]));
		ck_assert_msg(f && strcmp(profdata_format_name(f), "folded") == 0, "%s", folded[i]);
	}
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		const profdata_format *f = profdata_format_sniff(other[i], strlen(other[i]));
		ck_assert_msg(!f || strcmp(profdata_format_name(f), "folded") != 0, "%s", other[i]);
	}
}
END_TEST

/* The same reading from a stream of 3-byte reads (the line reader's growing window). */
START_TEST(read_stream)
{
	static const char text[] = "main;a very long frame name that crosses many windows;leaf 4\nmain;x 1\n";
	profdata_reader *r;
	profdata_profile *p = NULL;
	test_chunks src = { (const unsigned char *)text, strlen(text), 0, 3, 0 };
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "folded";
	ck_assert_int_eq(profdata_reader_open_callbacks(&r, test_chunk_read, &src, "stream"), 0);
	ck_assert_int_eq(profdata_read(&p, r, &o), 0);
	char *s = test_folded(p, NULL);
	ck_assert_str_eq(s, text);
	free(s);
	profdata_profile_free(p);
	profdata_reader_free(r);
}
END_TEST

Suite *suite_main(void)
{
	Suite *s = suite_create("folded");
	TCase *tc = tcase_create("folded");
	tcase_add_loop_test(tc, fixture_totals, 0, sizeof(fixtures) / sizeof(fixtures[0]));
	tcase_add_test(tc, jvm_names);
	tcase_add_test(tc, empty_profile);
	tcase_add_test(tc, encoder_events);
	tcase_add_test(tc, encoder_errors);
	tcase_add_test(tc, read_rewrites_identically);
	tcase_add_test(tc, write_many_lines_in_order);
	tcase_add_test(tc, read_comments_and_repeats);
	tcase_add_test(tc, read_shared_prefixes);
	tcase_add_test(tc, read_repeats_far_apart);
	tcase_add_test(tc, read_split_ahead_as_streamed);
	tcase_add_test(tc, read_differential);
	tcase_add_test(tc, write_names_ending_in_numbers);
	tcase_add_test(tc, write_names_beginning_with_hash);
	tcase_add_test(tc, read_errors);
	tcase_add_test(tc, sniff_strict);
	tcase_add_test(tc, read_stream);
	/* Check's 4 s default: the files of megabytes (repeats far apart, split ahead) took over 6 s on a loaded
	 * 2-core machine (two test suites at once), under 2 s on a quiet one. */
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	/* Only in the "-corpus" Meson test, which skips (77) when ../shared/corpus is absent. */
	if (test_case_requested("corpus")) {
		tc = tcase_create("corpus");
		tcase_add_test(tc, corpus_totals);
		suite_add_tcase(s, tc);
	}
	return s;
}
