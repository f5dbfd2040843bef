/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XML trace elements: the descriptor, sniffing, and the element table the
 * decoder and the encoder share.
 */
#include <stdio.h>
#include <string.h>

#include "tracexml.h"
#include "util/numtext.h"


#define EV(n, k) { n, TX_ROLE_EVENT, PROFDATA_TRACE_##k, NULL, NULL }
#define CX(n, k, id, ref) { n, TX_ROLE_CONTEXT, PROFDATA_TRACE_CONTEXT_##k, id, ref }

const tx_element tx_elements[] = {
	EV("methodEntry", METHOD_ENTRY), EV("methodExit", METHOD_EXIT), EV("methodCall", METHOD_CALL),
	EV("methodReturn", METHOD_RETURN), EV("objAlloc", OBJ_ALLOC), EV("objFree", OBJ_FREE),
	EV("objMove", OBJ_MOVE), EV("gcStart", GC_START), EV("gcFinish", GC_FINISH),
	EV("threadStart", THREAD_START), EV("threadEnd", THREAD_END), EV("classDef", CLASS_DEF),
	EV("methodDef", METHOD_DEF),
	/* The DTD's other elements: trace events of kind OTHER named by their element. */
	EV("classUnload", OTHER), EV("objDef", OTHER), EV("value", OTHER), EV("methodCount", OTHER),
	EV("lineTable", OTHER), EV("line", OTHER), EV("throw", OTHER), EV("catch", OTHER),
	EV("runtimeInitDone", OTHER), EV("runtimeShutdown", OTHER), EV("objRef", OTHER), EV("code", OTHER),
	EV("tag", OTHER), EV("gcAlloc", OTHER), EV("return", OTHER), EV("parameter", OTHER),
	EV("exception", OTHER),
	CX("node", NODE, "nodeId", NULL), CX("processCreate", PROCESS, "processId", "nodeIdRef"),
	CX("agentCreate", AGENT, "agentId", "processIdRef"), CX("agentDestroy", AGENT_END, NULL, "agentIdRef"),
	CX("traceStart", TRACE_START, "traceId", "agentIdRef"), CX("traceEnd", TRACE_END, NULL, "traceIdRef"),
	CX("processSuspend", SUSPEND, NULL, "traceIdRef"), CX("processResume", RESUME, NULL, "traceIdRef"),
	CX("option", OPTION, "key", "value"), CX("filter", FILTER, NULL, NULL),
	{ NULL, 0, 0, NULL, NULL },
};

