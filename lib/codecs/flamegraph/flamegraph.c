/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Flame graphs: one self-contained, interactive SVG (export only). Frames
 * are the nodes of the call tree that folded stacks describe
 * (analysis/stacks.h), so their values are folded's; siblings in name order,
 * root at the bottom (or on top with reverse=1). Each frame is
 *
 *   <g class="f" fg:x=".." fg:w=".." fg:d=".."><title>NAME (N samples, P%)</title>
 *   <rect .../><text ...>label</text></g>
 *
 * the title in flamegraph.pl's form, so that what reads its SVGs reads
 * these. With base=INDEX it is a differential flame graph: the widths
 * still those of `value`, each frame coloured by its change from value
 * INDEX (a diff's base: red grew, blue shrank) and its title saying both.
 * See doc/formats-flamegraph.md.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "analysis/samples.h"
#include "analysis/stacks.h"
#include "codecs/flamegraph/flamegraph.h"
#include "transform/transform.h"
#include "util/hashmap.h"
#include "util/numtext.h"

extern const struct profdata_format pd_format_flamegraph;

#define FRAME_HEIGHT 16
#define FONT_SIZE 12
#define XPAD 10
#define TOP_PAD (FONT_SIZE * 3)
#define BOTTOM_PAD (FONT_SIZE * 2 + 10)

typedef struct svg_settings {
	const char *title;
	long long width;
	long long reverse;
	long long value_index;
	long long base_index;      /* a differential graph's base value, or -1 */
	int sites;                 /* pd_site_value: draw ALLOC SITES instead of samples; 0 samples */
	double min_width;          /* pixels */
} svg_settings;

typedef struct svg_writer {
	const profdata_profile *p;
	profdata_writer *w;
	svg_settings set;
	pd_call_tree tree;
	unsigned char *drawn;      /* node -> 1 when wide enough */
	size_t ndrawn, nomitted;
	int64_t omitted_value;
	uint32_t depth;            /* the deepest drawn frame */
	uint64_t max_delta;        /* differential: the largest |value - base| of a drawn frame */
	const char *unit;
	size_t unit_len;
	pd_outbuf out;
} svg_writer;

static int read_settings(const pd_options *opts, svg_settings *set, profdata_writer *w)
{
	pd_diag *d = pd_out_diag(w);
	const char *min = pd_options_get(opts, "minwidth");
	set->title = pd_options_get(opts, "title");
	if (!set->title || !*set->title)
		set->title = "Flame Graph";
	if (pd_options_int(opts, "width", 1200, 100, 1000000, &set->width, d) ||
	    pd_options_int(opts, "reverse", 0, 0, 1, &set->reverse, d) ||
	    pd_options_int(opts, "value", 0, 0, 1000000, &set->value_index, d) ||
	    pd_options_int(opts, "base", -1, 0, 1000000, &set->base_index, d))
		return PROFDATA_EINVAL;
	static const char *const site_names[] = { "alloc_bytes", "alloc_instances", "live_bytes", "live_instances" };
	const char *sites = pd_options_get(opts, "sites");
	set->sites = 0;
	for (int i = 0; sites && i < 4; i++)
		if (strcmp(sites, site_names[i]) == 0)
			set->sites = PD_SITE_ALLOC_BYTES + i;
	if (sites && !set->sites)
		return pd_out_error(w, PROFDATA_EINVAL, "flamegraph: sites=%s is not alloc_bytes, alloc_instances, "
		                    "live_bytes or live_instances", sites);
	set->min_width = 0.1;
	if (min && *min) {
		char *end;
		set->min_width = strtod(min, &end);
		if (*end || !(set->min_width >= 0) || set->min_width > 1e6)
			return pd_out_error(w, PROFDATA_EINVAL, "flamegraph: minwidth=%s is not a number of pixels", min);
	}
	return 0;
}

/* Text as XML character data; control characters (not allowed in XML 1.0) become '?'. */
static void add_escaped(svg_writer *sw, const char *s, size_t n)
{
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		const char *rep = NULL;
		unsigned char c = (unsigned char)s[i];
		if (c == '&')
			rep = "&amp;";
		else if (c == '<')
			rep = "&lt;";
		else if (c == '>')
			rep = "&gt;";
		else if (c == '"')
			rep = "&quot;";
		else if (c < 0x20 && c != '\t')
			rep = "?";
		if (rep) {
			pd_outbuf_add(&sw->out, s + from, i - from);
			pd_outbuf_str(&sw->out, rep);
			from = i + 1;
		}
	}
	pd_outbuf_add(&sw->out, s + from, n - from);
}

