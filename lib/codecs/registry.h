/* The codec descriptors, one per folder. Each is defined in its codec's decode.c or encode.c. */
#ifndef PD_CODECS_REGISTRY_H
#define PD_CODECS_REGISTRY_H

#include "internal.h"

extern const struct profdata_format pd_format_hprof;
extern const struct profdata_format pd_format_gperftools;
extern const struct profdata_format pd_format_ibm_classic;
extern const struct profdata_format pd_format_folded;
extern const struct profdata_format pd_format_pprof;

#endif