const tx_element *tx_element_find(const char *name)
{
	for (const tx_element *e = tx_elements; e->name; e++)
		if (strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

const char *tx_event_element_name(unsigned kind)
{
	if (kind >= PROFDATA_TRACE_METHOD_ENTRY && kind <= PROFDATA_TRACE_METHOD_DEF)
		return tx_elements[kind - PROFDATA_TRACE_METHOD_ENTRY].name;
	return NULL;
}

const tx_element *tx_context_element(unsigned kind)
{
	for (const tx_element *e = tx_elements; e->name; e++)
		if (e->role == TX_ROLE_CONTEXT && e->kind == kind)
			return e;
	return NULL;
}

void tx_typed_names_of(unsigned kind, tx_typed_names *out)
{
	out->thread = kind == PROFDATA_TRACE_THREAD_START ? "threadId" : "threadIdRef";
	out->method = kind == PROFDATA_TRACE_METHOD_DEF ? "methodId" : "methodIdRef";
	out->klass = kind == PROFDATA_TRACE_CLASS_DEF ? "classId" : "classIdRef";
	out->object = kind == PROFDATA_TRACE_OBJ_ALLOC ? "objId" : "objIdRef";
}

int tx_parse_id(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (*s < '1' || *s > '9')
		return 0;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return 0;
		v = v * 10 + d;
	}
	*out = v;
	return 1;
}

/* Integers only: a double would round 1173787016.105468750 to the nearest 238 ns. */
int tx_parse_time(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	unsigned digits = 0, nsec = 0;
	for (; *s >= '0' && *s <= '9'; s++, nsec++) {
		if (sec > UINT64_MAX / 10)
			return 0;
		sec = sec * 10 + (unsigned)(*s - '0');
	}
	if (nsec == 0 || *s++ != '.' || sec > UINT64_MAX / 1000000000u - 1)
		return 0;
	for (; *s >= '0' && *s <= '9' && digits < 9; s++, digits++)
		frac = frac * 10 + (unsigned)(*s - '0');
	if (digits == 0 || *s)
		return 0;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return *ns != 0;
}

/* By hand (util/numtext.h): snprintf was a fifth of the writer's time. */
size_t tx_format_u64(uint64_t v, char *buf)
{
	size_t n = pd_put_dec((unsigned char *)buf, v);
	buf[n] = '\0';
	return n;
}

size_t tx_format_time(uint64_t ns, char *buf)
{
	size_t n = tx_format_u64(ns / 1000000000u, buf);
	uint32_t frac = (uint32_t)(ns % 1000000000u);
	buf[n] = '.';
	for (int i = 9; i > 0; i--, frac /= 10)
		buf[n + (size_t)i] = (char)('0' + frac % 10);
	buf[n + 10] = '\0';
	return n + 10;
}

/* The special method names as the file writes them (XML forbids '<' in a name) and as the model holds them. */
static const char *const method_name_pairs[][2] = { { "-init-", "<init>" }, { "-clinit-", "<clinit>" } };

/* The other spelling of `name` (side 0: as in the file, 1: as in the model), or NULL if it has none. */
static const char *method_other_name(const char *name, int side)
{
	for (size_t i = 0; i < sizeof method_name_pairs / sizeof method_name_pairs[0]; i++)
		if (strcmp(name, method_name_pairs[i][side]) == 0)
			return method_name_pairs[i][!side];
	return NULL;
}

const char *tx_method_to_model(const char *name) { return method_other_name(name, 0); }
const char *tx_method_to_file(const char *name) { return method_other_name(name, 1); }

int tx_is_root_name(const char *name) { return strcmp(name, "TRACE") == 0 || strcmp(name, "traceRoot") == 0; }

static int known_element_at(const unsigned char *p, size_t len)
{
	size_t n = 0;
	char name[32];
	while (n < len && n < sizeof name - 1 && ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
		n++;
	if (n == 0 || n >= len || (p[n] != ' ' && p[n] != '/' && p[n] != '>' && p[n] != '\n' && p[n] != '\t' &&
	                           p[n] != '\r'))
		return 0;
	memcpy(name, p, n);
	name[n] = '\0';
	if (tx_is_root_name(name))
		return 2;
	return tx_element_find(name) != NULL;
}

int tx_root_name_at(const unsigned char *p, size_t len) { return known_element_at(p, len) == 2; }

/* A ZIP whose first entry is a TPTP trace: TraceContents-*.xml, or any .xml stored with a trace inside. */
static int zip_bid(const unsigned char *buf, size_t len)
{
	if (len < 30)
		return 0;
	size_t name_len = (size_t)buf[26] | (size_t)buf[27] << 8, extra = (size_t)buf[28] | (size_t)buf[29] << 8;
	if (30 + name_len > len || name_len < 5 || memcmp(buf + 30 + name_len - 4, ".xml", 4) != 0)
		return 0;
	if (name_len >= 13 && memcmp(buf + 30, "TraceContents", 13) == 0)
		return 90;
	size_t data = 30 + name_len + extra;
	int stored = buf[8] == 0 && buf[9] == 0;
	if (stored && data + 6 < len && (memcmp(buf + data, "<?xml", 5) == 0 || memcmp(buf + data, "<TRACE", 6) == 0))
		return 80;
	return 0;
}

static int tracexml_bid(const unsigned char *buf, size_t len)
{
	size_t i = 0;
	if (len >= 4 && memcmp(buf, "PK\3\4", 4) == 0)
		return zip_bid(buf, len);
	if (len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF)
		i = 3;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	if (i + 1 >= len || buf[i] != '<')
		return 0;
	if (len - i >= 5 && memcmp(buf + i, "<?xml", 5) == 0) {
		/* A declaration: claim it only when a trace root or element follows. */
		for (size_t k = i + 5; k + 1 < len; k++)
			if (buf[k] == '<' && buf[k + 1] != '?' && buf[k + 1] != '!')
				return known_element_at(buf + k + 1, len - k - 1) ? 90 : 0;
		return 0;
	}
	int known = known_element_at(buf + i + 1, len - i - 1);
	return known == 2 ? 95 : known ? 70 : 0;
}

const struct profdata_format pd_format_tracexml = {
	.name = "tracexml",
	.description = "XML trace elements (Eclipse Hyades/TPTP traces, .trcxml archives)",
	.extensions = (const char *const[]){ ".trcxml", ".trace.xml", NULL },
	.bid = tracexml_bid,
	.decode = pd_tracexml_decode,
	.encoder_new = pd_tracexml_encoder_new,
	.read_options = (const char *const[]){ NULL },
	.write_options = (const char *const[]){ "root", "fragments", "zip", NULL },
};