/* v in decimal, '-' first when negative. */
static void add_int(svg_writer *sw, int64_t v)
{
	unsigned char b[PD_DEC_MAX + 1];
	size_t neg = v < 0;
	b[0] = '-';
	size_t n = pd_put_dec(b + neg, neg ? 0 - (uint64_t)v : (uint64_t)v);
	pd_outbuf_add(&sw->out, (const char *)b, neg + n);
}

/*
 * v as printf's "%.Nf" writes it (N = `decimals`, 1 or 2), without
 * printf: a frame writes five such numbers. printf rounds v's exact
 * binary value half to even; v * 10^N is off from that value by far less
 * than 1e-6 below 1e9, so it rounds the same unless it lies that close to
 * a half, and then (rarely) printf decides.
 */
static void add_fixed(svg_writer *sw, double v, int decimals)
{
	double scale = decimals == 1 ? 10 : 100, t = v * scale;
	/* (no floor() or fabs(): clang calls them in libm, which the library does not link) */
	uint64_t whole = t >= 0 && t < 1e9 ? (uint64_t)t : 0;
	double frac = t - (double)whole;
	if (!(t >= 0 && t < 1e9) || signbit(v) || (frac - 0.5 < 1e-6 && 0.5 - frac < 1e-6)) {
		pd_outbuf_printf(&sw->out, "%.*f", decimals, v);
		return;
	}
	uint64_t r = whole + (frac > 0.5);
	unsigned char b[PD_DEC_MAX + 4];
	size_t n = pd_put_dec(b, r / (uint64_t)scale);
	b[n++] = '.';
	uint64_t rest = r % (uint64_t)scale;
	if (decimals == 2)
		b[n++] = (unsigned char)('0' + rest / 10);
	b[n++] = (unsigned char)('0' + rest % 10);
	pd_outbuf_add(&sw->out, (const char *)b, n);
}

/* 1234567 as "1,234,567", as flamegraph.pl writes counts. */
static void add_grouped(svg_writer *sw, int64_t v)
{
	unsigned char digits[PD_DEC_MAX];
	char out[48];
	size_t n = pd_put_dec(digits, v < 0 ? 0 - (uint64_t)v : (uint64_t)v), k = 0;
	if (v < 0)
		out[k++] = '-';
	for (size_t i = 0; i < n; i++) {
		out[k++] = (char)digits[i];
		if (n - i > 1 && (n - i - 1) % 3 == 0)
			out[k++] = ',';
	}
	pd_outbuf_add(&sw->out, out, k);
}

/* Deterministic by name: the same function has the same colour in every graph, its kind sets the hue. */
static void frame_colour(const char *name, size_t len, int kind, int *r, int *g, int *b)
{
	uint64_t h = pd_hash_bytes(name, len, 0);
	double v1 = (double)(h & 0xffff) / 65535.0, v2 = (double)((h >> 16) & 0xffff) / 65535.0;
	switch (kind) {
	case PD_FRAME_JVM:
		*r = 50 + (int)(60 * v1), *g = 180 + (int)(60 * v2), *b = 50 + (int)(60 * v1);
		break;
	case PD_FRAME_KERNEL:
		*r = 220 + (int)(35 * v1), *g = 130 + (int)(50 * v2), *b = 20 + (int)(40 * v1);
		break;
	case PD_FRAME_NATIVE:
		*r = 205 + (int)(50 * v2), *g = (int)(210 * v1), *b = (int)(55 * v2);
		break;
	default:
		*r = *g = *b = 170 + (int)(50 * v1);
	}
}

/* A frame's growth (value - base) magnitude. */
static uint64_t delta_of(const pd_call_node *n)
{
	return n->total >= n->other ? (uint64_t)n->total - (uint64_t)n->other : (uint64_t)n->other - (uint64_t)n->total;
}

/*
 * A differential frame: red as it grew, blue as it shrank, from pale to
 * full by its change against the largest change drawn; grey unchanged.
 */
static void delta_colour(const svg_writer *sw, const pd_call_node *n, int *r, int *g, int *b)
{
	uint64_t d = delta_of(n);
	int shade = sw->max_delta ? 210 - (int)(210.0 * (double)d / (double)sw->max_delta) : 210;
	if (d == 0)
		*r = *g = *b = 210;
	else if (n->total > n->other)
		*r = 255, *g = *b = shade;
	else
		*b = 255, *r = *g = shade;
}

