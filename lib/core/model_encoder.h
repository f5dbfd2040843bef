/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The encoder of the formats that write from the model (model_encoder.c),
 * which the core gives a format that has write_model and no encoder_new.
 * What such writers read from the profile (samples, names) is
 * analysis/samples.h; their buffered text output is io/writer.h's pd_outbuf.
 */
#ifndef PD_MODEL_ENCODER_H
#define PD_MODEL_ENCODER_H

#include "internal.h"

/*
 * The encoder of a format that has write_model and no encoder_new: its
 * events build a profile, and finish calls f->write_model on it. `opts` must
 * outlive the encoder.
 */
int pd_model_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts,
                         const profdata_format *f);

#endif
