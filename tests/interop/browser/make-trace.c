/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A method trace made through the builder's events (as a trace decoder
 * emits them), written as speedscope and chrome-trace files for the browser
 * checks: usage: make-trace OUTDIR. Two threads; main calls work and parse
 * in turn, times in nanoseconds.
 */
#include <profdata/profdata.h>

#include <stdio.h>
#include <string.h>

static int write_as(const profdata_profile *p, const char *dir, const char *name, const char *format)
{
	char path[4096];
	profdata_writer *w;
	profdata_write_options o = PROFDATA_WRITE_OPTIONS_INIT;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	o.format = format;
	if (profdata_writer_open_path(&w, path) < 0 || profdata_write(p, w, &o) < 0 || profdata_writer_close(w) < 0) {
		fprintf(stderr, "make-trace: %s: %s\n", path,
		        profdata_writer_error(w) ? profdata_writer_error(w)->message : "failed");
		profdata_writer_free(w);
		return 1;
	}
	profdata_writer_free(w);
	return 0;
}

static int trace_event(const profdata_events *ev, profdata_profile *p, int entry, uint64_t t, uint32_t thread,
                       uint64_t method)
{
	profdata_trace_event e;
	memset(&e, 0, sizeof e);
	e.kind = entry ? PROFDATA_TRACE_METHOD_ENTRY : PROFDATA_TRACE_METHOD_EXIT;
	e.time_ns = t;
	e.thread_serial = thread;
	e.method_id = method;
	return ev->trace_event(p, &e);
}

int main(int argc, char **argv)
{
	profdata_profile *p;
	if (argc != 2 || profdata_profile_new(&p) < 0)
		return 2;
	const profdata_events *ev = profdata_profile_builder_events();
	static const char *const strs[] = { "com/example/App", "main", "work", "parse", "main", "worker-1" };
	profdata_meta meta;
	memset(&meta, 0, sizeof meta);
	int rc = ev->begin(p, &meta);
	for (uint64_t i = 0; i < 6 && rc == 0; i++)
		rc = ev->string(p, i + 1, strs[i], strlen(strs[i]));
	profdata_class_load cl = { 0, 1, 0x100, 0, 1 };
	profdata_function fns[] = { { 10, 2, 0, 0, 1, 0, 0 }, { 11, 3, 0, 0, 1, 0, 0 }, { 12, 4, 0, 0, 1, 0, 0 } };
	profdata_thread_start threads[] = { { 0, 1, 0x500, 0, 5, 0, 0 }, { 0, 2, 0x600, 0, 6, 0, 0 } };
	rc = rc ? rc : ev->class_load(p, &cl);
	for (int i = 0; i < 3 && rc == 0; i++)
		rc = ev->function(p, &fns[i]);
	for (int i = 0; i < 2 && rc == 0; i++)
		rc = ev->thread_start(p, &threads[i]);
	/* thread 1: main [0, 100 ms] calls work and parse ten times each; thread 2: work, 30 ms */
	uint64_t ms = 1000000, t = 5 * ms;
	rc = rc ? rc : trace_event(ev, p, 1, t, 1, 10);
	for (int i = 0; i < 10 && rc == 0; i++) {
		rc = trace_event(ev, p, 1, t + 1 * ms, 1, 11);
		rc = rc ? rc : trace_event(ev, p, 1, t + 1 * ms + 2 * ms, 1, 12);
		rc = rc ? rc : trace_event(ev, p, 0, t + 1 * ms + 5 * ms, 1, 12);
		rc = rc ? rc : trace_event(ev, p, 0, t + 8 * ms, 1, 11);
		t += 9 * ms;
	}
	rc = rc ? rc : trace_event(ev, p, 0, 105 * ms, 1, 10);
	rc = rc ? rc : trace_event(ev, p, 1, 20 * ms, 2, 11);
	rc = rc ? rc : trace_event(ev, p, 0, 50 * ms, 2, 11);
	rc = rc ? rc : ev->end(p);
	if (rc < 0) {
		fprintf(stderr, "make-trace: building the trace failed\n");
		return 1;
	}
	rc = write_as(p, argv[1], "trace.speedscope.json", "speedscope") ||
	     write_as(p, argv[1], "trace.trace.json", "chrome-trace");
	profdata_profile_free(p);
	return rc;
}
