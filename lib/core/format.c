/* SPDX-License-Identifier: Apache-2.0 */
/* Reading, writing and converting: drives decoders into consumers and models into encoders. */
#include "internal.h"
#include "model/model.h"
#include "core/events.h"
#include "core/model_encoder.h"
#include "transform/transform.h"

#include <stdlib.h>
#include <string.h>

#define SNIFF_BYTES 4096

const profdata_format *profdata_format_sniff(const void *buf, size_t len)
{
	const profdata_format *best = NULL;
	int best_bid = 0;
	for (size_t i = 0; i < profdata_format_count(); i++) {
		const profdata_format *f = profdata_format_at(i);
		if (!f->bid || !f->decode)
			continue;
		int b = f->bid(buf, len);
		if (b > best_bid) {
			best_bid = b;
			best = f;
		}
	}
	return best;
}

static int choose(profdata_reader *in, const profdata_read_options *opts, const profdata_format **out)
{
	if (opts && opts->format) {
		const profdata_format *f = profdata_format_find(opts->format);
		if (!f)
			return pd_in_error(in, PROFDATA_ENOTFOUND, PD_NO_OFFSET, "unknown format '%s'", opts->format);
		if (!f->decode)
			return pd_in_error(in, PROFDATA_EUNSUPPORTED, PD_NO_OFFSET, "format '%s' cannot be read",
			                   opts->format);
		*out = f;
		return 0;
	}
	const unsigned char *p;
	int64_t n = pd_in_peek(in, SNIFF_BYTES, &p);
	if (n < 0)
		return (int)n;
	size_t len = (size_t)(n < SNIFF_BYTES ? n : SNIFF_BYTES);
	*out = profdata_format_sniff(p, len);
	if (!*out) {
		if (len == 0)
			return pd_in_error(in, PROFDATA_EFORMAT, 0, "the input is empty");
		return pd_in_error(in, PROFDATA_EFORMAT, 0, "not a format libprofdata recognises%s",
		                   len >= 4 && memcmp(p, "PK\3\4", 4) == 0 ? " (it is a zip archive)" : "");
	}
	return 0;
}

/*
 * decoder -> read transforms -> consumer: the transforms the format names
 * behind its decoder that the options ask for (symbolize=...), then the
 * filters every format takes (focus=...), then the choice of one value
 * (sample=...) and of the heaviest stacks (top_stacks=...), take its
 * events first; with
 * none, the decoder calls the consumer directly.
 */
static int decode_through(const profdata_format *f, pd_decode_args *a)
{
	const pd_transform_desc *descs[16];
	size_t n = 0;
	for (; f->read_transforms && f->read_transforms[n] && n < 12; n++)
		descs[n] = f->read_transforms[n];
	descs[n++] = &pd_transform_filter;
	descs[n++] = &pd_transform_sample_type;
	descs[n++] = &pd_transform_top_stacks;
	descs[n] = NULL;
	pd_transform_chain *chain;
	int e = pd_transform_chain_new(&chain, descs, a->ev, a->payload, pd_in_diag(a->in), a->opts);
	if (e < 0)
		return e;
	a->ev = pd_transform_chain_events(chain);
	a->payload = pd_transform_chain_payload(chain);
	e = f->decode(a);
	if (e == 0)
		e = pd_transform_chain_finish(chain);
	pd_transform_chain_free(chain);
	return e;
}

/*
 * The format's read options, the filters' and the sample values'
 * (pd_filter_options, pd_sample_options), into `known` (room for 32,
 * NULL-terminated).
 */
static void read_option_keys(const profdata_format *f, const char **known)
{
	size_t n = 0;
	for (size_t i = 0; f->read_options && f->read_options[i] && n < 25; i++)
		known[n++] = f->read_options[i];
	for (size_t i = 0; pd_filter_options[i]; i++)
		known[n++] = pd_filter_options[i];
	for (size_t i = 0; pd_sample_options[i]; i++)
		known[n++] = pd_sample_options[i];
	known[n] = NULL;
}

