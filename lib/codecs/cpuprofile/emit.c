/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cpuprofile reader's events, after the JSON pass (decode.c): the
 * nodes' parents resolved, then begin, strings, the sample type, threads,
 * a function and a frame per distinct call frame, and the samples, each
 * node's stack emitted at its first sample (the node's serial is its
 * stack's: a node is one path from the root).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/cpuprofile/cpuprofile.h"

static int resolve_edges(cpu_decoder *d)
{
	for (size_t i = 0; i < d->nedges; i++) {
		const js_edge *e = &d->edges[i];
		uint64_t key = pd_cpuprofile_node_key(d->nodes[e->node].profile, e->other);
		uint32_t other = e->other >> 44 ? 0 : pd_map_get(&d->node_of, key);
		if (!other)
			return pd_cpuprofile_fail(d, e->at, PROFDATA_EFORMAT, "node %" PRIu64 " names node %" PRIu64
			                          ", which its profile lacks", d->nodes[e->node].id, e->other);
		uint32_t child = e->is_parent ? e->node : other - 1, parent = e->is_parent ? other - 1 : e->node;
		js_node *c = &d->nodes[child];
		if (child == parent || (c->parent && c->parent != parent + 1))
			return pd_cpuprofile_fail(d, e->at, PROFDATA_EFORMAT, "node %" PRIu64 " has %s", c->id,
			                          child == parent ? "itself as a child" : "two parents");
		c->parent = parent + 1;
	}
	return 0;
}

/*
 * Per profile, a table by node id beside the map when the ids are no more
 * than twice the nodes: a sample's lookup is then one load.
 */
static int dense_rows(cpu_decoder *d)
{
	uint64_t *max = calloc(d->nprofiles + 1, sizeof *max), *count = calloc(d->nprofiles + 1, sizeof *count);
	int rc = !max || !count ? PROFDATA_ENOMEM : 0;
	for (size_t i = 0; i < d->nnodes && rc == 0; i++) {
		const js_node *n = &d->nodes[i];
		max[n->profile] = n->id > max[n->profile] ? n->id : max[n->profile];
		count[n->profile]++;
	}
	for (size_t p = 0; p < d->nprofiles && rc == 0; p++)
		if (count[p] && max[p] <= 2 * count[p] + 64) {
			d->profiles[p].rows = calloc((size_t)max[p] + 1, sizeof *d->profiles[p].rows);
			d->profiles[p].nrows = d->profiles[p].rows ? max[p] + 1 : 0;
			rc = d->profiles[p].rows ? 0 : PROFDATA_ENOMEM;
		}
	for (size_t i = 0; i < d->nnodes && rc == 0; i++) {
		js_profile *p = &d->profiles[d->nodes[i].profile];
		if (p->rows)
			p->rows[d->nodes[i].id] = (uint32_t)i + 1;
	}
	free(max);
	free(count);
	return rc;
}

static int emit_begin(cpu_decoder *d, uint32_t *type, uint32_t *unit)
{
	*type = pd_cpuprofile_string(d, "samples", 7);
	*unit = pd_cpuprofile_string(d, "count", 5);
	uint32_t root;
	d->root_name = pd_intern_find(&d->strings, "(root)", 6, &root) ? root + 1 : 0;
	for (size_t i = 0; i < d->nprofiles; i++) {
		char name[64];
		int n = snprintf(name, sizeof name, "pid %" PRIu64 " tid %" PRIu64, d->profiles[i].pid, d->profiles[i].tid);
		if (d->profiles[i].thread && !pd_cpuprofile_string(d, name, (size_t)n))
			return PROFDATA_ENOMEM;
	}
	if (!*type || !*unit)
		return PROFDATA_ENOMEM;
	profdata_meta m = { .format = "cpuprofile", .period_type = "samples", .period_unit = "count" };
	int rc = PD_EMIT(d->a, begin, &m);
	for (uint32_t i = 0; i < d->strings.n && rc == 0; i++) {
		size_t len;
		const char *s = pd_intern_str(&d->strings, i, &len);
		rc = PD_EMIT(d->a, string, (uint64_t)i + 1, s, len);
	}
	return rc;
}

static int emit_definitions(cpu_decoder *d, uint32_t type, uint32_t unit)
{
	profdata_sample_type st = { type, unit };
	int rc = PD_EMIT(d->a, sample_type, &st);
	for (size_t i = 0; i < d->nprofiles && rc == 0; i++) {
		char name[64];
		uint32_t index;
		int n = snprintf(name, sizeof name, "pid %" PRIu64 " tid %" PRIu64, d->profiles[i].pid, d->profiles[i].tid);
		if (!d->profiles[i].thread || !pd_intern_find(&d->strings, name, (size_t)n, &index))
			continue;
		profdata_thread_start t = { .serial = d->profiles[i].thread, .name_id = (uint64_t)index + 1 };
		rc = PD_EMIT(d->a, thread_start, &t);
	}
	for (size_t i = 0; i < d->nfunctions && rc == 0; i++) {
		const js_function *f = &d->functions[i];
		int32_t line = f->line >= 0 && f->line < INT32_MAX ? f->line + 1 : 0;
		profdata_function fn = { .id = i + 1, .name_id = f->name, .source_file_id = f->url, .start_line = line };
		profdata_frame fr = { .id = i + 1, .function_id = i + 1, .line = line };
		if ((rc = PD_EMIT(d->a, function, &fn)) == 0)
			rc = PD_EMIT(d->a, frame, &fr);
	}
	return rc;
}

