/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's text HEAP DUMP: ROOT lines, and CLS, OBJ and ARR records
 * whose TAB-led item lines follow them. An object is sent when the next
 * record begins (or the dump ends), as the IBM classic decoder does; a CLS
 * record is held to the dump's end, when its class's field layout is known
 * (fields.c). Objects list their references (an instance's at its fields'
 * places, an array's elements at their indices) and carry no payload
 * (meta.id_size 0), so the refs_to_payloads transform gives them HPROF
 * payloads on the way to a binary writer. The text states no primitive
 * values: statics and constants are the references it lists, primitive
 * arrays their lengths.
 */
#include <stdlib.h>
#include <string.h>

#include "hprof_text.h"

#define LINE_END ((const char *)d->ln.ls + d->ln.ll)

static void note_id(ht_decoder *d, uint64_t id)
{
	if (id > d->max_id)
		d->max_id = id;
}

/* The last occurrence of `lit` in [p, end), or NULL. */
static const char *last_of(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if (!p || (size_t)(end - p) < n)
		return NULL;
	for (const char *t = end - n;; t--) {
		if (memcmp(t, lit, n) == 0)
			return t;
		if (t == p)
			return NULL;
	}
}

/* ---- roots ---- */

static const struct {
	const char *name;
	uint8_t kind;
} root_kinds[] = {
	{ "JNI global ref", PROFDATA_ROOT_JNI_GLOBAL }, { "JNI local ref", PROFDATA_ROOT_JNI_LOCAL },
	{ "Java stack", PROFDATA_ROOT_JAVA_FRAME },     { "native stack", PROFDATA_ROOT_NATIVE_STACK },
	{ "system class", PROFDATA_ROOT_STICKY_CLASS }, { "thread block", PROFDATA_ROOT_THREAD_BLOCK },
	{ "busy monitor", PROFDATA_ROOT_MONITOR_USED }, { "thread", PROFDATA_ROOT_THREAD_OBJECT },
	{ "unknown", PROFDATA_ROOT_UNKNOWN },
};

/* "frame=-1" as the agent printed %d: the binary's u4. */
static const char *signed_u32(const char *p, const char *end, uint32_t *v)
{
	int neg = p && p < end && *p == '-';
	p = pd_ht_u32(neg ? p + 1 : p, end, v);
	if (p && neg)
		*v = (uint32_t)(0u - *v);
	return p;
}

/* The ", key=value" pairs after the kind: JNI global's hex id, thread's decimal one, thread, frame, trace. */
static int root_fields(const char *p, const char *end, profdata_root *r)
{
	uint32_t u;
	while (p && p < end && *p == ',') {
		const char *q;
		if ((q = pd_ht_key(p + 1, end, "id")))
			p = r->kind == PROFDATA_ROOT_JNI_GLOBAL ? pd_ht_hex(q, end, &r->extra_id)
			                                        : pd_ht_u32(q, end, &r->thread_serial);
		else if ((q = pd_ht_key(p + 1, end, "thread")))
			p = pd_ht_u32(q, end, &r->thread_serial);
		else if ((q = pd_ht_key(p + 1, end, "frame")))
			p = signed_u32(q, end, &r->frame);
		else if ((q = pd_ht_key(p + 1, end, "trace"))) {
			/* a thread object's stack serial; a JNI global's trace has no place in the binary format */
			if ((p = pd_ht_u32(q, end, &u)) && r->kind == PROFDATA_ROOT_THREAD_OBJECT)
				r->frame = u;
		}
		else if ((q = pd_ht_key(p + 1, end, "name")))
			p = end - 1; /* a system class's name: the class is the object */
		else
			return -1;
	}
	return p && p == end - 1 && *p == ')' ? 0 : -1;
}

/* ROOT 5000022a (kind=<thread block>, thread=200004) */
static int on_root(ht_decoder *d)
{
	const char *p = (const char *)d->ln.ls + 5, *end = LINE_END, *gt;
	profdata_root r;
	memset(&r, 0, sizeof r);
	p = pd_ht_lit(pd_ht_spaces(pd_ht_hex(p, end, &r.object_id), end), end, "(kind=<");
	gt = p ? memchr(p, '>', (size_t)(end - p)) : NULL;
	for (size_t i = 0; gt && i < sizeof root_kinds / sizeof root_kinds[0] && !r.kind; i++)
		if (strlen(root_kinds[i].name) == (size_t)(gt - p) && memcmp(root_kinds[i].name, p, (size_t)(gt - p)) == 0)
			r.kind = root_kinds[i].kind;
	if (!r.kind || root_fields(gt + 1, end, &r) < 0)
		return pd_ht_error(d, PROFDATA_EFORMAT, "a ROOT line is not \"ROOT <id> (kind=<kind>, ...)\" with a kind "
		                   "the agent writes");
	note_id(d, r.object_id);
	return PD_EMIT(d->a, root, &r) ? PROFDATA_STOPPED : 0;
}

/* ---- records ---- */

/* "(sz=<n>, trace=<n>, " of OBJ and ARR, or "(name=..., trace=<n>)" of CLS after the id. */
static const char *record_head(ht_decoder *d, const char *p, const char *end)
{
	p = pd_ht_spaces(pd_ht_hex(p, end, &d->rec.id), end);
	if (d->rec.kind == 'C')
		return pd_ht_lit(p, end, "(name=");
	p = pd_ht_dec(pd_ht_key(pd_ht_lit(p, end, "("), end, "sz"), end, &d->rec.size);
	p = pd_ht_at(p, end, ',') ? pd_ht_u32(pd_ht_key(p + 1, end, "trace"), end, &d->rec.trace) : NULL;
	return pd_ht_at(p, end, ',') ? p + 1 : NULL;
}

/* NAME@HEX) of OBJ's class= and ARR's elem type= (primitive arrays have no @HEX): the name's length. */
static int class_ref(ht_decoder *d, const char *p, const char *end, size_t *len)
{
	const char *at = last_of(p, end, "@");
	if (!p || end - p < 2 || end[-1] != ')')
		return -1;
	if (!at) {
		*len = (size_t)(end - 1 - p);
		d->rec.class_id = 0;
		return 0;
	}
	*len = (size_t)(at - p);
	return pd_ht_hex(at + 1, end, &d->rec.class_id) == end - 1 ? 0 : -1;
}

static int on_cls(ht_decoder *d, const char *p, const char *end)
{
	const char *tr = last_of(p, end, ", trace=");
	if (!p || !tr || pd_ht_u32(tr + 8, end, &d->rec.trace) != end - 1 || end[-1] != ')')
		return pd_ht_error(d, PROFDATA_EFORMAT, "a CLS line is not \"CLS <id> (name=<class>, trace=<serial>)\"");
	memset(&d->rec.cd, 0, sizeof d->rec.cd);
	d->rec.cd.id = d->rec.id;
	d->rec.cd.trace_serial = d->rec.trace;
	note_id(d, d->rec.id);
	return pd_ht_class_seen(d, p, (size_t)(tr - p), d->rec.id, d->rec.trace);
}

static int on_obj(ht_decoder *d, const char *p, const char *end)
{
	size_t len;
	p = pd_ht_key(p, end, "class");
	if (!p || class_ref(d, p, end, &len) < 0 || !d->rec.class_id)
		return pd_ht_error(d, PROFDATA_EFORMAT, "an OBJ line is not \"OBJ <id> (sz=<n>, trace=<serial>, "
		                   "class=<class>@<id>)\"");
	d->rec.okind = PROFDATA_OBJECT_INSTANCE;
	note_id(d, d->rec.id);
	note_id(d, d->rec.class_id);
	return pd_ht_class_seen(d, p, len, d->rec.class_id, 0);
}

static int on_arr(ht_decoder *d, const char *p, const char *end)
{
	size_t len;
	p = pd_ht_dec(pd_ht_key(p, end, "nelems"), end, &d->rec.nelems);
	p = pd_ht_at(p, end, ',') ? pd_ht_key(p + 1, end, "elem type") : NULL;
	if (!p || class_ref(d, p, end, &len) < 0)
		return pd_ht_error(d, PROFDATA_EFORMAT, "an ARR line is not \"ARR <id> (sz=<n>, trace=<serial>, "
		                   "nelems=<n>, elem type=<class>[@<id>])\"");
	note_id(d, d->rec.id);
	d->rec.elem = (uint8_t)pd_ht_elem_type(p, len);
	d->rec.okind = d->rec.elem ? PROFDATA_OBJECT_PRIM_ARRAY : PROFDATA_OBJECT_ARRAY;
	if (d->rec.elem)
		return 0;
	if (!d->rec.class_id)
		return pd_ht_error(d, PROFDATA_EFORMAT, "an array of objects without its class's @<id>");
	note_id(d, d->rec.class_id);
	return pd_ht_class_seen(d, p, len, d->rec.class_id, 0);
}

static int on_record(ht_decoder *d, char kind)
{
	const char *end = LINE_END, *p;
	int rc;
	if ((rc = pd_ht_heap_flush(d)) != 0)
		return rc;
	memset(&d->rec, 0, sizeof d->rec);
	d->rec.kind = kind;
	d->rec.line = d->ln.lineno;
	d->rec.off = d->ln.loff;
	d->nids = d->nstatics = d->nconstants = 0;
	p = record_head(d, (const char *)d->ln.ls + 4, end);
	if (kind == 'C')
		return on_cls(d, p, end);
	if (!p)
		return pd_ht_error(d, PROFDATA_EFORMAT, "a record line is not \"OBJ|ARR <id> (sz=<n>, trace=<serial>, ...)\"");
	return kind == 'O' ? on_obj(d, p, end) : on_arr(d, p, end);
}

/* ---- item lines ---- */

/* The id at the end of an item line, after the TABs that follow its name; *name_end where the name ends. */
static int item_value(const char *p, const char *end, const char **name_end, uint64_t *v)
{
	const char *q = end;
	while (q > p && q[-1] != '\t' && q[-1] != ' ')
		q--;
	if (q == p || q == end || pd_ht_hex(q, end, v) != end)
		return -1;
	while (q > p && (q[-1] == '\t' || q[-1] == ' '))
		q--;
	*name_end = q;
	return 0;
}

static int add_static(ht_decoder *d, const char *name, size_t len, uint64_t v)
{
	profdata_field *f;
	int rc;
	if ((rc = pd_grow((void **)&d->statics, &d->statics_cap, d->nstatics + 1, sizeof *d->statics)) < 0)
		return rc;
	f = &d->statics[d->nstatics];
	memset(f, 0, sizeof *f);
	f->type = PROFDATA_TYPE_OBJECT;
	f->value = v;
	d->nstatics++;
	return pd_ht_string(d, name, len, &f->name_id);
}

static int add_constant(ht_decoder *d, uint64_t index, uint64_t v)
{
	profdata_constant *c;
	int rc;
	if (index > UINT16_MAX)
		return pd_ht_error(d, PROFDATA_EFORMAT, "a constant pool index above 65535");
	if ((rc = pd_grow((void **)&d->constants, &d->constants_cap, d->nconstants + 1, sizeof *d->constants)) < 0)
		return rc;
	c = &d->constants[d->nconstants++];
	memset(c, 0, sizeof *c);
	c->index = (uint16_t)index;
	c->type = PROFDATA_TYPE_OBJECT;
	c->value = v;
	return 0;
}

/* super, loader, signers, domain, "static NAME", "constant pool entry N" */
static int cls_item(ht_decoder *d, const char *p, const char *name_end, uint64_t v)
{
	uint64_t index;
	const char *q;
	size_t n = (size_t)(name_end - p);
	if (n == 5 && memcmp(p, "super", 5) == 0)
		d->rec.cd.super_id = v;
	else if (n == 6 && memcmp(p, "loader", 6) == 0)
		d->rec.cd.loader_id = v;
	else if (n == 7 && memcmp(p, "signers", 7) == 0)
		d->rec.cd.signers_id = v;
	else if (n == 6 && memcmp(p, "domain", 6) == 0)
		d->rec.cd.protection_domain_id = v;
	else if ((q = pd_ht_lit(p, name_end, "static ")))
		return add_static(d, q, (size_t)(name_end - q), v);
	else if ((q = pd_ht_lit(p, name_end, "constant pool entry ")) && pd_ht_dec(q, name_end, &index) == name_end)
		return add_constant(d, index, v);
	else
		return pd_ht_error(d, PROFDATA_EFORMAT, "a CLS item is not super, loader, signers, domain, "
		                   "\"static <name>\" or \"constant pool entry <n>\"");
	return 0;
}

/* [13]		500001f0: element 13; the nulls before it are filled in. */
static int arr_item(ht_decoder *d, const char *p, const char *name_end, uint64_t v)
{
	uint64_t index;
	if (pd_ht_dec(pd_ht_lit(p, name_end, "["), name_end, &index) != name_end - 1 || name_end[-1] != ']')
		return pd_ht_error(d, PROFDATA_EFORMAT, "an ARR item is not \"[<index>]\" and an id");
	if (index < d->nids || index >= d->rec.nelems)
		return pd_ht_error(d, PROFDATA_EFORMAT, "an ARR item's index is not above the last one and below nelems");
	return pd_ht_push_at(d, index, v);
}

static int on_item(ht_decoder *d)
{
	const char *p = pd_ht_spaces((const char *)d->ln.ls, LINE_END), *name_end;
	uint64_t v;
	if (!d->rec.kind)
		return pd_ht_error(d, PROFDATA_EFORMAT, "an item line outside a CLS, OBJ or ARR record");
	if (item_value(p, LINE_END, &name_end, &v) < 0)
		return pd_ht_error(d, PROFDATA_EFORMAT, "an item line does not end in an id");
	if (d->rec.kind == 'C')
		return cls_item(d, p, name_end, v);
	if (d->rec.kind == 'A')
		return arr_item(d, p, name_end, v);
	return pd_ht_instance_ref(d, p, (size_t)(name_end - p), v);
}

/* ---- records sent ---- */

int pd_ht_heap_flush(ht_decoder *d)
{
	char kind = d->rec.kind;
	d->rec.kind = 0;
	if (kind == 'C') {
		d->rec.cd.statics = d->statics;
		d->rec.cd.nstatics = d->nstatics;
		d->rec.cd.constants = d->constants;
		d->rec.cd.nconstants = d->nconstants;
		return pd_ht_hold_class(d, &d->rec.cd);
	}
	if (kind) {
		profdata_object o;
		memset(&o, 0, sizeof o);
		o.id = d->rec.id;
		o.class_id = d->rec.class_id;
		o.trace_serial = d->rec.trace;
		o.kind = d->rec.okind;
		o.elem_type = d->rec.elem;
		o.length = kind == 'A' ? d->rec.nelems : 0;
		o.size = d->rec.size;
		o.refs = d->nids ? d->ids : NULL;
		o.nrefs = d->nids;
		return PD_EMIT(d->a, object, &o) ? PROFDATA_STOPPED : 0;
	}
	return 0;
}

int pd_ht_heap_line(ht_decoder *d)
{
	int rc;
	if (d->ln.ll && d->ln.ls[0] == '\t')
		return on_item(d);
	if (d->ln.ll > 5 && memcmp(d->ln.ls, "ROOT ", 5) == 0)
		return (rc = pd_ht_heap_flush(d)) != 0 ? rc : on_root(d);
	if (d->ln.ll > 4 && d->ln.ls[3] == ' ' && (memcmp(d->ln.ls, "CLS", 3) == 0 || memcmp(d->ln.ls, "OBJ", 3) == 0 ||
	                                           memcmp(d->ln.ls, "ARR", 3) == 0))
		return on_record(d, (char)(d->ln.ls[0] == 'C' ? 'C' : d->ln.ls[0] == 'O' ? 'O' : 'A'));
	if (d->ln.ll >= 13 && memcmp(d->ln.ls, "HEAP DUMP END", 13) == 0) {
		d->state = HT_TOP;
		return pd_ht_heap_end(d);
	}
	return pd_ht_error(d, PROFDATA_EFORMAT, "a HEAP DUMP line is not ROOT, CLS, OBJ, ARR, an item or HEAP DUMP END");
}

/* The dump's last record, its held CLS records (their layouts now known), and its end. */
int pd_ht_heap_end(ht_decoder *d)
{
	int rc;
	if ((rc = pd_ht_heap_flush(d)) != 0 || (rc = pd_ht_send_classes(d)) != 0)
		return rc;
	return PD_EMIT0(d->a, dump_end) ? PROFDATA_STOPPED : 0;
}

void pd_ht_heap_free(ht_decoder *d)
{
	pd_ht_fields_free(&d->fields);
	PD_FREE_ALL(d->statics, d->constants);
}
