#include "tracexml.h"
int pd_tracexml_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts)
{ (void)state; (void)ops; (void)opts; return pd_out_error(w, PROFDATA_EUNSUPPORTED, "tracexml: not yet"); }