/* Node k's stack (serial k + 1), emitted the first time: its frames up to the root, "(root)" itself left out. */
static int stack_of(cpu_decoder *d, uint32_t k, const cpu_batch *b, size_t index)
{
	size_t n = 0;
	for (uint32_t i = k;;) {
		const js_node *node = &d->nodes[i];
		if (n > d->nnodes)
			return pd_cpuprofile_fail(d, pd_cpuprofile_sample_at(d, b, index), PROFDATA_EFORMAT,
			                          "node %" PRIu64 ": its parents make a cycle", d->nodes[k].id);
		if (node->parent || d->functions[node->function].name != d->root_name) {
			if (pd_grow((void **)&d->frame_ids, &d->frames_cap, n + 1, sizeof *d->frame_ids))
				return PROFDATA_ENOMEM;
			d->frame_ids[n++] = (uint64_t)node->function + 1;
		}
		if (!node->parent)
			break;
		i = node->parent - 1;
	}
	d->sent[k] = 1;
	/*
	 * A node is one line of input but its stack is its whole depth: a chain
	 * of n nodes, each sampled, makes n^2 / 2 frames. What the stacks hold is
	 * bounded as the design's other made-up sizes are (doc/design.md).
	 */
	d->nframes_out += n;
	if (d->nframes_out > (uint64_t)32 << 20 && d->nframes_out / 8 > d->size)
		return pd_cpuprofile_fail(d, pd_cpuprofile_sample_at(d, b, index), PROFDATA_ELIMIT,
		                          "the nodes' stacks hold %" PRIu64 " frames, more than 8 per byte of input",
		                          d->nframes_out);
	profdata_stack st = { .serial = k + 1, .frame_ids = d->frame_ids, .nframes = n };
	return PD_EMIT(d->a, stack, &st);
}

/* A batch's samples (samples.c), then what stopped it short. */
static int emit_batch(cpu_decoder *d, const cpu_batch *b, size_t *missing)
{
	js_profile *p = &d->profiles[d->chunks[b->chunk].profile];
	/* the time in a local: the profile's line is the one the reading thread reads the node table from */
	int64_t one = 1, time_us = p->time_us;
	int rc = 0;
	for (size_t j = 0; j < b->n && rc == 0; j++) {
		uint32_t node = b->nodes[j];
		if (!d->sent[node - 1] && (rc = stack_of(d, node - 1, b, j)) != 0)
			break;
		time_us = pd_wrapping_add(time_us, b->deltas[j]);
		profdata_sample smp = { .stack_serial = node, .thread_serial = p->thread,
			                .time_ns = time_us > 0 && time_us < INT64_MAX / 1000 ? (uint64_t)time_us * 1000 : 0,
			                .values = &one, .nvalues = 1 };
		rc = PD_EMIT(d->a, sample, &smp);
	}
	p->time_us = time_us;
	*missing += b->missing;
	if (rc == 0 && b->fault == CPU_FAULT_NODE)
		return pd_cpuprofile_fail(d, pd_cpuprofile_sample_at(d, b, b->n), PROFDATA_EFORMAT, "a sample of node %"
		                          PRId64 ", which the profile lacks", b->fault_id);
	if (rc == 0 && b->fault != CPU_FAULT_NONE)
		return pd_cpuprofile_fail(d, b->fault_at, PROFDATA_EFORMAT, "%s: not an integer",
		                          b->fault == CPU_FAULT_DELTA ? "timeDeltas" : "samples");
	return rc;
}

/* Every chunk's samples, read ahead on a second thread when there is one (samples.c). */
static int emit_samples(cpu_decoder *d, size_t *missing)
{
	cpu_samples s;
	int rc = pd_cpuprofile_samples_start(&s, d);
	const cpu_batch *b;
	while (rc == 0 && (b = pd_cpuprofile_samples_next(&s)) != NULL)
		rc = emit_batch(d, b, missing);
	pd_cpuprofile_samples_stop(&s);
	return rc;
}

int pd_cpuprofile_emit(cpu_decoder *d)
{
	uint32_t type, unit;
	size_t missing = 0;
	int rc = resolve_edges(d);
	if (rc == 0)
		rc = dense_rows(d);
	if (rc == 0 && !(d->sent = calloc(d->nnodes + 1, 1)))
		rc = PROFDATA_ENOMEM;
	if (rc == 0 && (rc = emit_begin(d, &type, &unit)) == 0)
		rc = emit_definitions(d, type, unit);
	if (rc == 0)
		rc = emit_samples(d, &missing);
	if (rc == 0 && missing)
		rc = pd_in_damage(d->in, d->a->mode, PROFDATA_EFORMAT, PD_NO_OFFSET, 0,
		                  "%zu samples without a time delta (taken as 0)", missing);
	return rc;
}