static double px_per_value(const svg_writer *sw)
{
	int64_t total = sw->tree.nodes[0].total;
	return total > 0 ? (double)(sw->set.width - 2 * XPAD) / (double)total : 0;
}

/* Which frames are wide enough; what is left out is counted where it leaves. */
static void choose_frames(svg_writer *sw)
{
	double scale = px_per_value(sw);
	for (size_t k = 0; k < sw->tree.n; k++) {
		uint32_t i = sw->tree.order[k];
		const pd_call_node *n = &sw->tree.nodes[i];
		int parent_drawn = i == 0 || sw->drawn[n->parent];
		if (!parent_drawn || n->total <= 0)
			continue;
		if ((double)n->total * scale >= sw->set.min_width) {
			sw->drawn[i] = 1;
			sw->ndrawn++;
			if (delta_of(n) > sw->max_delta)
				sw->max_delta = delta_of(n);
			if (n->depth > sw->depth)
				sw->depth = n->depth;
		} else {
			sw->nomitted++;
			sw->omitted_value += n->total;
		}
	}
}

static void write_label(svg_writer *sw, const char *name, size_t len, double w)
{
	double room = (w - 6) / (FONT_SIZE * 0.59);
	if (room < 3)
		return;
	double fit = (double)(long long)room;
	if ((double)len <= fit) {
		add_escaped(sw, name, len);
		return;
	}
	size_t keep = (size_t)fit - 2;
	while (keep > 0 && ((unsigned char)name[keep] & 0xC0) == 0x80)
		keep--;  /* never cut a UTF-8 character */
	add_escaped(sw, name, keep);
	pd_outbuf_str(&sw->out, "..");
}

/*
 * <title>NAME (N unit, P%)</title>, flamegraph.pl's form; a differential
 * frame adds its base value and the change: "NAME (N unit, P%; base M,
 * +D, +Q%)", the change's share against the base (none when it is 0).
 */
static void write_title(svg_writer *sw, const pd_call_node *n, const char *name, size_t len)
{
	pd_outbuf_str(&sw->out, "<title>");
	add_escaped(sw, name, len);
	pd_outbuf_str(&sw->out, " (");
	add_grouped(sw, n->total);
	pd_outbuf_str(&sw->out, " ");
	add_escaped(sw, sw->unit, sw->unit_len);
	pd_outbuf_str(&sw->out, ", ");
	add_fixed(sw, 100.0 * (double)n->total / (double)sw->tree.nodes[0].total, 2);
	pd_outbuf_str(&sw->out, "%");
	if (sw->set.base_index >= 0) {
		int64_t d = (int64_t)((uint64_t)n->total - (uint64_t)n->other);
		pd_outbuf_str(&sw->out, "; base ");
		add_grouped(sw, n->other);
		pd_outbuf_str(&sw->out, d > 0 ? ", +" : ", ");
		add_grouped(sw, d);
		if (n->other != 0) {
			pd_outbuf_str(&sw->out, d > 0 ? ", +" : ", ");
			pd_outbuf_printf(&sw->out, "%.2f%%", 100.0 * (double)d / (double)(n->other < 0 ? -n->other : n->other));
		}
	}
	pd_outbuf_str(&sw->out, ")</title>");
}

static void write_frame(svg_writer *sw, const pd_call_node *n, double height)
{
	size_t len;
	const char *name = pd_call_node_name(&sw->tree, n, &len);
	double scale = px_per_value(sw), x = XPAD + (double)n->x * scale, w = (double)n->total * scale;
	double y = sw->set.reverse ? TOP_PAD + (double)n->depth * FRAME_HEIGHT
	                           : height - BOTTOM_PAD - (double)(n->depth + 1) * FRAME_HEIGHT;
	int r, g, b;
	if (sw->set.base_index >= 0)
		delta_colour(sw, n, &r, &g, &b);
	else
		frame_colour(name, len, n->name == PD_CALL_ROOT ? PD_FRAME_NATIVE : n->kind, &r, &g, &b);
	pd_outbuf_str(&sw->out, "<g class=\"f\" fg:x=\"");
	add_int(sw, n->x);
	pd_outbuf_str(&sw->out, "\" fg:w=\"");
	add_int(sw, n->total);
	pd_outbuf_str(&sw->out, "\" fg:d=\"");
	add_int(sw, n->depth);
	pd_outbuf_str(&sw->out, "\">");
	write_title(sw, n, name, len);
	pd_outbuf_str(&sw->out, "<rect x=\"");
	add_fixed(sw, x, 2);
	pd_outbuf_str(&sw->out, "\" y=\"");
	add_fixed(sw, y, 1);
	pd_outbuf_str(&sw->out, "\" width=\"");
	add_fixed(sw, w, 2);
	pd_outbuf_str(&sw->out, "\" height=\"");
	add_int(sw, FRAME_HEIGHT - 1);
	pd_outbuf_str(&sw->out, "\" fill=\"rgb(");
	add_int(sw, r);
	pd_outbuf_str(&sw->out, ",");
	add_int(sw, g);
	pd_outbuf_str(&sw->out, ",");
	add_int(sw, b);
	pd_outbuf_str(&sw->out, ")\" rx=\"2\" ry=\"2\"/><text x=\"");
	add_fixed(sw, x + 3, 2);
	pd_outbuf_str(&sw->out, "\" y=\"");
	add_fixed(sw, y + FRAME_HEIGHT - 5, 1);
	pd_outbuf_str(&sw->out, "\">");
	write_label(sw, name, len, w);
	pd_outbuf_str(&sw->out, "</text></g>\n");
}

