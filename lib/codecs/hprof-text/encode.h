/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HPROF agent's text output: what the writer's files share (encode.c
 * writes the header, threads, traces and CPU table; encode_heap.c SITES
 * and the heap dump). doc/formats-hprof-text.md, "Writing".
 */
#ifndef PD_CODECS_HPROF_TEXT_ENCODE_H
#define PD_CODECS_HPROF_TEXT_ENCODE_H

#include "internal.h"
#include "analysis/samples.h"
#include "analysis/stacks.h"

typedef struct ht_writer {
	const profdata_profile *p;
	profdata_writer *w;
	pd_outbuf out;
	pd_strbuf name;            /* a class or frame name being made */
	pd_frame_names names;      /* every frame's name, rendered once */
	char date[48];             /* every section's date: the source's, never the clock's */
	int renumber;              /* traces numbered from 300001 (the source has no serials of its own) */
	uint32_t *serial_of;       /* stack index -> the serial written */
	uint64_t nlost_refs;       /* references of objects the text has no line for */
} ht_writer;

/* Append to the output (flushed when large). 0 or an error. */
int pd_htw_printf(ht_writer *hw, const char *fmt, ...) PD_PRINTF(2, 3);
int pd_htw_add(ht_writer *hw, const char *s, size_t n);
/* The trace serial written for the model's stack serial (itself when not renumbered or unknown). */
uint32_t pd_htw_trace(const ht_writer *hw, uint32_t stack_serial);
/* Class `serial` (or the class with id `id`) in source form into hw->name (NUL-ended); 0 when unknown. */
int pd_htw_class_name(ht_writer *hw, uint32_t serial);
int pd_htw_class_name_of_id(ht_writer *hw, uint64_t id);

int pd_htw_sites(ht_writer *hw);
int pd_htw_heap(ht_writer *hw);

#endif
