/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bytes per object in the model: build N synthetic HotSpot-like instances
 * whose payloads live in one input blob (as with a mapped dump), then report
 * the model's memory per object, measured as the growth of the process's
 * resident set, and the build rate.
 *   bench-model [N [shuffled]]   (default 10,000,000, ids ascending)
 * With "shuffled" the ids arrive out of order, which adds the hash index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "model/model_impl.h"

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "VmRSS:", 6) == 0)
			kb = atol(line + 6);
	if (f)
		fclose(f);
	return kb;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	int shuffled = argc > 2 && strcmp(argv[2], "shuffled") == 0;
	const size_t payload = 16;
	/* The "input": payload bytes for every object, like a mapped dump. */
	unsigned char *input = calloc(n, payload);
	if (!input)
		return 1;
	for (size_t i = 0; i < n; i++)
		input[i * payload + 15] = (unsigned char)i;
	profdata_reader *r;
	profdata_reader_open_memory(&r, input, n * payload, "bench");
	long before = rss_kb();
	double t0 = now();
	profdata_profile *p;
	profdata_profile_new(&p);
	pd_profile_set_source(p, pd_in_blob(r), "bench");
	profdata_events ev;
	ev = *profdata_profile_builder_events();
	profdata_meta m;
	memset(&m, 0, sizeof(m));
	m.id_size = 8;
	ev.begin(p, &m);
	ev.string(p, 1, "Node", 4);
	ev.string(p, 2, "next", 4);
	ev.string(p, 3, "value", 5);
	profdata_class_load cl = { 0, 1, 0x1000, 0, 1 };
	ev.class_load(p, &cl);
	profdata_dump d = { 0, PROFDATA_DUMP_SEGMENTED };
	ev.dump_begin(p, &d);
	profdata_field f[2] = { { 2, PROFDATA_TYPE_OBJECT, 0 }, { 3, PROFDATA_TYPE_LONG, 0 } };
	profdata_class_dump cd;
	memset(&cd, 0, sizeof(cd));
	cd.id = 0x1000;
	cd.instance_size = 16;
	cd.fields = f;
	cd.nfields = 2;
	ev.class_dump(p, &cd);
	for (size_t i = 0; i < n; i++) {
		profdata_object o;
		memset(&o, 0, sizeof(o));
		/* A multiplicative permutation of the slots keeps ids unique but out of order. */
		o.id = 0x100000 + (shuffled ? (i * 2654435761u) % n : i) * 24;
		o.class_id = 0x1000;
		o.trace_serial = 1;
		o.kind = PROFDATA_OBJECT_INSTANCE;
		o.length = payload;
		o.data = input + i * payload;
		o.data_len = payload;
		if (ev.object(p, &o) != 0) {
			fprintf(stderr, "object %zu failed\n", i);
			return 1;
		}
	}
	ev.dump_end(p);
	ev.end(p);
	double t1 = now();
	long after = rss_kb();
	size_t idx;
	size_t probe = n / 2;
	uint64_t probe_id = 0x100000 + (shuffled ? (probe * 2654435761u) % n : probe) * 24;
	int found = profdata_profile_find_object(p, probe_id, &idx) == 0 && idx == probe;
	printf("objects:          %zu (ids %s)\n", n, shuffled ? "shuffled" : "ascending");
	printf("model bytes/obj:  %.1f (resident growth %ld MiB; payloads stay in the input)\n",
	       (double)(after - before) * 1024.0 / (double)n, (after - before) / 1024);
	printf("build rate:       %.1f M objects/s\n", (double)n / (t1 - t0) / 1e6);
	printf("lookup by id:     %s\n", found ? "ok" : "FAILED");
	profdata_profile_free(p);
	profdata_reader_free(r);
	free(input);
	return found ? 0 : 1;
}
