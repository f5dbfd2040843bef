/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A program written for libprofdata 0.2: compiled against the 0.2 headers
 * (tests/abi/headers-0.2 only) and run against the library being built. It
 * uses what 0.2 added, as 0.2 documented it: the heap analysis with its
 * options (`size` first) and its progress callback (`user`), the reader's
 * progress callback (void), a version-2 events table from
 * profdata_events_init(), profdata_histogram_from_profile(), sized row
 * getters and profdata_reader_sniff(). Every struct and table it hands the
 * library sits at the very end of a page whose next page is inaccessible.
 *
 * Usage: abi-consumer-0.2 SOURCE_ROOT
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "guard.h"

typedef struct heap_log {
	unsigned calls;
	int stop;       /* what the callback returns */
	int bad_phase;  /* a phase outside the documented ones was reported */
} heap_log;

static int on_heap_progress(void *user, const char *phase, uint64_t done, uint64_t total)
{
	heap_log *log = user;
	static const char *const phases[] = { "graph", "dominators", "retained", "classes", "path" };
	int known = 0;
	for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
		known |= strcmp(phase, phases[i]) == 0;
	log->bad_phase |= !known || (total && done > total);
	log->calls++;
	return log->stop;
}

typedef struct read_log {
	unsigned calls;
	uint64_t last, total;
} read_log;

static void on_read_progress(void *payload, uint64_t consumed, uint64_t total)
{
	read_log *log = payload;
	CHECK(consumed >= log->last);
	log->last = consumed;
	log->total = total;
	log->calls++;
}

static int on_trace_context(void *payload, const profdata_trace_context *c)
{
	(void)c;
	++*(unsigned *)payload;
	return 0;
}

/* A version-2 table from profdata_events_init(): its trace_context member is called. */
static void decode_with_v2_table(const char *root)
{
	profdata_events *ev = GUARDED(profdata_events);
	CHECK(profdata_events_init(ev, sizeof *ev) == 0 && ev->version == 2);
	ev->trace_context = on_trace_context;
	unsigned contexts = 0;
	profdata_reader *r = open_fixture(root, "tracexml/every-element.xml");
	CHECK(profdata_decode(r, NULL, ev, &contexts) == 0);
	CHECK(contexts > 0);
	profdata_reader_free(r);
	UNGUARD(ev);
}

/* The reader's 0.2 progress callback and profdata_reader_sniff(). */
static profdata_profile *read_with_progress(const char *root)
{
	profdata_reader *r = open_fixture(root, "hprof/jdk17-threads.hprof");
	const profdata_format *f;
	CHECK(profdata_reader_sniff(r, &f) == 0 && strcmp(profdata_format_name(f), "hprof") == 0);
	read_log log;
	memset(&log, 0, sizeof log);
	profdata_reader_set_progress(r, on_read_progress, &log, 64 << 10);
	profdata_profile *p;
	CHECK(profdata_read(&p, r, NULL) == 0);
	CHECK(log.calls > 10 && log.total == profdata_reader_size(r) && log.last <= log.total);
	profdata_reader_free(r);

	profdata_object *o = GUARDED(profdata_object);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_OBJECTS); i++)
		CHECK(profdata_profile_object(p, i, o) == 0 && o->id != 0);
	UNGUARD(o);
	return p;
}

/* The path from a GC root to `node`, asked as 0.2 asks it: its length first, then the steps. */
static void check_path(const profdata_heap *h, size_t node, heap_log *log)
{
	unsigned before = log->calls;
	long len = profdata_heap_path(h, node, NULL, 0, on_heap_progress, log);
	CHECK(len >= 1 && log->calls >= before);
	profdata_heap_step *steps = calloc((size_t)len, sizeof *steps);
	CHECK(steps != NULL);
	CHECK(profdata_heap_path(h, node, steps, (size_t)len, NULL, NULL) == len);
	CHECK(steps[len - 1].node == node && steps[0].root_kind >= 0);
	for (long k = 1; k < len; k++)
		CHECK(steps[k].root_kind == -1 && profdata_heap_reachable(h, steps[k].node));
	free(steps);
}