static void write_head(svg_writer *sw, double height)
{
	long long w = sw->set.width;
	pd_outbuf_printf(&sw->out, "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" width=\"%lld\" height=\"%.0f\" "
	     "viewBox=\"0 0 %lld %.0f\" onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\" "
	     "xmlns:xlink=\"http://www.w3.org/1999/xlink\" xmlns:fg=\"http://profdata.dev/flamegraph\">\n",
	     w, height, w, height);
	pd_outbuf_str(&sw->out, "<!-- Flame graph written by libprofdata: click a frame to zoom, Search (or Ctrl-F) takes a "
	         "regular expression. -->\n<style type=\"text/css\">\n"
	         "text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
	         "#title { text-anchor: middle; font-size: 17px; }\n"
	         "#search, #unzoom { cursor: pointer; opacity: 0.1; }\n"
	         "#search:hover, #search.show, #unzoom:hover { opacity: 1; }\n"
	         "#matched { text-anchor: end; }\n.hide { display: none; }\n"
	         "g.f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; cursor: pointer; }\n"
	         "g.parent rect { opacity: 0.5; }\n</style>\n<script type=\"text/ecmascript\"><![CDATA[\n");
	for (size_t i = 0; i < pd_flamegraph_script_lines; i++) {
		pd_outbuf_str(&sw->out, pd_flamegraph_script[i]);
		pd_outbuf_str(&sw->out, "\n");
	}
	pd_outbuf_printf(&sw->out, "]]></script>\n<rect x=\"0\" y=\"0\" width=\"%lld\" height=\"%.0f\" fill=\"rgb(248,248,240)\"/>\n"
	     "<text id=\"title\" x=\"%.1f\" y=\"24\">", w, height, (double)w / 2);
	add_escaped(sw, sw->set.title, strlen(sw->set.title));
	pd_outbuf_printf(&sw->out, "</text>\n<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
	     "<text id=\"search\" x=\"%lld\" y=\"24\">Search</text>\n"
	     "<text id=\"matched\" class=\"hide\" x=\"%lld\" y=\"%.0f\"> </text>\n"
	     "<text id=\"details\" x=\"%d\" y=\"%.0f\"> </text>\n",
	     XPAD, w - XPAD - 100, w - XPAD, height - 17, XPAD, height - 17);
}

static void write_omitted(svg_writer *sw, double height)
{
	if (!sw->nomitted)
		return;
	pd_outbuf_printf(&sw->out, "<text id=\"omitted\" x=\"%d\" y=\"%.0f\">%zu frames narrower than %g px left out "
	     "(%.2f%% of the total, drawn in their callers)</text>\n",
	     XPAD, height - 3, sw->nomitted, sw->set.min_width,
	     100.0 * (double)sw->omitted_value / (double)sw->tree.nodes[0].total);
}

