/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cpuprofile reader's speed, against Node's JSON.parse of the same
 * file (run.sh's cpuprofile part): decode a .cpuprofile into per-stack
 * sample counts, the reading every conversion starts from, and print the
 * samples, stacks and the largest count. The model is not built: it keeps
 * every sample (with its time), which is the model's cost, not the reader's.
 *
 * Usage: bench-cpuprofile-read FILE
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <profdata/profdata.h>

typedef struct counts {
	uint64_t *per_stack;
	size_t cap;
	uint64_t samples, stacks;
} counts;

static int on_stack(void *payload, const profdata_stack *s)
{
	counts *c = payload;
	(void)s;
	c->stacks++;
	return 0;
}

static int on_sample(void *payload, const profdata_sample *s)
{
	counts *c = payload;
	if (s->stack_serial >= c->cap) {
		size_t cap = (size_t)s->stack_serial * 2 + 16;
		uint64_t *p = realloc(c->per_stack, cap * sizeof *p);
		if (!p)
			return -1;
		for (size_t i = c->cap; i < cap; i++)
			p[i] = 0;
		c->per_stack = p;
		c->cap = cap;
	}
	c->per_stack[s->stack_serial]++;
	c->samples++;
	return 0;
}

int main(int argc, char **argv)
{
	profdata_reader *r;
	profdata_events ev;
	counts c = { NULL, 0, 0, 0 };
	if (argc != 2) {
		fprintf(stderr, "usage: bench-cpuprofile-read FILE\n");
		return 2;
	}
	profdata_events_init(&ev, sizeof ev);
	ev.stack = on_stack;
	ev.sample = on_sample;
	if (profdata_reader_open_path(&r, argv[1]) != 0) {
		fprintf(stderr, "%s\n", r ? profdata_reader_error(r)->message : "out of memory");
		profdata_reader_free(r);
		return 1;
	}
	profdata_read_options o = PROFDATA_READ_OPTIONS_INIT;
	o.format = "cpuprofile";
	int e = profdata_decode(r, &o, &ev, &c);
	if (e != 0)
		fprintf(stderr, "%s\n", profdata_reader_error(r)->message);
	uint64_t most = 0;
	for (size_t i = 0; i < c.cap; i++)
		most = c.per_stack[i] > most ? c.per_stack[i] : most;
	printf("%" PRIu64 " samples, %" PRIu64 " stacks, at most %" PRIu64 " of one\n", c.samples, c.stacks, most);
	free(c.per_stack);
	profdata_reader_free(r);
	return e != 0;
}
