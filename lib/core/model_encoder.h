/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writers from the model: the encoder that builds a profile for them, and
 * their buffered text output (model_encoder.c); what they read from the
 * profile (samples, names) is analysis/samples.h, included here. Codecs
 * whose descriptor has write_model include this.
 */
#ifndef PD_MODEL_ENCODER_H
#define PD_MODEL_ENCODER_H

#include "internal.h"
#include "analysis/samples.h"

/*
 * The encoder of a format that has write_model and no encoder_new: its
 * events build a profile, and finish calls f->write_model on it. `opts` must
 * outlive the encoder.
 */
int pd_model_encoder_new(void **state, const pd_encoder_ops **ops, profdata_writer *w, const pd_options *opts,
                         const profdata_format *f);

/*
 * Buffered output for writers that build text piece by piece: pieces go to
 * a buffer that goes to the writer every 64 KiB. The first error sticks in
 * rc and makes later calls do nothing; pd_outbuf_finish flushes, frees and
 * returns it.
 */
typedef struct pd_outbuf {
	profdata_writer *w;
	pd_strbuf buf;
	int rc;
} pd_outbuf;

void pd_outbuf_add(pd_outbuf *o, const char *s, size_t n);
void pd_outbuf_str(pd_outbuf *o, const char *s);
void pd_outbuf_printf(pd_outbuf *o, const char *fmt, ...) PD_PRINTF(2, 3);
/* `s` as a JSON string, quotes included; bytes that are not UTF-8 become U+FFFD. */
void pd_outbuf_json_string(pd_outbuf *o, const char *s, size_t n);
int pd_outbuf_finish(pd_outbuf *o);

#endif
