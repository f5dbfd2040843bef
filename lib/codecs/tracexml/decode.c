/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading XML trace elements through expat, as a push parser fed piece by
 * piece as the reader delivers bytes: a trace of any size never sits in
 * memory, mapped, piped or gunzipped alike.
 *
 * Layouts: a document rooted at TRACE or traceRoot, closed or not (TPTP's
 * agent never closed it: at the end we close the root ourselves); a stream
 * of fragments with neither declaration nor root (the patent's wire form),
 * read inside a root of our own; a ZIP archive of TraceContents-*.xml
 * entries (zip.c), each its own trace.
 *
 * Element by element: depth-2 elements are trace events or trace contexts;
 * deeper ones are PROFDATA_TRACE_NESTED events; character data is a nested
 * event with no name. Ids are resolved to the definition in force (a
 * transient id may be reused after its undefining element).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracexml_decode.h"

#define SYNTHETIC_ROOT "_fragments"
#define CHUNK (1u << 16)

/* ---- ids in force ---- */

static int ids_define(tx_ids *s, uint64_t id, uint64_t *out)
{
	uint32_t v;
	if (!pd_map_get(&s->used, id) && id <= s->max_identity) {
		*out = id;
		v = 1;
	} else {
		if (s->nsynth >= UINT32_MAX - 2)
			return PROFDATA_ELIMIT;
		*out = s->synth_base + s->nsynth;
		v = (uint32_t)(s->nsynth++ + 2);
	}
	if (pd_map_put(&s->used, id, 1) < 0 || pd_map_put(&s->now, id, v) < 0)
		return PROFDATA_ENOMEM;
	return 0;
}

static uint64_t ids_resolve(const tx_ids *s, uint64_t id)
{
	if (s->nsynth == 0)
		return id; /* nothing was defined twice: every id is itself (the common case, and the fast one) */
	uint32_t v = pd_map_get(&s->now, id);
	return v <= 1 ? id : s->synth_base + (v - 2);
}

static void ids_init(tx_ids *s, uint64_t max_identity, uint64_t synth_base)
{
	tx_ids empty = { .max_identity = max_identity, .synth_base = synth_base };
	*s = empty;
}

static void ids_free(tx_ids *s)
{
	pd_map_free(&s->now);
	pd_map_free(&s->used);
}

/* ---- diagnostics and strings ---- */

static void stop(tx_decoder *d, int rc)
{
	if (d->rc == 0)
		d->rc = rc;
	XML_StopParser(d->parser, XML_FALSE);
}

static uint64_t here(const tx_decoder *d)
{
	XML_Index i = XML_GetCurrentByteIndex(d->parser);
	uint64_t b = i < 0 ? 0 : (uint64_t)i;
	return d->doc_offset + (b > d->prefix_len ? b - d->prefix_len : 0);
}

static int fail_here(tx_decoder *d, int code, const char *what)
{
	unsigned long line = (unsigned long)XML_GetCurrentLineNumber(d->parser);
	unsigned long col = (unsigned long)XML_GetCurrentColumnNumber(d->parser);
	if (line == 1 && col >= d->prefix_len)
		col -= (unsigned long)d->prefix_len;
	return pd_in_damage(d->a->in, d->a->mode, code, here(d), line,
	                    "tracexml: %s%sline %lu, column %lu, byte %llu: %s", d->entry ? d->entry : "",
	                    d->entry ? ": " : "", line, col + 1, (unsigned long long)here(d), what);
}

void tx_warn_here(tx_decoder *d, const char *what, uint64_t value)
{
	unsigned long line = (unsigned long)XML_GetCurrentLineNumber(d->parser);
	unsigned long col = (unsigned long)XML_GetCurrentColumnNumber(d->parser);
	if (line == 1 && col >= d->prefix_len)
		col -= (unsigned long)d->prefix_len;
	pd_in_warn_line(d->a->in, PROFDATA_EFORMAT, here(d), line, "tracexml: %s%sline %lu, column %lu, byte %llu: %s %llu",
	                d->entry ? d->entry : "", d->entry ? ": " : "", line, col + 1, (unsigned long long)here(d), what,
	                (unsigned long long)value);
}

int tx_string(tx_decoder *d, const char *s, size_t len, uint64_t *id)
{
	uint32_t index;
	int e = pd_intern_put(&d->strings, s, len, &index);
	if (e < 0)
		return e;
	*id = (uint64_t)index + 1;
	if (e == 0)
		return PD_EMIT(d->a, string, *id, s, len);
	return 0;
}

/* ---- elements ---- */

/* Damage that ends the document: an error in strict mode, else a warning and what came before is kept. */
static void give_up(tx_decoder *d, int code, const char *what)
{
	int e = fail_here(d, code, what);
	d->broken = 1;
	stop(d, e);
}

/* Values are measured where they are kept (tx_value_too_long): a typed one is a short number. */
static const char *attrs_unbounded(const XML_Char **atts)
{
	for (size_t k = 0; atts[k]; k += 2)
		if (k / 2 >= TX_MAX_ATTRS)
			return "more than 256 attributes on one element";
	return NULL;
}

int tx_value_too_long(tx_decoder *d, const char *v)
{
	if (!memchr(v, 0, (size_t)TX_MAX_VALUE + 1)) {
		give_up(d, PROFDATA_ELIMIT, "an attribute value longer than 1 MiB");
		return 1;
	}
	return 0;
}

/*
 * A trace begins with each document (or archive entry). How it was laid
 * out (root name, fragments, archive entry name) is the encoding's business,
 * like gzip, and not kept: the writer's options choose it.
 */
static int emit_begin(tx_decoder *d)
{
	profdata_trace_context c;
	memset(&c, 0, sizeof(c));
	c.kind = PROFDATA_TRACE_CONTEXT_BEGIN;
	c.trace = ++d->trace;
	c.position = d->nevents;
	return PD_EMIT(d->a, trace_context, &c);
}

static int emit_context(tx_decoder *d, const tx_element *el, const XML_Char **atts)
{
	profdata_trace_context c;
	memset(&c, 0, sizeof(c));
	c.kind = el->kind;
	c.trace = d->trace;
	c.position = d->nevents;
	size_t n = 0;
	for (size_t k = 0; atts[k]; k += 2) {
		const char *key = atts[k], *v = atts[k + 1];
		if (el->id_attr && !c.id && strcmp(key, el->id_attr) == 0)
			c.id = v;
		else if (el->ref_attr && !c.ref && strcmp(key, el->ref_attr) == 0)
			c.ref = v;
		else if (!c.time_ns && strcmp(key, "time") == 0 && tx_parse_time(v, &c.time_ns))
			;
		else if (tx_value_too_long(d, v))
			return 0;
		else
			d->kv[n++] = (profdata_kv){ key, v };
	}
	c.attrs = n ? d->kv : NULL;
	c.nattrs = n;
	return PD_EMIT(d->a, trace_context, &c);
}

static int emit_nested(tx_decoder *d, const char *name, unsigned level, const XML_Char **atts)
{
	profdata_trace_event t;
	memset(&t, 0, sizeof(t));
	t.kind = PROFDATA_TRACE_NESTED;
	t.depth = level;
	int e = tx_string(d, name, strlen(name), &t.name_id);
	if (e)
		return e;
	size_t n = 0;
	for (size_t k = 0; atts[k]; k += 2) {
		if (tx_value_too_long(d, atts[k + 1]))
			return 0;
		d->kv[n++] = (profdata_kv){ atts[k], atts[k + 1] };
	}
	t.attrs = n ? d->kv : NULL;
	t.nattrs = n;
	d->nevents++;
	return PD_EMIT(d->a, trace_event, &t);
}

static int flush_text(tx_decoder *d)
{
	if (d->text.n == 0)
		return 0;
	int blank = 1;
	for (size_t i = 0; i < d->text.n && blank; i++)
		blank = d->text.p[i] == ' ' || d->text.p[i] == '\n' || d->text.p[i] == '\r' || d->text.p[i] == '\t';
	int e = 0;
	if (!blank) {
		profdata_kv kv = { "", d->text.p };
		profdata_trace_event t;
		memset(&t, 0, sizeof(t));
		t.kind = PROFDATA_TRACE_NESTED;
		t.depth = (uint32_t)(d->text_depth - 1);
		t.attrs = &kv;
		t.nattrs = 1;
		d->nevents++;
		e = PD_EMIT(d->a, trace_event, &t);
	}
	d->text.n = 0;
	d->text.p[0] = '\0';
	return e;
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
	tx_decoder *d = ud;
	const char *unbounded = attrs_unbounded(atts);
	int e = flush_text(d);
	if (e) {
		stop(d, e);
		return;
	}
	if (++d->depth > TX_MAX_DEPTH || unbounded) {
		give_up(d, PROFDATA_ELIMIT, unbounded ? unbounded : "elements nested deeper than 64");
		return;
	}
	d->nelements++;
	/*
	 * A TRACE or traceRoot where trace elements stand (inside the root, in a
	 * fragment stream, or inside another such) is a container, read as the
	 * root it would be at the start: its children are the trace's elements.
	 * Were it kept as an element, fragments written from it would begin with
	 * it and read back as a rooted document, or hold it where a reader takes
	 * it for a container: no layout could rewrite it as read.
	 */
	int level = d->depth - d->inner_root;
	if (level == 2 && tx_is_root_name(name)) {
		d->inner_root++;
		return;
	}
	if (level == 1) {
		snprintf(d->root, sizeof d->root, "%s", name);
		e = emit_begin(d);
	} else if (level == 2) {
		const tx_element *el = tx_element_find(name);
		if (el && el->role == TX_ROLE_CONTEXT)
			e = emit_context(d, el, atts);
		else
			e = tx_emit_event(d, el ? el->kind : PROFDATA_TRACE_OTHER, name, atts);
	} else {
		e = emit_nested(d, name, (unsigned)(level - 2), atts);
	}
	if (e)
		stop(d, e);
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	tx_decoder *d = ud;
	(void)name;
	int e = flush_text(d);
	if (e)
		stop(d, e);
	if (d->inner_root && d->depth == 1 + d->inner_root)
		d->inner_root--;  /* a container's end (its children stood at its depth + 1) */
	if (--d->depth == 0)
		d->root_closed = 1;
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
	tx_decoder *d = ud;
	int level = d->depth - d->inner_root;
	if (level < 2 || len <= 0)
		return;
	if (d->text.n + (size_t)len > TX_MAX_VALUE) {
		give_up(d, PROFDATA_ELIMIT, "character data longer than 1 MiB");
		return;
	}
	if (d->text.n && d->text_depth != level) {
		int e = flush_text(d);
		if (e) {
			stop(d, e);
			return;
		}
	}
	d->text_depth = level;
	if (pd_strbuf_add(&d->text, s, (size_t)len) < 0)
		stop(d, PROFDATA_ENOMEM);
}

/* ---- documents ---- */

static int xml_error(tx_decoder *d)
{
	if (d->rc || d->broken)
		return d->rc;
	enum XML_Error code = XML_GetErrorCode(d->parser);
	int e = fail_here(d, code == XML_ERROR_AMPLIFICATION_LIMIT_BREACH ? PROFDATA_ELIMIT : PROFDATA_EFORMAT,
	                  XML_ErrorString(code));
	d->broken = 1;
	return e;
}

int tx_document_begin(tx_decoder *d, const char *entry, const unsigned char *head, size_t len)
{
	size_t i = 0;
	d->entry = entry;
	d->depth = 0;
	d->inner_root = 0;
	d->root_closed = 0;
	d->broken = 0;
	d->root[0] = '\0';
	if (d->parser)
		XML_ParserFree(d->parser);
	d->parser = XML_ParserCreate("UTF-8");
	if (!d->parser)
		return PROFDATA_ENOMEM;
	XML_SetUserData(d->parser, d);
	XML_SetElementHandler(d->parser, on_start, on_end);
	XML_SetCharacterDataHandler(d->parser, on_text);
	/* Never read anything but the input: no parameter entities, no external DTD. */
	XML_SetParamEntityParsing(d->parser, XML_PARAM_ENTITY_PARSING_NEVER);
#if XML_MAJOR_VERSION > 2 || (XML_MAJOR_VERSION == 2 && XML_MINOR_VERSION >= 4)
	XML_SetBillionLaughsAttackProtectionMaximumAmplification(d->parser, 50.0f);
	XML_SetBillionLaughsAttackProtectionActivationThreshold(d->parser, 1u << 20);
#endif
	if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
		i = 3;
	while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	d->fragments = !(i + 1 < len && head[i] == '<' &&
	                 (head[i + 1] == '?' || head[i + 1] == '!' || tx_root_name_at(head + i + 1, len - i - 1)));
	d->prefix_len = 0;
	if (d->fragments) {
		static const char open[] = "<" SYNTHETIC_ROOT ">";
		d->prefix_len = sizeof open - 1;
		if (XML_Parse(d->parser, open, (int)d->prefix_len, XML_FALSE) == XML_STATUS_ERROR)
			return xml_error(d);
	}
	return 0;
}

int tx_document_feed(tx_decoder *d, const void *buf, size_t len)
{
	if (d->broken || d->rc)
		return d->rc;
	while (len > 0) {
		int n = len > (size_t)INT32_MAX ? INT32_MAX : (int)len;
		if (XML_Parse(d->parser, buf, n, XML_FALSE) == XML_STATUS_ERROR)
			return xml_error(d);
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
	return 0;
}

/* The agent never closed its root: close what is open at the end ourselves, and say nothing. */
int tx_document_end(tx_decoder *d)
{
	if (d->broken || d->rc)
		return d->rc;
	if (d->open_tickets)
		pd_in_warn(d->a->in, PROFDATA_EFORMAT, here(d), "tracexml: %s%s%llu tickets entered and never exited",
		           d->entry ? d->entry : "", d->entry ? ": " : "", (unsigned long long)d->open_tickets);
	d->open_tickets = 0;
	char close[sizeof d->root + 8] = "";
	if (d->depth == 1 && !d->root_closed)
		snprintf(close, sizeof close, "</%s>", d->fragments ? SYNTHETIC_ROOT : d->root);
	if (XML_Parse(d->parser, close, (int)strlen(close), XML_TRUE) == XML_STATUS_ERROR)
		return xml_error(d);
	return d->rc;
}

static int decode_stream(tx_decoder *d)
{
	const unsigned char *p;
	int64_t n = pd_in_peek(d->a->in, 256, &p);
	if (n < 0)
		return (int)n;
	int e = tx_document_begin(d, NULL, p, (size_t)n);
	d->doc_offset = 0;
	while (e == 0 && !d->broken) {
		n = pd_in_fill(d->a->in, CHUNK, &p);
		if (n < 0)
			return (int)n;
		if (n == 0)
			break;
		/* A mapped input comes whole: take it piece by piece, so that the pages read can be released. */
		if (n > (int64_t)CHUNK)
			n = CHUNK;
		e = tx_document_feed(d, p, (size_t)n);
		pd_in_skip(d->a->in, (size_t)n);
	}
	return e ? e : tx_document_end(d);
}

int tx_decoder_init(tx_decoder *d, const pd_decode_args *a)
{
	memset(d, 0, sizeof(*d));
	d->a = a;
	ids_init(&d->threads, UINT32_MAX >> 1, UINT64_C(0x80000000));
	ids_init(&d->classes, UINT64_C(0x3FFFFFFFFFFFFFFF), UINT64_C(0x4000000000000000));
	ids_init(&d->methods, UINT64_C(0x3FFFFFFFFFFFFFFF), UINT64_C(0x4000000000000000));
	return pd_strbuf_add(&d->text, "", 0);
}

void tx_decoder_free(tx_decoder *d)
{
	if (d->parser)
		XML_ParserFree(d->parser);
	pd_intern_free(&d->strings);
	ids_free(&d->threads);
	ids_free(&d->classes);
	ids_free(&d->methods);
	pd_map_free(&d->class_serial_of);
	pd_map_free(&d->tickets);
	PD_FREE_ALL(d->class_source, d->text.p, d->name.p);
}

int tx_define(tx_ids *s, uint64_t id, uint64_t *out) { return ids_define(s, id, out); }
uint64_t tx_resolve(const tx_ids *s, uint64_t id) { return ids_resolve(s, id); }

int pd_tracexml_decode(const pd_decode_args *a)
{
	tx_decoder d;
	const unsigned char *p;
	int e = tx_decoder_init(&d, a);
	profdata_meta meta;
	memset(&meta, 0, sizeof(meta));
	meta.format = "tracexml";
	if (e == 0)
		e = PD_EMIT(a, begin, &meta);
	int64_t n = e ? 0 : pd_in_peek(a->in, 4, &p);
	if (n < 0)
		e = (int)n;
	else if (e == 0 && n >= 4 && memcmp(p, "PK\3\4", 4) == 0)
		e = tx_decode_zip(&d);
	else if (e == 0)
		e = decode_stream(&d);
	if (e == 0 && d.nelements == 0 && !d.broken)
		e = pd_in_damage(a->in, a->mode, PROFDATA_EFORMAT, 0, 0, "tracexml: no trace element in the input");
	if (e == 0)
		e = PD_EMIT0(a, end);
	tx_decoder_free(&d);
	return e;
}