/*
 * The consumer's table is adopted once, full size, so that decoders call
 * what it declares and nothing beyond. A callback's negative return is what
 * the caller gets, whatever the decoder made of it; a positive one means
 * "stop, no error" (PROFDATA_STOPPED).
 */
static int run_decoder(const profdata_format *f, profdata_reader *in, const profdata_read_options *opts,
                       const profdata_events *ev, void *payload, unsigned flags)
{
	profdata_events full;
	int e = pd_events_adopt(&full, ev);
	if (e < 0)
		return pd_in_error(in, e, PD_NO_OFFSET, "an events table without a version");
	pd_options o;
	const char *known[32];
	read_option_keys(f, known);
	if ((e = pd_options_parse(&o, opts ? opts->options : NULL, known, pd_in_diag(in))) < 0)
		return e;
	int callback_rc = 0;
	pd_decode_args a = {
		.in = in,
		.ev = &full,
		.payload = payload,
		.mode = opts ? opts->mode : PROFDATA_MODE_PERMISSIVE,
		.opts = &o,
		.callback_rc = &callback_rc,
		.flags = flags,
	};
	pd_in_set_mode(in, a.mode);
	e = decode_through(f, &a);
	pd_options_free(&o);
	if (e != 0 && callback_rc < 0)
		e = callback_rc;
	else if (e > 0)
		e = PROFDATA_STOPPED;
	return pd_in_stop_code(in, e);
}

int profdata_reader_sniff(profdata_reader *in, const profdata_format **out)
{
	*out = NULL;
	return choose(in, NULL, out);
}

static int check_opts(const profdata_read_options *opts)
{
	return opts && opts->version != PROFDATA_READ_OPTIONS_VERSION ? PROFDATA_EINVAL : 0;
}

/*
 * The decoder chosen for `in`, into ev. `model_of`, when not NULL, is the
 * format a model that ev builds will be written as: a model for another
 * format's writer drops the records a decoder kept unread
 * (core/model_encoder.c), so the decoder is told that nobody takes them,
 * and makes none (a recording's other events are most of its events).
 */
static int decode_for(profdata_reader *in, const profdata_read_options *opts, const profdata_events *ev,
                      void *payload, unsigned flags, const profdata_format *model_of)
{
	const profdata_format *f = NULL;
	profdata_events full;
	int e = check_opts(opts);
	if (e < 0 || pd_events_adopt(&full, ev) < 0)
		return pd_in_error(in, PROFDATA_EINVAL, PD_NO_OFFSET, "invalid options or events version");
	if ((e = choose(in, opts, &f)) < 0)
		return e;
	if (model_of && strcmp(f->name, model_of->name) != 0)
		full.unknown = NULL;
	return run_decoder(f, in, opts, &full, payload, flags);
}

int profdata_decode(profdata_reader *in, const profdata_read_options *opts, const profdata_events *ev, void *payload)
{
	return decode_for(in, opts, ev, payload, 0, NULL);
}

int pd_decode_with_flags(profdata_reader *in, const profdata_read_options *opts, const profdata_events *ev,
                         void *payload, unsigned flags)
{
	return decode_for(in, opts, ev, payload, flags, NULL);
}

