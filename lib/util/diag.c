/* SPDX-License-Identifier: Apache-2.0 */
#include "util/diag.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Messages are formatted into heap strings owned by the diag, so that the
 * profdata_error handed out stays valid until the handle is freed (warnings)
 * or the next error (the error).
 */
static char *format_message(const char *fmt, va_list ap) PD_PRINTF(1, 0);
static char *format_message(const char *fmt, va_list ap)
{
	char small[256], *heap;
	size_t n;
	const char *text = pd_vformat(small, sizeof(small), &heap, &n, fmt, ap);
	return heap || !text ? heap : pd_strdup(text);
}

/* The messages of the error codes (profdata/common.h), which an error without a message of its own gives. */
const char *profdata_strerror(int code)
{
	switch (code) {
	case PROFDATA_OK: return "success";
	case PROFDATA_STOPPED: return "stopped by a callback";
	case PROFDATA_ERROR: return "error";
	case PROFDATA_ENOMEM: return "out of memory";
	case PROFDATA_EIO: return "input/output error";
	case PROFDATA_EFORMAT: return "invalid input";
	case PROFDATA_ETRUNCATED: return "input truncated";
	case PROFDATA_EUNSUPPORTED: return "unsupported variant";
	case PROFDATA_EINVAL: return "invalid argument";
	case PROFDATA_ENOTFOUND: return "not found";
	case PROFDATA_ERANGE: return "value out of range for the target format";
	case PROFDATA_ELIMIT: return "input exceeds a limit";
	default: return code <= PROFDATA_EUSER ? "a callback's own error" : "unknown error code";
	}
}

void pd_diag_init(pd_diag *d, const char *name)
{
	memset(d, 0, sizeof(*d));
	if (name)
		d->name = pd_strdup(name);
}

void pd_diag_free(pd_diag *d)
{
	free(d->err_msg);
	free(d->name);
	for (size_t i = 0; i < d->kept; i++)
		free(d->warning_msgs[i]);
	free(d->warning_msgs);
	free(d->warnings);
	memset(d, 0, sizeof(*d));
}

int pd_diag_verror(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, va_list ap)
{
	/* The first error is the one that explains the failure; later ones are consequences. */
	if (d->has_err)
		return code;
	free(d->err_msg);
	d->err_msg = format_message(fmt, ap);
	d->err.code = code;
	d->err.message = d->err_msg ? d->err_msg : profdata_strerror(code);
	d->err.name = d->name ? d->name : "";
	d->err.offset = offset;
	d->err.line = line;
	d->has_err = 1;
	return code;
}

int pd_diag_error(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_verror(d, code, offset, line, fmt, ap);
	va_end(ap);
	return code;
}

void pd_diag_vwarn(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, va_list ap)
{
	d->nwarnings++;
	if (d->kept >= PD_MAX_WARNINGS)
		return;
	if (d->kept == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 8;
		profdata_error *w = realloc(d->warnings, cap * sizeof(*w));
		if (!w)
			return;
		d->warnings = w;
		char **m = realloc(d->warning_msgs, cap * sizeof(*m));
		if (!m)
			return;
		d->warning_msgs = m;
		d->cap = cap;
	}
	char *msg = format_message(fmt, ap);
	if (!msg)
		return;
	d->warning_msgs[d->kept] = msg;
	profdata_error *w = &d->warnings[d->kept++];
	w->code = code;
	w->message = msg;
	w->name = d->name ? d->name : "";
	w->offset = offset;
	w->line = line;
}

void pd_diag_count_unkept(pd_diag *d, size_t n) { d->nwarnings += n; }

void pd_diag_warn(pd_diag *d, int code, uint64_t offset, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_diag_vwarn(d, code, offset, line, fmt, ap);
	va_end(ap);
}

const profdata_error *pd_diag_last(const pd_diag *d)
{
	return d->has_err ? &d->err : NULL;
}

const profdata_error *pd_diag_warning(const pd_diag *d, size_t i)
{
	return i < d->kept ? &d->warnings[i] : NULL;
}
