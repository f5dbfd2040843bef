/* SPDX-License-Identifier: Apache-2.0 */
/*
 * protobuf-c's unpack against our reader, on the same decompressed
 * profile.proto in memory: what doc/formats-pprof.md's choice of a reader
 * of our own rests on. Prints, for each, the best of 3 runs' CPU seconds and
 * the heap it grew by (mallinfo2's in-use bytes).
 *
 * Usage: bench-pprof-read FILE.pb (raw, not gzip'd: zcat it first)
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <profdata/profdata.h>

#include "codecs/pprof/profile.pb-c.h"

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static size_t heap_in_use(void) { return mallinfo2().uordblks; }

typedef struct counts {
	size_t values, heap_at_end;
} counts;

static int count_sample(void *payload, const profdata_sample *s)
{
	((counts *)payload)->values += s->nvalues;
	return 0;
}

/* The reader's heap at its end, all it holds still held. */
static int note_heap(void *payload)
{
	((counts *)payload)->heap_at_end = heap_in_use();
	return 0;
}

/* Our reader, decoding into a consumer that only counts: the reader's own cost. */
static size_t ours(const unsigned char *b, size_t n, size_t *grew)
{
	profdata_reader *r;
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	profdata_events ev;
	counts c = { 0, 0 };
	size_t before = heap_in_use();
	profdata_reader_open_memory(&r, b, n, "bench");
	o.format = "pprof";
	profdata_events_init(&ev, sizeof ev);
	ev.sample = count_sample;
	ev.end = note_heap;
	if (profdata_decode(r, &o, &ev, &c) != 0)
		fprintf(stderr, "ours: %s\n", profdata_reader_error(r)->message);
	*grew = c.heap_at_end > before ? c.heap_at_end - before : 0;
	profdata_reader_free(r);
	return c.values;
}

/* protobuf-c: unpack the whole message (every sample, label and line a message of its own). */
static size_t theirs(const unsigned char *b, size_t n, size_t *grew)
{
	size_t before = heap_in_use(), count = 0;
	Perftools__Profiles__Profile *p = perftools__profiles__profile__unpack(NULL, n, b);
	size_t after = heap_in_use();
	*grew = after > before ? after - before : 0;
	for (size_t i = 0; p && i < p->n_sample; i++)
		count += p->sample[i]->n_value;
	perftools__profiles__profile__free_unpacked(p, NULL);
	return count;
}

int main(int argc, char **argv)
{
	FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
	if (!f) {
		fprintf(stderr, "usage: bench-pprof-read FILE.pb (raw profile.proto)\n");
		return 2;
	}
	fseek(f, 0, SEEK_END);
	size_t n = (size_t)ftell(f);
	unsigned char *b = malloc(n);
	rewind(f);
	if (fread(b, 1, n, f) != n)
		return 1;
	fclose(f);
	size_t (*run[2])(const unsigned char *, size_t, size_t *) = { theirs, ours };
	const char *name[2] = { "protobuf-c unpack", "profdata reader" };
	for (int k = 0; k < 2; k++) {
		double best = 1e9;
		size_t grew = 0, count = 0;
		for (int i = 0; i < 3; i++) {
			double t = cpu_now();
			count = run[k](b, n, &grew);
			t = cpu_now() - t;
			best = t < best ? t : best;
		}
		printf("%-18s %.3f s CPU, heap +%.1f MiB, %zu values\n", name[k], best, (double)grew / 1048576.0, count);
	}
	free(b);
	return 0;
}