int profdata_read(profdata_profile **out, profdata_reader *in, const profdata_read_options *opts)
{
	*out = NULL;
	const profdata_format *f = NULL;
	int e = check_opts(opts);
	if (e < 0)
		return pd_in_error(in, PROFDATA_EINVAL, PD_NO_OFFSET, "read options of an unknown version");
	if ((e = choose(in, opts, &f)) < 0)
		return e;
	profdata_profile *p;
	if ((e = profdata_profile_new(&p)) < 0)
		return e;
	pd_profile_set_source(p, pd_in_blob(in), f->name);
	e = run_decoder(f, in, opts, profdata_profile_builder_events(), p, 0);
	const profdata_error *be = profdata_profile_error(p);
	/* A decoder that calls the builder without PD_EMIT loses its code: the builder kept it. */
	if (e == PROFDATA_STOPPED && be)
		e = be->code;
	if (e == 0 && !pd_profile_ended(p))
		e = pd_in_error(in, PROFDATA_ERROR, pd_in_offset(in), "the %s decoder did not finish the profile", f->name);
	if (e < 0 && be && !profdata_reader_error(in))
		pd_in_error(in, be->code, pd_in_offset(in), "%s", be->message);
	for (size_t i = 0; i < pd_profile_warning_count(p); i++) {
		const profdata_error *w = pd_profile_warning(p, i);
		pd_in_warn(in, w->code, w->offset, "%s", w->message);
	}
	/* The reader's count says how many there were, kept or not. */
	pd_diag_count_unkept(pd_in_diag(in), pd_profile_warning_total(p) - pd_profile_warning_count(p));
	if (e != 0) {
		profdata_profile_free(p);
		return e < 0 || pd_in_stop_code(in, 0) ? e : PROFDATA_ERROR;
	}
	*out = p;
	return 0;
}

struct profdata_encoder {
	const profdata_format *f;
	const pd_encoder_ops *ops;
	void *state;
	pd_options opts;
	profdata_writer *w;
	pd_transform_chain *front; /* the format's write transforms, in front of the encoder */
	profdata_events own;       /* the encoder's events with its drops counted (pd_encoder_ops.drops) */
	int finished;
};

/*
 * decoder -> transforms -> encoder: put the transforms the format asks for
 * in front of its encoder; events then enter the first of them.
 */
static int compose_transforms(profdata_encoder *enc)
{
	enc->own = enc->ops->events;
	pd_events_set_drops(&enc->own, enc->ops->drops);
	return pd_transform_chain_new(&enc->front, enc->f->write_transforms, &enc->own, enc->state,
	                              pd_out_diag(enc->w), &enc->opts);
}

static int find_writer(profdata_writer *w, const profdata_write_options *opts, const profdata_format **out)
{
	if (!opts || opts->version != PROFDATA_WRITE_OPTIONS_VERSION || !opts->format)
		return pd_out_error(w, PROFDATA_EINVAL, "write options need a version and a format name");
	const profdata_format *f = profdata_format_find(opts->format);
	if (!f)
		return pd_out_error(w, PROFDATA_ENOTFOUND, "unknown format '%s'", opts->format);
	if (!profdata_format_can_write(f))
		return pd_out_error(w, PROFDATA_EUNSUPPORTED, "format '%s' cannot be written", opts->format);
	*out = f;
	return 0;
}

int profdata_encoder_new(profdata_encoder **out, profdata_writer *w, const profdata_write_options *opts)
{
	*out = NULL;
	const profdata_format *f = NULL;
	int e = find_writer(w, opts, &f);
	if (e < 0)
		return e;
	if (!f->encoder_new && !f->write_model)
		return pd_out_error(w, PROFDATA_EUNSUPPORTED, "format '%s' has no streaming encoder", f->name);
	profdata_encoder *enc = calloc(1, sizeof(*enc));
	if (!enc)
		return PROFDATA_ENOMEM;
	enc->f = f;
	enc->w = w;
	if ((e = pd_options_parse(&enc->opts, opts->options, f->write_options, pd_out_diag(w))) < 0 ||
	    (e = f->encoder_new ? f->encoder_new(&enc->state, &enc->ops, w, &enc->opts)
	                        : pd_model_encoder_new(&enc->state, &enc->ops, w, &enc->opts, f)) < 0) {
		pd_options_free(&enc->opts);
		free(enc);
		return e;
	}
	if ((e = compose_transforms(enc)) < 0) {
		profdata_encoder_free(enc);
		return e;
	}
	*out = enc;
	return 0;
}