static int write_svg(svg_writer *sw)
{
	sw->drawn = calloc(sw->tree.n, 1);
	if (!sw->drawn)
		return pd_out_error(sw->w, PROFDATA_ENOMEM, "flamegraph: out of memory");
	choose_frames(sw);
	double height = (double)(sw->depth + 1) * FRAME_HEIGHT + TOP_PAD + BOTTOM_PAD + (sw->nomitted ? 8 : 0);
	write_head(sw, height);
	pd_outbuf_printf(&sw->out, "<g id=\"frames\" fg:total=\"%" PRId64 "\" fg:count=\"%zu\" fg:reverse=\"%lld\">\n",
	     sw->tree.nodes[0].total, sw->ndrawn, sw->set.reverse);
	for (size_t k = 0; k < sw->tree.n && sw->out.rc == 0; k++)
		if (sw->drawn[sw->tree.order[k]])
			write_frame(sw, &sw->tree.nodes[sw->tree.order[k]], height);
	pd_outbuf_str(&sw->out, "</g>\n");
	if (sw->tree.nodes[0].total <= 0)
		pd_outbuf_printf(&sw->out, "<text x=\"%lld\" y=\"%.0f\" text-anchor=\"middle\">No samples</text>\n",
		     sw->set.width / 2, height / 2);
	write_omitted(sw, height);
	pd_outbuf_str(&sw->out, "</svg>\n");
	return pd_outbuf_finish(&sw->out);
}

/* The tree of frames: of allocation sites, or of the samples' value (and a differential graph's base value). */
static int build_tree(svg_writer *sw)
{
	pd_diag *d = pd_out_diag(sw->w);
	if (sw->set.sites) {
		int bytes = sw->set.sites == PD_SITE_ALLOC_BYTES || sw->set.sites == PD_SITE_LIVE_BYTES;
		sw->unit = bytes ? "bytes" : "instances";
		sw->unit_len = strlen(sw->unit);
		return pd_call_tree_build_sites(sw->p, sw->set.sites, &sw->tree, d, "flamegraph");
	}
	sw->unit = pd_sample_unit(sw->p, (size_t)sw->set.value_index, &sw->unit_len);
	int rc = pd_call_tree_build_visible(sw->p, (size_t)sw->set.value_index, (double)(sw->set.width - 2 * XPAD),
	                                    sw->set.min_width, &sw->tree, d, "flamegraph");
	if (rc == 0 && sw->set.base_index >= 0)
		rc = pd_call_tree_add_other(sw->p, (size_t)sw->set.base_index, &sw->tree, d, "flamegraph");
	return rc;
}

static int flamegraph_write_model(const profdata_profile *p, profdata_writer *w, const pd_options *opts)
{
	svg_writer sw;
	size_t ntypes = profdata_profile_count(p, PROFDATA_TABLE_SAMPLE_TYPES);
	memset(&sw, 0, sizeof sw);
	sw.p = p;
	sw.w = w;
	sw.out.w = w;
	if (read_settings(opts, &sw.set, w))
		return PROFDATA_EINVAL;
	/* A profile with allocation sites and no samples (HPROF heap=sites) draws its allocations. */
	if (!sw.set.sites && !profdata_profile_count(p, PROFDATA_TABLE_SAMPLES) &&
	    profdata_profile_count(p, PROFDATA_TABLE_ALLOC_SITES) && !pd_options_get(opts, "value"))
		sw.set.sites = PD_SITE_ALLOC_BYTES;
	int refused = sw.set.sites ? 0 : pd_need_samples(p, w, "flamegraph");
	if (refused < 0)
		return refused;
	if (sw.set.sites)
		sw.set.value_index = 0;
	else if (!pd_options_get(opts, "value"))
		sw.set.value_index = (long long)pd_sample_count_index(p);
	else if ((size_t)sw.set.value_index >= (ntypes ? ntypes : 1))
		return pd_out_error(w, PROFDATA_EINVAL, "flamegraph: value=%lld, but the profile has %zu sample types",
		                    sw.set.value_index, ntypes);
	else if (sw.set.base_index >= 0 && (sw.set.sites || (size_t)sw.set.base_index >= ntypes))
		return pd_out_error(w, PROFDATA_EINVAL, "flamegraph: base=%lld, but the profile has %zu sample types",
		                    sw.set.base_index, ntypes);
	int rc = build_tree(&sw);
	if (rc == 0)
		rc = write_svg(&sw);
	pd_outbuf_finish(&sw.out);  /* frees the buffer when write_svg stopped early */
	pd_call_tree_free(&sw.tree);
	free(sw.drawn);
	return rc;
}

const struct profdata_format pd_format_flamegraph = {
	.name = "flamegraph",
	.description = "interactive SVG flame graph (as flamegraph.pl draws)",
	.extensions = (const char *const[]){ ".svg", NULL },
	.write_model = flamegraph_write_model,
	.write_options = (const char *const[]){ "title", "width", "reverse", "minwidth", "value", "sites", "base",
	                                        NULL },
	.write_transforms = pd_transforms_stacks,
};
