/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A program written for libprofdata 0.1: compiled against the 0.1 headers
 * (tests/abi/headers-0.1 only) and run against the library being built. It
 * uses the 0.1 API as 0.1 documented it: a PROFDATA_EVENTS_INIT table,
 * profdata_profile_builder() into its own table, row getters into its own
 * structs. Every table and struct it hands the library sits at the very end
 * of a page whose next page is inaccessible, so a library that reads or
 * writes past what 0.1 declared crashes this program.
 *
 * Usage: abi-consumer-0.1 SOURCE_ROOT
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "guard.h"

typedef struct counts {
	unsigned begins, ends, strings, objects, class_loads;
	unsigned stop_after; /* return 1 from the object callback at this count (0 never) */
} counts;

static int on_begin(void *payload, const profdata_meta *m)
{
	(void)m;
	((counts *)payload)->begins++;
	return 0;
}

static int on_string(void *payload, uint64_t id, const char *utf8, size_t len)
{
	(void)id;
	(void)utf8;
	(void)len;
	((counts *)payload)->strings++;
	return 0;
}

static int on_class_load(void *payload, const profdata_class_load *c)
{
	(void)c;
	((counts *)payload)->class_loads++;
	return 0;
}

static int on_object(void *payload, const profdata_object *o)
{
	counts *c = payload;
	(void)o;
	c->objects++;
	return c->stop_after && c->objects == c->stop_after ? 1 : 0;
}

static int on_end(void *payload)
{
	((counts *)payload)->ends++;
	return 0;
}

/* Decode with a 0.1 events table: every member it has is called, none beyond. */
static void decode_with_old_table(const char *root, const char *rel, unsigned stop_after)
{
	profdata_events init = PROFDATA_EVENTS_INIT;
	profdata_events *ev = GUARDED(profdata_events);
	*ev = init;
	ev->begin = on_begin;
	ev->string = on_string;
	ev->class_load = on_class_load;
	ev->object = on_object;
	ev->end = on_end;
	counts c;
	memset(&c, 0, sizeof c);
	c.stop_after = stop_after;
	profdata_reader *r = open_fixture(root, rel);
	int rc = profdata_decode(r, NULL, ev, &c);
	if (stop_after) {
		CHECK(rc == PROFDATA_STOPPED); /* a positive return still means "stop, no error" */
		CHECK(c.objects == stop_after && c.ends == 0);
	} else {
		CHECK(rc == 0);
		if (!(c.begins == 1 && c.ends == 1 && c.strings > 0 && c.objects > 10))
			fprintf(stderr, "%s: %u begins, %u ends, %u strings, %u objects\n", rel, c.begins, c.ends,
			        c.strings, c.objects);
		CHECK(c.begins == 1 && c.ends == 1 && c.strings > 0 && c.objects > 10);
	}
	profdata_reader_free(r);
	UNGUARD(ev);
}

/* Every row getter writes into a 0.1-sized struct and no further. */
static void read_rows_with_old_structs(const char *root)
{
	profdata_profile *p = read_fixture(root, "hprof/jdk17-threads.hprof");

	size_t nclasses = profdata_profile_count(p, PROFDATA_TABLE_CLASSES), named = 0;
	CHECK(nclasses > 10);
	profdata_class_info *ci = GUARDED(profdata_class_info);
	for (size_t i = 0; i < nclasses; i++) {
		CHECK(profdata_profile_class(p, i, ci) == 0);
		size_t back;
		CHECK(profdata_profile_find_class(p, ci->has_dump ? ci->dump.id : ci->load.id, &back) == 0 && back == i);
		named += ci->name != NULL;
	}
	CHECK(named > 10);
	CHECK(profdata_profile_class(p, nclasses, ci) == PROFDATA_ENOTFOUND);
	UNGUARD(ci);

	size_t nobjects = profdata_profile_count(p, PROFDATA_TABLE_OBJECTS);
	profdata_object *o = GUARDED(profdata_object);
	for (size_t i = 0; i < nobjects; i++) {
		CHECK(profdata_profile_object(p, i, o) == 0);
		size_t back;
		CHECK(profdata_profile_find_object(p, o->id, &back) == 0 && back == i);
	}
	UNGUARD(o);

	profdata_root *root_row = GUARDED(profdata_root);
	uint32_t dump;
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_ROOTS); i++)
		CHECK(profdata_profile_root(p, i, root_row, &dump) == 0 && dump == 0);
	UNGUARD(root_row);

	profdata_thread_info *t = GUARDED(profdata_thread_info);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_THREADS); i++)
		CHECK(profdata_profile_thread(p, i, t) == 0 && t->has_start && t->start.serial != 0);
	UNGUARD(t);

	profdata_stack *st = GUARDED(profdata_stack);
	profdata_frame *fr = GUARDED(profdata_frame);
	profdata_function *fn = GUARDED(profdata_function);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_STACKS); i++)
		CHECK(profdata_profile_stack(p, i, st) == 0);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_FRAMES); i++) {
		CHECK(profdata_profile_frame(p, i, fr) == 0);
		size_t f;
		if (fr->function_id)
			CHECK(profdata_profile_find_function(p, fr->function_id, &f) == 0 &&
			      profdata_profile_function(p, f, fn) == 0 && fn->id == fr->function_id);
	}
	UNGUARD(st);
	UNGUARD(fr);
	UNGUARD(fn);

	profdata_class_dump *cd = GUARDED(profdata_class_dump);
	profdata_class_load *cl = GUARDED(profdata_class_load);
	profdata_dump *d = GUARDED(profdata_dump);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_CLASS_DUMPS); i++)
		CHECK(profdata_profile_class_dump_at(p, i, cd, &dump) == 0 && cd->id != 0);
	for (size_t i = 0; i < profdata_profile_count(p, PROFDATA_TABLE_CLASS_LOADS); i++)
		CHECK(profdata_profile_class_load(p, i, cl) == 0 && cl->name_id != 0);
	CHECK(profdata_profile_dump(p, 0, d) == 0);
	UNGUARD(cd);
	UNGUARD(cl);
	UNGUARD(d);

	/* A replay into a 0.1 table sees the same objects. */
	profdata_events init = PROFDATA_EVENTS_INIT;
	profdata_events *ev = GUARDED(profdata_events);
	*ev = init;
	ev->object = on_object;
	counts c;
	memset(&c, 0, sizeof c);
	CHECK(profdata_profile_replay(p, ev, &c) == 0 && c.objects == nobjects);
	UNGUARD(ev);
	profdata_profile_free(p);
}