const profdata_events *profdata_encoder_events(const profdata_encoder *e) { return pd_transform_chain_events(e->front); }
void *profdata_encoder_payload(profdata_encoder *e) { return pd_transform_chain_payload(e->front); }

int profdata_encoder_finish(profdata_encoder *e)
{
	if (e->finished)
		return 0;
	e->finished = 1;
	int rc = pd_transform_chain_finish(e->front);
	if (rc != 0)
		return rc;
	if ((rc = e->ops->finish ? e->ops->finish(e->state) : 0) == 0 && e->ops->drops)
		pd_events_report_drops(e->state, e->ops->drops, e->f->name, e->w);
	return rc;
}

void profdata_encoder_free(profdata_encoder *e)
{
	if (!e)
		return;
	pd_transform_chain_free(e->front);
	if (e->ops && e->ops->free)
		e->ops->free(e->state);
	pd_options_free(&e->opts);
	free(e);
}

int profdata_write(const profdata_profile *p, profdata_writer *w, const profdata_write_options *opts)
{
	const profdata_format *f = NULL;
	int e = find_writer(w, opts, &f);
	if (e < 0)
		return e;
	/* A trace's samples come from the format's transforms, which only the encoder path runs. */
	int derive = f->write_transforms && profdata_profile_count(p, PROFDATA_TABLE_TRACE_EVENTS) > 0;
	if (f->write_model && !derive) {
		pd_options o;
		if ((e = pd_options_parse(&o, opts->options, f->write_options, pd_out_diag(w))) < 0)
			return e;
		e = f->write_model(p, w, &o);
		pd_options_free(&o);
		return e;
	}
	profdata_encoder *enc;
	if ((e = profdata_encoder_new(&enc, w, opts)) < 0)
		return e;
	e = profdata_profile_replay(p, profdata_encoder_events(enc), profdata_encoder_payload(enc));
	if (e == 0)
		e = profdata_encoder_finish(enc);
	else if (e > 0)
		e = profdata_writer_error(w) ? profdata_writer_error(w)->code : PROFDATA_ERROR;
	profdata_encoder_free(enc);
	return e;
}

/* profdata_decode() into `enc`: a streaming encoder, or a model for its format's writer (decode_for). */
static int decode_into(profdata_encoder *enc, profdata_reader *in, const profdata_read_options *ropts)
{
	return decode_for(in, ropts, profdata_encoder_events(enc), profdata_encoder_payload(enc), 0,
	                  enc->f->encoder_new ? NULL : enc->f);
}

int profdata_convert(profdata_reader *in, const profdata_read_options *ropts, profdata_writer *out,
                     const profdata_write_options *wopts)
{
	profdata_encoder *enc;
	int e = profdata_encoder_new(&enc, out, wopts);
	if (e < 0)
		return e;
	/* Events borrow their pointers for the call alone: a streaming encoder needs no mapping of the input,
	 * and a big file reads faster on a second thread (io/readahead.h); the model encoder's model points into it. */
	if (enc->f->encoder_new)
		pd_in_stream(in);
	e = decode_into(enc, in, ropts);
	/* Encoders return negative codes, which arrive unchanged; a stop can only
	 * come from a decoder that calls the encoder without PD_EMIT. */
	if (e == PROFDATA_STOPPED && pd_in_stop_code(in, 0) == 0)
		e = profdata_writer_error(out) ? profdata_writer_error(out)->code : PROFDATA_ERROR;
	if (e == 0)
		e = profdata_encoder_finish(enc);
	profdata_encoder_free(enc);
	return e;
}

const profdata_error *profdata_convert_error(const profdata_reader *in, const profdata_writer *out)
{
	const profdata_error *e = out ? profdata_writer_error(out) : NULL;
	return e ? e : in ? profdata_reader_error(in) : NULL;
}
