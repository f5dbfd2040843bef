/*
 * Shallow sizes the way VisualVM's heap library computes them, so that our
 * histograms agree with it class by class. The rules were measured against
 * visualvm 2.1.5 (tests/interop/README.md):
 *   reference size R: 4 with 4-byte ids; with 8-byte ids, the difference of
 *     two static offsets of java.lang.Class$Atomic (annotationTypeOffset -
 *     annotationDataOffset), else of FutureTask (waitersOffset -
 *     runnerOffset), when that is 4 or 8; else 8.
 *   object header H: 8 with 4-byte ids, else 8 + R.
 *   instance: align8(H + sum of its fields along the superclass chain, a
 *     reference counting R); object array: align8(H + 4 + n * R);
 *   primitive array: align8(H + 4 + n * element size).
 *   When java.lang.Object's class dump states an instance size > 0 (not
 *   HotSpot), instances take their class's stated size, H is Object's size
 *   and R = H - 8.
 */
#ifndef PD_JVMSIZE_H
#define PD_JVMSIZE_H

#include <stdint.h>

typedef struct pd_jvm_hints {
	int have_atomic;
	int64_t atomic_type_off, atomic_data_off;
	int have_future;
	int64_t future_waiters_off, future_runner_off;
	uint32_t object_instance_size; /* java.lang.Object's stated instance size */
} pd_jvm_hints;

typedef struct pd_jvm_sizes {
	unsigned ref;        /* R */
	unsigned header;     /* H */
	int stated_instances; /* instances use their class's stated size */
} pd_jvm_sizes;

void pd_jvm_decide(unsigned id_size, const pd_jvm_hints *h, pd_jvm_sizes *out);

static inline uint64_t pd_align8(uint64_t x) { return (x + 7) & ~(uint64_t)7; }

/* Record a static field relevant to the decision (by class and field name). */
void pd_jvm_note_static(pd_jvm_hints *h, const char *class_name, const char *field, int64_t value);

#endif