static void analyse_heap(const profdata_profile *p)
{
	heap_log log;
	memset(&log, 0, sizeof log);
	profdata_heap_options *o = GUARDED(profdata_heap_options);
	o->size = sizeof *o;
	o->dump = 0;
	o->progress = on_heap_progress;
	o->progress_user = &log;
	profdata_heap *h;
	CHECK(profdata_heap_analyze(&h, p, o) == 0 && h != NULL);
	CHECK(log.calls > 0 && !log.bad_phase);

	size_t first, count;
	profdata_heap_objects(h, &first, &count);
	CHECK(first == 0 && count == profdata_profile_count(p, PROFDATA_TABLE_OBJECTS));
	CHECK(profdata_heap_reachable_count(h) > 100 && profdata_heap_reachable_bytes(h) > 0);
	CHECK(profdata_heap_reachable_count(h) + profdata_heap_unreachable_count(h) >= count);

	size_t top[5];
	CHECK(profdata_heap_top(h, 5, top) == 5);
	for (size_t k = 0; k < 5; k++) {
		CHECK(profdata_heap_retained(h, top[k]) >= profdata_heap_size(h, top[k]));
		if (k)
			CHECK(profdata_heap_retained(h, top[k]) <= profdata_heap_retained(h, top[k - 1]));
		size_t d;
		int rc = profdata_heap_dominator(h, top[k], &d);
		CHECK(rc == 0 || rc == 1);
		if (rc == 0)
			CHECK(profdata_heap_retained(h, d) >= profdata_heap_retained(h, top[k]));
		check_path(h, top[k], &log);
	}

	uint64_t by_class = 0, bytes;
	for (size_t c = 0; c < profdata_profile_count(p, PROFDATA_TABLE_CLASSES); c++) {
		CHECK(profdata_heap_class_retained(h, c, &bytes) == 0);
		by_class += bytes;
		size_t ci;
		CHECK(profdata_heap_node_class(h, profdata_heap_class_node(h, c), &ci) == 1 && ci == c);
	}
	CHECK(by_class > 0);
	CHECK(profdata_heap_array_retained(h, PROFDATA_TYPE_BYTE, &bytes) == 0);
	CHECK(profdata_heap_class_retained(h, (size_t)-1, &bytes) == PROFDATA_ENOTFOUND);
	profdata_heap_free(h);

	/* Failures leave *out NULL, as 0.2 said. */
	log.stop = 1;
	h = (profdata_heap *)o;
	CHECK(profdata_heap_analyze(&h, p, o) == PROFDATA_STOPPED && h == NULL);
	log.stop = -5; /* 0.2: any non-zero return is a stop */
	CHECK(profdata_heap_analyze(&h, p, o) == PROFDATA_STOPPED && h == NULL);
	log.stop = 0;
	o->dump = 7;
	h = (profdata_heap *)o;
	CHECK(profdata_heap_analyze(&h, p, o) == PROFDATA_ENOTFOUND && h == NULL);
	CHECK(profdata_heap_analyze(&h, p, NULL) == 0 && h != NULL);
	profdata_heap_free(h);
	UNGUARD(o);
}

/* The model's histogram agrees with the streaming one. */
static void compare_histograms(const char *root, const profdata_profile *p)
{
	profdata_histogram *from_model, *streamed;
	CHECK(profdata_histogram_from_profile(&from_model, p, 0) == 0);
	profdata_reader *r = open_fixture(root, "hprof/jdk17-threads.hprof");
	CHECK(profdata_histogram_read(&streamed, r, NULL, 0) == 0);
	profdata_reader_free(r);
	CHECK(profdata_histogram_count(from_model) > 10);
	CHECK(profdata_histogram_count(from_model) == profdata_histogram_count(streamed));
	CHECK(profdata_histogram_total_bytes(from_model) == profdata_histogram_total_bytes(streamed));
	CHECK(profdata_histogram_total_instances(from_model) == profdata_histogram_total_instances(streamed));
	CHECK(profdata_histogram_entry_at(from_model, profdata_histogram_count(from_model)) == NULL);
	profdata_histogram_free(from_model);
	profdata_histogram_free(streamed);
}

int main(int argc, char **argv)
{
	const char *root = consumer_start(argc, argv, 200);
	decode_with_v2_table(root);
	profdata_profile *p = read_with_progress(root);
	analyse_heap(p);
	compare_histograms(root, p);
	profdata_profile_free(p);
	printf("a 0.2 consumer works with this library\n");
	return 0;
}
