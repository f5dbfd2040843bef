#include "jvm/jvmsize.h"

#include <string.h>

void pd_jvm_note_static(pd_jvm_hints *h, const char *cls, const char *field, int64_t value)
{
	if (!cls || !field)
		return;
	if (strcmp(cls, "java/lang/Class$Atomic") == 0 || strcmp(cls, "java.lang.Class$Atomic") == 0) {
		if (strcmp(field, "annotationTypeOffset") == 0) {
			h->atomic_type_off = value;
			h->have_atomic |= 1;
		} else if (strcmp(field, "annotationDataOffset") == 0) {
			h->atomic_data_off = value;
			h->have_atomic |= 2;
		}
	} else if (strcmp(cls, "java/util/concurrent/FutureTask") == 0 ||
	           strcmp(cls, "java.util.concurrent.FutureTask") == 0) {
		if (strcmp(field, "waitersOffset") == 0) {
			h->future_waiters_off = value;
			h->have_future |= 1;
		} else if (strcmp(field, "runnerOffset") == 0) {
			h->future_runner_off = value;
			h->have_future |= 2;
		}
	}
}

void pd_jvm_decide(unsigned id_size, const pd_jvm_hints *h, pd_jvm_sizes *out)
{
	out->stated_instances = 0;
	if (h->object_instance_size > 0) {
		out->stated_instances = 1;
		out->header = h->object_instance_size;
		out->ref = out->header > 8 ? out->header - 8 : id_size;
		return;
	}
	if (id_size == 4) {
		out->ref = 4;
		out->header = 8;
		return;
	}
	unsigned ref = 8;
	int64_t d = 0;
	if (h->have_atomic == 3)
		d = h->atomic_type_off - h->atomic_data_off;
	if ((d != 4 && d != 8) && h->have_future == 3)
		d = h->future_waiters_off - h->future_runner_off;
	if (d == 4 || d == 8)
		ref = (unsigned)d;
	out->ref = ref;
	out->header = 8 + ref;
}
