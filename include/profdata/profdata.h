/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libprofdata: read, write and convert JVM and native profiles and heap dumps.
 *
 * The umbrella header. The areas, one header each:
 *   version.h  compile-time and run-time version
 *   common.h   return codes, basic types, diagnostics
 *   io.h       readers and writers (files, descriptors, memory, callbacks, gzip)
 *   events.h   the event vocabulary shared by decoders, encoders and the model
 *   model.h    the shared in-memory model
 *   format.h   the format registry, reading, writing, converting
 *   histogram.h  per-class instance counts and shallow sizes of heap dumps
 *   heap.h     dominator tree, retained sizes and paths to GC roots of heap dumps
 *   top.h      (experimental) flat and cumulative sums per function, as pprof -top
 *   merge.h    (experimental) profiles of samples merged into one, as pprof merges them
 *   suspects.h (experimental) leak suspects of a heap dump: what retains a large share, and where it gathers
 *   waste.h    (experimental) waste in a heap dump: duplicate strings and arrays, empty collections, boxes
 *   heap_diff.h (experimental) what changed between two heap dumps: per class, objects by id, new dominators
 */
#ifndef PROFDATA_PROFDATA_H
#define PROFDATA_PROFDATA_H

#include <profdata/common.h>
#include <profdata/version.h>
#include <profdata/io.h>
#include <profdata/events.h>
#include <profdata/model.h>
#include <profdata/format.h>
#include <profdata/histogram.h>
#include <profdata/heap.h>
#include <profdata/top.h>
#include <profdata/merge.h>
#include <profdata/suspects.h>
#include <profdata/waste.h>
#include <profdata/heap_diff.h>

#endif