/* Build a profile as 0.1 did: profdata_profile_builder() fills the caller's table. */
static void build_with_old_builder(void)
{
	profdata_events *ev = GUARDED(profdata_events);
	profdata_profile *p;
	CHECK(profdata_profile_new(&p) == 0);
	profdata_profile_builder(ev);
	CHECK(ev->version == 1 && ev->begin && ev->object && ev->end);

	profdata_meta m;
	memset(&m, 0, sizeof m);
	m.format = "hprof";
	m.id_size = 8;
	CHECK(ev->begin(p, &m) == 0);
	CHECK(ev->string(p, 1, "Foo", 3) == 0);
	profdata_class_load cl = { 0, 1, 0x100, 0, 1 };
	CHECK(ev->class_load(p, &cl) == 0);
	profdata_dump d = { 0, PROFDATA_DUMP_HEAP };
	CHECK(ev->dump_begin(p, &d) == 0);
	profdata_class_dump cd;
	memset(&cd, 0, sizeof cd);
	cd.id = 0x100;
	CHECK(ev->class_dump(p, &cd) == 0);
	profdata_object o;
	memset(&o, 0, sizeof o);
	o.id = 0x200;
	o.class_id = 0x100;
	CHECK(ev->object(p, &o) == 0);
	CHECK(ev->dump_end(p) == 0);
	CHECK(ev->end(p) == 0);
	/* Out of order: the builder's error code comes back from the callback. */
	CHECK(ev->begin(p, &m) == PROFDATA_EINVAL);

	profdata_object *row = GUARDED(profdata_object);
	CHECK(profdata_profile_count(p, PROFDATA_TABLE_OBJECTS) == 1);
	CHECK(profdata_profile_object(p, 0, row) == 0 && row->id == 0x200 && row->class_id == 0x100);
	UNGUARD(row);

	/* And writes it as 0.1 did. */
	profdata_writer *w;
	CHECK(profdata_writer_open_memory(&w) == 0);
	profdata_write_options wo = PROFDATA_WRITE_OPTIONS_INIT;
	wo.format = "hprof";
	CHECK(profdata_write(p, w, &wo) == 0 && profdata_writer_close(w) == 0);
	const void *bytes;
	size_t len;
	CHECK(profdata_writer_memory(w, &bytes, &len) == 0 && len > 31);
	CHECK(memcmp(bytes, "JAVA PROFILE 1.0.", 17) == 0);
	profdata_writer_free(w);
	profdata_profile_free(p);
	UNGUARD(ev);
}

int main(int argc, char **argv)
{
	const char *root = consumer_start(argc, argv, 100);
	decode_with_old_table(root, "hprof/jdk17-minimal.hprof", 0);
	decode_with_old_table(root, "classic/multi-heap.txt", 0);
	decode_with_old_table(root, "hprof/jdk17-minimal.hprof", 5);
	read_rows_with_old_structs(root);
	build_with_old_builder();
	printf("a 0.1 consumer works with this library\n");
	return 0;
}
